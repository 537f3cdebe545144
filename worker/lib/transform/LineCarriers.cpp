#include "transform/LineCarriers.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>

namespace cairn::engine::transform {

void keepLine(llvm::Instruction &i, const std::function<bool(const llvm::Instruction &)> &goes) {
  const llvm::DebugLoc &loc = i.getDebugLoc();
  if (!loc || loc.getLine() == 0)
    return;
  for (const llvm::Instruction &other : *i.getParent())
    if (&other != &i && !llvm::isa<llvm::DbgInfoIntrinsic>(other) && other.getDebugLoc() &&
        other.getDebugLoc().getLine() == loc.getLine() && !goes(other))
      return;
  auto *carrier = new llvm::FreezeInst(llvm::ConstantInt::getFalse(i.getContext()), "line", &i);
  carrier->setDebugLoc(loc);
}

} // namespace cairn::engine::transform
