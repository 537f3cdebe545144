// Register liveness, what a merge must keep apart: at the join after an if/else, the registers
// of the branch's condition are dead and the slot the join reads is live.
#include "analysis/Liveness.h"

#include "RunSource.h"
#include "analysis/ControlFlow.h"

using namespace cairn::engine;
using namespace cairn::engine::analysis;

namespace {

class LivenessTest : public unit::EngineRunTest {};

TEST_F(LivenessTest, TheConditionIsDeadAtTheJoinAndTheSlotItReadsIsLive) {
  unit::CompiledSource compiled = unit::compileWithoutRuntime(dir, "int pick(int a, int b) {\n"
                                                                   "  int x;\n"
                                                                   "  if (a < b) x = 2; else x = 3;\n"
                                                                   "  return x;\n"
                                                                   "}\n"
                                                                   "int main(void) { return pick(1, 2); }\n");
  const Program &program = *compiled.program;
  const Function *fn = nullptr;
  for (const Function &f : program.functions)
    if (f.name == "pick")
      fn = &f;
  ASSERT_NE(fn, nullptr);
  ControlFlow cfg(*fn);
  uint32_t condition = ~0u, join = ~0u, slot = ~0u;
  for (uint32_t b = 0; b < fn->blocks.size(); ++b) {
    const Instr &t = cfg.terminator(b);
    if (t.op == Opcode::CondBr)
      condition = t.a.index;
    if (t.op == Opcode::Ret)
      join = b;
  }
  for (const auto &[reg, name] : fn->localNames)
    if (name == "x")
      slot = reg;
  ASSERT_NE(condition, ~0u);
  ASSERT_NE(join, ~0u);
  ASSERT_NE(slot, ~0u);
  Liveness liveness(*fn);
  const std::vector<bool> &atJoin = liveness.liveBefore(join, fn->blocks[join].firstInstr);
  EXPECT_FALSE(atJoin[condition]);
  EXPECT_TRUE(atJoin[slot]);
  EXPECT_FALSE(atJoin[0]) << "a is stored to its slot on entry and never read again";
  const std::vector<bool> &atEntry = liveness.liveBefore(0, fn->blocks[0].firstInstr);
  EXPECT_TRUE(atEntry[0]);
  EXPECT_TRUE(atEntry[1]);
  EXPECT_FALSE(atEntry[condition]) << "written before it is read";
}

} // namespace
