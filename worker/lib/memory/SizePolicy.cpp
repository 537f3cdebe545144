#include "memory/SizePolicy.h"

#include "cairn/expr/ExprUtil.h"
#include "executor/Engine.h"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace cairn::engine {

namespace {
// Larger allocations fail (NULL): KLEE's bound for a huge size, and the replay's (ASan's
// max_allocation_size_mb), so a test replays natively with the allocation the engine gave it.
constexpr uint64_t kMaxAllocation = uint64_t(1) << 31;
} // namespace

void SizePolicy::allocate(ExecutionState &s, const Value &size, ObjectKind kind, const std::string &name,
                          uint32_t loc, Done done, uint64_t alignment) {
  const SizeModelOptions &o = engine_.options.sizeModel;
  MemoryAccess &memory = engine_.memory;
  if (size.concrete())
    return allocateFixed(s, size.bits, kind, name, loc, done, alignment);
  ExprContext &ctx = engine_.ctx;
  const ExprRef sigma = ctx.zextOrTrunc(size.sym, 64);
  if (!o.symbolic())
    return fixSize(s, sigma, kind, name, loc, done, alignment);
  ExecutionState *bounded = &s;
  std::optional<uint64_t> capacity = boundSize(bounded, sigma, done);
  if (!capacity)
    return;
  if (o.mode == SizeMode::Eager) {
    ExecutionState *rest = bounded;
    for (uint64_t v = 0; rest && v <= *capacity; ++v) {
      auto [hit, miss] = engine_.branch(*rest, ctx.eq(sigma, ctx.constant(v, 64)));
      if (hit && miss)
        ++engine_.stats.merging.sizeForks;
      if (hit)
        allocateFixed(*hit, v, kind, name, loc, done, alignment);
      rest = miss;
    }
    return;
  }
  ExecutionState &st = *bounded;
  if (!withinMemoryLimit(st, *capacity))
    return;
  uint64_t a = memory.allocate(st, *capacity, kind, name, loc, sigma, alignment);
  ++engine_.stats.merging.symbolicSizeObjects;
  SymbolCollector symbols;
  symbols.add(sigma.get());
  auto taint = std::make_shared<std::vector<const SymbolDecl *>>(
      st.sizeSymbols ? *st.sizeSymbols : std::vector<const SymbolDecl *>{});
  for (const SymbolDecl *d : symbols.symbols())
    if (std::find(taint->begin(), taint->end(), d) == taint->end())
      taint->push_back(d);
  st.sizeSymbols = std::move(taint);
  done(st, a);
}

void SizePolicy::allocateFixed(ExecutionState &s, u128 size, ObjectKind kind, const std::string &name, uint32_t loc,
                               Done done, uint64_t alignment) {
  if (size > kMaxAllocation)
    return done(s, 0);
  if (withinMemoryLimit(s, size))
    done(s, engine_.memory.allocate(s, uint64_t(size), kind, name, loc, {}, alignment));
}

// --max-memory bounds each path too, not only the run: a path that alone keeps more than the
// limit (a loop that allocates and never frees) would otherwise grow until the machine runs
// out, since ending half of the states helps nothing when there is one. Checked before the
// object exists, so the limit holds for the allocation that would break it.
bool SizePolicy::withinMemoryLimit(ExecutionState &s, u128 size) {
  const uint64_t limit = engine_.options.maxMemoryMB;
  if (!limit || u128(s.memory.bytes()) + size <= u128(limit) << 20)
    return true;
  ++engine_.stats.memoryLimit.statesEnded;
  engine_.terminate(s, Termination::partialPath("memory limit reached: this path's objects exceed --max-memory"));
  return false;
}

// The concrete size model, as KLEE's executeAlloc: a small size the path allows (a value of
// it, halved while the size can be half of it), forked on; on the other side, a size that has
// exactly one value is allocated, a huge one (over 2^31) gets NULL, and the rest ends with a
// model error, so no path is cut silently.
void SizePolicy::fixSize(ExecutionState &s, const ExprRef &size, ObjectKind kind, const std::string &name,
                         uint32_t loc, Done done, uint64_t alignment) {
  ExprContext &ctx = engine_.ctx;
  SolverQuestions &questions = engine_.questions;
  auto allocateFixed = [&](ExecutionState &st, u128 n) { this->allocateFixed(st, n, kind, name, loc, done, alignment); };
  std::optional<u128> example = questions.concretize(s, Value(size), 64, false);
  if (!example)
    return;
  while (*example > 128) {
    std::optional<Validity> half = questions.decide(s, ctx.eq(ctx.constant(*example >> 1, 64), size));
    if (!half)
      return;
    if (*half == Validity::False)
      break;
    *example >>= 1;
  }
  auto [fixed, other] = engine_.branch(s, ctx.eq(ctx.constant(*example, 64), size));
  if (other) {
    std::optional<u128> value = questions.concretize(*other, Value(size), 64, false);
    std::optional<Validity> only;
    if (value)
      only = questions.decide(*other, ctx.eq(ctx.constant(*value, 64), size));
    if (only && *only == Validity::True) {
      allocateFixed(*other, *value);
    } else if (only) {
      auto [huge, rest] = engine_.branch(*other, ctx.ult(ctx.constant(kMaxAllocation, 64), size));
      if (huge) {
        spdlog::info("found huge malloc, returning 0 at {}", engine_.where(loc));
        done(*huge, 0);
      }
      if (rest)
        engine_.error(*rest, "model", "symbolic-size",
                      "concretized symbolic size: the size is neither " + std::to_string(uint64_t(*example)) +
                          " (another path) nor over 2^31 (NULL)");
    }
  }
  if (fixed)
    allocateFixed(*fixed, *example);
}

