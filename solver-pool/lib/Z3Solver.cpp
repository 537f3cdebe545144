// The Z3 backend: Z3's term constructors for the shared translator (ExprTranslator.h), and a
// fresh Z3 solver (one per query) in one context.
#include "BackendSolver.h"
#include "BackendUtil.h"
#include "ExprTranslator.h"

#include "cairn/solver/Backends.h"

#include <z3++.h>

#include <atomic>
#include <cmath>
#include <future>
#include <mutex>
#include <optional>

namespace cairn {

namespace {

// Z3's term constructors, for the shared translator.
class Z3Terms {
public:
  using Term = z3::expr;
  static constexpr backend::OperandOrder kOperandOrder = backend::OperandOrder::RightToLeft;

  Z3Terms(z3::context &c, backend::SymbolTable<z3::expr> &symbols) : c_(c), symbols_(symbols) {}

  Term mkBool(bool value) { return c_.bool_val(value); }
  Term mkBv(u128 value, unsigned width) {
    return c_.bv_val(toDecimal(value & widthMask(width)).c_str(), width);
  }
  Term mkSymbol(const SymbolDecl *s) {
    return symbols_.get(s, [&](const SymbolDecl *d) {
      z3::sort sort = d->isArray() ? c_.array_sort(c_.bv_sort(d->domainWidth), c_.bv_sort(d->width))
                                   : c_.bv_sort(d->width);
      return c_.constant(d->name.c_str(), sort);
    });
  }
  Term mkConstArray(unsigned domainWidth, unsigned width, u128 value) {
    return wrap(Z3_mk_const_array(c_, c_.bv_sort(domainWidth), mkBv(value, width)));
  }
  Term mkStore(const Term &a, const Term &i, const Term &v) { return wrap(Z3_mk_store(c_, a, i, v)); }
  Term mkSelect(const Term &a, const Term &i) { return wrap(Z3_mk_select(c_, a, i)); }
  Term mkConcat(const Term &a, const Term &b) { return wrap(Z3_mk_concat(c_, a, b)); }
  Term mkExtract(unsigned hi, unsigned lo, const Term &t) { return wrap(Z3_mk_extract(c_, hi, lo, t)); }
  Term mkZeroExt(unsigned by, const Term &t) { return wrap(Z3_mk_zero_ext(c_, by, t)); }
  Term mkSignExt(unsigned by, const Term &t) { return wrap(Z3_mk_sign_ext(c_, by, t)); }
  Term mkBvAdd(const Term &a, const Term &b) { return wrap(Z3_mk_bvadd(c_, a, b)); }
  Term mkBvSub(const Term &a, const Term &b) { return wrap(Z3_mk_bvsub(c_, a, b)); }
  Term mkBvMul(const Term &a, const Term &b) { return wrap(Z3_mk_bvmul(c_, a, b)); }
  Term mkBvUDiv(const Term &a, const Term &b) { return wrap(Z3_mk_bvudiv(c_, a, b)); }
  Term mkBvSDiv(const Term &a, const Term &b) { return wrap(Z3_mk_bvsdiv(c_, a, b)); }
  Term mkBvURem(const Term &a, const Term &b) { return wrap(Z3_mk_bvurem(c_, a, b)); }
  Term mkBvSRem(const Term &a, const Term &b) { return wrap(Z3_mk_bvsrem(c_, a, b)); }
  Term mkBvShl(const Term &a, const Term &b) { return wrap(Z3_mk_bvshl(c_, a, b)); }
  Term mkBvLShr(const Term &a, const Term &b) { return wrap(Z3_mk_bvlshr(c_, a, b)); }
  Term mkBvAShr(const Term &a, const Term &b) { return wrap(Z3_mk_bvashr(c_, a, b)); }
  Term mkBvNot(const Term &a) { return wrap(Z3_mk_bvnot(c_, a)); }
  Term mkBvAnd(const Term &a, const Term &b) { return wrap(Z3_mk_bvand(c_, a, b)); }
  Term mkBvOr(const Term &a, const Term &b) { return wrap(Z3_mk_bvor(c_, a, b)); }
  Term mkBvXor(const Term &a, const Term &b) { return wrap(Z3_mk_bvxor(c_, a, b)); }
  Term mkBvUlt(const Term &a, const Term &b) { return wrap(Z3_mk_bvult(c_, a, b)); }
  Term mkBvUle(const Term &a, const Term &b) { return wrap(Z3_mk_bvule(c_, a, b)); }
  Term mkBvSlt(const Term &a, const Term &b) { return wrap(Z3_mk_bvslt(c_, a, b)); }
  Term mkBvSle(const Term &a, const Term &b) { return wrap(Z3_mk_bvsle(c_, a, b)); }
  Term mkNot(const Term &a) { return wrap(Z3_mk_not(c_, a)); }
  Term mkAnd(const Term &a, const Term &b) {
    Z3_ast args[2] = {a, b};
    return wrap(Z3_mk_and(c_, 2, args));
  }
  Term mkOr(const Term &a, const Term &b) {
    Z3_ast args[2] = {a, b};
    return wrap(Z3_mk_or(c_, 2, args));
  }
  Term mkXor(const Term &a, const Term &b) { return wrap(Z3_mk_xor(c_, a, b)); }
  Term mkEq(const Term &a, const Term &b) { return wrap(Z3_mk_eq(c_, a, b)); }
  Term mkIte(const Term &c, const Term &a, const Term &b) { return wrap(Z3_mk_ite(c_, c, a, b)); }
  Term boolToBv(const Term &t) { return wrap(Z3_mk_ite(c_, t, c_.bv_val(1, 1), c_.bv_val(0, 1))); }
  Term bvToBool(const Term &t) { return wrap(Z3_mk_eq(c_, t, c_.bv_val(1, 1))); }
  // Z3 abstracts the constant itself: it is the variable.
  Term boundVariable(const Term &constant, const SymbolDecl *) { return constant; }
  Term abstractBound(const Term &body, const Term &, const Term &) { return body; }
  Term mkQuantifier(bool forall, const Term &var, const Term &body) {
    return forall ? z3::forall(var, body) : z3::exists(var, body);
  }

