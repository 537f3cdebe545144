// The array reads of a query, as the pre-check and the axiom pool see them (private to
// solver-pool/lib/arrays).
//
// The engine's memory is a byte array per object: a constant array of its initial bytes under
// stores of the symbolic bytes written at constant offsets; a load at a symbolic offset o of n
// bytes is the concatenation of the selects at o, o+1, ..., o+n-1. A select is a *read* here
// when its value depends on which element it picks: its index is symbolic, or a store under it
// writes at a symbolic index (a *symbolic write*).
#pragma once

#include "IntegerProgram.h"

#include "cairn/expr/Expr.h"
#include "cairn/solver/Solver.h"

#include <optional>
#include <unordered_map>
#include <vector>

namespace cairn::arrays {

bool hasSymbolicStore(const Expr *array);
// The ConstArray or ArraySymbol under an array term's stores.
const Expr *rootOf(const Expr *array);
bool isRead(const Expr *e);

struct ArrayRead {
  const Expr *select = nullptr;
  const Expr *array = nullptr; // the select's array term
  const Expr *root = nullptr;  // the ConstArray or ArraySymbol under its stores
  const Expr *index = nullptr;
};

struct QueryReads {
  std::vector<ArrayRead> reads; // each read select once, in first-visit order
  std::vector<bool> readsArray; // per conjunct: whether a read occurs in it
  bool symbolicWrite = false;   // a read's array has a store at a symbolic index
  bool empty() const { return reads.empty(); }
};

// The reads of the conjuncts (nulls skipped).
QueryReads collectReads(const std::vector<const Expr *> &conjuncts);

// `n` consecutive bytes read little-endian: concat(select(a, t + n-1), ..., select(a, t)).
struct WordRead {
  const Expr *array = nullptr;
  const Expr *index = nullptr; // of the lowest byte
  unsigned bytes = 0;
};
std::optional<WordRead> asWordRead(const Expr *e);

// `e` modulo `m` (a power of two no wider than e) when the structure of `e` decides it for
// every value of its symbols: constants, sums and products with a multiple of m, shifts, zero
// extensions. This is what makes pruning by element width safe: a byte index k + 4*i is
// always k modulo 4, whatever the engine believed about the array's accesses.
std::optional<u128> residue(const Expr *e, u128 m);

// The elements of an array term whose stores are at constant indices: the newest store at a
// position, else the root constant array's element.
class ArrayContents {
public:
  // Null when the root is not a constant array or a store index is symbolic.
  static std::optional<ArrayContents> of(const Expr *array);
  uint64_t size() const { return root_->values.size(); } // positions beyond: the default
  u128 defaultValue() const { return root_->defaultValue; }
  // The element's expression when a store put a symbolic value there, else null and `value`.
  const Expr *at(u128 position, u128 &value) const;
  // Whether a store put a symbolic value somewhere.
  bool symbolic() const;

private:
  const ConstArrayData *root_ = nullptr;
  std::unordered_map<uint64_t, const Expr *> stores_;
};

// The element width (bytes, a power of two) an array's reads may be pruned by: what the engine
// inferred for its root, 1 where it said nothing.
unsigned elementBytes(const ArrayTypes *types, const Expr *root);

} // namespace cairn::arrays