// The capacity a symbolic size gets: the configured one, raised (in steps, past a value the
// size can take) while the path cannot keep the size that small; the size is then bounded
// by it. Where it could also be larger, the path forks and the larger sizes end as a partial
// path: they are not explored, and the run must not claim they were. `s` becomes the state
// that goes on (a replayed prefix may put it on the other side; a huge size's side gets NULL
// through `done`); nullopt when none does.
std::optional<uint64_t> SizePolicy::boundSize(ExecutionState *&s, const ExprRef &size, Done done) {
  const SizeModelOptions &o = engine_.options.sizeModel;
  ExprContext &ctx = engine_.ctx;
  uint64_t capacity = o.capacity;
  for (;;) {
    ExprRef fits = ctx.ule(size, ctx.constant(capacity, 64));
    std::optional<Validity> v = engine_.questions.decide(*s, fits);
    if (!v)
      return std::nullopt;
    if (*v == Validity::Either) {
      auto [within, above] = engine_.branch(*s, fits);
      if (above)
        cutAboveCapacity(*above, capacity);
      if (!within)
        return std::nullopt;
      s = within;
    }
    if (*v != Validity::False) {
      noteCapacity(capacity);
      return capacity;
    }
    // No size fits. The sizes over 2^31 get NULL, as a concrete one does; the capacity of the
    // others is raised to their least size, in steps (not to any size the solver names: one
    // near 2^31 would reserve that much and leave the small sizes to the same object).
    auto [huge, rest] = engine_.branch(*s, ctx.ult(ctx.constant(kMaxAllocation, 64), size));
    if (huge)
      done(*huge, 0);
    if (!rest)
      return std::nullopt;
    s = rest;
    std::optional<uint64_t> least = leastSize(*s, size, capacity + 1);
    if (!least)
      return std::nullopt;
    uint64_t step = std::max<uint64_t>(o.capacityStep, 1);
    capacity = (*least + step - 1) / step * step;
    spdlog::info("capacity raised to {} for a symbolic-size allocation at {}", capacity,
                 engine_.where(engine_.currentLoc));
  }
}

// The least value of `size` on the state, at least `from` (the state has one up to 2^31).
std::optional<uint64_t> SizePolicy::leastSize(ExecutionState &s, const ExprRef &size, uint64_t from) {
  ExprContext &ctx = engine_.ctx;
  uint64_t lo = from, hi = kMaxAllocation;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    std::optional<Validity> v = engine_.questions.decide(s, ctx.ule(size, ctx.constant(mid, 64)));
    if (!v)
      return std::nullopt;
    if (*v == Validity::False)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

void SizePolicy::cutAboveCapacity(ExecutionState &s, uint64_t capacity) {
  RunStatistics &stats = engine_.stats;
  const uint64_t partialBefore = stats.pathsPartial;
  engine_.terminate(s, Termination::partialPath("size above the capacity " + std::to_string(capacity) +
                                                " not explored (--capacity)"));
  if (stats.sizeBound) // a state another work item explores is dropped, not counted
    stats.sizeBound->pathsCut += stats.pathsPartial - partialBefore;
}

void SizePolicy::noteCapacity(uint64_t capacity) {
  if (std::optional<SizeBoundStats> &bound = engine_.stats.sizeBound)
    bound->maxCapacity = std::max(bound->maxCapacity, capacity);
}

Value SizePolicy::product(const Value &count, const Value &each) {
  if (count.concrete() && each.concrete()) {
    u128 n = count.bits * each.bits;
    bool overflows = each.bits && n / each.bits != count.bits;
    return Value(overflows ? u128(kMaxAllocation) + 1 : n);
  }
  return Value(engine_.ctx.mul(count.expr(engine_.ctx, 64), each.expr(engine_.ctx, 64)));
}

} // namespace cairn::engine
