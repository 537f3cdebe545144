// How melded instructions' guards (MeldGuards.h) travel with the module, so that a program
// transformed once (by `cairn run`, or by the coordinator for a job's workers) is translated
// with them wherever it runs:
//
//   %c = icmp ...                 !cairn.meld.cond !{i32 ID}
//   %x = load ...                 !cairn.meld.guard !{TERM, ...}     (!{} : extra everywhere)
//   TERM  = !{LOCATION, LITERAL, ...}       LOCATION: i32 LINE, i32 COLUMN, !SCOPE (a DILocation
//                                           may only be a !dbg), or !"" when unknown
//   LITERAL = !{i32 REF, i1 POSITIVE}       REF >= 0: the instruction with that ID in the same
//                                           function; REF < 0: parameter -REF-1
#pragma once

#include "cairn/engine/BranchTransform.h"

#include <optional>
#include <vector>

namespace llvm {
class DILocation;
class Function;
class Module;
class Instruction;
class Value;
} // namespace llvm

namespace cairn::engine::transform {

inline constexpr const char *kGuardMetadata = "cairn.meld.guard";
inline constexpr const char *kCondMetadata = "cairn.meld.cond";
// Named metadata: the pass's counts (BranchTransformStats), so that whoever runs the bitcode
// reports them: !cairn.transform = !{!{i64 MELDED, i64 ONE_SIDED, ..., i64 MICROSECONDS}}.
inline constexpr const char *kStatsMetadata = "cairn.transform";

void writeTransformStats(llvm::Module &m, const BranchTransformStats &stats);
// Nullopt when the module was not transformed; throws LoadError when the metadata is malformed.
std::optional<BranchTransformStats> readTransformStats(const llvm::Module &m);

struct ReadLiteral {
  const llvm::Value *cond = nullptr;
  bool positive = true;
};

struct ReadTerm {
  const llvm::DILocation *loc = nullptr;
  std::vector<ReadLiteral> literals;
};

// One function's guards.
class GuardReader {
public:
  explicit GuardReader(const llvm::Function &f);
  bool any() const { return any_; }
  // The instruction's guard, when it was melded; throws LoadError when the metadata is malformed.
  std::optional<std::vector<ReadTerm>> guardOf(const llvm::Instruction &i) const;

private:
  std::vector<const llvm::Value *> conds_; // by ID
  const llvm::Function &f_;
  bool any_ = false;
};

} // namespace cairn::engine::transform
