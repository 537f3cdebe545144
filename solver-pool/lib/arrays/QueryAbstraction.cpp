#include "QueryAbstraction.h"

#include <algorithm>
#include <unordered_set>

namespace cairn::arrays {

namespace {

// A read with at most this many positions in its interval is tied whole from the start. 64
// rather than 16 (side by side, fastest of three, typed at 64 over typed at 16):
// keyword-table 0.77x, lower-bound 0.75x, fsm-table 0.99x (160 queries against 170), the others
// within the noise; fsm-table's 45-position reads took a round each to be found wrong. It is
// also the default limit of what is abstracted at all (ArraySolverOptions::maxAxiomsPerRead),
// so by default a read is tied from the start or left to the core, and reads are refined
// round by round only under a raised limit or by axioms (--array-refinement axioms).
constexpr uint64_t kFewPositions = 64;

// The reads' variables and the reads left to the core in an abstracted (not yet inlined)
// constraint. Arrays are not entered: their terms are the query's own, with no variable.
void readsIn(const Expr *e, const FreshReads &fresh, const ReadAbstraction &abstraction,
             AbstractionCache::Entry &out) {
  std::unordered_set<const Expr *> seen;
  std::vector<const Expr *> stack{e};
  while (!stack.empty()) {
    const Expr *n = stack.back();
    stack.pop_back();
    if (n->isArray() || !seen.insert(n).second)
      continue;
    if (n->kind() == Kind::Symbol && fresh.isFresh(n->symbol()))
      out.variables.push_back(n);
    else if (n->kind() == Kind::Select && abstraction.leftToCore(n))
      out.leftToCore.emplace_back(n);
    for (unsigned k = 0; k < n->numKids(); ++k)
      stack.push_back(n->kid(k));
  }
}

} // namespace

AbstractQuery abstractQuery(const Query &q, const PrecheckResult &intervals, FreshReads &fresh,
                            AbstractionCache &cache, const AbstractionOptions &options) {
  AbstractQuery out;
  out.query.terms = q.terms;
  // With no interval the abstraction of a constraint is the same in every query: see
  // AbstractionCache.h.
  const bool reusable = intervals.indexIntervals.empty();
  if (reusable)
    cache.startQuery(q.arrayTypes, fresh.timesForgotten());
  ReadAbstraction abstraction(fresh, intervals, q.arrayTypes.get(), options.maxElementAxioms);

  std::vector<const Expr *> conjuncts;
  for (const ExprRef &c : q.constraints)
    conjuncts.push_back(c.get());
  conjuncts.push_back(q.expr.get());
  std::vector<ExprRef> abstracted(conjuncts.size());
  std::vector<bool> cached(conjuncts.size(), false);
  std::unordered_map<const Expr *, uint32_t> readAt; // variable -> its place in out.reads
  std::unordered_set<const Expr *> leftToCore;
  out.reads.reserve(16);
  auto addRead = [&](const AbstractRead &r) {
    if (readAt.try_emplace(r.variable.get(), uint32_t(out.reads.size())).second)
      out.reads.push_back(r);
  };
  for (size_t i = 0; i < conjuncts.size(); ++i) {
    if (reusable)
      if (const AbstractionCache::Entry *entry = cache.find(conjuncts[i])) {
        abstracted[i] = entry->inlined;
        cached[i] = true;
        ++out.constraintsReused;
        for (const Expr *v : entry->variables)
          addRead(cache.read(v));
        for (const ExprRef &s : entry->leftToCore)
          leftToCore.insert(s.get());
        continue;
      }
    abstracted[i] = abstraction.rewrite(conjuncts[i]);
  }
  for (const AbstractRead &r : abstraction.reads())
    addRead(r);

  out.whole.assign(out.reads.size(), false);
  for (size_t k = 0; k < out.reads.size(); ++k) {
    const AbstractRead &r = out.reads[k];
    out.untypedReads += r.untyped;
    if (fresh.tiedWhole(r.variable.get()) || (options.tieFewPositions && r.positions <= kFewPositions)) {
      out.inlined.add(r.variable, fresh.wholeOf(r));
      out.whole[k] = true;
    }
  }
  out.allTied = std::all_of(out.whole.begin(), out.whole.end(), [](bool w) { return w; });
  out.exact = reusable && out.allTied;

  for (size_t i = 0; i < conjuncts.size(); ++i) {
    if (cached[i])
      continue;
    ExprRef inlined = out.inlined.apply(abstracted[i]);
    if (reusable) {
      AbstractionCache::Entry entry{ExprRef(conjuncts[i]), inlined, {}, {}};
      readsIn(abstracted[i].get(), fresh, abstraction, entry);
      for (const ExprRef &s : entry.leftToCore)
        leftToCore.insert(s.get());
      if (std::all_of(entry.variables.begin(), entry.variables.end(),
                      [&](const Expr *v) { return out.whole[readAt.at(v)]; })) {
        std::vector<const AbstractRead *> reads;
        for (const Expr *v : entry.variables)
          reads.push_back(&out.reads[readAt.at(v)]);
        cache.add(std::move(entry), reads);
      }
    }
    abstracted[i] = std::move(inlined);
  }
  out.readsLeftToCore = reusable ? uint32_t(leftToCore.size()) : abstraction.concreteReads();
  out.query.expr = std::move(abstracted.back());
  abstracted.pop_back();
  out.query.constraints = std::move(abstracted);
  return out;
}

} // namespace cairn::arrays
