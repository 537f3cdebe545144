#include "ReadAbstraction.h"
#include "ReadLookup.h"

#include "../ConstArrayReads.h"

namespace cairn::arrays {

ExprRef FreshReads::variableFor(const Expr *select) {
  auto it = variables_.find(select);
  if (it != variables_.end())
    return it->second.second;
  ExprContext &ctx = select->context();
  const SymbolDecl *s = ctx.declareSymbol("array_read", select->width(), SymbolClass::Input);
  symbols_.insert(s);
  ExprRef v = ctx.symbol(s);
  variables_.emplace(select, std::make_pair(ExprRef(select), v));
  return v;
}

const FreshReads::Tie &FreshReads::tied(const AbstractRead &r) {
  Tie &t = ties_[r.variable.get()];
  if (!t.tie || t.index.get() != r.index.get() || t.array.get() != r.array || t.interval.lo != r.interval.lo ||
      t.interval.hi != r.interval.hi || t.modulus != r.modulus || t.offset != r.offset) {
    WholeRead whole = wholeRead(r);
    ExprRef tie = wholeReadExpr(r, whole);
    t = {r.index, ExprRef(r.array), r.interval, r.modulus, r.offset, std::move(whole), std::move(tie)};
  }
  return t;
}

void FreshReads::startQuery() {
  if (variables_.size() <= capacity_)
    return;
  // The next query's reads get new symbols; the context keeps the old declarations (a name
  // each), not the selects and store chains.
  variables_.clear();
  symbols_.clear();
  tiedWhole_.clear();
  ties_.clear();
  ++forgotten_;
}

namespace {

// The stores at symbolic indices on top of `array` (newest first), and the array under them:
// from there down every store is at a constant index.
std::pair<std::vector<const Expr *>, const Expr *> peelSymbolicStores(const Expr *array) {
  std::vector<const Expr *> peeled;
  while (array->kind() == Kind::Store && hasSymbolicStore(array)) {
    peeled.push_back(array);
    array = array->kid(0);
  }
  return {std::move(peeled), array};
}

// Whether the core's own encoding of `select` (a read of known contents) is a lookup with no
// more leaves than the read has positions for the layer: a tree over the narrow part of an index
// the core finds by itself (a masked or zero-extended value, scaled and offset), where the read's
// interval and element width prune nothing more. The layer's tie then gains nothing, and was the
// slower formulation for the core: hash-probe-u64's probes at `(hash & 31) * 8 + k`, 32
// positions either way, took 1.3-1.4x plain's solver time tied.
bool coreLookupAsNarrow(const Expr *select, const AbstractRead &r) {
  if (!backend::expandsSelect(select))
    return false;
  const backend::NarrowIndex core = backend::narrowIndex(select->kid(1));
  return core.narrow && (uint64_t(1) << core.bits) <= r.positions;
}

} // namespace

uint64_t elementAxioms(const AbstractRead &r) {
  const Int lo = std::max<Int>(r.interval.lo, 0);
  const Int hi = std::min<Int>(r.interval.hi, Int(r.contents->size()) - 1);
  const uint64_t inInterval = hi < lo ? 0 : uint64_t((hi - lo) / Int(r.modulus)) + 1;
  const std::optional<uint64_t> byBits = lookupPositions(r);
  return byBits ? std::min(inInterval, *byBits) : inInterval;
}

ExprRef ReadAbstraction::rewrite(const Expr *root) {
  // Post-order, without recursion (path conditions can be deep): a node is rebuilt once the
  // expressions it needs are. A read needs its index and the indices and values of the stores
  // read-over-write will turn into a condition; other nodes need their kids; arrays are never
  // visited whole.
  auto needs = [](const Expr *e, std::vector<const Expr *> &out) {
    out.clear();
    if (e->isArray())
      return;
    if (isRead(e)) {
      out.push_back(e->kid(1));
      for (const Expr *store : peelSymbolicStores(e->kid(0)).first) {
        out.push_back(store->kid(1));
        out.push_back(store->kid(2));
      }
      return;
    }
    if (e->kind() == Kind::Select)
      return; // a constant-index element of an input or of known contents: left as it is
    for (unsigned i = 0; i < e->numKids(); ++i)
      out.push_back(e->kid(i));
  };
  std::vector<std::pair<const Expr *, bool>> stack{{root, false}};
  std::vector<const Expr *> kids;
  while (!stack.empty()) {
    auto [e, expanded] = stack.back();
    stack.pop_back();
    if (memo_.contains(e))
      continue;
    needs(e, kids);
    if (!expanded && !kids.empty()) {
      stack.push_back({e, true});
      for (const Expr *k : kids)
        if (!memo_.contains(k))
          stack.push_back({k, false});
      continue;
    }
    memo_.emplace(e, isRead(e) ? read(e) : rebuild(e));
  }
  return memo_.at(root);
}

ExprRef ReadAbstraction::rebuild(const Expr *e) {
  if (e->isArray() || e->kind() == Kind::Select || e->numKids() == 0)
    return ExprRef(e);
  std::vector<ExprRef> kids;
  bool changed = false;
  for (unsigned i = 0; i < e->numKids(); ++i) {
    kids.push_back(memo_.at(e->kid(i)));
    changed |= kids.back().get() != e->kid(i);
  }
  if (!changed)
    return ExprRef(e);
  const unsigned aux = e->kind() == Kind::Extract ? e->extractOffset() : 0;
  return e->context().build(e->kind(), kids, e->width(), aux);
}

ExprRef ReadAbstraction::read(const Expr *select) {
  ExprContext &ctx = select->context();
  const ExprRef index = memo_.at(select->kid(1));
  auto [peeled, known] = peelSymbolicStores(select->kid(0));
  ExprRef result = readKnown(known, index, select->kid(1));
  for (size_t s = peeled.size(); s-- > 0;) // the oldest store is innermost
    result = ctx.ite(ctx.eq(index, memo_.at(peeled[s]->kid(1))), memo_.at(peeled[s]->kid(2)), result);
  return result;
}

bool ReadAbstraction::leftToCore(const Expr *select) const {
  auto it = abstracted_.find(select);
  return it != abstracted_.end() && it->second.get() == select;
}

ExprRef ReadAbstraction::readKnown(const Expr *array, const ExprRef &index, const Expr *originalIndex) {
  ExprContext &ctx = array->context();
  ExprRef select = ctx.select(ExprRef(array), index);
  if (select->kind() != Kind::Select || select->kid(1)->isConstant() || select->width() != 8)
    return select;
  auto [it, added] = contents_.try_emplace(array);
  if (added)
    if (std::optional<ArrayContents> c = ArrayContents::of(array))
      it->second = std::make_shared<const ArrayContents>(std::move(*c));
  if (!it->second)
    return select; // an input array read at a symbolic index: the backend's array theory
  if (auto known = abstracted_.find(select.get()); known != abstracted_.end())
    return known->second;
  const Expr *root = rootOf(array);
  AbstractRead r;
  r.array = array;
  r.contents = it->second;
  r.index = index;
  r.interval = intervalOf(intervals_, originalIndex);
  r.indexBits = knownBits_.of(originalIndex);
  r.modulus = elementBytes(types_, root);
  if (std::optional<u128> k = residue(index.get(), r.modulus)) {
    r.offset = *k;
  } else {
    r.untyped = r.modulus > 1;
    r.modulus = 1;
    r.offset = 0;
  }
  // A read that could land on many positions stays with the core's own encoding (a lookup
  // tree over the table): refining it element by element would take a round per element. So
  // does one the core looks up over as few positions by itself.
  r.positions = elementAxioms(r);
  if (r.positions > maxElementAxioms_ || coreLookupAsNarrow(select.get(), r)) {
    ++concrete_;
    abstracted_.emplace(select.get(), select);
    return select;
  }
  r.variable = fresh_.variableFor(select.get());
  abstracted_.emplace(select.get(), r.variable);
  ExprRef variable = r.variable;
  reads_.push_back(std::move(r));
  return variable;
}

} // namespace cairn::arrays
