#include "loading/SourceLocations.h"

#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Instruction.h>

#include <algorithm>
#include <filesystem>

namespace cairn::engine {

namespace {

bool isSystemHeader(llvm::StringRef file) {
  return file.startswith("/usr/include/") || file.startswith("/usr/local/include/") || file.startswith("/usr/lib/");
}

// Code that a system header's inline function put into the program (glibc's fortified memcpy
// wrapper, say) stands at the line that called it: its errors are that line's, as the program
// sees them.
const llvm::DILocation *programLocation(const llvm::DILocation *loc) {
  while (loc->getInlinedAt() && isSystemHeader(loc->getFilename()))
    loc = loc->getInlinedAt();
  return loc;
}

} // namespace

SourceLocations::SourceLocations(Program &p) : p_(p) {
  p_.locations.push_back({});
  p_.files.push_back("");
}

uint32_t SourceLocations::location(const llvm::Instruction &inst, bool user) {
  return location(inst.getDebugLoc().get(), user);
}

uint32_t SourceLocations::distinctLocation(uint32_t shared) {
  if (shared == 0)
    return 0;
  p_.locations.push_back(p_.locations[shared]);
  return uint32_t(p_.locations.size() - 1);
}

uint32_t SourceLocations::location(const llvm::DILocation *at, bool user) {
  if (!at)
    return 0;
  const llvm::DILocation *dl = programLocation(at);
  std::string file = dl->getFilename().str();
  // clang names a file relative to its directory when the two share a prefix (a source under
  // /tmp compiled from a directory under /tmp): the full path, whatever the compiler's cwd was.
  if (!file.empty() && file[0] != '/' && !dl->getDirectory().empty())
    file = (std::filesystem::path(dl->getDirectory().str()) / file).lexically_normal().string();
  auto [fit, freshFile] = fileIndex_.try_emplace(file, uint32_t(p_.files.size()));
  if (freshFile)
    p_.files.push_back(file);
  uint64_t key = (uint64_t(fit->second) << 40) | (uint64_t(dl->getLine()) << 16) |
                 std::min<unsigned>(dl->getColumn(), 0xffff);
  auto [lit, freshLoc] = locationIndex_.try_emplace(key, uint32_t(p_.locations.size()));
  if (freshLoc)
    p_.locations.push_back({fit->second, dl->getLine(), dl->getColumn()});
  if (user && dl->getLine())
    userLines_.insert((uint64_t(fit->second) << 32) | dl->getLine());
  return lit->second;
}

} // namespace cairn::engine
