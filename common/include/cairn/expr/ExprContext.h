// ExprContext: the factory, hash-cons table and simplifier of expressions.
//
// A context is single-threaded, like a Z3 context: one per engine thread. Expressions move
// between contexts through serialization or `import`.
#pragma once

#include <memory>
#include <span>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace cairn {

class Expr;
class ExprRef;
struct SymbolDecl;
struct ConstArrayData;
enum class Kind : uint8_t;
enum class SymbolClass : uint8_t;
using u128 = unsigned __int128;

// A node whose operands do not fit its kind (operands of different widths, an extract past the
// end, a non-boolean condition): an engine bug, refused where it is built in every build, since
// it would otherwise reach a solver as a sort error far from its cause.
class MalformedExpr : public std::logic_error {
public:
  using std::logic_error::logic_error;
};

struct ExprContextStats {
  uint64_t requests = 0;   // node constructions asked for after simplification
  uint64_t hits = 0;       // of which an equal node already existed
  uint64_t live = 0;       // nodes alive now
  uint64_t created = 0;    // nodes ever created
  double hitRate() const { return requests ? double(hits) / double(requests) : 0.0; }
};

class ExprContext {
public:
  ExprContext();
  ~ExprContext();
  ExprContext(const ExprContext &) = delete;
  ExprContext &operator=(const ExprContext &) = delete;

  // --- Leaves -------------------------------------------------------------------------------
  ExprRef constant(u128 value, unsigned width);
  ExprRef boolean(bool b);
  ExprRef trueExpr() { return boolean(true); }
  ExprRef falseExpr() { return boolean(false); }

  // Declares a variable. Names are made unique by a numeric suffix when already taken.
  const SymbolDecl *declareSymbol(std::string_view name, unsigned width, SymbolClass cls,
                                  uint64_t tag = 0);
  const SymbolDecl *declareArray(std::string_view name, uint64_t size, unsigned domainWidth = 32,
                                 unsigned rangeWidth = 8, SymbolClass cls = {});
  const SymbolDecl *findSymbol(std::string_view name) const;
  const std::vector<const SymbolDecl *> &symbols() const { return symbolList_; }

  ExprRef symbol(const SymbolDecl *decl); // a bit-vector variable or an array variable
  ExprRef constArray(std::span<const u128> values, unsigned rangeWidth = 8,
                     unsigned domainWidth = 32, u128 defaultValue = 0);

  // --- Arrays -------------------------------------------------------------------------------
  ExprRef select(const ExprRef &array, const ExprRef &index);
  ExprRef store(const ExprRef &array, const ExprRef &index, const ExprRef &value);
  // `bytes` consecutive elements from `index`, little-endian, as one bit-vector.
  ExprRef readLE(const ExprRef &array, const ExprRef &index, unsigned bytes);

  // --- Bit-vectors --------------------------------------------------------------------------
  ExprRef concat(const ExprRef &high, const ExprRef &low);
  ExprRef extract(const ExprRef &e, unsigned offset, unsigned width);
  ExprRef zext(const ExprRef &e, unsigned width);
  ExprRef sext(const ExprRef &e, unsigned width);
  ExprRef zextOrTrunc(const ExprRef &e, unsigned width);
  ExprRef sextOrTrunc(const ExprRef &e, unsigned width);

  ExprRef add(const ExprRef &a, const ExprRef &b);
  // a + c, as add() builds it; a pointer (base or base + constant) moved by a constant offset
  // costs one constant and one node, with no simplification to run, or nothing at all when
  // the same pointer was built a moment ago (a loop walking an object, sibling paths).
  ExprRef addConstant(const ExprRef &a, u128 c);
  ExprRef sub(const ExprRef &a, const ExprRef &b);
  ExprRef mul(const ExprRef &a, const ExprRef &b);
  ExprRef udiv(const ExprRef &a, const ExprRef &b);
  ExprRef sdiv(const ExprRef &a, const ExprRef &b);
  ExprRef urem(const ExprRef &a, const ExprRef &b);
  ExprRef srem(const ExprRef &a, const ExprRef &b);
  ExprRef neg(const ExprRef &a);
  ExprRef bvnot(const ExprRef &a);
  ExprRef bvand(const ExprRef &a, const ExprRef &b);
  ExprRef bvor(const ExprRef &a, const ExprRef &b);
  ExprRef bvxor(const ExprRef &a, const ExprRef &b);
  ExprRef shl(const ExprRef &a, const ExprRef &b);
  ExprRef lshr(const ExprRef &a, const ExprRef &b);
  ExprRef ashr(const ExprRef &a, const ExprRef &b);

