// The Z3 backend: translates each query's expression DAG into Z3 terms and asks a fresh Z3
// solver (one per query) in one context.
#include "BackendUtil.h"

#include "cairn/solver/Backends.h"

#include <z3++.h>

#include <cmath>
#include <unordered_map>

namespace cairn {

namespace {

using backend::naturallyBool;

class Z3Solver final : public Solver {
public:
  explicit Z3Solver(double timeoutSeconds) { setTimeout(timeoutSeconds); }

  SolverResponse check(const Query &query, bool wantModel) override;
  std::string name() const override { return "z3"; }
  void collectStats(std::vector<SolverLayerStats> &out) const override {
    SolverLayerStats s = stats_;
    s.layer = name();
    out.push_back(std::move(s));
  }
  void setTimeout(double seconds) override {
    timeoutSeconds_ = std::isfinite(seconds) && seconds > 0 ? seconds : 0;
  }

  // Declarations, kept across queries by name and sort.
  z3::expr symbolConst(const SymbolDecl *s);

  z3::context &ctx() { return ctx_; }

private:
  SolverResponse checkImpl(const Query &query, bool wantModel);

  static constexpr size_t kMaxCachedSymbols = 1 << 16;

  // Declared first: the cached terms below must die before the context.
  z3::context ctx_;
  z3::tactic arrayTactic_{ctx_, "default"};
  std::unordered_map<std::string, z3::expr> symbols_;
  double timeoutSeconds_ = 0;
  SolverLayerStats stats_;
};

// Translates the expressions of one query; the memo is keyed by node and lives for the query.
class Z3Translator {
public:
  explicit Z3Translator(Z3Solver &owner) : owner_(owner), c_(owner.ctx()) {}

  // The term of a width-1 expression as a Bool.
  z3::expr asBool(const Expr *e) {
    if (e->kind() == Kind::Constant)
      return c_.bool_val(e->value() != 0);
    z3::expr t = translate(e);
    if (naturallyBool(e))
      return t;
    return wrap(Z3_mk_eq(c_, t, c_.bv_val(1, 1)));
  }

  // The term of a bit-vector expression as a bit-vector (width-1 Bools become #b1/#b0).
  z3::expr asBV(const Expr *e) {
    if (e->kind() == Kind::Constant)
      return constant(e->value(), e->width());
    z3::expr t = translate(e);
    if (!naturallyBool(e))
      return t;
    return wrap(Z3_mk_ite(c_, t, c_.bv_val(1, 1), c_.bv_val(0, 1)));
  }

  // The term of `e` in its natural form (see backend::naturallyBool). Iterative, so deep DAGs
  // (long store chains) do not exhaust the stack.
  z3::expr translate(const Expr *root) {
    return backend::translateDag(root, memo_, [&](const Expr *e) { return build(e); });
  }

private:
  z3::expr wrap(Z3_ast a) {
    c_.check_error();
    return z3::expr(c_, a);
  }

  z3::expr constant(u128 value, unsigned width) {
    return c_.bv_val(toDecimal(value & widthMask(width)).c_str(), width);
  }

  z3::sort bvSort(unsigned w) { return c_.bv_sort(w); }

  // Kids are already translated when this runs.
  z3::expr k(const Expr *e, unsigned i) { return memo_.at(e->kid(i)); }
  z3::expr bv(const Expr *e, unsigned i) { return asBV(e->kid(i)); }
  z3::expr bl(const Expr *e, unsigned i) { return asBool(e->kid(i)); }

