// Where a source line's machine code is in a native replay binary (its DWARF line table).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cairn::engine {

// The link-time addresses of the rows of `binary`'s line table at `file`:`line`, each the first
// instruction of a stretch of that line's code. `file` is the engine's name for the source (as
// clang got it): it names the same file as a line table entry when one path ends with the other.
// Throws std::runtime_error when the binary cannot be read.
std::vector<uint64_t> lineAddresses(const std::string &binary, const std::string &file,
                                    unsigned line);

// Whether the two paths name the same file as described above.
bool sameSourceFile(const std::string &a, const std::string &b);

} // namespace cairn::engine
