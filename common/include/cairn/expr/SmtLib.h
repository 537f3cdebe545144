// SMT-LIB 2 scripts for expressions: for debugging, for feeding a solver binary, for bug reports.
#pragma once

#include "cairn/expr/Expr.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cairn {

// A complete script asserting every width-1 expression of `assertions` (std::invalid_argument
// for any other) and asking (check-sat):
//
//   (set-logic L)             `logic`, or QF_ABV; ABV when a quantifier occurs, ALL when a
//                             constant array does (as const is in no standard logic)
//   (declare-fun s () S)      every free symbol: (_ BitVec w) or (Array (_ BitVec d) (_ BitVec w))
//   (define-fun ?tN () S e)   every subterm used more than once (so DAGs print in linear size)
//   (assert e)                one per assertion, in order
//   (check-sat)
//
// Width-1 expressions are Bool where SMT-LIB wants a Bool (comparisons, connectives, ite
// conditions, assertions, quantifier bodies) and (_ BitVec 1) elsewhere; width-1 symbols are
// declared as (_ BitVec 1). Subterms under a quantifier that mention its variable are shared
// with let-bindings inside it. Symbol names that are not simple SMT-LIB symbols are quoted
// (|a b|); names SMT-LIB cannot express or reserves (containing | or \, control characters,
// starting with . or @, built-in names like `and` or `bvadd`) are changed, and `declared`, when
// given, receives the name every declared symbol has in the script. The printer is iterative:
// deep store chains do not exhaust the stack. Floating-point kinds are refused
// (std::invalid_argument): SMT-LIB has no term for which NaN a result is.
std::string toSmtLib2(std::span<const ExprRef> assertions, std::string_view logic = "");

struct SmtLibName {
  const SymbolDecl *symbol;
  std::string name; // as written in the script (with |quotes| when needed)
};
std::string toSmtLib2(std::span<const ExprRef> assertions, std::string_view logic,
                      std::vector<SmtLibName> *declared);

} // namespace cairn
