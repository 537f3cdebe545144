// Bit-vector constraints as an integer linear program that over-approximates them (the array
// pre-check's §6.2 rules): a w-bit term is an integer in [0, 2^w - 1]; wrap-around arithmetic
// gets an overflow variable only where interval arithmetic cannot rule the wrap out; what is
// not linear (products of two terms, xor, shifts by a term, signed division) is a fresh
// variable over the term's whole range, and a constraint that needs a disjunction (!=, a signed
// comparison of a term that may have either sign, an `or` of conditions) is dropped. Every rule
// keeps all solutions of the original, so an infeasible program proves the constraints UNSAT.
#pragma once

#include "IntegerProgram.h"

#include "cairn/expr/Expr.h"

#include <functional>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace cairn::arrays {

// A term's value as a linear expression, with bounds that hold for every solution.
struct Linear {
  LinearExpr expr;
  Interval range;
};

// The widest bit-vector linearised; wider terms are left out (their constraints dropped).
constexpr unsigned kMaxLinearWidth = 64;

class Linearizer {
public:
  explicit Linearizer(IntegerProgram &program) : program_(program) {}

  // Terms this hook answers (non-null result) are taken as it says: how the pre-check bounds
  // array reads by the values the array can hold there. Consulted before the rules, for every
  // node.
  using Hook = std::function<std::optional<Linear>(const Expr *)>;
  void setHook(Hook hook) { hook_ = std::move(hook); }

  // The value of the unsigned bit-vector `e`; nullopt when it is too wide.
  std::optional<Linear> term(const Expr *e);
  // Adds what the width-1 `constraint` implies linearly; false when nothing of it was kept.
  bool assume(const Expr *constraint);
  // Assumes each of the constraints; those kept only in part or not at all get a second pass,
  // when the others have shown more terms non-negative (`0 <=s x` first makes `x <=s 3` an
  // interval).
  void assumeAll(const std::vector<const Expr *> &constraints);

  // Variables the rules added, by cause (for tests and statistics).
  uint32_t overflowVariables() const { return overflowVariables_; }
  uint32_t abstractedTerms() const { return abstracted_; }

private:
  std::optional<Linear> build(const Expr *e);
  Linear fresh(Int lo, Int hi);
  Linear abstractTerm(unsigned width) { ++abstracted_; return fresh(0, maxOf(width)); }
  // z = e - modulus * o for the overflow count o, with z in [0, 2^w - 1].
  Linear wrap(const Linear &exact, unsigned width);
  // e = scale * q + r with r in [0, scale - 1]: the pair (q, r).
  std::pair<Linear, Linear> divide(const Linear &e, Int scale);
  bool assumeNot(const Expr *c);
  bool assumeSigned(const Expr *a, const Expr *b, bool strict);
  static Int maxOf(unsigned width) { return (Int(1) << width) - 1; }

  IntegerProgram &program_;
  Hook hook_;
  std::unordered_map<const Expr *, std::optional<Linear>> memo_;
  std::vector<ExprRef> alive_; // the memo's keys: a freed node's address may come back
  std::unordered_set<const Expr *> nonNegative_; // terms a constraint showed below 2^(w-1)
  uint32_t overflowVariables_ = 0;
  uint32_t abstracted_ = 0;
};

} // namespace cairn::arrays
