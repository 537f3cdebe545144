// The cvc5 backend: cvc5's term constructors for the shared translator (ExprTranslator.h), and
// an incremental cvc5 solver that checks each query between push and pop.
//
// cvc5 fixes its logic and most options (among them the "tlimit-per" time limit) when it first
// solves, so an instance is made per logic (QF_ABV for quantifier-free queries, ABV for
// quantified ones, QF_ABVFP for quantifier-free ones with floating point) and made anew when
// the timeout changes or after an exception (the API leaves its objects in an unspecified
// state then).
#include "BackendSolver.h"
#include "BackendUtil.h"
#include "ExprTranslator.h"

#include "cairn/solver/Backends.h"

#include <cvc5/cvc5.h>

#include <cmath>
#include <pthread.h>
#include <sstream>

namespace cairn {

namespace {

// One cvc5 solver with its declarations.
struct Cvc5Instance {
  std::unique_ptr<cvc5::Solver> solver;
  // Declared after the solver, so destroyed before it.
  backend::SymbolTable<cvc5::Term> symbols;
  double timeoutSeconds = 0;

  Cvc5Instance(bool quantified, bool floats, double timeout) : solver(std::make_unique<cvc5::Solver>()) {
    timeoutSeconds = timeout;
    solver->setOption("produce-models", "true");
    solver->setOption("incremental", "true");
    // Bit-vectors bit-blasted into the main SAT solver, not into a CaDiCaL instance of their
    // own: when the time limit stops that CaDiCaL in the middle of a check, cvc5 1.0.3 goes on
    // to read its model and CaDiCaL aborts the process ("can only get value in satisfied
    // state": array benchmark runs ended by --max-time, and BackendTest's
    // TimeLimitsMidCheckNeverAbort every time). Measured on the 12 programs of
    // tests/bench/arrays, 15 s each: as many queries in the time (0.98x).
    solver->setOption("bv-solver", "bitblast-internal");
    if (floats)
      solver->setOption("fp-exp", "true");
    if (timeout > 0) {
      double ms = std::ceil(timeout * 1000.0);
      solver->setOption("tlimit-per", std::to_string(uint64_t(std::max(1.0, ms))));
    }
    solver->setLogic(std::string(quantified ? "ABV" : "QF_ABV") + (floats ? "FP" : ""));
  }
  ~Cvc5Instance() { symbols.clear(); }
};

// cvc5's term constructors, for the shared translator.
class Cvc5Terms {
  using K = cvc5::Kind;

public:
  using Term = cvc5::Term;
  static constexpr backend::OperandOrder kOperandOrder = backend::OperandOrder::LeftToRight;

  explicit Cvc5Terms(Cvc5Instance &inst) : s_(*inst.solver), symbols_(inst.symbols) {}