  Term mkFp(backend::FpOp op, RoundingMode rm, std::initializer_list<Term> args, backend::FpSort to, unsigned width) {
    using backend::FpOp;
    const Term *x = args.begin();
    switch (op) {
    case FpOp::Add: return wrap(Z3_mk_fpa_add(c_, mode(rm), x[0], x[1]));
    case FpOp::Sub: return wrap(Z3_mk_fpa_sub(c_, mode(rm), x[0], x[1]));
    case FpOp::Mul: return wrap(Z3_mk_fpa_mul(c_, mode(rm), x[0], x[1]));
    case FpOp::Div: return wrap(Z3_mk_fpa_div(c_, mode(rm), x[0], x[1]));
    case FpOp::Fma: return wrap(Z3_mk_fpa_fma(c_, mode(rm), x[0], x[1], x[2]));
    case FpOp::Sqrt: return wrap(Z3_mk_fpa_sqrt(c_, mode(rm), x[0]));
    case FpOp::Rem: return wrap(Z3_mk_fpa_rem(c_, x[0], x[1]));
    case FpOp::RoundToIntegral: return wrap(Z3_mk_fpa_round_to_integral(c_, mode(rm), x[0]));
    case FpOp::Neg: return wrap(Z3_mk_fpa_neg(c_, x[0]));
    case FpOp::Abs: return wrap(Z3_mk_fpa_abs(c_, x[0]));
    case FpOp::Eq: return wrap(Z3_mk_fpa_eq(c_, x[0], x[1]));
    case FpOp::Lt: return wrap(Z3_mk_fpa_lt(c_, x[0], x[1]));
    case FpOp::Leq: return wrap(Z3_mk_fpa_leq(c_, x[0], x[1]));
    case FpOp::IsNaN: return wrap(Z3_mk_fpa_is_nan(c_, x[0]));
    case FpOp::IsZero: return wrap(Z3_mk_fpa_is_zero(c_, x[0]));
    case FpOp::IsNegative: return wrap(Z3_mk_fpa_is_negative(c_, x[0]));
    case FpOp::Convert: return wrap(Z3_mk_fpa_to_fp_float(c_, mode(rm), x[0], sort(to)));
    case FpOp::FromSigned: return wrap(Z3_mk_fpa_to_fp_signed(c_, mode(rm), x[0], sort(to)));
    case FpOp::FromUnsigned: return wrap(Z3_mk_fpa_to_fp_unsigned(c_, mode(rm), x[0], sort(to)));
    case FpOp::ToSigned: return wrap(Z3_mk_fpa_to_sbv(c_, mode(rm), x[0], width));
    case FpOp::ToUnsigned: return wrap(Z3_mk_fpa_to_ubv(c_, mode(rm), x[0], width));
    }
    throw std::invalid_argument("unknown floating-point operation");
  }
  Term mkFpFromBits(const Term &bits, backend::FpSort s) { return wrap(Z3_mk_fpa_to_fp_bv(c_, bits, sort(s))); }
  Term mkFpToBits(const Term &t, backend::FpSort) { return wrap(Z3_mk_fpa_to_ieee_bv(c_, t)); }
  Term mkFpNaN(backend::FpSort s) { return wrap(Z3_mk_fpa_nan(c_, sort(s))); }

private:
  // Held in a z3::sort: Z3 keeps a fresh object alive only until the next call makes one, and
  // a float sort no term uses yet would be freed while the call that takes it is being built.
  z3::sort sort(backend::FpSort s) {
    z3::sort r(c_, Z3_mk_fpa_sort(c_, s.exponentBits, s.significandBits));
    c_.check_error();
    return r;
  }
  Term mode(RoundingMode rm) {
    switch (rm) {
    case RoundingMode::NearestEven: return wrap(Z3_mk_fpa_rne(c_));
    case RoundingMode::NearestAway: return wrap(Z3_mk_fpa_rna(c_));
    case RoundingMode::Upward: return wrap(Z3_mk_fpa_rtp(c_));
    case RoundingMode::Downward: return wrap(Z3_mk_fpa_rtn(c_));
    case RoundingMode::TowardZero: return wrap(Z3_mk_fpa_rtz(c_));
    }
    throw std::invalid_argument("unknown rounding mode");
  }
  Term wrap(Z3_ast a) {
    c_.check_error();
    return z3::expr(c_, a);
  }

