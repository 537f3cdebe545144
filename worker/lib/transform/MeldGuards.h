// Which original instructions a melded instruction stands for, and under which branch
// decisions: its guard. An instruction of one side of a melded branch runs on every path through
// the melded block; it is original where the branch went its side's way, and an extra
// instruction (whose failure the original program cannot have) elsewhere. A guard is a list of
// terms, one per original instruction it stands for: the conjunction of branch conditions under
// which it is that instruction, and that instruction's source location. No terms: an extra
// instruction on every path.
//
// The transformation keeps guards in this table while it works; writeMetadata() then puts them
// on the module (GuardMetadata.h), where the translator reads them.
#pragma once

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/ValueHandle.h>

#include <vector>

namespace llvm {
class DILocation;
class Instruction;
class Module;
} // namespace llvm

namespace cairn::engine::transform {

struct GuardLiteral {
  llvm::WeakTrackingVH cond; // an i1 value; follows the value when a later meld replaces it
  bool positive = true;
  bool operator==(const GuardLiteral &o) const { return cond == o.cond && positive == o.positive; }
};

struct GuardTerm {
  llvm::SmallVector<GuardLiteral, 2> literals;
  const llvm::DILocation *loc = nullptr;
  bool operator==(const GuardTerm &o) const { return literals == o.literals && loc == o.loc; }
};

using Guard = std::vector<GuardTerm>;

class MeldGuards {
public:
  // Its own instruction on every path (one term, no literals, its own location) unless melded.
  Guard of(const llvm::Instruction *i) const;
  void set(const llvm::Instruction *i, Guard g);
  void forget(const llvm::Instruction *i) { guards_.erase(i); }
  size_t size() const { return guards_.size(); }

  // The guard of an instruction melded from `onTrue` (the side taken when `cond` holds) and
  // `onFalse`; pass {} for a side where it is an extra instruction.
  static Guard combine(llvm::Value *cond, const Guard &onTrue, const Guard &onFalse);

  void writeMetadata(llvm::Module &m) const;

private:
  llvm::DenseMap<const llvm::Instruction *, Guard> guards_;
};

} // namespace cairn::engine::transform
