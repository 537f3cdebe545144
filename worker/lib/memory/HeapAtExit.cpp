#include "memory/HeapAtExit.h"

#include "executor/Engine.h"
#include "memory/Reachability.h"

#include <algorithm>

namespace cairn::engine {

namespace {

// The traversal's questions on one path: where a base lies on its layout, and where a symbolic
// word may point under its constraints.
class PathPointerQuestions final : public PointerQuestions {
public:
  PathPointerQuestions(Engine &engine, ExecutionState &s) : engine_(engine), state_(s) {}

  std::optional<uint64_t> layoutValue(const ExprRef &word) override {
    std::optional<u128> at = engine_.model->layoutValue(state_, word);
    return at ? std::optional<uint64_t>(uint64_t(*at)) : std::nullopt;
  }

  bool mayPointInto(const ExprRef &word, const std::vector<HeapBlock> &blocks) override {
    if (engine_.isTerminated(&state_))
      return true;
    ExprContext &ctx = engine_.ctx;
    ExprRef inside = ctx.falseExpr();
    for (const HeapBlock &b : blocks) {
      ExprRef from = ctx.constant(b.address, 64), to = ctx.constant(b.address + std::max<uint64_t>(b.size, 1), 64);
      inside = ctx.lor(inside, ctx.land(ctx.ule(from, word), ctx.ult(word, to)));
    }
    // About the layout: the answer relates a value to where objects lie.
    std::optional<Validity> v = engine_.questions.decide(state_, inside, true);
    return !v || *v != Validity::False;
  }

private:
  Engine &engine_;
  ExecutionState &state_;
};

std::string describe(Engine &engine, const std::vector<HeapBlock> &blocks) {
  const HeapBlock &first = blocks.front();
  std::string text = std::to_string(blocks.size()) + (blocks.size() == 1 ? " heap block" : " heap blocks") +
                     " (the first of " + std::to_string(first.size) + " bytes";
  // A block the model moved keeps no allocation site of its own.
  if (first.object->allocLoc && !(first.object->relocation && engine.model->isMoved(*first.object)))
    text += ", allocated at " + engine.where(first.object->allocLoc);
  return text + ")";
}

} // namespace

std::optional<ErrorReport> heapErrorAtEnd(Engine &engine, ExecutionState &s, ProgramEnd how) {
  const ExecutorOptions &o = engine.options;
  if (!o.checkLeaks && !o.checkMemcleanup)
    return std::nullopt;
  PathPointerQuestions questions(engine, s);
  Reachability reachability(engine.ctx, s.memory, *engine.model, questions);
  if (reachability.blocks().empty())
    return std::nullopt;
  if (o.checkLeaks) {
    reachability.addRootObjects(ObjectKind::Global);
    reachability.addRootObjects(ObjectKind::Argument);
    if (how == ProgramEnd::Exit)
      reachability.addRootObjects(ObjectKind::Stack);
    std::vector<HeapBlock> lost = reachability.unreachable();
    if (engine.isTerminated(&s))
      return std::nullopt;
    if (!lost.empty())
      return engine.makeError(s, "leak", "unreachable-memory",
                              "memory leak: " + describe(engine, lost) +
                                  " still allocated and unreachable at the program's end");
  }
  if (o.checkMemcleanup)
    return engine.makeError(s, "leak", "unfreed-memory",
                            "memory not freed: " + describe(engine, reachability.blocks()) +
                                " still allocated at the program's end");
  return std::nullopt;
}

} // namespace cairn::engine
