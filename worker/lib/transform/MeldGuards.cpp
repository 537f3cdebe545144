#include "transform/MeldGuards.h"

#include "transform/GuardMetadata.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>

namespace cairn::engine::transform {

Guard MeldGuards::of(const llvm::Instruction *i) const {
  auto it = guards_.find(i);
  if (it != guards_.end())
    return it->second;
  return {GuardTerm{{}, i->getDebugLoc().get()}};
}

void MeldGuards::set(const llvm::Instruction *i, Guard g) {
  if (g.size() == 1 && g.front().literals.empty() && g.front().loc == i->getDebugLoc().get())
    guards_.erase(i);
  else
    guards_[i] = std::move(g);
}

Guard MeldGuards::combine(llvm::Value *cond, const Guard &onTrue, const Guard &onFalse) {
  if (onTrue == onFalse) // the same instructions either way: the branch does not matter
    return onTrue;
  Guard g;
  for (const Guard *side : {&onTrue, &onFalse})
    for (const GuardTerm &t : *side) {
      GuardTerm term;
      term.literals.push_back({llvm::WeakTrackingVH(cond), side == &onTrue});
      term.literals.append(t.literals.begin(), t.literals.end());
      term.loc = t.loc;
      g.push_back(std::move(term));
    }
  return g;
}

void MeldGuards::writeMetadata(llvm::Module &m) const {
  llvm::LLVMContext &ctx = m.getContext();
  llvm::Type *i32 = llvm::Type::getInt32Ty(ctx);
  llvm::Type *i1 = llvm::Type::getInt1Ty(ctx);
  auto constant = [&](llvm::Type *t, int64_t v) {
    return llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(t, uint64_t(v), true));
  };
  for (llvm::Function &f : m) {
    llvm::DenseMap<const llvm::Value *, int64_t> ids;
    for (llvm::Instruction &i : llvm::instructions(f)) {
      auto it = guards_.find(&i);
      if (it == guards_.end())
        continue;
      std::vector<llvm::Metadata *> terms;
      for (const GuardTerm &t : it->second) {
        // A DILocation may only be an instruction's !dbg: its parts instead.
        std::vector<llvm::Metadata *> parts = {llvm::MDString::get(ctx, "")};
        if (t.loc)
          parts = {constant(i32, t.loc->getLine()), constant(i32, t.loc->getColumn()), t.loc->getScope()};
        bool never = false;
        for (const GuardLiteral &l : t.literals) {
          llvm::Value *cond = l.cond;
          if (auto *c = llvm::dyn_cast_or_null<llvm::ConstantInt>(cond)) {
            never |= c->isOne() != l.positive;
            continue; // a decision folded since: the literal always holds, or the term never does
          }
          int64_t ref;
          if (auto *arg = llvm::dyn_cast_or_null<llvm::Argument>(cond)) {
            ref = -int64_t(arg->getArgNo()) - 1;
          } else if (auto *def = llvm::dyn_cast_or_null<llvm::Instruction>(cond)) {
            auto [at, fresh] = ids.try_emplace(def, int64_t(ids.size()));
            ref = at->second;
            if (fresh)
              def->setMetadata(kCondMetadata, llvm::MDNode::get(ctx, {constant(i32, ref)}));
          } else {
            continue; // gone: the term is kept wider rather than dropped, so no error is lost
          }
          parts.push_back(llvm::MDNode::get(ctx, {constant(i32, ref), constant(i1, l.positive)}));
        }
        if (!never)
          terms.push_back(llvm::MDNode::get(ctx, parts));
      }
      i.setMetadata(kGuardMetadata, llvm::MDNode::get(ctx, terms));
    }
  }
}

} // namespace cairn::engine::transform
