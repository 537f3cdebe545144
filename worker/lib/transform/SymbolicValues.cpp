#include "transform/SymbolicValues.h"

#include "transform/UseWalk.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

#include <memory>
#include <vector>

namespace cairn::engine::transform {

namespace {

// The object a pointer is derived from, when the analysis can tell.
const llvm::Value *objectOf(const llvm::Value *pointer) { return llvm::getUnderlyingObject(pointer, 0); }

bool isKleeMakeSymbolic(const llvm::Function *f) { return f && f->getName() == "klee_make_symbolic"; }

} // namespace

struct SymbolicValues::Shape {
  explicit Shape(llvm::Function &f) : dominators(f), postDominators(f), loops(dominators) {}
  llvm::DominatorTree dominators;
  llvm::PostDominatorTree postDominators;
  llvm::LoopInfo loops;
};

SymbolicValues::~SymbolicValues() = default;

SymbolicValues::Shape &SymbolicValues::shape(llvm::Function &f) {
  std::unique_ptr<Shape> &s = shapes_[&f];
  if (!s)
    s = std::make_unique<Shape>(f);
  return *s;
}

SymbolicValues::SymbolicValues(llvm::Module &m, std::function<bool(const llvm::Function &)> analysed,
                               const llvm::Function *entry)
    : analysed_(std::move(analysed)) {
  findTrackableObjects(m);
  // Parameters whose arguments the analysis does not see.
  for (llvm::Function &f : m) {
    if (f.isDeclaration() || !analysed_(f))
      continue;
    bool unseenCaller = &f == entry || f.hasAddressTaken();
    for (const llvm::User *u : f.users())
      if (const auto *call = llvm::dyn_cast<llvm::CallBase>(u))
        unseenCaller |= !analysed_(*call->getFunction());
    if (unseenCaller)
      for (llvm::Argument &a : f.args())
        mark(&a);
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (llvm::Function &f : m)
      if (!f.isDeclaration() && analysed_(f)) {
        changed |= analyseFunction(f);
        changed |= addSyncDependences(f);
      }
  }
}

void SymbolicValues::findTrackableObjects(llvm::Module &m) {
  // Every use of the object's address is seen: loads and stores through it (not of it), address
  // arithmetic that stays such a use, comparisons, debug and lifetime markers, all in functions
  // the analysis follows.
  auto staysLocal = [&](const llvm::Value *object) {
    return !reachesUse({object}, [&](const llvm::Value *v, const llvm::User *u) {
      if (const auto *ce = llvm::dyn_cast<llvm::ConstantExpr>(u))
        return ce->getOpcode() == llvm::Instruction::GetElementPtr || ce->getOpcode() == llvm::Instruction::BitCast
                   ? UseStep::Follow
                   : UseStep::Stop;
      const auto *i = llvm::dyn_cast<llvm::Instruction>(u);
      if (!i || !analysed_(*i->getFunction()))
        return UseStep::Stop;
      if (const auto *store = llvm::dyn_cast<llvm::StoreInst>(i))
        return store->getValueOperand() == v ? UseStep::Stop : UseStep::Ignore;
      if (llvm::isa<llvm::GetElementPtrInst>(i) || llvm::isa<llvm::BitCastInst>(i))
        return UseStep::Follow;
      return llvm::isa<llvm::LoadInst>(i) || llvm::isa<llvm::ICmpInst>(i) || llvm::isa<llvm::DbgInfoIntrinsic>(i) ||
                     i->isLifetimeStartOrEnd()
                 ? UseStep::Ignore
                 : UseStep::Stop;
    });
  };
  for (llvm::GlobalVariable &g : m.globals())
    if (g.hasDefinitiveInitializer() && staysLocal(&g))
      trackable_.insert(&g);
  for (llvm::Function &f : m)
    if (!f.isDeclaration() && analysed_(f))
      for (llvm::Instruction &i : llvm::instructions(f))
        if (llvm::isa<llvm::AllocaInst>(i) && staysLocal(&i))
          trackable_.insert(&i);
}

bool SymbolicValues::instructionIsSymbolic(const llvm::Instruction &i) const {
  auto anyOperand = [&](const llvm::User &u) {
    for (const llvm::Use &op : u.operands())
      if (isSymbolic(op.get()))
        return true;
    return false;
  };
  if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(&i)) {
    const llvm::Value *object = objectOf(load->getPointerOperand());
    return isSymbolic(load->getPointerOperand()) || !trackable(object) || symbolicObjects_.count(object);
  }
  if (llvm::isa<llvm::VAArgInst>(i))
    return true;
  if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&i)) {
    const llvm::Function *callee = call->getCalledFunction();
    if (callee && callee->isIntrinsic()) {
      for (const llvm::Use &arg : call->args())
        if (isSymbolic(arg.get()))
          return true;
      return false;
    }
    if (callee && !callee->isDeclaration() && analysed_(*callee))
      return symbolicReturn_.count(callee) != 0;
    return !call->getType()->isVoidTy(); // the runtime's, the libc's or unknown code's answer
  }
  return anyOperand(i);
}

