// The .ktest format: round trips, the exact bytes KLEE's tools expect, rejection of every
// malformed input (never a crash or a huge allocation), files on disk, and the ktest-tool listing.
#include "cairn/ktest/KTest.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <stdexcept>
#include <unistd.h>

using namespace cairn;

namespace {

std::vector<uint8_t> toBytes(std::string_view s) { return {s.begin(), s.end()}; }

KTestObject object(std::string name, std::vector<uint8_t> bytes) {
  return KTestObject{std::move(name), std::move(bytes)};
}

KTest sampleTest() {
  KTest t;
  t.args = {"prog.bc", "--flag", "x"};
  t.symArgvs = 2;
  t.symArgvLen = 7;
  t.objects.push_back(object("a", {1, 0, 0, 0}));
  t.objects.push_back(object("model_version", {1, 0, 0, 0}));
  t.objects.push_back(object("buf", toBytes(std::string_view("hi\0there", 8))));
  t.objects.push_back(object("", {}));
  return t;
}

KTest roundTrip(const KTest &t) { return parseKTest(serializeKTest(t)); }

// Asserts `f` throws std::runtime_error whose message contains `needle`.
template <typename F> void expectError(F &&f, const std::string &needle) {
  try {
    f();
    ADD_FAILURE() << "no exception; expected one mentioning '" << needle << "'";
  } catch (const std::runtime_error &e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos)
        << "message: " << e.what() << "\nexpected to contain: " << needle;
  }
}

std::string u32be(uint32_t v) {
  std::string s;
  s.push_back(static_cast<char>(v >> 24));
  s.push_back(static_cast<char>(v >> 16));
  s.push_back(static_cast<char>(v >> 8));
  s.push_back(static_cast<char>(v));
  return s;
}

class TempDir {
public:
  TempDir() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "cairn-ktest-XXXXXX").string();
    if (!::mkdtemp(pattern.data()))
      throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string file(const std::string &name) const { return (path_ / name).string(); }
  const std::filesystem::path &path() const { return path_; }

private:
  std::filesystem::path path_;
};

std::string slurp(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

} // namespace

// ---- Round trips ------------------------------------------------------------------------------

TEST(KTestRoundTrip, Empty) {
  KTest t;
  KTest back = roundTrip(t);
  EXPECT_EQ(back, t);
  EXPECT_EQ(back.version, 3u);
  EXPECT_TRUE(back.args.empty());
  EXPECT_TRUE(back.objects.empty());
}

TEST(KTestRoundTrip, ArgsAndSymArgv) {
  KTest t;
  t.args = {"/path/to/prog.bc", "", "with space", std::string("nul\0inside", 10)};
  t.symArgvs = 3;
  t.symArgvLen = 16;
  EXPECT_EQ(roundTrip(t), t);
}

TEST(KTestRoundTrip, ManyObjects) {
  KTest t = sampleTest();
  for (int i = 0; i < 1000; ++i)
    t.objects.push_back(object("obj" + std::to_string(i),
                               std::vector<uint8_t>(static_cast<size_t>(i % 17),
                                                    static_cast<uint8_t>(i))));
  KTest back = roundTrip(t);
  EXPECT_EQ(back, t);
  ASSERT_EQ(back.objects.size(), 1004u);
  EXPECT_EQ(back.objects[1003].name, "obj999");
}

TEST(KTestRoundTrip, BinaryNames) {
  KTest t;
  std::string all;
  for (int c = 0; c < 256; ++c)
    all.push_back(static_cast<char>(c));
  t.objects.push_back(object(all, {0xff}));
  t.objects.push_back(object(std::string("\0\0", 2), {}));
  t.objects.push_back(object("KTEST", toBytes("BOUT\n")));
  EXPECT_EQ(roundTrip(t), t);
}

TEST(KTestRoundTrip, BigObject) {
  KTest t;
  std::vector<uint8_t> big(3 * 1024 * 1024 + 7);
  std::mt19937 rng(42);
  for (uint8_t &b : big)
    b = static_cast<uint8_t>(rng());
  t.objects.push_back(object("big", big));
  t.objects.push_back(object("after", {9}));
  KTest back = roundTrip(t);
  EXPECT_EQ(back, t);
}

TEST(KTestRoundTrip, OlderVersionsOmitOrKeepSymArgv) {
  KTest v1;
  v1.version = 1;
  v1.args = {"p"};
  v1.objects.push_back(object("x", {7}));
  std::string bytes = serializeKTest(v1);
  // No symArgvs/symArgvLen words in version 1.
  EXPECT_EQ(bytes.size(), 5u + 4 + 4 + (4 + 1) + 4 + (4 + 1 + 4 + 1));
  EXPECT_EQ(parseKTest(bytes), v1);

  KTest v2 = v1;
  v2.version = 2;
  v2.symArgvs = 1;
  v2.symArgvLen = 4;
  EXPECT_EQ(serializeKTest(v2).size(), bytes.size() + 8);
  EXPECT_EQ(roundTrip(v2), v2);
}