  z3::expr build(const Expr *e) {
    const unsigned w = e->width();
    switch (e->kind()) {
    case Kind::Constant: return constant(e->value(), w);
    case Kind::Symbol:
    case Kind::ArraySymbol: return owner_.symbolConst(e->symbol());
    case Kind::ConstArray: {
      const ConstArrayData *d = e->constArray();
      z3::expr arr = wrap(Z3_mk_const_array(c_, bvSort(d->domainWidth), constant(d->defaultValue, d->width)));
      for (size_t i = 0; i < d->values.size(); ++i)
        if (d->values[i] != d->defaultValue)
          arr = wrap(Z3_mk_store(c_, arr, constant(u128(i), d->domainWidth),
                                 constant(d->values[i], d->width)));
      return arr;
    }
    case Kind::Store: return wrap(Z3_mk_store(c_, k(e, 0), bv(e, 1), bv(e, 2)));
    case Kind::Select: {
      z3::expr i = bv(e, 1);
      const unsigned iw = e->kid(1)->width();
      if (std::optional<z3::expr> t = backend::expandSelect<z3::expr>(
              e, [&](size_t c) { return z3::expr(c_, Z3_mk_bvult(c_, i, constant(c, iw))); },
              [&](const z3::expr &j) { return wrap(Z3_mk_eq(c_, i, j)); },
              [&](const z3::expr &c, const z3::expr &a, const z3::expr &b) { return wrap(Z3_mk_ite(c_, c, a, b)); },
              [&](u128 v) { return constant(v, w); }, [&](const Expr *x) { return asBV(x); }))
        return *t;
      return wrap(Z3_mk_select(c_, k(e, 0), i));
    }
    case Kind::Concat: return wrap(Z3_mk_concat(c_, bv(e, 0), bv(e, 1)));
    case Kind::Extract: {
      unsigned lo = e->extractOffset();
      return wrap(Z3_mk_extract(c_, lo + w - 1, lo, bv(e, 0)));
    }
    case Kind::ZExt:
    case Kind::SExt: {
      unsigned from = e->kid(0)->width();
      if (w <= from)
        return from == w ? bv(e, 0) : wrap(Z3_mk_extract(c_, w - 1, 0, bv(e, 0)));
      return e->kind() == Kind::ZExt ? wrap(Z3_mk_zero_ext(c_, w - from, bv(e, 0)))
                                     : wrap(Z3_mk_sign_ext(c_, w - from, bv(e, 0)));
    }
    case Kind::Add: return wrap(Z3_mk_bvadd(c_, bv(e, 0), bv(e, 1)));
    case Kind::Sub: return wrap(Z3_mk_bvsub(c_, bv(e, 0), bv(e, 1)));
    case Kind::Mul: return wrap(Z3_mk_bvmul(c_, bv(e, 0), bv(e, 1)));
    case Kind::UDiv: return wrap(Z3_mk_bvudiv(c_, bv(e, 0), bv(e, 1)));
    case Kind::SDiv: return wrap(Z3_mk_bvsdiv(c_, bv(e, 0), bv(e, 1)));
    case Kind::URem: return wrap(Z3_mk_bvurem(c_, bv(e, 0), bv(e, 1)));
    case Kind::SRem: return wrap(Z3_mk_bvsrem(c_, bv(e, 0), bv(e, 1)));
    case Kind::Shl: return wrap(Z3_mk_bvshl(c_, bv(e, 0), bv(e, 1)));
    case Kind::LShr: return wrap(Z3_mk_bvlshr(c_, bv(e, 0), bv(e, 1)));
    case Kind::AShr: return wrap(Z3_mk_bvashr(c_, bv(e, 0), bv(e, 1)));
    case Kind::Not:
      return e->isBool() ? wrap(Z3_mk_not(c_, bl(e, 0))) : wrap(Z3_mk_bvnot(c_, bv(e, 0)));
    case Kind::And:
    case Kind::Or: {
      if (e->isBool()) {
        // Named, so the operands stay referenced while Z3 builds the node.
        z3::expr a = bl(e, 0), b = bl(e, 1);
        Z3_ast args[2] = {a, b};
        return e->kind() == Kind::And ? wrap(Z3_mk_and(c_, 2, args)) : wrap(Z3_mk_or(c_, 2, args));
      }
      return e->kind() == Kind::And ? wrap(Z3_mk_bvand(c_, bv(e, 0), bv(e, 1)))
                                    : wrap(Z3_mk_bvor(c_, bv(e, 0), bv(e, 1)));
    }
    case Kind::Xor:
      return e->isBool() ? wrap(Z3_mk_xor(c_, bl(e, 0), bl(e, 1)))
                         : wrap(Z3_mk_bvxor(c_, bv(e, 0), bv(e, 1)));
    case Kind::Eq: {
      const Expr *a = e->kid(0), *b = e->kid(1);
      if (a->isArray())
        return wrap(Z3_mk_eq(c_, k(e, 0), k(e, 1)));
      if (a->isBool() && naturallyBool(a) && naturallyBool(b))
        return wrap(Z3_mk_eq(c_, k(e, 0), k(e, 1)));
      return wrap(Z3_mk_eq(c_, bv(e, 0), bv(e, 1)));
    }
    case Kind::Ult: return wrap(Z3_mk_bvult(c_, bv(e, 0), bv(e, 1)));
    case Kind::Ule: return wrap(Z3_mk_bvule(c_, bv(e, 0), bv(e, 1)));
    case Kind::Slt: return wrap(Z3_mk_bvslt(c_, bv(e, 0), bv(e, 1)));
    case Kind::Sle: return wrap(Z3_mk_bvsle(c_, bv(e, 0), bv(e, 1)));
    case Kind::Ite: {
      z3::expr cond = bl(e, 0);
      if (e->isArray())
        return wrap(Z3_mk_ite(c_, cond, k(e, 1), k(e, 2)));
      if (e->isBool())
        return wrap(Z3_mk_ite(c_, cond, bl(e, 1), bl(e, 2)));
      return wrap(Z3_mk_ite(c_, cond, bv(e, 1), bv(e, 2)));
    }
    case Kind::Forall:
    case Kind::Exists: {
      // The bound variable is translated like any symbol (a constant); Z3 abstracts it.
      z3::expr var = k(e, 0);
      z3::expr body = bl(e, 1);
      return e->kind() == Kind::Forall ? z3::forall(var, body) : z3::exists(var, body);
    }
    }
    throw std::invalid_argument(std::string("unsupported expression kind ") + kindName(e->kind()));
  }