  Term mkBool(bool value) { return s_.mkBoolean(value); }
  Term mkBv(u128 value, unsigned width) {
    return s_.mkBitVector(width, toDecimal(value & widthMask(width)), 10);
  }
  Term mkSymbol(const SymbolDecl *s) {
    return symbols_.get(s, [&](const SymbolDecl *d) {
      cvc5::Sort sort = d->isArray() ? s_.mkArraySort(s_.mkBitVectorSort(d->domainWidth),
                                                      s_.mkBitVectorSort(d->width))
                                     : s_.mkBitVectorSort(d->width);
      return s_.mkConst(sort, d->name);
    });
  }
  Term mkConstArray(unsigned domainWidth, unsigned width, u128 value) {
    cvc5::Sort sort = s_.mkArraySort(s_.mkBitVectorSort(domainWidth), s_.mkBitVectorSort(width));
    return s_.mkConstArray(sort, mkBv(value, width));
  }
  Term mkStore(const Term &a, const Term &i, const Term &v) { return s_.mkTerm(K::STORE, {a, i, v}); }
  Term mkSelect(const Term &a, const Term &i) { return s_.mkTerm(K::SELECT, {a, i}); }
  Term mkConcat(const Term &a, const Term &b) { return s_.mkTerm(K::BITVECTOR_CONCAT, {a, b}); }
  Term mkExtract(unsigned hi, unsigned lo, const Term &t) {
    return s_.mkTerm(s_.mkOp(K::BITVECTOR_EXTRACT, {hi, lo}), {t});
  }
  Term mkZeroExt(unsigned by, const Term &t) {
    return s_.mkTerm(s_.mkOp(K::BITVECTOR_ZERO_EXTEND, {by}), {t});
  }
  Term mkSignExt(unsigned by, const Term &t) {
    return s_.mkTerm(s_.mkOp(K::BITVECTOR_SIGN_EXTEND, {by}), {t});
  }
  Term mkBvAdd(const Term &a, const Term &b) { return s_.mkTerm(K::BITVECTOR_ADD, {a, b}); }
  Term mkBvSub(const Term &a, const Term &b) { return s_.mkTerm(K::BITVECTOR_SUB, {a, b}); }
  Term mkBvMul(const Term &a, const Term &b) { return s_.mkTerm(K::BITVECTOR_MULT, {a, b}); }
  Term mkBvUDiv(const Term &a, const Term &b) { return s_.mkTerm(K::BITVECTOR_UDIV, {a, b}); }
  Term mkBvSDiv(const Term &a, const Term &b) { return s_.mkTerm(K::BITVECTOR_SDIV, {a, b}); }
  Term mkBvURem(const Term &a, const Term &b) { return s_.mkTerm(K::BITVECTOR_UREM, {a, b}); }
  Term mkBvSRem(const Term &a, const Term &b) { return s_.mkTerm(K::BITVECTOR_SREM, {a, b}); }
  Term mkBvShl(const Term &a, const Term &b) { return s_.mkTerm(K::BITVECTOR_SHL, {a, b}); }
  Term mkBvLShr(const Term &a, const Term &b) { return s_.mkTerm(K::BITVECTOR_LSHR, {a, b}); }
  Term mkBvAShr(const Term &a, const Term &b) { return s_.mkTerm(K::BITVECTOR_ASHR, {a, b}); }
  Term mkBvNot(const Term &a) { return s_.mkTerm(K::BITVECTOR_NOT, {a}); }
  Term mkBvAnd(const Term &a, const Term &b) { return s_.mkTerm(K::BITVECTOR_AND, {a, b}); }
  Term mkBvOr(const Term &a, const Term &b) { return s_.mkTerm(K::BITVECTOR_OR, {a, b}); }
  Term mkBvXor(const Term &a, const Term &b) { return s_.mkTerm(K::BITVECTOR_XOR, {a, b}); }
  Term mkBvUlt(const Term &a, const Term &b) { return s_.mkTerm(K::BITVECTOR_ULT, {a, b}); }
  Term mkBvUle(const Term &a, const Term &b) { return s_.mkTerm(K::BITVECTOR_ULE, {a, b}); }
  Term mkBvSlt(const Term &a, const Term &b) { return s_.mkTerm(K::BITVECTOR_SLT, {a, b}); }
  Term mkBvSle(const Term &a, const Term &b) { return s_.mkTerm(K::BITVECTOR_SLE, {a, b}); }
  Term mkNot(const Term &a) { return s_.mkTerm(K::NOT, {a}); }
  Term mkAnd(const Term &a, const Term &b) { return s_.mkTerm(K::AND, {a, b}); }
  Term mkOr(const Term &a, const Term &b) { return s_.mkTerm(K::OR, {a, b}); }
  Term mkXor(const Term &a, const Term &b) { return s_.mkTerm(K::XOR, {a, b}); }
  Term mkEq(const Term &a, const Term &b) { return s_.mkTerm(K::EQUAL, {a, b}); }
  Term mkIte(const Term &c, const Term &a, const Term &b) { return s_.mkTerm(K::ITE, {c, a, b}); }
  Term boolToBv(const Term &t) {
    return s_.mkTerm(K::ITE, {t, s_.mkBitVector(1, 1), s_.mkBitVector(1, 0)});
  }
  Term bvToBool(const Term &t) { return s_.mkTerm(K::EQUAL, {t, s_.mkBitVector(1, 1)}); }
  // cvc5 quantifies over variables, not constants: a fresh one takes the constant's place.
  Term boundVariable(const Term &constant, const SymbolDecl *s) {
    return s_.mkVar(constant.getSort(), s->name);
  }
  Term abstractBound(const Term &body, const Term &constant, const Term &var) {
    return body.substitute(constant, var);
  }
  Term mkQuantifier(bool forall, const Term &var, const Term &body) {
    return s_.mkTerm(forall ? K::FORALL : K::EXISTS, {s_.mkTerm(K::VARIABLE_LIST, {var}), body});
  }

