// Helpers shared by the Z3 and cvc5 backends (private to solver-pool/lib; no solver headers).
#pragma once

#include <optional>
#include <vector>

#include "cairn/expr/Expr.h"
#include "cairn/expr/ExprUtil.h"
#include "cairn/solver/Solver.h"

#include <cctype>
#include <string>
#include <string_view>
#include <algorithm>
#include <deque>
#include <unordered_map>
#include <vector>

namespace cairn::backend {

// The symbols a model must bind: those of the constraints, the expression and the terms,
// without quantifier-bound variables.
inline std::vector<const SymbolDecl *> modelSymbols(const Query &query) {
  SymbolCollector collector;
  for (const ExprRef &c : query.constraints)
    if (c)
      collector.add(c.get());
  if (query.expr)
    collector.add(query.expr.get());
  for (const ExprRef &t : query.terms)
    if (t)
      collector.add(t.get());
  std::vector<const SymbolDecl *> out;
  for (const SymbolDecl *s : collector.symbols())
    if (s->cls != SymbolClass::Bound)
      out.push_back(s);
  return out;
}

// What a backend needs to know of the asserted part of a query before translating it.
struct QueryShape {
  bool quantified = false; // a Forall or Exists occurs
  uint32_t depth = 0;      // the longest path from a root to a leaf, in nodes
  uint32_t stores = 0;     // array writes: many of them make array reasoning the hard part
};

inline QueryShape queryShape(const Query &query) {
  QueryShape shape;
  std::unordered_map<const Expr *, uint32_t> depth; // of finished nodes
  std::vector<std::pair<const Expr *, bool>> stack;
  for (const ExprRef &c : query.constraints)
    if (c)
      stack.push_back({c.get(), false});
  if (query.expr)
    stack.push_back({query.expr.get(), false});
  while (!stack.empty()) {
    auto [e, expanded] = stack.back();
    stack.pop_back();
    if (depth.count(e))
      continue;
    if (!expanded) {
      stack.push_back({e, true});
      for (unsigned i = 0; i < e->numKids(); ++i)
        if (!depth.count(e->kid(i)))
          stack.push_back({e->kid(i), false});
      continue;
    }
    uint32_t d = 0;
    for (unsigned i = 0; i < e->numKids(); ++i)
      d = std::max(d, depth.at(e->kid(i)));
    depth.emplace(e, d + 1);
    shape.depth = std::max(shape.depth, d + 1);
    if (e->kind() == Kind::Forall || e->kind() == Kind::Exists)
      shape.quantified = true;
    if (e->kind() == Kind::Store)
      ++shape.stores;
  }
  return shape;
}

// One query's solver terms by node. Terms are released in the order they were made, never in
// an order set by where the nodes lie in memory: Z3 recycles the ids of released terms and
// numbers the next query's terms with them, and its models follow that numbering. So equal
// query streams get equal models, whatever else the process allocated.
template <class Term> class TermMemo {
public:
  bool contains(const Expr *e) const { return index_.count(e) != 0; }
  const Term &at(const Expr *e) const { return terms_[index_.at(e)]; }
  void add(const Expr *e, Term t) {
    index_.emplace(e, terms_.size());
    terms_.push_back(std::move(t));
  }

private:
  std::unordered_map<const Expr *, size_t> index_;
  std::deque<Term> terms_; // no relocation while growing
};

// Translates the DAG below `root` bottom-up, each node once: `build(e)` runs when every kid
// of `e` is in `memo`. Iterative, so deep DAGs (long store chains) cannot exhaust the stack.
template <class Term, class Build>
Term translateDag(const Expr *root, TermMemo<Term> &memo, Build &&build) {
  if (memo.contains(root))
    return memo.at(root);
  std::vector<std::pair<const Expr *, bool>> stack{{root, false}};
  while (!stack.empty()) {
    auto [e, expanded] = stack.back();
    stack.pop_back();
    if (memo.contains(e))
      continue;
    if (!expanded) {
      stack.push_back({e, true});
      for (unsigned i = e->numKids(); i-- > 0;)
        if (!memo.contains(e->kid(i)))
          stack.push_back({e->kid(i), false});
      continue;
    }
    memo.add(e, build(e));
  }
  return memo.at(root);
}

// select(K, i) for a constant array K and a symbolic index i, as a balanced tree of index
// comparisons whose leaves are K's values (runs of equal values share one leaf). Bit-vector
// solvers decide such a tree in milliseconds, where the array encoding (a store per element)
// of a few hundred entries costs them seconds. `ult(i, c)`, `ite` and `value` build terms.
constexpr size_t kMaxLookupTree = 1 << 16;

template <class Term, class Ult, class Ite, class ValueOf>
Term constArrayLookup(const ConstArrayData &d, Ult &&ult, Ite &&ite, ValueOf &&value) {
  const size_t n = d.values.size();
  // [lo, hi): all one value, or split at the middle.
  auto build = [&](auto &&self, size_t lo, size_t hi) -> Term {
    bool uniform = true;
    for (size_t i = lo + 1; i < hi && uniform; ++i)
      uniform = d.values[i] == d.values[lo];
    if (uniform)
      return value(d.values[lo]);
    size_t mid = lo + (hi - lo) / 2;
    return ite(ult(mid), self(self, lo, mid), self(self, mid, hi));
  };
  if (n == 0)
    return value(d.defaultValue);
  return ite(ult(n), build(build, 0, n), value(d.defaultValue));
}

// select(store(..store(K, j1, v1).., jn, vn), i) for a constant array K, a symbolic index i
// and at most kMaxExpandedStores stores, as ite(i = jn, vn, .. ite(i = j1, v1, K[i]) ..) over
// the lookup tree of K. This keeps such reads out of the array theory, where a handful of
// stores over a table of a few hundred entries can cost a solver minutes. `ult(c)` compares i
// with a constant, `isIndex(j)` tests i = j; `termOf` gives the translated term of a node.
// nullopt when the select has another shape.
constexpr size_t kMaxExpandedStores = 256;

template <class Term, class Ult, class IsIndex, class Ite, class ValueOf, class TermOf>
std::optional<Term> expandSelect(const Expr *select, Ult &&ult, IsIndex &&isIndex, Ite &&ite,
                                 ValueOf &&value, TermOf &&termOf) {
  if (select->kid(1)->isConstant())
    return std::nullopt;
  std::vector<const Expr *> stores;
  const Expr *base = select->kid(0);
  for (; base->kind() == Kind::Store; base = base->kid(0))
    if (stores.size() == kMaxExpandedStores)
      return std::nullopt;
    else
      stores.push_back(base);
  if (base->kind() != Kind::ConstArray || base->constArray()->values.size() > kMaxLookupTree)
    return std::nullopt;
  Term result = constArrayLookup<Term>(*base->constArray(), ult, ite, value);
  for (size_t k = stores.size(); k-- > 0;) // the oldest store is innermost
    result = ite(isIndex(termOf(stores[k]->kid(1))), termOf(stores[k]->kid(2)), result);
  return result;
}

// Whether the backends translate a width-1 node to a Bool term (true) or to a 1-bit
// bit-vector (false). Either form is converted to the other where a use needs it.
inline bool naturallyBool(const Expr *e) {
  if (!e->isBool())
    return false;
  switch (e->kind()) {
  case Kind::Not:
  case Kind::And:
  case Kind::Or:
  case Kind::Xor:
  case Kind::Eq:
  case Kind::Ult:
  case Kind::Ule:
  case Kind::Slt:
  case Kind::Sle:
  case Kind::Ite:
  case Kind::Forall:
  case Kind::Exists:
    return true;
  default:
    return false;
  }
}

// A non-negative decimal numeral, modulo 2^128.
inline u128 parseDecimal(std::string_view s) {
  u128 v = 0;
  for (char ch : s) {
    if (ch < '0' || ch > '9')
      continue; // tolerate separators; the solvers print plain digits
    v = v * 10 + u128(ch - '0');
  }
  return v;
}

// A binary numeral (most significant bit first), modulo 2^128.
inline u128 parseBinary(std::string_view s) {
  u128 v = 0;
  for (char ch : s) {
    if (ch != '0' && ch != '1')
      continue;
    v = (v << 1) | u128(ch - '0');
  }
  return v;
}

inline std::string lowercase(std::string s) {
  for (char &ch : s)
    ch = char(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

// The number of model elements to read for an array symbol: its size, capped by the number of
// indices its domain has.
inline uint64_t modelArrayLength(const SymbolDecl *s) {
  uint64_t n = s->size;
  if (s->domainWidth < 64 && n > (uint64_t(1) << s->domainWidth))
    n = uint64_t(1) << s->domainWidth;
  return n;
}

// The per-instance cache key of a declaration: its name and sort.
inline std::string symbolKey(const SymbolDecl *s) {
  return s->name + '\x1f' + std::to_string(s->width) + ':' + std::to_string(s->domainWidth);
}

} // namespace cairn::backend
