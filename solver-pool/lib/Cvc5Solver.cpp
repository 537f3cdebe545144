// The cvc5 backend: translates each query's expression DAG into cvc5 terms and checks it in an
// incremental cvc5 solver between push and pop.
//
// cvc5 fixes its logic and most options (among them the "tlimit-per" time limit) when it first
// solves, so an instance is made per logic (QF_ABV for quantifier-free queries, ABV for
// quantified ones) and made anew when the timeout changes or after an exception (the API
// leaves its objects in an unspecified state then).
#include "BackendUtil.h"

#include "cairn/solver/Backends.h"

#include <cvc5/cvc5.h>

#include <cmath>
#include <pthread.h>
#include <sstream>
#include <unordered_map>

namespace cairn {

namespace {

using backend::naturallyBool;

// One cvc5 solver with its declarations.
struct Cvc5Instance {
  std::unique_ptr<cvc5::Solver> solver;
  // Declared after the solver, so destroyed before it.
  std::unordered_map<std::string, cvc5::Term> symbols;
  double timeoutSeconds = 0;

  Cvc5Instance(bool quantified, double timeout) : solver(std::make_unique<cvc5::Solver>()) {
    timeoutSeconds = timeout;
    solver->setOption("produce-models", "true");
    solver->setOption("incremental", "true");
    if (timeout > 0) {
      double ms = std::ceil(timeout * 1000.0);
      solver->setOption("tlimit-per", std::to_string(uint64_t(std::max(1.0, ms))));
    }
    solver->setLogic(quantified ? "ABV" : "QF_ABV");
  }
  ~Cvc5Instance() { symbols.clear(); }

  static constexpr size_t kMaxCachedSymbols = 1 << 16;

  cvc5::Term symbolConst(const SymbolDecl *s) {
    std::string key = backend::symbolKey(s);
    if (auto it = symbols.find(key); it != symbols.end())
      return it->second;
    if (symbols.size() >= kMaxCachedSymbols)
      symbols.clear();
    cvc5::Sort sort = s->isArray() ? solver->mkArraySort(solver->mkBitVectorSort(s->domainWidth),
                                                         solver->mkBitVectorSort(s->width))
                                   : solver->mkBitVectorSort(s->width);
    cvc5::Term t = solver->mkConst(sort, s->name);
    symbols.emplace(std::move(key), t);
    return t;
  }
};

// Translates the expressions of one query; the memo is keyed by node and lives for the query.
class Cvc5Translator {
public:
  explicit Cvc5Translator(Cvc5Instance &inst) : inst_(inst), s_(*inst.solver) {}

  cvc5::Term asBool(const Expr *e) {
    if (e->kind() == Kind::Constant)
      return s_.mkBoolean(e->value() != 0);
    cvc5::Term t = translate(e);
    if (naturallyBool(e))
      return t;
    return s_.mkTerm(cvc5::Kind::EQUAL, {t, s_.mkBitVector(1, 1)});
  }

  cvc5::Term asBV(const Expr *e) {
    if (e->kind() == Kind::Constant)
      return constant(e->value(), e->width());
    cvc5::Term t = translate(e);
    if (!naturallyBool(e))
      return t;
    return s_.mkTerm(cvc5::Kind::ITE, {t, s_.mkBitVector(1, 1), s_.mkBitVector(1, 0)});
  }

  // The term of `e` in its natural form (see backend::naturallyBool), built iteratively.
  cvc5::Term translate(const Expr *root) {
    return backend::translateDag(root, memo_, [&](const Expr *e) { return build(e); });
  }

  cvc5::Term constant(u128 value, unsigned width) {
    return s_.mkBitVector(width, toDecimal(value & widthMask(width)), 10);
  }

private:
  cvc5::Term k(const Expr *e, unsigned i) { return memo_.at(e->kid(i)); }
  cvc5::Term bv(const Expr *e, unsigned i) { return asBV(e->kid(i)); }
  cvc5::Term bl(const Expr *e, unsigned i) { return asBool(e->kid(i)); }
  cvc5::Term bin(cvc5::Kind kind, const Expr *e) { return s_.mkTerm(kind, {bv(e, 0), bv(e, 1)}); }