  Term mkFp(backend::FpOp op, RoundingMode rm, std::initializer_list<Term> args, backend::FpSort to, unsigned width) {
    using backend::FpOp;
    const Term *x = args.begin();
    switch (op) {
    case FpOp::Add: return s_.mkTerm(K::FLOATINGPOINT_ADD, {mode(rm), x[0], x[1]});
    case FpOp::Sub: return s_.mkTerm(K::FLOATINGPOINT_SUB, {mode(rm), x[0], x[1]});
    case FpOp::Mul: return s_.mkTerm(K::FLOATINGPOINT_MULT, {mode(rm), x[0], x[1]});
    case FpOp::Div: return s_.mkTerm(K::FLOATINGPOINT_DIV, {mode(rm), x[0], x[1]});
    case FpOp::Fma: return s_.mkTerm(K::FLOATINGPOINT_FMA, {mode(rm), x[0], x[1], x[2]});
    case FpOp::Sqrt: return s_.mkTerm(K::FLOATINGPOINT_SQRT, {mode(rm), x[0]});
    case FpOp::Rem: return s_.mkTerm(K::FLOATINGPOINT_REM, {x[0], x[1]});
    case FpOp::RoundToIntegral: return s_.mkTerm(K::FLOATINGPOINT_RTI, {mode(rm), x[0]});
    case FpOp::Neg: return s_.mkTerm(K::FLOATINGPOINT_NEG, {x[0]});
    case FpOp::Abs: return s_.mkTerm(K::FLOATINGPOINT_ABS, {x[0]});
    case FpOp::Eq: return s_.mkTerm(K::FLOATINGPOINT_EQ, {x[0], x[1]});
    case FpOp::Lt: return s_.mkTerm(K::FLOATINGPOINT_LT, {x[0], x[1]});
    case FpOp::Leq: return s_.mkTerm(K::FLOATINGPOINT_LEQ, {x[0], x[1]});
    case FpOp::IsNaN: return s_.mkTerm(K::FLOATINGPOINT_IS_NAN, {x[0]});
    case FpOp::IsZero: return s_.mkTerm(K::FLOATINGPOINT_IS_ZERO, {x[0]});
    case FpOp::IsNegative: return s_.mkTerm(K::FLOATINGPOINT_IS_NEG, {x[0]});
    case FpOp::Convert:
      return s_.mkTerm(s_.mkOp(K::FLOATINGPOINT_TO_FP_FROM_FP, {to.exponentBits, to.significandBits}), {mode(rm), x[0]});
    case FpOp::FromSigned:
      return s_.mkTerm(s_.mkOp(K::FLOATINGPOINT_TO_FP_FROM_SBV, {to.exponentBits, to.significandBits}), {mode(rm), x[0]});
    case FpOp::FromUnsigned:
      return s_.mkTerm(s_.mkOp(K::FLOATINGPOINT_TO_FP_FROM_UBV, {to.exponentBits, to.significandBits}), {mode(rm), x[0]});
    case FpOp::ToSigned: return s_.mkTerm(s_.mkOp(K::FLOATINGPOINT_TO_SBV, {width}), {mode(rm), x[0]});
    case FpOp::ToUnsigned: return s_.mkTerm(s_.mkOp(K::FLOATINGPOINT_TO_UBV, {width}), {mode(rm), x[0]});
    }
    throw std::invalid_argument("unknown floating-point operation");
  }
  Term mkFpFromBits(const Term &bits, backend::FpSort s) {
    return s_.mkTerm(s_.mkOp(K::FLOATINGPOINT_TO_FP_FROM_IEEE_BV, {s.exponentBits, s.significandBits}), {bits});
  }
  // cvc5 has no fp.to_ieee_bv: a fresh bit-vector whose value is the float, asserted in the
  // solver's current scope. The float determines it (conversion from the encoding is
  // one-to-one away from NaN, and no caller reads it for a NaN), so the assertion holds in any
  // context the float appears in; not under a quantifier (Cvc5Solver refuses those queries).
  Term mkFpToBits(const Term &t, backend::FpSort s) {
    Term bits = s_.mkConst(s_.mkBitVectorSort(s.exponentBits + s.significandBits));
    Term nan = s_.mkTerm(K::FLOATINGPOINT_IS_NAN, {t});
    s_.assertFormula(s_.mkTerm(K::OR, {nan, s_.mkTerm(K::EQUAL, {mkFpFromBits(bits, s), t})}));
    return bits;
  }
  Term mkFpNaN(backend::FpSort s) { return s_.mkFloatingPointNaN(s.exponentBits, s.significandBits); }

private:
  Term mode(RoundingMode rm) {
    switch (rm) {
    case RoundingMode::NearestEven: return s_.mkRoundingMode(cvc5::RoundingMode::ROUND_NEAREST_TIES_TO_EVEN);
    case RoundingMode::NearestAway: return s_.mkRoundingMode(cvc5::RoundingMode::ROUND_NEAREST_TIES_TO_AWAY);
    case RoundingMode::Upward: return s_.mkRoundingMode(cvc5::RoundingMode::ROUND_TOWARD_POSITIVE);
    case RoundingMode::Downward: return s_.mkRoundingMode(cvc5::RoundingMode::ROUND_TOWARD_NEGATIVE);
    case RoundingMode::TowardZero: return s_.mkRoundingMode(cvc5::RoundingMode::ROUND_TOWARD_ZERO);
    }
    throw std::invalid_argument("unknown rounding mode");
  }

