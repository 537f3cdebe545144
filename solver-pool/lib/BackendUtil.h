// Helpers shared by the Z3 and cvc5 backends (private to solver-pool/lib; no solver headers).
#pragma once

#include "cairn/expr/Expr.h"
#include "cairn/expr/Float.h"
#include "cairn/expr/ExprUtil.h"
#include "cairn/solver/Solver.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
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
  bool floats = false;     // a floating-point kind occurs
  uint32_t depth = 0;      // the longest path from a root to a leaf, in nodes
  uint32_t stores = 0;     // array writes: many of them make array reasoning the hard part
  uint32_t ites = 0;       // if-then-else nodes: many of them come from merged or melded paths
  // Of `ites`, those in a chain that selects by a term's constant value (each link
  // ite(c == t, v, next) with the next link of that form): a lookup table or a store chain
  // written out as the array layer writes them, which the SMT core takes apart as fast as a
  // read, where an ite tree of merged paths is better bit-blasted whole.
  uint32_t selectorItes = 0;
};

// Whether `e` is ite(c == t, v, next) with c a constant and `next` of that form too: a link of
// a chain that selects by a term's value.
inline bool isSelectorLink(const Expr *e) {
  auto selects = [](const Expr *n) {
    if (n->kind() != Kind::Ite)
      return false;
    const Expr *c = n->kid(0);
    return c->kind() == Kind::Eq && (c->kid(0)->isConstant() || c->kid(1)->isConstant());
  };
  return selects(e) && selects(e->kid(2));
}

// Calls `visit(e)` once for each node below `root` that is not `visited(e)` yet, kids before
// parents (a depth-first walk taking kids left to right); `visit(e)` makes it visited. Kid i of
// a node is not walked into when `skipKid(node, i)`. Iterative, so deep DAGs (long store
// chains) cannot exhaust the stack.
template <class Visited, class Visit, class SkipKid>
void forEachPostOrder(const Expr *root, Visited &&visited, Visit &&visit, SkipKid &&skipKid) {
  std::vector<std::pair<const Expr *, bool>> stack{{root, false}};
  while (!stack.empty()) {
    auto [e, expanded] = stack.back();
    stack.pop_back();
    if (visited(e))
      continue;
    if (!expanded) {
      stack.push_back({e, true});
      for (unsigned i = e->numKids(); i-- > 0;)
        if (!visited(e->kid(i)) && !skipKid(e, i))
          stack.push_back({e->kid(i), false});
      continue;
    }
    visit(e);
  }
}

template <class Visited, class Visit>
void forEachPostOrder(const Expr *root, Visited &&visited, Visit &&visit) {
  forEachPostOrder(root, visited, visit, [](const Expr *, unsigned) { return false; });
}

inline QueryShape queryShape(const Query &query) {
  QueryShape shape;
  std::unordered_map<const Expr *, uint32_t> depth; // of finished nodes
  auto visited = [&](const Expr *e) { return depth.count(e) != 0; };
  auto visit = [&](const Expr *e) {
    uint32_t d = 0;
    for (unsigned i = 0; i < e->numKids(); ++i)
      d = std::max(d, depth.at(e->kid(i)));
    depth.emplace(e, d + 1);
    shape.depth = std::max(shape.depth, d + 1);
    if (e->kind() == Kind::Forall || e->kind() == Kind::Exists)
      shape.quantified = true;
    if (isFloatKind(e->kind()))
      shape.floats = true;
    if (e->kind() == Kind::Store)
      ++shape.stores;
    if (e->kind() == Kind::Ite) {
      ++shape.ites;
      shape.selectorItes += isSelectorLink(e);
    }
  };
  for (const ExprRef &c : query.constraints)
    if (c)
      forEachPostOrder(c.get(), visited, visit);
  if (query.expr)
    forEachPostOrder(query.expr.get(), visited, visit);
  return shape;
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

// A backend's declarations, kept across queries by name and sort, so a symbol is one term.
template <class Term> class SymbolTable {
public:
  // `make(s)` declares a symbol not seen yet.
  template <class Make> Term get(const SymbolDecl *s, Make &&make) {
    std::string key = symbolKey(s);
    if (auto it = terms_.find(key); it != terms_.end())
      return it->second;
    if (terms_.size() >= kMaxCachedSymbols)
      terms_.clear();
    Term t = make(s);
    terms_.emplace(std::move(key), t);
    return t;
  }
  void clear() { terms_.clear(); }

private:
  static constexpr size_t kMaxCachedSymbols = 1 << 16;
  std::unordered_map<std::string, Term> terms_;
};

} // namespace cairn::backend
