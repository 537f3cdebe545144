#include "transform/BranchMelder.h"

#include "transform/Alignment.h"
#include "transform/LineCarriers.h"
#include "transform/MeldGuards.h"
#include "transform/SymbolicValues.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <vector>

namespace cairn::engine::transform {

bool meldable(const llvm::Instruction &i) {
  if (llvm::isa<llvm::DbgInfoIntrinsic>(i))
    return true;
  if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(&i))
    return load->isSimple() && !load->getType()->isVectorTy();
  if (const auto *store = llvm::dyn_cast<llvm::StoreInst>(&i))
    return store->isSimple() && !store->getValueOperand()->getType()->isVectorTy();
  if (i.getType()->isVectorTy())
    return false;
  return pureOperation(i) || llvm::isa<llvm::FreezeInst>(i);
}

namespace {

std::vector<llvm::Instruction *> sideInstructions(llvm::BasicBlock &side) {
  std::vector<llvm::Instruction *> out;
  for (llvm::Instruction &i : side)
    if (!i.isTerminator() && !llvm::isa<llvm::DbgInfoIntrinsic>(i))
      out.push_back(&i);
  return out;
}

bool isDivisor(const llvm::Instruction &i, unsigned operand) {
  switch (i.getOpcode()) {
  case llvm::Instruction::UDiv:
  case llvm::Instruction::SDiv:
  case llvm::Instruction::URem:
  case llvm::Instruction::SRem: return operand == 1;
  default: return false;
  }
}

// The melded block under construction.
class Melder {
public:
  Melder(llvm::BasicBlock &melded, llvm::Value *cond, const Congruence &congruence, MeldGuards &guards,
         SymbolicValues &symbolic, MeldCounts &counts)
      : b_(&melded), cond_(cond), congruence_(congruence), guards_(guards), symbolic_(symbolic), counts_(counts) {}

  // Melded values of the sides' instructions.
  llvm::DenseMap<llvm::Value *, llvm::Value *> onTrue, onFalse;

  llvm::Value *fromTrue(llvm::Value *v) const { return lookup(onTrue, v); }
  llvm::Value *fromFalse(llvm::Value *v) const { return lookup(onFalse, v); }

  // The value that is `t` where the condition holds and `f` where not (originals `ot`, `of`).
  llvm::Value *choose(llvm::Value *t, llvm::Value *f, llvm::Value *ot, llvm::Value *of) {
    if (t == f || (ot && of && congruence_.holds(ot, of)))
      return t;
    ++counts_.selects;
    llvm::Value *s = b_.CreateSelect(cond_, t, f, "meld.select");
    if (symbolic_.isSymbolic(cond_) || symbolic_.isSymbolic(t) || symbolic_.isSymbolic(f))
      symbolic_.markSymbolic(s);
    return s;
  }

  void pair(llvm::Instruction *a, llvm::Instruction *b) {
    b_.SetCurrentDebugLocation(a->getDebugLoc());
    llvm::Instruction *m = a->clone();
    for (unsigned k = 0; k < a->getNumOperands(); ++k)
      m->setOperand(k, choose(fromTrue(a->getOperand(k)), fromFalse(b->getOperand(k)), a->getOperand(k),
                              b->getOperand(k)));
    insert(m, a, b);
    onTrue[a] = m;
    onFalse[b] = m;
    guards_.set(m, MeldGuards::combine(cond_, guards_.of(a), guards_.of(b)));
  }

  // `x`, of the side taken when the condition is `onTrueSide`, with an extra copy on the other.
  void alone(llvm::Instruction *x, bool onTrueSide) {
    b_.SetCurrentDebugLocation(x->getDebugLoc());
    auto mine = [&](llvm::Value *v) { return onTrueSide ? fromTrue(v) : fromFalse(v); };
    auto sides = [&](llvm::Value *own, llvm::Value *extra) {
      return onTrueSide ? choose(own, extra, nullptr, nullptr) : choose(extra, own, nullptr, nullptr);
    };
    llvm::Instruction *m = x->clone();
    if (auto *store = llvm::dyn_cast<llvm::StoreInst>(x)) {
      // The other side writes back what is there.
      llvm::Value *address = mine(store->getPointerOperand());
      llvm::LoadInst *back = b_.CreateAlignedLoad(store->getValueOperand()->getType(), address, store->getAlign(),
                                                  "meld.readback");
      guards_.set(back, {});
      ++counts_.extraInstructions;
      m->setOperand(0, sides(mine(store->getValueOperand()), back));
      m->setOperand(1, address);
    } else {
      ++counts_.extraInstructions;
      for (unsigned k = 0; k < x->getNumOperands(); ++k) {
        llvm::Value *v = mine(x->getOperand(k));
        if (isDivisor(*x, k)) // the extra division must not divide by zero
          v = sides(v, llvm::ConstantInt::get(v->getType(), 1));
        m->setOperand(k, v);
      }
    }
    insert(m, onTrueSide ? x : nullptr, onTrueSide ? nullptr : x);
    (onTrueSide ? onTrue : onFalse)[x] = m;
    Guard own = guards_.of(x);
    guards_.set(m, onTrueSide ? MeldGuards::combine(cond_, own, {}) : MeldGuards::combine(cond_, {}, own));
  }