TEST(KTestRoundTrip, RefusesToWriteNewerVersion) {
  KTest t;
  t.version = 4;
  expectError([&] { serializeKTest(t); }, "version 4");
}

// ---- Exact encoding ---------------------------------------------------------------------------

TEST(KTestEncoding, ByteExactSmallFile) {
  KTest t;
  t.args = {"ab", "c"};
  t.symArgvs = 1;
  t.symArgvLen = 0x01020304;
  t.objects.push_back(object("x", {0x01, 0x00, 0x00, 0x00}));
  t.objects.push_back(object("yz", {0xff}));

  // Written by hand from the format description.
  const unsigned char expected[] = {
      'K', 'T', 'E', 'S', 'T',      // magic
      0x00, 0x00, 0x00, 0x03,       // version 3
      0x00, 0x00, 0x00, 0x02,       // two args
      0x00, 0x00, 0x00, 0x02, 'a', 'b', //
      0x00, 0x00, 0x00, 0x01, 'c',  //
      0x00, 0x00, 0x00, 0x01,       // symArgvs
      0x01, 0x02, 0x03, 0x04,       // symArgvLen
      0x00, 0x00, 0x00, 0x02,       // two objects
      0x00, 0x00, 0x00, 0x01, 'x',  // name "x"
      0x00, 0x00, 0x00, 0x04, 0x01, 0x00, 0x00, 0x00, // 4 bytes
      0x00, 0x00, 0x00, 0x02, 'y', 'z',               // name "yz"
      0x00, 0x00, 0x00, 0x01, 0xff,                   // 1 byte
  };
  std::string want(reinterpret_cast<const char *>(expected), sizeof expected);
  EXPECT_EQ(serializeKTest(t), want);
  EXPECT_EQ(parseKTest(want), t);
}

TEST(KTestEncoding, LegacyBoutMagic) {
  std::string bytes = serializeKTest(sampleTest());
  std::string legacy = "BOUT\n" + bytes.substr(5);
  EXPECT_EQ(parseKTest(legacy), sampleTest());

  // A version-1 BOUT file, as the oldest KLEE wrote: no symArgv words.
  std::string v1 = "BOUT\n" + u32be(1) + u32be(1) + u32be(1) + "p" + u32be(1) + u32be(1) + "n" +
                   u32be(2) + "\x05\x06";
  KTest t = parseKTest(v1);
  EXPECT_EQ(t.version, 1u);
  EXPECT_EQ(t.args, std::vector<std::string>{"p"});
  EXPECT_EQ(t.symArgvs, 0u);
  ASSERT_EQ(t.objects.size(), 1u);
  EXPECT_EQ(t.objects[0].name, "n");
  EXPECT_EQ(t.objects[0].bytes, (std::vector<uint8_t>{5, 6}));
}

// ---- Malformed input --------------------------------------------------------------------------

TEST(KTestMalformed, EveryTruncationThrows) {
  std::string bytes = serializeKTest(sampleTest());
  for (size_t len = 0; len < bytes.size(); ++len) {
    SCOPED_TRACE("prefix length " + std::to_string(len));
    EXPECT_THROW(parseKTest(std::string_view(bytes).substr(0, len)), std::runtime_error);
  }
  EXPECT_NO_THROW(parseKTest(bytes));
}

TEST(KTestMalformed, EveryTruncationOfVersion1Throws) {
  KTest t = sampleTest();
  t.version = 1;
  t.symArgvs = t.symArgvLen = 0;
  std::string bytes = serializeKTest(t);
  for (size_t len = 0; len < bytes.size(); ++len)
    EXPECT_THROW(parseKTest(std::string_view(bytes).substr(0, len)), std::runtime_error)
        << "prefix length " << len;
}

TEST(KTestMalformed, TruncationMessages) {
  std::string bytes = serializeKTest(sampleTest());
  expectError([&] { parseKTest(""); }, "truncated");
  expectError([&] { parseKTest(std::string_view(bytes).substr(0, 7)); }, "version");
  expectError([&] { parseKTest(std::string_view(bytes).substr(0, bytes.size() - 1)); },
              "object data");
}

TEST(KTestMalformed, BadMagic) {
  std::string bytes = serializeKTest(sampleTest());
  std::string bad = bytes;
  bad[0] = 'X';
  expectError([&] { parseKTest(bad); }, "bad magic");
  expectError([&] { parseKTest("BOUT\r" + bytes.substr(5)); }, "not a KTEST file");
  expectError([&] { parseKTest("ktest" + bytes.substr(5)); }, "bad magic");
  expectError([&] { parseKTest(std::string(64, '\0')); }, "bad magic");
}

