// KLEE's test-case file format (.ktest), version 3: the engine writes one file per generated test,
// `cairn ktest` prints them the way KLEE's ktest-tool does, and KLEE's own tools (klee-replay,
// ktest-tool) read what we write.
//
// Layout (every integer a big-endian uint32):
//   magic     "KTEST" (5 bytes; the legacy "BOUT\n" is accepted when reading)
//   version   1..3 (0 is read as well, as KLEE does)
//   numArgs, then per argument: length, bytes
//   symArgvs, symArgvLen                      (only when version >= 2)
//   numObjects, then per object: nameLength, name bytes, numBytes, bytes
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cairn {

struct KTestObject {
  std::string name;           // any bytes; KLEE's objects are named by klee_make_symbolic
  std::vector<uint8_t> bytes; // the object's concrete contents

  bool operator==(const KTestObject &) const = default;
};

struct KTest {
  static constexpr uint32_t kCurrentVersion = 3;

  uint32_t version = kCurrentVersion;
  std::vector<std::string> args; // the program's argv as run
  uint32_t symArgvs = 0, symArgvLen = 0;
  std::vector<KTestObject> objects;

  bool operator==(const KTest &) const = default;
};

// The file's bytes. The struct's version decides whether symArgvs/symArgvLen are written
// (version >= 2). Throws std::runtime_error for a version above 3 (no reader would accept the
// file) and for a string or object longer than a uint32 can describe.
std::string serializeKTest(const KTest &test);

// Parses a whole file. Throws std::runtime_error with a message naming the problem and its byte
// offset for a bad magic, a version above 3, a file that ends early, a length or count larger
// than the rest of the input could hold, and bytes after the last object. Never allocates from
// a length it has not checked against the input.
KTest parseKTest(std::string_view bytes);

// Writes atomically: the bytes go to a temporary file in the same directory, which is then
// renamed over `path` (readers see the old file or the whole new one, never a partial file).
// Throws std::runtime_error naming the path and the system's reason on failure.
void writeKTestFile(const std::string &path, const KTest &test);

// Reads and parses a file. Throws std::runtime_error naming the path: the system's reason when
// it cannot be read, the parse error when it is malformed.
KTest readKTestFile(const std::string &path);

// The listing `cairn ktest` prints, laid out like KLEE's ktest-tool:
//   ktest file : 'NAME'
//   args       : ['a', 'b']
//   num objects: N
//   object 0: name: 'x'
//   object 0: size: 4
//   object 0: data: b'\x01\x00\x00\x00'      (Python bytes literal)
//   object 0: hex : 0x01000000
//   object 0: int : 1                        (sizes 1, 2, 4, 8 only; little-endian, signed)
//   object 0: uint: 1                        (likewise, unsigned)
//   object 0: text: ....                     (printable ASCII as is, anything else '.')
// Every line ends in '\n'. Strings (file name, args, object names) are quoted like Python's
// repr of a str: printable ASCII and valid UTF-8 as is, other bytes as \xNN.
std::string formatKTest(const KTest &test, const std::string &fileName);

} // namespace cairn
