#include "Lane.h"

#include "cairn/expr/ExprUtil.h"
#include "cairn/solver/QuerySerialize.h"
#include "cairn/v1/expr.pb.h"

#include <algorithm>

namespace cairn::pool {

namespace {

bool sameClass(SymbolClass c, v1::SymbolClass m) {
  switch (c) {
  case SymbolClass::Input: return m == v1::SYMBOL_CLASS_INPUT;
  case SymbolClass::Address: return m == v1::SYMBOL_CLASS_ADDRESS;
  case SymbolClass::Bound: return m == v1::SYMBOL_CLASS_BOUND;
  }
  return false;
}

// The model's bindings of the query's own symbols. A lane's caches may answer with a model of
// an earlier query, whose other symbols the asking client may not have.
Assignment restrictTo(const Assignment &model, const Query &q) {
  SymbolCollector symbols;
  for (const ExprRef &c : q.constraints)
    symbols.add(c.get());
  if (q.expr)
    symbols.add(q.expr.get());
  for (const ExprRef &t : q.terms)
    symbols.add(t.get());
  Assignment out;
  for (const SymbolDecl *s : symbols.symbols()) {
    if (s->isArray()) {
      if (const std::vector<u128> *values = model.array(s))
        out.setArray(s, *values);
    } else if (model.scalars().count(s)) {
      out.setScalar(s, model.scalar(s));
    }
  }
  completeModel(out, q);
  return out;
}

// The address-aware cache tells bases apart by their size and tag only (it renames them), so
// their names in a symbolic form are free: naming each by its declaration too keeps two
// clients' bases of one name and other sizes from conflicting, which would reset the lane and
// empty its caches.
void nameBasesByDeclaration(v1::AddressForm &form) {
  for (v1::Symbol &s : *form.mutable_dag()->mutable_symbols())
    if (s.cls() == v1::SYMBOL_CLASS_ADDRESS)
      s.set_name(s.name() + "@" + std::to_string(s.width()) + ":" + std::to_string(s.size()) +
                 ":" + std::to_string(s.tag()));
}

} // namespace

void addLayerStats(std::vector<SolverLayerStats> &into, const std::vector<SolverLayerStats> &from) {
  for (const SolverLayerStats &l : from) {
    auto it = std::find_if(into.begin(), into.end(),
                           [&](const SolverLayerStats &x) { return x.layer == l.layer; });
    if (it == into.end()) {
      into.push_back(l);
      continue;
    }
    it->queries += l.queries;
    it->answered += l.answered;
    it->unknown += l.unknown;
    it->seconds += l.seconds;
    for (const auto &[name, value] : l.counters) {
      auto c = std::find_if(it->counters.begin(), it->counters.end(), [&](const auto &x) { return x.first == name; });
      if (c == it->counters.end())
        it->counters.emplace_back(name, value);
      else
        c->second += value;
    }
  }
}

Lane::Lane(const LaneOptions &options) : options_(options) {
  start();
  publishStats();
}

Lane::~Lane() {
  solver_.reset();
  ctx_.reset();
}

void Lane::start() {
  ctx_ = std::make_unique<ExprContext>();
  // No independence slicing: it assumes the constraints alone are satisfiable, which holds for
  // an engine's path constraints but not for every client's queries. No query cache either:
  // the shared cache in front of the lanes is one. The counterexample cache stays, as it
  // answers what exact keys cannot (subsets, supersets, models that happen to fit).
  std::unique_ptr<Solver> core = createLocalCore(options_.core, options_.floatCore, options_.isolateCore, 0);
  core = createQuantifiedSolver(std::move(core));
  if (options_.arrays.enabled())
    core = createTypedArraySolver(std::move(core), options_.arrays);
  solver_ = createCexCachingSolver(std::move(core), size_t(1) << 16);
  if (options_.addressCache)
    solver_ = createAddressCachingSolver(std::move(solver_));
}

void Lane::reset() {
  std::vector<SolverLayerStats> current;
  solver_->collectStats(current);
  solver_.reset();
  ctx_.reset();
  {
    std::lock_guard<std::mutex> lock(statsMutex_);
    addLayerStats(retired_, current);
    ++resets_;
  }
  start();
}

bool Lane::conflicts(const v1::ExprDag &dag) const {
  for (const v1::Symbol &s : dag.symbols()) {
    const SymbolDecl *d = ctx_->findSymbol(s.name());
    if (d && (d->width != s.width() || d->domainWidth != s.domain_width() ||
              d->size != s.size() || d->tag != s.tag() || !sameClass(d->cls, s.cls())))
      return true;
  }
  return false;
}

void Lane::solve(const v1::Query &message, double timeoutSeconds, v1::QueryResponse &out) {
  v1::Query renamed;
  if (message.has_symbolic()) {
    renamed = message;
    nameBasesByDeclaration(*renamed.mutable_symbolic());
  }
  const v1::Query &query = message.has_symbolic() ? renamed : message;
  if (conflicts(query.dag()) || conflicts(query.symbolic().dag()) ||
      ctx_->symbols().size() > options_.maxSymbols)
    reset();
  Query q = deserializeQuery(query, *ctx_);
  solver_->setTimeout(timeoutSeconds);
  // Always with a model: the answer goes into the shared cache, where it may later meet a
  // request for one.
  SolverResponse r = solver_->check(q, true);
  if (r.result == SatResult::Sat)
    r.model = restrictTo(r.model, q);
  serializeResponse(r, out);
  publishStats();
}

void Lane::publishStats() {
  std::vector<SolverLayerStats> current;
  solver_->collectStats(current);
  std::lock_guard<std::mutex> lock(statsMutex_);
  published_ = retired_;
  addLayerStats(published_, current);
}

std::vector<SolverLayerStats> Lane::stats() const {
  std::lock_guard<std::mutex> lock(statsMutex_);
  return published_;
}

uint64_t Lane::resets() const {
  std::lock_guard<std::mutex> lock(statsMutex_);
  return resets_;
}

} // namespace cairn::pool
