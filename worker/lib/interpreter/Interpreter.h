// Runs one instruction of a state: the dispatch on the translated instruction (Program.h), the
// arithmetic, casts, vectors, control flow, calls and returns, with a concrete fast path that
// builds no expression. Special functions go to the handler table (SpecialFunctions.h), memory
// accesses to MemoryAccess, forks to the engine.
#pragma once

#include "cairn/engine/ExecutionState.h"
#include "cairn/engine/Program.h"
#include "cairn/expr/Expr.h"
#include "interpreter/BranchCoverage.h"
#include "interpreter/StackUsage.h"

#include <unordered_set>
#include <vector>

namespace cairn::engine {

class Engine;
struct RunStatistics;

class Interpreter {
public:
  explicit Interpreter(Engine &engine);

  void step(ExecutionState &s);
  // Up to `budget` instructions of `s`, those of the concrete fast path in one loop
  // (ConcreteRun.cpp), ending after the first that needs step(): how many ran.
  uint64_t run(ExecutionState &s, uint64_t budget);
  Value eval(const Frame &f, Operand o) const {
    return o.constant ? Value(program_.constants[o.index]) : f.regs[o.index];
  }
  // The operand's bits when it is concrete, without copying its value (the fast paths).
  bool concreteOperand(const Frame &f, Operand o, u128 &bits) const {
    if (o.constant) {
      bits = program_.constants[o.index];
      return true;
    }
    const Value &v = f.regs[o.index];
    bits = v.bits;
    return v.concrete();
  }
  // Control enters `block` of the frame's function from the block `from` (~0u: none).
  void enterBlock(Frame &f, uint32_t block, uint32_t from);
  // Pushes a frame for function `index`, called by `in` with `args`.
  void enterFunction(ExecutionState &s, const Instr &in, uint32_t index, const std::vector<Value> &args,
                     const CallSite &site);
  void returnValue(ExecutionState &s, const Instr &in, Value v) {
    if (in.dst != ~0u)
      s.top().regs[in.dst] = std::move(v);
  }
  const StackUsage &stackUsage() const { return stack_; }
  // (file << 32 | line) of every line of the user's program run so far.
  const std::unordered_set<uint64_t> &coveredLines() const { return covered_; }
  // Per branch of the user's program (Program::branchTargets): 1 once some path took it.
  const std::vector<uint8_t> &branchesTaken() const { return branchTaken_; }

private:
  void setReg(ExecutionState &s, const Instr &in, Value v) { s.top().regs[in.dst] = std::move(v); }
  // The per-location flag keeps the common case (a location seen before) to one load.
  void cover(ExecutionState &s, uint32_t locId) {
    if (!locationSeen_[locId])
      firstVisit(s, locId);
  }
  void firstVisit(ExecutionState &s, uint32_t locId);
  void coverLine(ExecutionState &s, uint32_t locId);
  bool coverMeldedLines(ExecutionState &s, const Function &fn, const InstrGuard &guard);
  // Enters block `to` of the state's function from `from`, a branch's or a switch's edge: the
  // first path to take an edge has covered something new (--only-new-coverage-tests).
  void follow(ExecutionState &s, uint32_t to, uint32_t from);
  // A flat array store per decision of the user's program: no hashing on the concrete path.
  void takeBranch(const BasicBlock &from, uint32_t to) {
    for (uint32_t b = from.firstBranch, end = b + from.branchCount; b < end; ++b)
      if (program_.branchTargets[b] == to) {
        branchTaken_[b] = 1;
        return;
      }
  }
  // One instruction (ConcreteRun.cpp, where step() and run() both take it).
  [[gnu::always_inline]] inline bool execute(ExecutionState &s, Frame &f, const Function &fn);
  bool runConcrete(ExecutionState &s, Frame &f, const Instr &in);
  void general(ExecutionState &s, Frame &f, const Function &fn, const Instr &in);
  // A binary operation on concrete operands (`y` the second) that nothing needs to check: a
  // division by a nonzero value, no requested overflow or overshift check.
  bool foldsWithoutChecks(const Instr &in, u128 y) const {
    if (checkOverflow_ && in.noSignedWrap)
      return false;
    switch (in.kind) {
    case Kind::UDiv:
    case Kind::SDiv:
    case Kind::URem:
    case Kind::SRem: return y != 0;
    case Kind::Shl:
    case Kind::LShr:
    case Kind::AShr: return !checkOvershift_;
    default: return true;
    }
  }
  void binary(ExecutionState &s, const Instr &in);
  bool checkSignedOverflow(ExecutionState &s, const Instr &in, const Value &a, const Value &b);
  bool checkOvershift(ExecutionState &s, const Instr &in, const Value &amount);
  void insertBits(ExecutionState &s, const Instr &in);
  void gep(ExecutionState &s, const Instr &in, const Function &fn);
  void switchOn(ExecutionState &s, const Instr &in, const Function &fn);
  void floatOp(ExecutionState &s, const Instr &in);
  void atomic(ExecutionState &s, const Instr &in);
  // Vectors (Vectors.cpp).
  void vectorOp(ExecutionState &s, const Instr &in);
  void extractElement(ExecutionState &s, const Instr &in);
  void insertElement(ExecutionState &s, const Instr &in);
  void shuffle(ExecutionState &s, const Instr &in, const Function &fn);
  Value laneOf(const Value &v, unsigned laneBits, unsigned i);
  Value pack(const std::vector<Value> &lanes, unsigned laneBits);
  // Calls and returns (Calls.cpp).
  void call(ExecutionState &s, const Instr &in, const Function &fn);
  void callAlias(ExecutionState &s, const Instr &in, const Function &caller, uint32_t index,
                 const std::vector<Value> &args, const CallSite &site);
  void callAddress(ExecutionState &s, const Instr &in, uint64_t address, const std::vector<Value> &args,
                   const CallSite &site);
  void ret(ExecutionState &s, const Instr &in);
  void allocateLocal(ExecutionState &s, const Instr &in, const Function &fn);
  void stackOverflow(ExecutionState &s);

  Engine &engine_;
  const Program &program_;
  ExprContext &ctx_;
  RunStatistics &stats_;
  std::unordered_set<uint64_t> covered_; // (file, line) of user code executed
  std::vector<uint8_t> locationSeen_;    // per location: one byte load for the common case
  BranchCoverage branches_;              // only with --only-new-coverage-tests
  std::vector<uint8_t> branchTaken_;     // per branch of Program::branchTargets (lcov)
  StackUsage stack_;
  const bool checkOverflow_, checkOvershift_; // the run's options, read on every binary operation
};

} // namespace cairn::engine