  z3::context &c_;
  backend::SymbolTable<z3::expr> &symbols_;
};

// A context made ahead on another thread (prepareZ3Context), for the first solver to take.
// Never destroyed: one nobody took must not outlive Z3's own globals at exit.
std::mutex spareMutex;
auto *spare = new std::future<std::unique_ptr<z3::context>>;

std::unique_ptr<z3::context> takeContext() {
  std::unique_lock lock(spareMutex);
  if (spare->valid())
    return spare->get();
  lock.unlock();
  return std::make_unique<z3::context>();
}

class Z3Solver final : public backend::BackendSolver {
public:
  explicit Z3Solver(double timeoutSeconds) : BackendSolver("z3", timeoutSeconds) {}

  // Z3_interrupt is made to be called from another thread while the context solves; between
  // queries it does nothing, and the next query runs as usual.
  void interrupt() override {
    if (z3::context *c = interruptible_.load())
      c->interrupt();
  }

private:
  class Incremental;

  SolverResponse solve(const Query &query, bool wantModel) override;
  std::unique_ptr<BackendSolver::Incremental> startIncremental(const Query &query) override;
  // Whether the query goes to Z3's default tactic instead of the plain SMT core.
  bool heavy(const Query &query);
  // Made on the first query, or taken from prepareZ3Context: a context takes 8-60 ms (Z3's
  // AST manager fills two 8 MiB tables, page by page), longer than a small run's whole
  // exploration, and a run may ask nothing.
  z3::context &context() {
    if (!context_) {
      context_ = takeContext();
      interruptible_ = context_.get();
    }
    return *context_;
  }

