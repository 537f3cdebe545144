#include "transform/MeldCost.h"

#include "transform/UseWalk.h"

#include <llvm/IR/Instructions.h>
#include <llvm/IR/Operator.h>

namespace cairn::engine::transform {

namespace {

// Whether `u` (a user of `v`) stores a pointer made from `v`, or passes `v` on to a value that
// may become one.
UseStep towardsAStoredPointer(const llvm::Value *v, const llvm::User *u) {
  if (const auto *store = llvm::dyn_cast<llvm::StoreInst>(u))
    return store->getValueOperand() == v && v->getType()->isPointerTy() ? UseStep::Stop : UseStep::Ignore;
  if (llvm::isa<llvm::CmpInst>(u) || llvm::isa<llvm::LoadInst>(u) || llvm::isa<llvm::CallBase>(u))
    return UseStep::Ignore; // a decision, a value read, or what a callee does: not followed
  if (llvm::isa<llvm::BinaryOperator>(u) || llvm::isa<llvm::CastInst>(u) || llvm::isa<llvm::GEPOperator>(u) ||
      llvm::isa<llvm::SelectInst>(u) || llvm::isa<llvm::PHINode>(u) || llvm::isa<llvm::FreezeInst>(u))
    return UseStep::Follow;
  return UseStep::Ignore;
}

} // namespace

bool leavesSymbolicPointerInMemory(const llvm::BasicBlock &from, const std::vector<llvm::BasicBlock *> &sides,
                                   const llvm::BasicBlock &join) {
  // A side's store: melded, it writes one of two values (the other side's, or what was there).
  // Where those are pointers, that is the case itself; other values are not followed through
  // memory.
  for (const llvm::BasicBlock *side : sides)
    for (const llvm::Instruction &i : *side)
      if (const auto *store = llvm::dyn_cast<llvm::StoreInst>(&i);
          store && store->getValueOperand()->getType()->isPointerTy())
        return true;
  std::vector<const llvm::Value *> differing;
  // The join's phis over the edges the meld replaces: from each side, and from `from` itself
  // for an if-then's missing side.
  std::vector<const llvm::BasicBlock *> edges(sides.begin(), sides.end());
  if (sides.size() == 1)
    edges.push_back(&from);
  for (const llvm::PHINode &phi : join.phis()) {
    const llvm::Value *first = nullptr;
    bool differs = false;
    for (const llvm::BasicBlock *edge : edges) {
      const int index = phi.getBasicBlockIndex(edge);
      if (index < 0)
        continue;
      const llvm::Value *incoming = phi.getIncomingValue(index);
      differs |= first && incoming != first;
      first = first ? first : incoming;
    }
    if (differs)
      differing.push_back(&phi);
  }
  return reachesUse(std::move(differing), towardsAStoredPointer);
}

} // namespace cairn::engine::transform