  ExprRef eq(const ExprRef &a, const ExprRef &b);
  ExprRef ne(const ExprRef &a, const ExprRef &b);
  ExprRef ult(const ExprRef &a, const ExprRef &b);
  ExprRef ule(const ExprRef &a, const ExprRef &b);
  ExprRef ugt(const ExprRef &a, const ExprRef &b) { return ult(b, a); }
  ExprRef uge(const ExprRef &a, const ExprRef &b) { return ule(b, a); }
  ExprRef slt(const ExprRef &a, const ExprRef &b);
  ExprRef sle(const ExprRef &a, const ExprRef &b);
  ExprRef sgt(const ExprRef &a, const ExprRef &b) { return slt(b, a); }
  ExprRef sge(const ExprRef &a, const ExprRef &b) { return sle(b, a); }
  ExprRef ite(const ExprRef &c, const ExprRef &t, const ExprRef &f);

  // Boolean helpers over width-1 expressions.
  ExprRef lnot(const ExprRef &a) { return bvnot(a); }
  ExprRef land(const ExprRef &a, const ExprRef &b) { return bvand(a, b); }
  ExprRef lor(const ExprRef &a, const ExprRef &b) { return bvor(a, b); }
  ExprRef implies(const ExprRef &a, const ExprRef &b) { return bvor(bvnot(a), b); }

  // Floating point (cairn/expr/Float.h has the formats and the semantics): `kind` is a
  // floating-point kind, `width` the result's width (read for FConvert, FToSInt, FToUInt,
  // SIntToF and UIntToF), `aux` FRound's RoundingMode. Constant operands fold.
  ExprRef floatOp(Kind kind, std::span<const ExprRef> kids, unsigned width = 0, unsigned aux = 0);

  // Quantifiers: `bound` must be a Symbol expression of class Bound.
  ExprRef forall(const ExprRef &bound, const ExprRef &body);
  ExprRef exists(const ExprRef &bound, const ExprRef &body);

  // Generic construction by kind (used by deserialization and rewriting): `width` is the result
  // width (read for extract, zext and sext), `aux` the extract offset.
  ExprRef build(Kind kind, std::span<const ExprRef> kids, unsigned width = 0, unsigned aux = 0);

  // Rebuilds `e` (from any context) in this one, mapping its symbols by name.
  ExprRef import(const Expr *e);

  // With simplification off, nodes are built exactly as asked (for testing the simplifier).
  void setSimplify(bool on) { simplify_ = on; }
  bool simplifyEnabled() const { return simplify_; }

  const ExprContextStats &stats() const { return stats_; }

private:
  friend class Expr;
  struct Table;
  struct NodePool;

  ExprRef intern(Expr &proto);
  ExprRef node(Kind kind, unsigned width, const ExprRef &a, const ExprRef &b = {},
               const ExprRef &c = {}, unsigned aux = 0);
  void destroy(const Expr *e);
  ExprRef basePlusConstant(const Expr *base, u128 c); // c != 0, already masked

  ExprRef simplifyAdd(const ExprRef &a, const ExprRef &b);
  ExprRef simplifyEq(const ExprRef &a, const ExprRef &b);
  ExprRef foldBinary(Kind kind, const ExprRef &a, const ExprRef &b);
  ExprRef divRem(Kind kind, const ExprRef &a, const ExprRef &b);
  ExprRef logicalShift(Kind kind, const ExprRef &a, const ExprRef &b);

  std::unique_ptr<Table> table_;
  std::unique_ptr<NodePool> pool_;
  std::vector<std::unique_ptr<SymbolDecl>> symbolStore_;
  std::vector<const SymbolDecl *> symbolList_;
  struct SymbolIndex;
  std::unique_ptr<SymbolIndex> symbolIndex_;
  struct ConstArrayStore;
  std::unique_ptr<ConstArrayStore> constArrays_;
  ExprContextStats stats_;
  uint32_t nextId_ = 1;
  bool simplify_ = true;
  // addConstant's recent pointers, direct-mapped by (base, offset). Last, so that the nodes it
  // holds are released while the table and the pool are still there.
  struct PointerMemo;
  std::unique_ptr<PointerMemo> pointerMemo_;
};

} // namespace cairn
