// The expression language: an immutable, hash-consed DAG over bit-vectors and arrays.
//
// Every node is created through an ExprContext, which simplifies it at construction and returns
// the one node that represents the result: structurally equal expressions are the same pointer.
// Width-1 bit-vectors double as booleans (true = 1), as in KLEE.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cairn {

using u128 = unsigned __int128;

class ExprContext;

enum class Kind : uint8_t {
  // Leaves.
  Constant,    // a bit-vector literal
  Symbol,      // a free (or bound) bit-vector variable
  ArraySymbol, // a free array variable
  ConstArray,  // an array with known contents
  // Arrays.
  Store,  // kids: array, index, value
  Select, // kids: array, index
  // Bit-vector structure.
  Concat,  // kids: high, low
  Extract, // kid: value; aux: low bit
  ZExt,
  SExt,
  // Arithmetic and bitwise.
  Add,
  Sub,
  Mul,
  UDiv,
  SDiv,
  URem,
  SRem,
  Not,
  And,
  Or,
  Xor,
  Shl,
  LShr,
  AShr,
  // Comparisons (ne, ugt, uge, sgt and sge are canonicalised into these).
  Eq,
  Ult,
  Ule,
  Slt,
  Sle,
  Ite, // kids: condition, then, else
  // Quantifiers over one bound Symbol each: kids: bound symbol, body.
  Forall,
  Exists,
  // Floating point on bit-vectors that hold IEEE-754 encodings (cairn/expr/Float.h has the
  // formats and the exact semantics). Results are rounded to nearest, ties to even.
  FAdd, // kids: a, b
  FSub,
  FMul,
  FDiv,
  FRem,    // C's fmod: the remainder of the quotient truncated toward zero
  FFma,    // kids: a, b, c: a * b + c rounded once
  FSqrt,   // kid: a
  FRound,  // kid: a; aux: RoundingMode: to an integral value in the same format
  FConvert, // kid: a; to the format of the node's width
  FToSInt, // kid: a; to a signed integer of the node's width, truncated
  FToUInt, // kid: a; to an unsigned integer
  SIntToF, // kid: a signed integer; to the format of the node's width
  UIntToF, // kid: an unsigned integer
  FOeq,    // kids: a, b; ordered comparisons: false when either is NaN
  FOlt,
  FOle,
};
constexpr unsigned kNumKinds = static_cast<unsigned>(Kind::FOle) + 1;

const char *kindName(Kind k);
bool isCommutative(Kind k);
bool isComparison(Kind k);
// Kinds without operands: constants, symbols, constant arrays.
inline bool isLeaf(Kind k) {
  return k == Kind::Constant || k == Kind::Symbol || k == Kind::ArraySymbol || k == Kind::ConstArray;
}

// What a symbol stands for. Renameable symbols (symbolic base addresses) are hashed by their
// class, width and tag only, so queries equal up to renaming them share a rename hash.
enum class SymbolClass : uint8_t { Input, Address, Bound };

// Where an Address symbol's object lies: the engine places every object, with its one-past-the-
// end address, in [kAddressFloor, kAddressCeiling). So a base is never null, and a base plus an
// offset below kAddressCeiling neither wraps nor turns negative: the simplifier decides null
// checks and comparisons of pointers into one object from this alone, in every layout.
inline constexpr u128 kAddressFloor = 4096;
inline constexpr u128 kAddressCeiling = u128(1) << 62;

// A named variable: a bit-vector (domainWidth == 0) or an array (domainWidth > 0) of `size`
// elements. Owned by its context and alive as long as it.
struct SymbolDecl {
  std::string name;
  uint32_t width = 0;       // bit-vector width, or the array's element width
  uint32_t domainWidth = 0; // 0 for bit-vectors
  uint64_t size = 0;        // number of array elements (informative for models)
  SymbolClass cls = SymbolClass::Input;
  uint64_t tag = 0; // for Address symbols: the size of the object the base belongs to
  uint32_t id = 0;  // creation order within the context

  bool isArray() const { return domainWidth != 0; }
  bool renameable() const { return cls == SymbolClass::Address; }
};

// The contents of a constant array: `size` elements of `width` bits, and a default value for
// indices beyond them. Interned by content, so equal contents are one object.
struct ConstArrayData {
  uint32_t width = 8;
  uint32_t domainWidth = 32;
  std::vector<u128> values;
  u128 defaultValue = 0;
  uint64_t hash = 0;

  u128 at(u128 index) const { return index < values.size() ? values[size_t(index)] : defaultValue; }
};

class Expr {
public:
  Kind kind() const { return kind_; }
  unsigned width() const { return width_; }             // element width for arrays
  unsigned domainWidth() const { return domainWidth_; } // 0 unless an array
  bool isArray() const { return domainWidth_ != 0; }
  bool isBool() const { return width_ == 1 && domainWidth_ == 0; }
  unsigned numKids() const { return numKids_; }
  const Expr *kid(unsigned i) const { return u_.kids[i]; }
  uint64_t hash() const { return hash_; }
  uint64_t renameHash() const { return renameHash_; }
  uint32_t id() const { return id_; }
  ExprContext &context() const { return *ctx_; }