  Z3Solver &owner_;
  z3::context &c_;
  backend::TermMemo<z3::expr> memo_;
};

z3::expr Z3Solver::symbolConst(const SymbolDecl *s) {
  std::string key = backend::symbolKey(s);
  if (auto it = symbols_.find(key); it != symbols_.end())
    return it->second;
  if (symbols_.size() >= kMaxCachedSymbols)
    symbols_.clear();
  z3::sort sort = s->isArray() ? ctx_.array_sort(ctx_.bv_sort(s->domainWidth), ctx_.bv_sort(s->width))
                               : ctx_.bv_sort(s->width);
  z3::expr t = ctx_.constant(s->name.c_str(), sort);
  symbols_.emplace(std::move(key), t);
  return t;
}

// The value of a bit-vector numeral, modulo 2^128.
u128 numeralValue(const z3::expr &v) {
  if (!v.is_numeral())
    throw std::runtime_error("model value is not a numeral: " + v.to_string());
  std::string digits;
  v.is_numeral(digits);
  return backend::parseDecimal(digits);
}

SolverResponse Z3Solver::checkImpl(const Query &query, bool wantModel) {
  Z3Translator tr(*this);
  // The plain SMT core answers the small queries of exploration in well under a millisecond,
  // where Z3's default solver spends ~10 ms choosing and applying tactics. A symbolic read
  // over a long store chain is the opposite: the default tactic eliminates the array in 0.16 s
  // where the plain core needs 10 s (1,000 stores). So: the core, unless the query has many
  // stores.
  constexpr uint32_t kArrayHeavyStores = 64;
  z3::solver solver = backend::queryShape(query).stores >= kArrayHeavyStores
                          ? arrayTactic_.mk_solver()
                          : z3::solver(ctx_, z3::solver::simple());
  if (timeoutSeconds_ > 0) {
    double ms = std::ceil(timeoutSeconds_ * 1000.0);
    z3::params p(ctx_);
    p.set("timeout", ms >= 4294967295.0 ? 4294967295u : std::max(1u, unsigned(ms)));
    solver.set(p);
  }
  for (const ExprRef &c : query.constraints)
    if (c)
      solver.add(tr.asBool(c.get()));
  if (query.expr)
    solver.add(tr.asBool(query.expr.get()));

  SolverResponse r;
  switch (solver.check()) {
  case z3::unsat: r.result = SatResult::Unsat; return r;
  case z3::unknown: {
    std::string why = solver.reason_unknown();
    return SolverResponse::unknown(why.empty() ? "unknown" : why);
  }
  case z3::sat: break;
  }
  r.result = SatResult::Sat;
  if (!wantModel)
    return r;
  z3::model model = solver.get_model();
  for (const SymbolDecl *s : backend::modelSymbols(query)) {
    z3::expr sym = symbolConst(s);
    if (!s->isArray()) {
      r.model.setScalar(s, numeralValue(model.eval(sym, true)));
      continue;
    }
    uint64_t n = backend::modelArrayLength(s);
    std::vector<u128> values(n);
    for (uint64_t i = 0; i < n; ++i) {
      z3::expr index = ctx_.bv_val(std::to_string(i).c_str(), s->domainWidth);
      z3::expr elem(ctx_, Z3_mk_select(ctx_, sym, index));
      ctx_.check_error();
      values[i] = numeralValue(model.eval(elem, true));
    }
    r.model.setArray(s, std::move(values));
  }
  return r;
}

SolverResponse Z3Solver::check(const Query &query, bool wantModel) {
  ++stats_.queries;
  ScopedSolverTimer timer(stats_);
  SolverResponse r;
  try {
    r = checkImpl(query, wantModel);
  } catch (const z3::exception &e) {
    r = SolverResponse::unknown(std::string("z3: ") + e.msg());
  } catch (const std::exception &e) {
    r = SolverResponse::unknown(std::string("z3: ") + e.what());
  } catch (...) {
    r = SolverResponse::unknown("z3: unknown exception");
  }
  if (r.result == SatResult::Unknown)
    ++stats_.unknown;
  else
    ++stats_.answered;
  return r;
}

} // namespace

std::unique_ptr<Solver> createZ3Solver(double timeoutSeconds) {
  return std::make_unique<Z3Solver>(timeoutSeconds);
}

} // namespace cairn