  cvc5::Term build(const Expr *e) {
    using K = cvc5::Kind;
    const unsigned w = e->width();
    switch (e->kind()) {
    case Kind::Constant: return constant(e->value(), w);
    case Kind::Symbol:
    case Kind::ArraySymbol: return inst_.symbolConst(e->symbol());
    case Kind::ConstArray: {
      const ConstArrayData *d = e->constArray();
      cvc5::Sort sort =
          s_.mkArraySort(s_.mkBitVectorSort(d->domainWidth), s_.mkBitVectorSort(d->width));
      cvc5::Term arr = s_.mkConstArray(sort, constant(d->defaultValue, d->width));
      for (size_t i = 0; i < d->values.size(); ++i)
        if (d->values[i] != d->defaultValue)
          arr = s_.mkTerm(K::STORE, {arr, constant(u128(i), d->domainWidth),
                                     constant(d->values[i], d->width)});
      return arr;
    }
    case Kind::Store: return s_.mkTerm(K::STORE, {k(e, 0), bv(e, 1), bv(e, 2)});
    case Kind::Select: {
      cvc5::Term i = bv(e, 1);
      const unsigned iw = e->kid(1)->width();
      if (std::optional<cvc5::Term> t = backend::expandSelect<cvc5::Term>(
              e, [&](size_t c) { return s_.mkTerm(K::BITVECTOR_ULT, {i, constant(c, iw)}); },
              [&](const cvc5::Term &j) { return s_.mkTerm(K::EQUAL, {i, j}); },
              [&](const cvc5::Term &c, const cvc5::Term &a, const cvc5::Term &b) {
                return s_.mkTerm(K::ITE, {c, a, b});
              },
              [&](u128 v) { return constant(v, w); }, [&](const Expr *x) { return asBV(x); }))
        return *t;
      return s_.mkTerm(K::SELECT, {k(e, 0), i});
    }
    case Kind::Concat: return bin(K::BITVECTOR_CONCAT, e);
    case Kind::Extract: {
      unsigned lo = e->extractOffset();
      return s_.mkTerm(s_.mkOp(K::BITVECTOR_EXTRACT, {lo + w - 1, lo}), {bv(e, 0)});
    }
    case Kind::ZExt:
    case Kind::SExt: {
      unsigned from = e->kid(0)->width();
      if (w <= from)
        return from == w ? bv(e, 0)
                         : s_.mkTerm(s_.mkOp(K::BITVECTOR_EXTRACT, {w - 1, 0}), {bv(e, 0)});
      K kind = e->kind() == Kind::ZExt ? K::BITVECTOR_ZERO_EXTEND : K::BITVECTOR_SIGN_EXTEND;
      return s_.mkTerm(s_.mkOp(kind, {w - from}), {bv(e, 0)});
    }
    case Kind::Add: return bin(K::BITVECTOR_ADD, e);
    case Kind::Sub: return bin(K::BITVECTOR_SUB, e);
    case Kind::Mul: return bin(K::BITVECTOR_MULT, e);
    case Kind::UDiv: return bin(K::BITVECTOR_UDIV, e);
    case Kind::SDiv: return bin(K::BITVECTOR_SDIV, e);
    case Kind::URem: return bin(K::BITVECTOR_UREM, e);
    case Kind::SRem: return bin(K::BITVECTOR_SREM, e);
    case Kind::Shl: return bin(K::BITVECTOR_SHL, e);
    case Kind::LShr: return bin(K::BITVECTOR_LSHR, e);
    case Kind::AShr: return bin(K::BITVECTOR_ASHR, e);
    case Kind::Not:
      return e->isBool() ? s_.mkTerm(K::NOT, {bl(e, 0)}) : s_.mkTerm(K::BITVECTOR_NOT, {bv(e, 0)});
    case Kind::And:
      return e->isBool() ? s_.mkTerm(K::AND, {bl(e, 0), bl(e, 1)}) : bin(K::BITVECTOR_AND, e);
    case Kind::Or:
      return e->isBool() ? s_.mkTerm(K::OR, {bl(e, 0), bl(e, 1)}) : bin(K::BITVECTOR_OR, e);
    case Kind::Xor:
      return e->isBool() ? s_.mkTerm(K::XOR, {bl(e, 0), bl(e, 1)}) : bin(K::BITVECTOR_XOR, e);
    case Kind::Eq: {
      const Expr *a = e->kid(0), *b = e->kid(1);
      if (a->isArray())
        return s_.mkTerm(K::EQUAL, {k(e, 0), k(e, 1)});
      if (a->isBool() && naturallyBool(a) && naturallyBool(b))
        return s_.mkTerm(K::EQUAL, {k(e, 0), k(e, 1)});
      return bin(K::EQUAL, e);
    }
    case Kind::Ult: return bin(K::BITVECTOR_ULT, e);
    case Kind::Ule: return bin(K::BITVECTOR_ULE, e);
    case Kind::Slt: return bin(K::BITVECTOR_SLT, e);
    case Kind::Sle: return bin(K::BITVECTOR_SLE, e);
    case Kind::Ite: {
      cvc5::Term cond = bl(e, 0);
      if (e->isArray())
        return s_.mkTerm(K::ITE, {cond, k(e, 1), k(e, 2)});
      if (e->isBool())
        return s_.mkTerm(K::ITE, {cond, bl(e, 1), bl(e, 2)});
      return s_.mkTerm(K::ITE, {cond, bv(e, 1), bv(e, 2)});
    }
    case Kind::Forall:
    case Kind::Exists: {
      // The bound symbol was translated as a constant, like a free one; bind a fresh variable
      // in its place.
      cvc5::Term bound = k(e, 0);
      cvc5::Term var = s_.mkVar(bound.getSort(), e->kid(0)->symbol()->name);
      cvc5::Term body = bl(e, 1).substitute(bound, var);
      return s_.mkTerm(e->kind() == Kind::Forall ? K::FORALL : K::EXISTS,
                       {s_.mkTerm(K::VARIABLE_LIST, {var}), body});
    }
    }
    throw std::invalid_argument(std::string("unsupported expression kind ") + kindName(e->kind()));
  }