  bool isConstant() const { return kind_ == Kind::Constant; }
  bool isTrue() const { return isConstant() && width_ == 1 && u_.value == 1; }
  bool isFalse() const { return isConstant() && width_ == 1 && u_.value == 0; }
  bool isZero() const { return isConstant() && u_.value == 0; }
  u128 value() const { return u_.value; }
  uint64_t zextValue() const { return uint64_t(u_.value); }
  const SymbolDecl *symbol() const { return u_.symbol; }
  const ConstArrayData *constArray() const { return u_.carray; }
  unsigned extractOffset() const { return aux_; }
  unsigned aux() const { return aux_; } // Extract's offset, FRound's rounding mode
  // True when a renameable symbol occurs anywhere below.
  bool mentionsAddress() const { return flags_ & kMentionsAddress; }
  // True when a floating-point operation occurs anywhere below (the query goes to the float
  // solver, SolverChainOptions::floatCore).
  bool mentionsFloat() const { return flags_ & kMentionsFloat; }
  // True for a renameable symbol itself: an object's symbolic base address.
  bool isAddressSymbol() const { return kind_ == Kind::Symbol && u_.symbol->renameable(); }

  void retain() const { ++refs_; }
  inline void release() const;

private:
  friend class ExprContext;
  static constexpr uint8_t kMentionsAddress = 1;
  static constexpr uint8_t kMentionsFloat = 2;

  mutable uint32_t refs_ = 0;
  Kind kind_ = Kind::Constant;
  uint8_t numKids_ = 0;
  uint8_t flags_ = 0;
  uint32_t width_ = 0;
  uint32_t domainWidth_ = 0;
  uint32_t aux_ = 0;
  uint32_t id_ = 0;
  uint64_t hash_ = 0;
  uint64_t renameHash_ = 0;
  ExprContext *ctx_ = nullptr;
  union Payload {
    const Expr *kids[3];
    u128 value;
    const SymbolDecl *symbol;
    const ConstArrayData *carray;
  } u_{};
};

// Owning handle to a node: an intrusive reference count keeps nodes alive.
class ExprRef {
public:
  ExprRef() = default;
  ExprRef(const Expr *e) : e_(e) {
    if (e_)
      e_->retain();
  }
  ExprRef(const ExprRef &o) : ExprRef(o.e_) {}
  ExprRef(ExprRef &&o) noexcept : e_(std::exchange(o.e_, nullptr)) {}
  ExprRef &operator=(ExprRef o) noexcept {
    std::swap(e_, o.e_);
    return *this;
  }
  ~ExprRef() {
    if (e_)
      e_->release();
  }
  const Expr *get() const { return e_; }
  const Expr *operator->() const { return e_; }
  const Expr &operator*() const { return *e_; }
  explicit operator bool() const { return e_ != nullptr; }
  friend bool operator==(const ExprRef &a, const ExprRef &b) { return a.e_ == b.e_; }
  friend bool operator==(const ExprRef &a, const Expr *b) { return a.e_ == b; }

private:
  const Expr *e_ = nullptr;
};

struct ExprRefHash {
  size_t operator()(const ExprRef &e) const { return e ? size_t(e->hash()) : 0; }
  size_t operator()(const Expr *e) const { return e ? size_t(e->hash()) : 0; }
};

// Deterministic order used for canonical operand order and sorted constraint sets.
// `e` as a base address plus a constant (`β` or `C + β`, the shape of a pointer into an object
// in the relocatable model): the base, with `offset` set to C (0 for the bare base); null for
// any other expression.
inline const Expr *asBasePlusConstant(const Expr *e, u128 &offset) {
  if (e->isAddressSymbol()) {
    offset = 0;
    return e;
  }
  if (e->kind() == Kind::Add && e->kid(0)->isConstant() && e->kid(1)->isAddressSymbol()) {
    offset = e->kid(0)->value();
    return e->kid(1);
  }
  return nullptr;
}

inline bool exprLess(const Expr *a, const Expr *b) {
  if (a->hash() != b->hash())
    return a->hash() < b->hash();
  return a->id() < b->id();
}

// Bits of a u128 below `width` set.
inline u128 widthMask(unsigned width) { return width >= 128 ? ~u128(0) : (u128(1) << width) - 1; }

// Interpreting a `width`-bit value as signed, in 128 bits.
inline __int128 toSigned(u128 v, unsigned width) {
  if (width < 128 && (v >> (width - 1)) & 1)
    v |= ~widthMask(width);
  return static_cast<__int128>(v);
}

std::string toDecimal(u128 v);
std::string toString(const Expr *e); // a compact, human-readable form for logs and tests

} // namespace cairn

#include "cairn/expr/ExprContext.h"

inline void cairn::Expr::release() const {
  if (--refs_ == 0)
    ctx_->destroy(this);
}
