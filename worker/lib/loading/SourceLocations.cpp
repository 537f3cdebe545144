#include "loading/SourceLocations.h"

#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Instruction.h>

#include <algorithm>

namespace cairn::engine {

SourceLocations::SourceLocations(Program &p) : p_(p) {
  p_.locations.push_back({});
  p_.files.push_back("");
}

uint32_t SourceLocations::location(const llvm::Instruction &inst, bool user) {
  const llvm::DebugLoc &dl = inst.getDebugLoc();
  if (!dl)
    return 0;
  std::string file = dl->getFilename().str();
  auto [fit, freshFile] = fileIndex_.try_emplace(file, uint32_t(p_.files.size()));
  if (freshFile)
    p_.files.push_back(file);
  uint64_t key = (uint64_t(fit->second) << 40) | (uint64_t(dl.getLine()) << 16) |
                 std::min<unsigned>(dl.getCol(), 0xffff);
  auto [lit, freshLoc] = locationIndex_.try_emplace(key, uint32_t(p_.locations.size()));
  if (freshLoc)
    p_.locations.push_back({fit->second, dl.getLine(), dl.getCol()});
  if (user && dl.getLine())
    userLines_.insert((uint64_t(fit->second) << 32) | dl.getLine());
  return lit->second;
}

} // namespace cairn::engine