TEST(KTestMalformed, UnsupportedVersion) {
  std::string bytes = serializeKTest(sampleTest());
  std::string v4 = "KTEST" + u32be(4) + bytes.substr(9);
  expectError([&] { parseKTest(v4); }, "unsupported version 4");
  expectError([&] { parseKTest("KTEST" + u32be(0xffffffffu) + bytes.substr(9)); },
              "unsupported version 4294967295");
}

TEST(KTestMalformed, LengthsLargerThanInput) {
  std::string head = "KTEST" + u32be(3);
  // Argument count far beyond the input (would be a 64 GiB reserve if trusted).
  expectError([&] { parseKTest(head + u32be(0xffffffffu)); }, "argument count 4294967295");
  // One argument whose length exceeds what follows.
  expectError([&] { parseKTest(head + u32be(1) + u32be(0xfffffff0u) + "abc"); },
              "argument length 4294967280");
  // Object count beyond the input.
  std::string noArgs = head + u32be(0) + u32be(0) + u32be(0);
  expectError([&] { parseKTest(noArgs + u32be(0x80000000u)); }, "object count 2147483648");
  // Exactly enough bytes for the count check but not for the records' contents.
  expectError([&] { parseKTest(noArgs + u32be(1) + u32be(100) + "abcd"); },
              "object name length 100");
  // Object data length beyond the input.
  expectError(
      [&] { parseKTest(noArgs + u32be(1) + u32be(1) + "n" + u32be(0xffffffffu) + "zz"); },
      "object data length 4294967295");
  // Off by one: one byte fewer than the length says.
  expectError([&] { parseKTest(noArgs + u32be(1) + u32be(1) + "n" + u32be(3) + "zz"); },
              "object data length 3");
}

TEST(KTestMalformed, TrailingBytes) {
  std::string bytes = serializeKTest(sampleTest());
  expectError([&] { parseKTest(bytes + "x"); }, "1 unexpected bytes after the last object");
}

TEST(KTestMalformed, RandomCorruptionNeverCrashes) {
  std::string good = serializeKTest(sampleTest());
  std::mt19937 rng(7);
  for (int iter = 0; iter < 20000; ++iter) {
    std::string bad = good;
    int flips = 1 + static_cast<int>(rng() % 4);
    for (int f = 0; f < flips; ++f)
      bad[rng() % bad.size()] = static_cast<char>(rng());
    if (rng() % 3 == 0)
      bad.resize(rng() % bad.size());
    try {
      (void)parseKTest(bad);
    } catch (const std::runtime_error &) {
    }
  }
}

// ---- Files ------------------------------------------------------------------------------------

TEST(KTestFile, WriteThenRead) {
  TempDir dir;
  std::string path = dir.file("test000001.ktest");
  KTest t = sampleTest();
  writeKTestFile(path, t);
  EXPECT_EQ(slurp(path), serializeKTest(t));
  EXPECT_EQ(readKTestFile(path), t);

  // Overwriting replaces the file whole, and leaves no temporary files behind.
  KTest other;
  other.objects.push_back(object("z", {1, 2, 3}));
  writeKTestFile(path, other);
  EXPECT_EQ(readKTestFile(path), other);
  size_t entries = 0;
  for ([[maybe_unused]] auto &e : std::filesystem::directory_iterator(dir.path()))
    ++entries;
  EXPECT_EQ(entries, 1u);
}

TEST(KTestFile, UnwritablePathNamesPathAndReason) {
  TempDir dir;
  std::string path = dir.file("no/such/dir/test.ktest");
  try {
    writeKTestFile(path, sampleTest());
    FAIL() << "no exception";
  } catch (const std::runtime_error &e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find(path), std::string::npos) << msg;
    EXPECT_NE(msg.find("No such file or directory"), std::string::npos) << msg;
  }

  // A directory that cannot be written (unless running as root, which ignores permissions).
  if (::geteuid() != 0) {
    std::filesystem::path ro = dir.path() / "ro";
    std::filesystem::create_directory(ro);
    std::filesystem::permissions(ro, std::filesystem::perms::owner_read |
                                         std::filesystem::perms::owner_exec);
    std::string roPath = (ro / "t.ktest").string();
    expectError([&] { writeKTestFile(roPath, sampleTest()); }, "Permission denied");
    expectError([&] { writeKTestFile(roPath, sampleTest()); }, roPath);
    std::filesystem::permissions(ro, std::filesystem::perms::owner_all);
  }

  // Renaming onto a directory fails; the temporary file is removed again.
  std::filesystem::create_directory(dir.path() / "adir");
  std::filesystem::create_directory(dir.path() / "adir" / "sub");
  expectError([&] { writeKTestFile(dir.file("adir"), sampleTest()); }, dir.file("adir"));
  size_t entries = 0;
  for ([[maybe_unused]] auto &e : std::filesystem::directory_iterator(dir.path()))
    ++entries;
  EXPECT_EQ(entries, 1u); // only adir
}