  cvc5::Solver &s_;
  backend::SymbolTable<cvc5::Term> &symbols_;
};

// The value of a bit-vector value term, modulo 2^128.
u128 valueOf(const cvc5::Term &t) {
  if (!t.isBitVectorValue())
    throw std::runtime_error("model value is not a bit-vector value: " + t.toString());
  return backend::parseBinary(t.getBitVectorValue(2));
}

class Cvc5Solver final : public backend::BackendSolver {
public:
  explicit Cvc5Solver(double timeoutSeconds) : BackendSolver("cvc5", timeoutSeconds) {}
  ~Cvc5Solver() override {
    qf_.reset();
    quantified_.reset();
    floats_.reset();
  }

private:
  class Incremental;

  SolverResponse solve(const Query &query, bool wantModel) override;
  std::unique_ptr<BackendSolver::Incremental> startIncremental(const Query &query) override;

  // After an exception the instance may hold assertions of this query or be unusable: start
  // afresh with the next query.
  void recover() override {
    try {
      slot(lastQuantified_, lastFloats_).reset();
    } catch (...) {
    }
  }

  std::unique_ptr<Cvc5Instance> &slot(bool quantified, bool floats) {
    return quantified ? quantified_ : floats ? floats_ : qf_;
  }
  Cvc5Instance &instance(bool quantified, bool floats = false) {
    std::unique_ptr<Cvc5Instance> &s = slot(quantified, floats);
    if (!s || s->timeoutSeconds != timeoutSeconds()) {
      s.reset();
      s = std::make_unique<Cvc5Instance>(quantified, floats, timeoutSeconds());
    }
    return *s;
  }

  SolverResponse checkIn(Cvc5Instance &inst, const Query &query, bool wantModel);
  // Checks what `inst` holds; a model binds the symbols of `query`.
  static SolverResponse answer(Cvc5Instance &inst, Cvc5Terms &mk, const Query &query, bool wantModel);

  // cvc5 recurses over terms: a read through a chain of ~11000 stores overflows an 8 MiB stack
  // and kills the process. Deeper queries are refused, with a margin, in proportion to the
  // stack of the calling thread.
  static uint32_t maxDepth() {
    thread_local uint32_t limit = [] {
      size_t bytes = size_t(8) << 20;
      pthread_attr_t attr;
      if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        size_t size = 0;
        if (pthread_attr_getstacksize(&attr, &size) == 0 && size > 0)
          bytes = size;
        pthread_attr_destroy(&attr);
      }
      return uint32_t(std::min<size_t>(bytes / 1536, UINT32_MAX));
    }();
    return limit;
  }