bool SymbolicValues::analyseFunction(llvm::Function &f) {
  bool changed = false;
  for (llvm::Instruction &i : llvm::instructions(f)) {
    if (!isSymbolic(&i) && instructionIsSymbolic(i))
      changed |= mark(&i);
    if (const auto *store = llvm::dyn_cast<llvm::StoreInst>(&i)) {
      const llvm::Value *object = objectOf(store->getPointerOperand());
      if (trackable(object) && (isSymbolic(store->getValueOperand()) || isSymbolic(store->getPointerOperand())))
        changed |= symbolicObjects_.insert(object).second;
    } else if (const auto *ret = llvm::dyn_cast<llvm::ReturnInst>(&i)) {
      if (ret->getReturnValue() && isSymbolic(ret->getReturnValue()))
        changed |= symbolicReturn_.insert(&f).second;
    } else if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&i)) {
      const llvm::Function *callee = call->getCalledFunction();
      if (isKleeMakeSymbolic(callee) && call->arg_size() > 0) {
        const llvm::Value *object = objectOf(call->getArgOperand(0));
        if (trackable(object))
          changed |= symbolicObjects_.insert(object).second;
      } else if (callee && !callee->isDeclaration() && analysed_(*callee)) {
        for (unsigned k = 0; k < call->arg_size() && k < callee->arg_size(); ++k)
          if (isSymbolic(call->getArgOperand(k)))
            changed |= mark(callee->getArg(k));
      }
    }
  }
  return changed;
}

bool SymbolicValues::addSyncDependences(llvm::Function &f) {
  llvm::PostDominatorTree &pdt = shape(f).postDominators;
  llvm::LoopInfo &loops = shape(f).loops;
  bool changed = false;
  for (llvm::BasicBlock &b : f) {
    const llvm::Instruction *term = b.getTerminator();
    const llvm::Value *cond = nullptr;
    if (const auto *br = llvm::dyn_cast<llvm::BranchInst>(term); br && br->isConditional())
      cond = br->getCondition();
    else if (const auto *sw = llvm::dyn_cast<llvm::SwitchInst>(term))
      cond = sw->getCondition();
    if (!cond || !isSymbolic(cond))
      continue;
    // Where paths through different successors meet before the branch's post-dominator, without
    // going round a loop the branch is in: the phis there choose by the symbolic condition.
    const llvm::DomTreeNode *node = pdt.getNode(&b);
    const llvm::BasicBlock *postDom = node && node->getIDom() ? node->getIDom()->getBlock() : nullptr;
    llvm::DenseSet<const llvm::BasicBlock *> stop = {&b};
    if (postDom)
      stop.insert(postDom);
    for (const llvm::Loop *l = loops.getLoopFor(&b); l; l = l->getParentLoop())
      stop.insert(l->getHeader());
    llvm::DenseMap<const llvm::BasicBlock *, unsigned> reachedFrom;
    llvm::DenseSet<const llvm::BasicBlock *> successors;
    for (const llvm::BasicBlock *s : llvm::successors(&b)) {
      if (!successors.insert(s).second)
        continue;
      std::vector<const llvm::BasicBlock *> work = {s};
      llvm::DenseSet<const llvm::BasicBlock *> seen;
      while (!work.empty()) {
        const llvm::BasicBlock *x = work.back();
        work.pop_back();
        if (!seen.insert(x).second)
          continue;
        ++reachedFrom[x];
        if (!stop.count(x))
          for (const llvm::BasicBlock *next : llvm::successors(x))
            work.push_back(next);
      }
    }
    for (const auto &[block, count] : reachedFrom)
      if (count > 1)
        for (const llvm::PHINode &phi : block->phis())
          if (!phi.hasConstantValue() && !isSymbolic(&phi))
            changed |= mark(&phi);
    // A loop left by a symbolic decision: what it leaves behind depends on when it was left.
    const llvm::Loop *inner = loops.getLoopFor(&b);
    for (const llvm::BasicBlock *s : successors)
      for (const llvm::Loop *l = inner; l && !l->contains(s); l = l->getParentLoop())
        for (const llvm::BasicBlock *in : l->blocks())
          for (const llvm::Instruction &i : *in)
            for (const llvm::User *u : i.users())
              if (const auto *user = llvm::dyn_cast<llvm::Instruction>(u);
                  user && !l->contains(user->getParent()) && !isSymbolic(user))
                changed |= mark(user);
  }
  return changed;
}

} // namespace cairn::engine::transform