  // Declared first: the cached terms below must die before the context.
  std::unique_ptr<z3::context> context_;
  std::atomic<z3::context *> interruptible_{nullptr}; // context_, for interrupt()'s thread
  // Made on the first array- or ite-heavy query: building it takes a tenth of a short run's
  // start-up.
  std::optional<z3::tactic> arrayTactic_;
  backend::SymbolTable<z3::expr> symbols_;
};

// The value of a bit-vector numeral, modulo 2^128.
u128 numeralValue(const z3::expr &v) {
  if (!v.is_numeral())
    throw std::runtime_error("model value is not a numeral: " + v.to_string());
  std::string digits;
  v.is_numeral(digits);
  return backend::parseDecimal(digits);
}

// The model's values of every symbol the query must bind.
Assignment modelOf(z3::solver &solver, Z3Terms &terms, const Query &query) {
  z3::context &ctx = solver.ctx();
  z3::model model = solver.get_model();
  Assignment out;
  for (const SymbolDecl *s : backend::modelSymbols(query)) {
    z3::expr sym = terms.mkSymbol(s);
    if (!s->isArray()) {
      out.setScalar(s, numeralValue(model.eval(sym, true)));
      continue;
    }
    uint64_t n = backend::modelArrayLength(s);
    std::vector<u128> values(n);
    for (uint64_t i = 0; i < n; ++i) {
      z3::expr index = ctx.bv_val(std::to_string(i).c_str(), s->domainWidth);
      z3::expr elem(ctx, Z3_mk_select(ctx, sym, index));
      ctx.check_error();
      values[i] = numeralValue(model.eval(elem, true));
    }
    out.setArray(s, std::move(values));
  }
  return out;
}

// Z3's answer as a response (a model still to be read for Sat).
SolverResponse responseOf(z3::check_result result, z3::solver &solver) {
  switch (result) {
  case z3::unsat: return SolverResponse{SatResult::Unsat, {}, {}};
  case z3::unknown: {
    std::string why = solver.reason_unknown();
    if (why == "canceled") // Z3_interrupt's word; the other cores say "interrupted"
      why = "interrupted";
    return SolverResponse::unknown(why.empty() ? "unknown" : why);
  }
  case z3::sat: break;
  }
  return SolverResponse{SatResult::Sat, {}, {}};
}

void limitTime(z3::solver &solver, double seconds) {
  if (seconds <= 0)
    return;
  double ms = std::ceil(seconds * 1000.0);
  z3::params p(solver.ctx());
  p.set("timeout", ms >= 4294967295.0 ? 4294967295u : std::max(1u, unsigned(ms)));
  solver.set(p);
}

bool Z3Solver::heavy(const Query &query) {
  // The plain SMT core answers the small queries of exploration in well under a millisecond,
  // where Z3's default solver spends ~10 ms choosing and applying tactics. A symbolic read
  // over a long store chain is the opposite: the default tactic eliminates the array in 0.16 s
  // where the plain core needs 10 s (1,000 stores). So: the core, unless the query has many
  // stores. So are the if-then-else trees of merged states and melded branches: connected
  // components with its branches melded (--transform-branches) ran 2.6 s at N = 3 with the
  // core for them, 0.9 s with the default tactic. Not where the if-then-else nodes are mostly
  // chains that select by an index's value, though (the typed array layer's reads and its
  // writes at symbolic indices, 93 % of matrix-transpose's): those the core takes apart as it
  // does reads, and the default tactic's bit-blasting of them was 2-20x slower (its six slowest
  // queries: 0.14-1.1 s in the core, 0.28-4.5 s). Where such chains are the fewer (prim
  // melded, a quarter of 74-79 beside 46-50 stores) the default tactic stays the faster.
  constexpr uint32_t kArrayHeavyStores = 64, kIteHeavy = 64;
  const backend::QueryShape shape = backend::queryShape(query);
  const bool mostlySelectors = 2 * shape.selectorItes > shape.ites;
  const uint32_t ites = mostlySelectors ? shape.ites - shape.selectorItes : shape.ites;
  const bool heavy = shape.stores >= kArrayHeavyStores || ites >= kIteHeavy;
  if (heavy && !arrayTactic_)
    arrayTactic_.emplace(context(), "default");
  return heavy;
}

// One incremental SMT core for a session: what it learned stays for the next check, and terms
// translated once (the query) are not translated again.
class Z3Solver::Incremental final : public backend::BackendSolver::Incremental {
public:
  explicit Incremental(Z3Solver &owner)
      : owner_(owner), solver_(owner.context(), z3::solver::simple()), terms_(owner.context(), owner.symbols_),
        translator_(terms_) {}
  void add(const Expr *constraint) override { solver_.add(translator_.asBool(constraint)); }
  SolverResponse check(const Query &whole, bool wantModel) override {
    limitTime(solver_, owner_.timeoutSeconds());
    SolverResponse r = responseOf(solver_.check(), solver_);
    if (r.result == SatResult::Sat && wantModel)
      r.model = modelOf(solver_, terms_, whole);
    return r;
  }

private:
  Z3Solver &owner_;
  z3::solver solver_;
  Z3Terms terms_;
  backend::ExprTranslator<Z3Terms> translator_;
};

std::unique_ptr<backend::BackendSolver::Incremental> Z3Solver::startIncremental(const Query &query) {
  // The default tactic solves a query whole: it has no incremental form.
  if (heavy(query))
    return nullptr;
  return std::make_unique<Incremental>(*this);
}

SolverResponse Z3Solver::solve(const Query &query, bool wantModel) {
  z3::context &ctx = context();
  Z3Terms terms(ctx, symbols_);
  backend::ExprTranslator tr(terms);
  const bool useTactic = heavy(query);
  z3::solver solver = useTactic ? arrayTactic_->mk_solver() : z3::solver(ctx, z3::solver::simple());
  limitTime(solver, timeoutSeconds());
  for (const ExprRef &c : query.constraints)
    if (c)
      solver.add(tr.asBool(c.get()));
  if (query.expr)
    solver.add(tr.asBool(query.expr.get()));

  SolverResponse r = responseOf(solver.check(), solver);
  if (r.result != SatResult::Sat || !wantModel)
    return r;
  r.model = modelOf(solver, terms, query);
  return r;
}

} // namespace

void prepareZ3Context() {
  std::lock_guard lock(spareMutex);
  if (!spare->valid())
    *spare = std::async(std::launch::async, [] { return std::make_unique<z3::context>(); });
}

std::unique_ptr<Solver> createZ3Solver(double timeoutSeconds) {
  return std::make_unique<Z3Solver>(timeoutSeconds);
}

} // namespace cairn