  llvm::IRBuilder<> &builder() { return b_; }

private:
  static llvm::Value *lookup(const llvm::DenseMap<llvm::Value *, llvm::Value *> &map, llvm::Value *v) {
    auto it = map.find(v);
    return it == map.end() ? v : it->second;
  }

  void insert(llvm::Instruction *m, llvm::Instruction *a, llvm::Instruction *b) {
    b_.Insert(m, (a ? a : b)->getName());
    bool symbolic = (a && symbolic_.isSymbolic(a)) || (b && symbolic_.isSymbolic(b));
    for (const llvm::Use &op : m->operands())
      symbolic |= symbolic_.isSymbolic(op.get());
    if (symbolic)
      symbolic_.markSymbolic(m);
  }

  llvm::IRBuilder<> b_;
  llvm::Value *cond_;
  const Congruence &congruence_;
  MeldGuards &guards_;
  SymbolicValues &symbolic_;
  MeldCounts &counts_;
};

} // namespace

bool meldDiamond(llvm::BasicBlock &bb, MeldGuards &guards, SymbolicValues &symbolic, MeldCounts &counts) {
  auto *branch = llvm::cast<llvm::BranchInst>(bb.getTerminator());
  llvm::Value *cond = branch->getCondition();
  llvm::BasicBlock *t = branch->getSuccessor(0), *f = branch->getSuccessor(1);
  llvm::BasicBlock *join = t->getSingleSuccessor();
  // The jumps and the branch go: their lines stay with carriers (melded like the rest).
  auto goes = [](const llvm::Instruction &i) { return i.isTerminator(); };
  for (llvm::BasicBlock *side : {t, f})
    keepLine(*side->getTerminator(), goes);
  keepLine(*branch, goes);
  const std::vector<llvm::Instruction *> onTrue = sideInstructions(*t), onFalse = sideInstructions(*f);
  const Congruence congruence(onTrue, onFalse);
  const std::optional<std::vector<AlignedPair>> aligned = alignSides(onTrue, onFalse, congruence);
  if (!aligned)
    return false;

  llvm::BasicBlock *melded = llvm::BasicBlock::Create(bb.getContext(), "meld", bb.getParent(), join);
  Melder m(*melded, cond, congruence, guards, symbolic, counts);
  for (const AlignedPair &p : *aligned) {
    if (p.onTrue && p.onFalse)
      m.pair(p.onTrue, p.onFalse);
    else if (p.onTrue)
      m.alone(p.onTrue, true);
    else
      m.alone(p.onFalse, false);
  }
  m.builder().SetCurrentDebugLocation(branch->getDebugLoc());
  for (llvm::PHINode &phi : join->phis()) {
    llvm::Value *vt = phi.getIncomingValueForBlock(t), *vf = phi.getIncomingValueForBlock(f);
    llvm::Value *v = m.choose(m.fromTrue(vt), m.fromFalse(vf), vt, vf);
    phi.removeIncomingValue(t, false);
    phi.removeIncomingValue(f, false);
    phi.addIncoming(v, melded);
  }
  m.builder().CreateBr(join);
  llvm::BranchInst::Create(melded, branch)->setDebugLoc(branch->getDebugLoc());
  branch->eraseFromParent();

  // The sides' values now live in the melded block: uses that remain (guards' conditions among
  // them) follow them there.
  for (llvm::BasicBlock *side : {t, f}) {
    const auto &map = side == t ? m.onTrue : m.onFalse;
    for (llvm::Instruction &i : *side) {
      guards.forget(&i);
      if (auto it = map.find(&i); it != map.end())
        i.replaceAllUsesWith(it->second);
    }
  }
  for (llvm::BasicBlock *side : {t, f})
    side->dropAllReferences();
  for (llvm::BasicBlock *side : {t, f})
    side->eraseFromParent();
  llvm::MergeBlockIntoPredecessor(melded);
  if (join->getSinglePredecessor())
    llvm::MergeBlockIntoPredecessor(join);
  return true;
}

} // namespace cairn::engine::transform
