// Assignments and the evaluation of expressions under them.
//
// Evaluation is iterative: an explicit work stack visits the DAG, each node is computed once
// (memoized by node) and only once the values it needs are known. The memo, the cursors and the
// stack of an evaluation are a thread's, kept from one evaluation to the next: the solver layers
// evaluate literals by the thousand (a cached model against each query, a byte's candidates),
// and a fresh node-based map per call made allocation most of their cost. A Select walks its array's
// Store/Ite chain in a loop, remembering how far it got while it waits for a store index, so
// long store chains cost neither stack depth nor repeated walks. Ite evaluates only the branch
// its condition picks. Quantifiers enumerate their bound variable in a fresh evaluator per value,
// so nothing memoized under one binding is reused under another.
#include "cairn/expr/Assignment.h"
#include "cairn/expr/Float.h"
#include "cairn/expr/Fold.h"
#include "cairn/expr/Quantified.h"

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace cairn {

u128 Assignment::scalar(const SymbolDecl *s) const {
  auto it = scalars_.find(s);
  return it == scalars_.end() ? 0 : it->second;
}

u128 Assignment::element(const SymbolDecl *a, u128 index) const {
  auto it = arrays_.find(a);
  if (it == arrays_.end() || index >= it->second.size())
    return 0;
  return it->second[size_t(index)];
}

const std::vector<u128> *Assignment::array(const SymbolDecl *a) const {
  auto it = arrays_.find(a);
  return it == arrays_.end() ? nullptr : &it->second;
}

void Assignment::merge(const Assignment &other) {
  for (const auto &[s, v] : other.scalars_)
    scalars_[s] = v;
  for (const auto &[s, v] : other.arrays_)
    arrays_[s] = v;
}

namespace {

constexpr unsigned kMaxEnumeratedWidth = 16;
// A bounded universal (Quantified.h) is evaluated instance by instance up to this many.
constexpr u128 kMaxBoundedInstances = u128(1) << 20;

// What an evaluation keeps while it runs.
struct Scratch {
  absl::flat_hash_map<const Expr *, u128> memo;
  // How far a waiting Select got along its array's store chain.
  absl::flat_hash_map<const Expr *, const Expr *> cursor;
  std::vector<const Expr *> stack;
  bool inUse = false; // by an evaluation on this thread: a nested one makes its own

  void reset() {
    const size_t used = memo.size();
    memo.clear();
    memo.reserve(used); // the next evaluation is likely of a similar size
    cursor.clear();
    stack.clear();
  }
};

class Evaluator {
public:
  Evaluator(const Assignment &a, Scratch &s) : a_(a), memo_(s.memo), cursor_(s.cursor), stack_(s.stack) {}

  u128 run(const Expr *root) {
    if (root->isArray())
      throw std::invalid_argument("evaluate: an array-valued expression has no bit-vector value");
    u128 v;
    if (need(root, v))
      return v;
    while (!stack_.empty()) {
      const Expr *e = stack_.back();
      if (memo_.count(e)) { // scheduled more than once
        stack_.pop_back();
        continue;
      }
      if (step(e, v)) {
        // step() pushes nothing when it succeeds, so `e` is still on top.
        stack_.pop_back();
        memo_.emplace(e, v & widthMask(e->width()));
      }
    }
    return memo_.at(root);
  }

private:
  const Assignment &a_;
  absl::flat_hash_map<const Expr *, u128> &memo_;
  absl::flat_hash_map<const Expr *, const Expr *> &cursor_;
  std::vector<const Expr *> &stack_;

  // The value of bit-vector `x` if already known (leaves always are); otherwise schedules it.
  bool need(const Expr *x, u128 &out) {
    switch (x->kind()) {
    case Kind::Constant: out = x->value(); return true;
    case Kind::Symbol: out = a_.scalar(x->symbol()) & widthMask(x->width()); return true;
    default: break;
    }
    auto it = memo_.find(x);
    if (it != memo_.end()) {
      out = it->second;
      return true;
    }
    stack_.push_back(x);
    return false;
  }

  u128 baseElement(const Expr *base, u128 index) const {
    switch (base->kind()) {
    case Kind::ConstArray: return base->constArray()->at(index) & widthMask(base->width());
    case Kind::ArraySymbol:
      return a_.element(base->symbol(), index) & widthMask(base->width());
    default: throw std::invalid_argument("evaluate: unexpected array expression");
    }
  }

  // Computes `e` into `out`, or schedules what it needs and returns false.
  bool step(const Expr *e, u128 &out) {
    const Kind k = e->kind();
    switch (k) {
    case Kind::Select: return select(e, out);
    case Kind::Ite: {
      u128 c;
      if (!need(e->kid(0), c))
        return false;
      return need(e->kid(c ? 1 : 2), out);
    }
    case Kind::Concat: {
      u128 hi, lo;
      bool ok = need(e->kid(0), hi);
      ok &= need(e->kid(1), lo);
      if (ok)
        out = (hi << e->kid(1)->width()) | lo;
      return ok;
    }
    case Kind::Extract:
    case Kind::ZExt:
    case Kind::SExt:
    case Kind::Not: {
      u128 a;
      if (!need(e->kid(0), a))
        return false;
      out = foldUnary(k, a, e->kid(0)->width(), e->width(), e->extractOffset());
      return true;
    }
    case Kind::Forall:
    case Kind::Exists: out = quantifier(e); return true;
    case Kind::Eq:
      if (e->kid(0)->isArray())
        return arrayEq(e, out);
      [[fallthrough]];
    case Kind::Add:
    case Kind::Sub:
    case Kind::Mul:
    case Kind::UDiv:
    case Kind::SDiv:
    case Kind::URem:
    case Kind::SRem:
    case Kind::And:
    case Kind::Or:
    case Kind::Xor:
    case Kind::Shl:
    case Kind::LShr:
    case Kind::AShr:
    case Kind::Ult:
    case Kind::Ule:
    case Kind::Slt:
    case Kind::Sle: {
      u128 a, b;
      bool ok = need(e->kid(0), a);
      ok &= need(e->kid(1), b);
      if (ok)
        out = foldBinary(k, a, b, e->kid(0)->width());
      return ok;
    }
    default:
      if (isFloatKind(k)) {
        u128 v[3] = {0, 0, 0};
        bool ok = true;
        for (unsigned i = 0; i < e->numKids(); ++i)
          ok &= need(e->kid(i), v[i]);
        if (ok)
          out = foldFloat(k, e->width(), e->kid(0)->width(), e->aux(), v[0], v[1], v[2]);
        return ok;
      }
      throw std::invalid_argument(std::string("evaluate: cannot evaluate a ") + kindName(k) +
                                  " as a bit-vector");
    }
  }

  bool select(const Expr *e, u128 &out) {
    u128 index;
    if (!need(e->kid(1), index))
      return false;
    auto cur = cursor_.find(e);
    const Expr *arr = cur == cursor_.end() ? e->kid(0) : cur->second;
    auto wait = [&] {
      cursor_[e] = arr;
      return false;
    };
    while (true) {
      switch (arr->kind()) {
      case Kind::Store: {
        u128 at;
        if (!need(arr->kid(1), at))
          return wait();
        if (at == index) {
          if (!need(arr->kid(2), out))
            return wait();
          cursor_.erase(e);
          return true;
        }
        arr = arr->kid(0);
        break;
      }
      case Kind::Ite: {
        u128 c;
        if (!need(arr->kid(0), c))
          return wait();
        arr = arr->kid(c ? 1 : 2);
        break;
      }
      default:
        out = baseElement(arr, index);
        cursor_.erase(e);
        return true;
      }
    }
  }

  // An array under the assignment: a base (array symbol or constant array) under writes.
  struct ArrayView {
    const Expr *base = nullptr;
    std::vector<std::pair<u128, u128>> writes; // (index, value), newest first
  };

  // Resolves `arr` into `view`, or schedules what it needs and returns false.
  bool resolve(const Expr *arr, ArrayView &view) {
    bool ok = true;
    while (true) {
      switch (arr->kind()) {
      case Kind::Store: {
        u128 i, v;
        bool have = need(arr->kid(1), i);
        have &= need(arr->kid(2), v);
        if (have)
          view.writes.emplace_back(i, v);
        ok &= have;
        arr = arr->kid(0);
        break;
      }
      case Kind::Ite: {
        u128 c;
        if (!need(arr->kid(0), c))
          return false;
        arr = arr->kid(c ? 1 : 2);
        break;
      }
      case Kind::ConstArray:
      case Kind::ArraySymbol: view.base = arr; return ok;
      default: throw std::invalid_argument("evaluate: unexpected array expression");
      }
    }
  }

  u128 read(const ArrayView &v, u128 index) const {
    for (const auto &[i, value] : v.writes)
      if (i == index)
        return value;
    return baseElement(v.base, index);
  }

  // Elements below this index may differ from the base's default value.
  u128 baseExtent(const Expr *base) const {
    if (base->kind() == Kind::ConstArray)
      return base->constArray()->values.size();
    const std::vector<u128> *values = a_.array(base->symbol());
    return values ? values->size() : 0;
  }

  u128 baseDefault(const Expr *base) const {
    return base->kind() == Kind::ConstArray ? base->constArray()->defaultValue : 0;
  }

  // Extensional equality of two arrays: they can differ only at written indices, at indices
  // their bases list explicitly, or (if any index is left over) at all the others at once.
  bool arrayEq(const Expr *e, u128 &out) {
    ArrayView x, y;
    bool ok = resolve(e->kid(0), x);
    ok &= resolve(e->kid(1), y);
    if (!ok)
      return false;
    const unsigned dw = e->kid(0)->domainWidth();
    const u128 domain = u128(1) << dw; // dw <= 64
    std::vector<u128> indices;
    for (const ArrayView *v : {&x, &y}) {
      for (const auto &w : v->writes)
        indices.push_back(w.first);
      for (u128 i = 0, n = std::min(baseExtent(v->base), domain); i < n; ++i)
        indices.push_back(i);
    }
    std::sort(indices.begin(), indices.end());
    indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
    out = 1;
    for (u128 i : indices)
      if (read(x, i) != read(y, i)) {
        out = 0;
        return true;
      }
    const u128 mask = widthMask(e->kid(0)->width());
    if (indices.size() < domain &&
        (baseDefault(x.base) & mask) != (baseDefault(y.base) & mask))
      out = 0;
    return true;
  }

  u128 quantifier(const Expr *e) {
    const Expr *bound = e->kid(0);
    if (std::optional<BoundedForall> b = asBoundedForall(e)) { // its instances 1..k only
      const u128 k = run(b->count.get());
      if (k > kMaxBoundedInstances)
        throw std::domain_error("evaluate: a bounded quantifier with " + std::to_string(uint64_t(k)) +
                                " instances");
      Assignment inner = a_;
      for (u128 v = 1; v <= k; ++v) {
        inner.setScalar(bound->symbol(), v);
        if (evaluate(b->body.get(), inner) == 0)
          return 0;
      }
      return 1;
    }
    const unsigned w = bound->width();
    if (w > kMaxEnumeratedWidth)
      throw std::domain_error("evaluate: cannot enumerate a " + std::to_string(w) +
                              "-bit bound variable ('" + bound->symbol()->name + "')");
    const bool universal = e->kind() == Kind::Forall;
    Assignment inner = a_;
    for (u128 v = 0; v <= widthMask(w); ++v) {
      inner.setScalar(bound->symbol(), v);
      bool holds = evaluate(e->kid(1), inner) != 0;
      if (holds != universal)
        return holds ? 1 : 0; // a witness (exists) or a counterexample (forall)
    }
    return universal ? 1 : 0;
  }
};

} // namespace

u128 evaluate(const Expr *e, const Assignment &a) {
  thread_local Scratch kept;
  if (kept.inUse) { // a quantifier's instance, inside an evaluation
    Scratch own;
    return Evaluator(a, own).run(e);
  }
  kept.reset();
  kept.inUse = true;
  struct Release {
    Scratch &s;
    ~Release() { s.inUse = false; }
  } release{kept};
  return Evaluator(a, kept).run(e);
}

} // namespace cairn
