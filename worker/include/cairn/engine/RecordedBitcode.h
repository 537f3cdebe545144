// Whole-program bitcode of natively built programs: `cairn cc` compiles every C source twice,
// natively and to bitcode, and records the bitcode file's path in a section of the native
// object. The linker gathers those sections into the executable (and archives keep them in
// their members), so an executable names the bitcode of everything it was linked from.
#pragma once

#include <string>
#include <vector>

namespace cairn::engine {

// The section `cairn cc` adds to an object: the absolute paths of bitcode files, one a line.
inline constexpr const char *kBitcodeSection = ".cairn_bitcode";
// The section `cairn cc` adds to an executable: the bitcode of every member of the archives it
// was linked with. A native link takes only the members it needs, and unoptimised bitcode needs
// more (a function the native build inlined, its member never linked), so the loader links
// members the way a linker does: whole, when they define a symbol still missing.
inline constexpr const char *kArchiveBitcodeSection = ".cairn_bitcode_archives";

// Whether `path` is a native file (ELF object, executable, shared object, or an archive).
bool isNativeBinary(const std::string &path);

// The bitcode files a native file names, in link order, each once; throws LoadError when it
// cannot be read.
std::vector<std::string> recordedBitcodeFiles(const std::string &path,
                                              const char *section = kBitcodeSection);

} // namespace cairn::engine