  Cvc5Instance &inst_;
  cvc5::Solver &s_;
  backend::TermMemo<cvc5::Term> memo_;
};

// The value of a bit-vector value term, modulo 2^128.
u128 valueOf(const cvc5::Term &t) {
  if (!t.isBitVectorValue())
    throw std::runtime_error("model value is not a bit-vector value: " + t.toString());
  return backend::parseBinary(t.getBitVectorValue(2));
}

class Cvc5Solver final : public Solver {
public:
  explicit Cvc5Solver(double timeoutSeconds) { setTimeout(timeoutSeconds); }
  ~Cvc5Solver() override {
    qf_.reset();
    quantified_.reset();
  }

  SolverResponse check(const Query &query, bool wantModel) override;
  std::string name() const override { return "cvc5"; }
  void collectStats(std::vector<SolverLayerStats> &out) const override {
    SolverLayerStats s = stats_;
    s.layer = name();
    out.push_back(std::move(s));
  }
  void setTimeout(double seconds) override {
    timeoutSeconds_ = std::isfinite(seconds) && seconds > 0 ? seconds : 0;
  }

private:
  Cvc5Instance &instance(bool quantified) {
    std::unique_ptr<Cvc5Instance> &slot = quantified ? quantified_ : qf_;
    if (!slot || slot->timeoutSeconds != timeoutSeconds_) {
      slot.reset();
      slot = std::make_unique<Cvc5Instance>(quantified, timeoutSeconds_);
    }
    return *slot;
  }

  SolverResponse checkIn(Cvc5Instance &inst, const Query &query, bool wantModel);

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

  std::unique_ptr<Cvc5Instance> qf_, quantified_;
  double timeoutSeconds_ = 0;
  SolverLayerStats stats_;
};

SolverResponse Cvc5Solver::checkIn(Cvc5Instance &inst, const Query &query, bool wantModel) {
  cvc5::Solver &s = *inst.solver;
  Cvc5Translator tr(inst);
  for (const ExprRef &c : query.constraints)
    if (c)
      s.assertFormula(tr.asBool(c.get()));
  if (query.expr)
    s.assertFormula(tr.asBool(query.expr.get()));

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
    cvc5::Term t = inst.symbolConst(sym);
    if (!sym->isArray()) {
      terms.push_back(t);
      continue;
    }
    uint64_t n = backend::modelArrayLength(sym);
    for (uint64_t i = 0; i < n; ++i)
      terms.push_back(s.mkTerm(cvc5::Kind::SELECT, {t, tr.constant(u128(i), sym->domainWidth)}));
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

SolverResponse Cvc5Solver::check(const Query &query, bool wantModel) {
  ++stats_.queries;
  ScopedSolverTimer timer(stats_);
  SolverResponse r;
  bool quantified = false, failed = true;
  try {
    backend::QueryShape shape = backend::queryShape(query);
    quantified = shape.quantified;
    if (shape.depth > maxDepth()) {
      r = SolverResponse::unknown("cvc5: expression too deep (" + std::to_string(shape.depth) +
                                  " levels) for the thread's stack");
      ++stats_.unknown;
      return r;
    }
    Cvc5Instance &inst = instance(quantified);
    inst.solver->push();
    r = checkIn(inst, query, wantModel);
    inst.solver->pop();
    failed = false;
  } catch (const cvc5::CVC5ApiException &e) {
    r = SolverResponse::unknown(std::string("cvc5: ") + e.getMessage());
  } catch (const std::exception &e) {
    r = SolverResponse::unknown(std::string("cvc5: ") + e.what());
  } catch (...) {
    r = SolverResponse::unknown("cvc5: unknown exception");
  }
  if (failed) {
    // After an exception the instance may hold assertions of this query or be unusable: start
    // afresh with the next query.
    try {
      (quantified ? quantified_ : qf_).reset();
    } catch (...) {
    }
  }
  if (r.result == SatResult::Unknown)
    ++stats_.unknown;
  else
    ++stats_.answered;
  return r;
}

} // namespace

std::unique_ptr<Solver> createCvc5Solver(double timeoutSeconds) {
  return std::make_unique<Cvc5Solver>(timeoutSeconds);
}

} // namespace cairn
