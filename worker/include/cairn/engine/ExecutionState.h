// One path through the program: its stack, path constraints and memory.
#pragma once

#include "cairn/engine/Memory.h"
#include "cairn/solver/ConstraintList.h"

#include <cstdint>
#include <map>
#include <optional>
#include <memory>
#include <string>
#include <vector>

namespace cairn::engine {

struct Frame {
  uint32_t function = 0;
  uint32_t block = 0;
  uint32_t pc = 0;        // next instruction, an index into Function::instrs
  uint32_t prevBlock = ~0u;
  uint32_t callerDst = ~0u; // the caller's register for the return value
  uint32_t callLoc = 0;     // where the caller called from
  std::vector<Value> regs;
  std::vector<uint64_t> allocas; // objects to release on return
  uint64_t varargs = 0;          // the object holding extra arguments of a variadic call
  uint64_t stackBytes = 0;       // the native stack this frame takes (StackUsage.h)
};

// An input made symbolic by klee_make_symbolic: it becomes one object of each test.
struct SymbolicInput {
  std::string name;
  const SymbolDecl *array;
  uint64_t size;
};

// What a memory model keeps per state (the relocatable model: where moved objects are, and the
// path constraints as its solver gets them). Copied with the state, checked and combined when
// states merge.
class MemoryModelState {
public:
  virtual ~MemoryModelState() = default;
  virtual std::unique_ptr<MemoryModelState> clone() const = 0;
  // Why a state with `other` cannot merge with this one; null when it can.
  virtual const char *incompatibility(const MemoryModelState &other) const = 0;
  // This state became the merge of a group with `other` in it; its path constraints were
  // rewritten (called once per other member).
  virtual void merged(const MemoryModelState &other) = 0;
};

// Owns a state's MemoryModelState: a copied execution state gets a clone. Empty for a model
// that keeps nothing per state, so copying costs nothing then.
class ModelStateSlot {
public:
  ModelStateSlot() = default;
  ModelStateSlot(const ModelStateSlot &o) : state_(o.state_ ? o.state_->clone() : nullptr) {}
  ModelStateSlot(ModelStateSlot &&) noexcept = default;
  ModelStateSlot &operator=(const ModelStateSlot &o) {
    state_ = o.state_ ? o.state_->clone() : nullptr;
    return *this;
  }
  ModelStateSlot &operator=(ModelStateSlot &&) noexcept = default;
  void reset(std::unique_ptr<MemoryModelState> s) { state_ = std::move(s); }
  MemoryModelState *get() const { return state_.get(); }

private:
  std::unique_ptr<MemoryModelState> state_;
};

// Where a state stands in its path prefix (PathPrefix): every answer that steered it; the first
// `replayed` were used, the rest are still to be replayed instead of asking the solver.
struct PrefixPosition {
  std::vector<uint64_t> choices;
  size_t replayed = 0;
  uint64_t replayInstructions = 0; // instructions that rebuild a replayed prefix
  // While replaying: the run's start prefixes (sorted) this state rebuilds, [begin, end); they
  // agree with `choices` so far, and go their own ways where they take other sides of a fork.
  uint32_t startsBegin = 0, startsEnd = 0;
  bool excluded = false; // reached an excluded prefix: explored elsewhere
};

// A merge region (klee_open_merge) or a size-dependent loop: the states forked inside it wait
// at its end to be merged (StateMerging.h).
struct MergeContext;
struct MergeMembership {
  std::shared_ptr<MergeContext> context;
  uint32_t node = 0; // the state's leaf in the context's execution tree
  // --incremental-merging: the context's snapshots this state descends from, oldest first
  // (MergeContext::snapshots).
  std::vector<uint32_t> lineage;
};

// Path counts added up, at most 2^64 - 1: merged loops multiply them past any integer (coreutils'
// printenv under ssm wrapped around to 1.9e18).
inline uint64_t addPaths(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

struct ExecutionState {
  uint64_t id = 0;
  std::vector<Frame> stack;
  ConstraintList constraints;
  AddressSpace memory;
  std::vector<SymbolicInput> inputs;
  std::vector<uint8_t> decisions; // the branch taken at each symbolic fork: the path's identity
  PrefixPosition prefix;
  bool merged = false; // stands for several paths: no prefix reproduces it, so it is never split off
  // The paths it stands for, as the merging paper estimates them: merging adds (addPaths), a
  // fork copies.
  uint64_t multiplicity = 1;
  uint64_t instructions = 0;
  uint32_t depth = 0;
  uint64_t stackBytes = 0; // the native stack the frames take: the sum of their stackBytes
  std::string output; // what the program printed on this path (stdout)
  std::string errorOutput; // stderr, kept apart under the full libc
  // Bytes of `output` (stream 1) and `errorOutput` (stream 2) that were symbolic when written:
  // a test evaluates them under its own inputs.
  struct OutputByte {
    uint8_t stream;
    uint32_t position;
    ExprRef byte;
    bool operator==(const OutputByte &o) const {
      return stream == o.stream && position == o.position && byte == o.byte;
    }
  };
  std::vector<OutputByte> symbolicOutput;
  std::optional<Value> exitStatus; // exit()'s argument, once called
  uint64_t nextAddress = 0; // where the next object goes: allocation is deterministic per path
  std::vector<std::pair<uint64_t, uint64_t>> freed; // (base, size) of freed heap objects
  uint64_t instructionsSinceNewCoverage = 0;
  // Ran a line or took a branch edge no path had before (since the fork that made it, for the
  // copy: the original keeps the credit for what they shared). --only-new-coverage-tests.
  bool coveredNew = false;
  ModelStateSlot model; // the memory model's part of the state
  std::vector<MergeMembership> merges; // innermost last
  // Symbolic-size model: the symbols the sizes of symbolic-size objects depend on; a fork on a
  // condition over them inside a loop makes the loop size-dependent.
  std::shared_ptr<const std::vector<const SymbolDecl *>> sizeSymbols;
  // klee_set_forking(0): a branch both ways feasible follows one side instead of forking.
  bool forking = true;
  // klee_alias_function: calls by name to a key go to the function of that index instead.
  std::map<std::string, uint32_t> aliases;
  // Objects klee_define_fixed_object placed: allocation steps around them when there are any.
  uint32_t fixedObjects = 0;
  // The merging strategy's record of this state (merging/QceMerging.h), by slot: the strategy
  // checks the slot's owner, so a copy's inherited slot is never taken for its own.
  uint32_t mergeTrack = ~0u;

  Frame &top() { return stack.back(); }
};

} // namespace cairn::engine