  std::unique_ptr<Cvc5Instance> qf_, quantified_, floats_;
  bool lastQuantified_ = false, lastFloats_ = false; // the instance the last query went to
};

SolverResponse Cvc5Solver::checkIn(Cvc5Instance &inst, const Query &query, bool wantModel) {
  cvc5::Solver &s = *inst.solver;
  Cvc5Terms mk(inst);
  backend::ExprTranslator tr(mk);
  for (const ExprRef &c : query.constraints)
    if (c)
      s.assertFormula(tr.asBool(c.get()));
  if (query.expr)
    s.assertFormula(tr.asBool(query.expr.get()));
  return answer(inst, mk, query, wantModel);
}

SolverResponse Cvc5Solver::answer(Cvc5Instance &inst, Cvc5Terms &mk, const Query &query, bool wantModel) {
  cvc5::Solver &s = *inst.solver;
  cvc5::Result result = s.checkSat();
  SolverResponse r;
  if (result.isUnsat()) {
    r.result = SatResult::Unsat;
    return r;
  }
  if (!result.isSat()) {
    std::ostringstream why;
    why << result.getUnknownExplanation();
    std::string reason = backend::lowercase(why.str());
    return SolverResponse::unknown(reason.empty() ? result.toString() : reason);
  }
  r.result = SatResult::Sat;
  if (!wantModel)
    return r;

  // One getValue call for every scalar and array element.
  std::vector<const SymbolDecl *> symbols = backend::modelSymbols(query);
  std::vector<cvc5::Term> terms;
  for (const SymbolDecl *sym : symbols) {
    cvc5::Term t = mk.mkSymbol(sym);
    if (!sym->isArray()) {
      terms.push_back(t);
      continue;
    }
    uint64_t n = backend::modelArrayLength(sym);
    for (uint64_t i = 0; i < n; ++i)
      terms.push_back(s.mkTerm(cvc5::Kind::SELECT, {t, mk.mkBv(u128(i), sym->domainWidth)}));
  }
  std::vector<cvc5::Term> values = terms.empty() ? std::vector<cvc5::Term>{} : s.getValue(terms);
  size_t next = 0;
  for (const SymbolDecl *sym : symbols) {
    if (!sym->isArray()) {
      r.model.setScalar(sym, valueOf(values.at(next++)));
      continue;
    }
    uint64_t n = backend::modelArrayLength(sym);
    std::vector<u128> elems(n);
    for (uint64_t i = 0; i < n; ++i)
      elems[i] = valueOf(values.at(next++));
    r.model.setArray(sym, std::move(elems));
  }
  return r;
}

SolverResponse Cvc5Solver::solve(const Query &query, bool wantModel) {
  lastQuantified_ = lastFloats_ = false;
  backend::QueryShape shape = backend::queryShape(query);
  lastQuantified_ = shape.quantified;
  lastFloats_ = shape.floats;
  if (shape.depth > maxDepth())
    return SolverResponse::unknown("cvc5: expression too deep (" + std::to_string(shape.depth) +
                                   " levels) for the thread's stack");
  // A float's encoding is a fresh constant asserted beside the query (Cvc5Terms::mkFpToBits),
  // which cannot stand for a float that depends on a bound variable.
  if (shape.quantified && shape.floats)
    return SolverResponse::unknown("cvc5: floating point under a quantifier");
  Cvc5Instance &inst = instance(lastQuantified_, lastFloats_);
  inst.solver->push();
  SolverResponse r = checkIn(inst, query, wantModel);
  inst.solver->pop();
  return r;
}

// A session's assertions in one push scope of the quantifier-free instance: cvc5 keeps what it
// learned across the checks, and the terms translated once are not translated again.
class Cvc5Solver::Incremental final : public backend::BackendSolver::Incremental {
public:
  explicit Incremental(Cvc5Solver &owner)
      : owner_(owner), instance_(&owner.instance(false)), terms_(*instance_), translator_(terms_) {
    instance_->solver->push();
  }
  ~Incremental() override {
    if (owner_.qf_.get() != instance_)
      return; // the instance was replaced (after a failure): its scopes went with it
    try {
      instance_->solver->pop();
    } catch (...) {
      owner_.qf_.reset(); // an instance that cannot pop holds this session's assertions
    }
  }
  void add(const Expr *constraint) override { instance_->solver->assertFormula(translator_.asBool(constraint)); }
  SolverResponse check(const Query &whole, bool wantModel) override {
    if (owner_.qf_.get() != instance_ || instance_->timeoutSeconds != owner_.timeoutSeconds())
      throw std::runtime_error("cvc5: the session's instance was replaced");
    return answer(*instance_, terms_, whole, wantModel);
  }

private:
  Cvc5Solver &owner_;
  Cvc5Instance *instance_;
  Cvc5Terms terms_;
  backend::ExprTranslator<Cvc5Terms> translator_;
};

std::unique_ptr<backend::BackendSolver::Incremental> Cvc5Solver::startIncremental(const Query &query) {
  backend::QueryShape shape = backend::queryShape(query);
  if (shape.quantified || shape.floats || shape.depth > maxDepth())
    return nullptr; // solved whole, where those cases are handled
  lastQuantified_ = lastFloats_ = false;
  return std::make_unique<Incremental>(*this);
}

} // namespace

std::unique_ptr<Solver> createCvc5Solver(double timeoutSeconds) {
  return std::make_unique<Cvc5Solver>(timeoutSeconds);
}

} // namespace cairn
