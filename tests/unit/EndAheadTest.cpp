// Whether two states at a block of main have only the program's end ahead (merging/EndAhead.h):
// a merge there keeps one state as it stands, so nothing on the way may fail on one path and
// not the other.
#include "merging/EndAhead.h"

#include "RunSource.h"

using namespace cairn;
using namespace cairn::engine;
using namespace cairn::engine::unit;

namespace {

class EndAheadTest : public EngineRunTest {
protected:
  CompiledSource compiled;
  const Function *main = nullptr;

  void compile(const std::string &body) {
    compiled = compileWithoutRuntime(dir, kEnginePrelude + body);
    for (const Function &fn : compiled.program->functions)
      if (fn.name == "main")
        main = &fn;
    ASSERT_NE(main, nullptr);
  }

  // The block of main that returns.
  uint32_t returnBlock() const {
    for (uint32_t b = 0; b < main->blocks.size(); ++b)
      if (main->instrs[main->blockEnd(b) - 1].op == Opcode::Ret)
        return b;
    ADD_FAILURE() << "main has no return";
    return 0;
  }

  // The block holding the first instruction of kind `op` at or after block `from`'s entry.
  uint32_t blockWith(Opcode op, uint32_t from = 0) const {
    for (uint32_t b = from; b < main->blocks.size(); ++b)
      for (uint32_t i = main->blocks[b].firstInstr; i < main->blockEnd(b); ++i)
        if (main->instrs[i].op == op)
          return b;
    ADD_FAILURE() << "no such instruction";
    return 0;
  }

  // A state of one frame of main at `block`'s entry, every register concrete (the allocas'
  // addresses and whatever was computed before are alike in both states unless a test says).
  ExecutionState at(uint32_t block) const {
    ExecutionState s;
    Frame f;
    f.function = uint32_t(main - compiled.program->functions.data());
    f.block = block;
    f.pc = main->blocks[block].firstInstr;
    for (uint32_t r = 0; r < main->numRegs; ++r)
      f.regs.emplace_back(u128(0x10000 + 16 * r));
    s.stack.push_back(std::move(f));
    return s;
  }

  // The block the two sides of main's one decision join at: the branch's target that both
  // sides reach, the one after the `if`'s own block.
  uint32_t joinAfterDecision() const {
    const uint32_t decision = blockWith(Opcode::CondBr);
    const Instr &br = main->instrs[main->blockEnd(decision) - 1];
    return std::max(br.target, br.target2);
  }

  // main with `locals` and `x` symbolic, then `decision` on x, then `end`.
  void compileDecision(const std::string &locals, const std::string &decision, const std::string &end) {
    compile("int twice(int v) { return 2 * v; }\n"
            "int main(void) {\n"
            "  int x, " + locals + ";\n"
            "  klee_make_symbolic(&x, sizeof x, \"x\");\n"
            "  if (x > 10) " + decision + ";\n"
            "  " + end + "\n"
            "}\n");
  }
  // Whether two states alike at the join after the decision have only the end ahead.
  bool onlyEndAfter(const std::string &locals, const std::string &decision, const std::string &end) {
    compileDecision(locals, decision, end);
    return onlyEndAhead(*main, at(joinAfterDecision()), at(joinAfterDecision()));
  }
};

// The returned value differs (a register or a local's bytes), nothing on the way fails: the
// load of the local and the return run alike on both paths.
TEST_F(EndAheadTest, LoadsOfLocalsUpToTheReturnAreTheEndOnly) {
  compileDecision("r = 1", "r = 2", "return r;");
  const uint32_t join = joinAfterDecision();
  EXPECT_TRUE(onlyEndAhead(*main, at(join), at(join)));
  EXPECT_TRUE(onlyEndAhead(*main, at(returnBlock()), at(returnBlock())));
  // Two frames: main's return goes back to a caller, whose code is ahead too.
  ExecutionState deeper = at(join);
  deeper.stack.push_back(deeper.stack.back());
  EXPECT_FALSE(onlyEndAhead(*main, deeper, deeper));
  // At different blocks: no merge candidates.
  EXPECT_FALSE(onlyEndAhead(*main, at(join), at(returnBlock() == join ? 0 : returnBlock())));
}

// The local the return reads lies at another address on the other path (a register holding
// it differs): the load may fail on one path only.
TEST_F(EndAheadTest, ALoadAtAnAddressTheStatesHoldApartIsNotTheEndOnly) {
  compileDecision("r = 1", "r = 2", "return r;");
  ExprContext ctx; // outlives the states, which hold its expressions
  const uint32_t join = joinAfterDecision();
  ExecutionState a = at(join), b = at(join);
  const uint32_t load = [&] {
    for (uint32_t i = main->blocks[join].firstInstr; i < main->blockEnd(join); ++i)
      if (main->instrs[i].op == Opcode::Load)
        return i;
    return ~0u;
  }();
  ASSERT_NE(load, ~0u);
  const Operand address = main->instrs[load].a;
  ASSERT_FALSE(address.constant);
  b.stack.back().regs[address.index] = Value(u128(0x999999));
  EXPECT_FALSE(onlyEndAhead(*main, a, b));
  b.stack.back().regs[address.index] = Value(ctx.symbol(ctx.declareSymbol("p", 64, SymbolClass::Input)));
  EXPECT_FALSE(onlyEndAhead(*main, a, b)) << "a symbolic address may be out of bounds on one path only";
}

// A division by a value the paths set apart (tests/e2e/programs/merge_end_division.c): the
// merged state must divide by the merged divisor.
TEST_F(EndAheadTest, ADivisionOnTheWayIsNotTheEndOnly) {
  EXPECT_FALSE(onlyEndAfter("d = 5", "d = 0", "return 100 / d;"));
}

// The pointer the return reads through is loaded on the way: its value is to come, and null on
// one path.
TEST_F(EndAheadTest, ALoadThroughAPointerLoadedOnTheWayIsNotTheEndOnly) {
  EXPECT_FALSE(onlyEndAfter("v = 7, *p = &v", "p = 0", "return *p;"));
}

// A call on the way (its code is ahead too), and signed arithmetic that may overflow on one
// path (--check-overflow reports it).
TEST_F(EndAheadTest, ACallOrSignedOverflowOnTheWayIsNotTheEndOnly) {
  EXPECT_FALSE(onlyEndAfter("r = 1", "r = 2", "return twice(r);"));
  EXPECT_FALSE(onlyEndAfter("r = 1", "r = 2147483647", "return r + 1;"));
  EXPECT_TRUE(onlyEndAfter("r = 1", "r = 2", "return r;")) << "the same code without them";
}

} // namespace