TEST(KTestFile, ReadErrorsNamePath) {
  TempDir dir;
  std::string missing = dir.file("missing.ktest");
  expectError([&] { readKTestFile(missing); }, missing);
  expectError([&] { readKTestFile(missing); }, "No such file or directory");

  std::string garbage = dir.file("garbage.ktest");
  std::ofstream(garbage, std::ios::binary) << "not a ktest file at all";
  expectError([&] { readKTestFile(garbage); }, garbage);
  expectError([&] { readKTestFile(garbage); }, "bad magic");

  std::string truncated = dir.file("truncated.ktest");
  std::string bytes = serializeKTest(sampleTest());
  std::ofstream(truncated, std::ios::binary) << bytes.substr(0, bytes.size() - 3);
  expectError([&] { readKTestFile(truncated); }, "truncated.ktest");
}

// ---- Listing ----------------------------------------------------------------------------------

TEST(KTestFormat, IntObjectAndTextObject) {
  KTest t;
  t.args = {"a", "b"};
  t.objects.push_back(object("x", {0x01, 0x00, 0x00, 0x00}));
  t.objects.push_back(object("s", toBytes("hi!")));
  EXPECT_EQ(formatKTest(t, "klee-last/test000001.ktest"),
            "ktest file : 'klee-last/test000001.ktest'\n"
            "args       : ['a', 'b']\n"
            "num objects: 2\n"
            "object 0: name: 'x'\n"
            "object 0: size: 4\n"
            "object 0: data: b'\\x01\\x00\\x00\\x00'\n"
            "object 0: hex : 0x01000000\n"
            "object 0: int : 1\n"
            "object 0: uint: 1\n"
            "object 0: text: ....\n"
            "object 1: name: 's'\n"
            "object 1: size: 3\n"
            "object 1: data: b'hi!'\n"
            "object 1: hex : 0x686921\n"
            "object 1: text: hi!\n");
}

TEST(KTestFormat, NegativeAndWideIntegers) {
  KTest t;
  t.objects.push_back(object("a", {0x00, 0x00, 0x00, 0x80}));
  t.objects.push_back(object("c", {0xff}));
  t.objects.push_back(object("s", {0xfe, 0xff}));
  t.objects.push_back(object("l", {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}));
  std::string out = formatKTest(t, "t.ktest");
  EXPECT_NE(out.find("object 0: int : -2147483648\nobject 0: uint: 2147483648\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("object 1: int : -1\nobject 1: uint: 255\n"), std::string::npos) << out;
  EXPECT_NE(out.find("object 2: int : -2\nobject 2: uint: 65534\n"), std::string::npos) << out;
  EXPECT_NE(out.find("object 3: int : -1\nobject 3: uint: 18446744073709551615\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("object 3: hex : 0xffffffffffffffff\n"), std::string::npos) << out;
}

TEST(KTestFormat, PythonStyleQuoting) {
  KTest t;
  t.args = {"it's", "say \"hi\"", "both ' and \"", "tab\there", "caf\xc3\xa9", "\xff"};
  t.objects.push_back(object("q'", toBytes("it's\\\n\r\t\x7f\x80")));
  t.objects.push_back(object("e", {}));
  std::string out = formatKTest(t, "f.ktest");
  EXPECT_NE(out.find("args       : [\"it's\", 'say \"hi\"', 'both \\' and \"', 'tab\\there', "
                     "'caf\xc3\xa9', '\\xff']\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("object 0: name: \"q'\"\n"), std::string::npos) << out;
  EXPECT_NE(out.find("object 0: data: b\"it's\\\\\\n\\r\\t\\x7f\\x80\"\n"), std::string::npos)
      << out;
  EXPECT_NE(out.find("object 0: text: it's\\.....\n"), std::string::npos) << out;
  // Empty object: no int lines, empty hex and text.
  EXPECT_NE(out.find("object 1: size: 0\n"
                     "object 1: data: b''\n"
                     "object 1: hex : 0x\n"
                     "object 1: text: \n"),
            std::string::npos)
      << out;
}

TEST(KTestFormat, NoObjects) {
  EXPECT_EQ(formatKTest(KTest{}, "empty.ktest"),
            "ktest file : 'empty.ktest'\n"
            "args       : []\n"
            "num objects: 0\n");
}
