// The values single input bytes may take under a conjunction of literals, literal by literal:
// a literal that reads one byte (an array element at a constant index, or a scalar of at most 8
// bits) narrows that byte's set of values, found by trying all 256 with the evaluator (the
// semantics every layer checks models against) once per literal; other literals are not looked
// at. A byte left with no value proves the conjunction unsatisfiable without a solver, which is
// how the disjunct-split layer picks, among a merged path condition's disjuncts, one that does
// not contradict what the query holds already.
#pragma once

#include "cairn/expr/Assignment.h"
#include "cairn/expr/Expr.h"

#include <absl/container/flat_hash_map.h>

#include <bitset>
#include <optional>
#include <utility>
#include <vector>

namespace cairn {

class Footprint;

// One byte of input: an element of an array of bytes, or a scalar of at most 8 bits.
struct InputByte {
  const SymbolDecl *symbol = nullptr;
  uint64_t index = 0; // 0 for a scalar
};
// The one byte `fp` reads; nothing when it reads more, or nothing at all.
std::optional<InputByte> onlyByte(const Footprint &fp);
// Arrays longer than this are not copied into a candidate model to try a byte's values.
inline constexpr uint64_t kMostByteArrayElements = uint64_t(1) << 16;
// A model to try `byte`'s values in with the evaluator: its array whole and zero (a backend's
// model holds every element, and so does the test written from it), or its scalar; nothing for
// an array longer than kMostByteArrayElements. setByte gives the byte value `v` in it.
std::optional<Assignment> byteCandidate(const InputByte &byte);
void setByte(Assignment &candidate, const InputByte &byte, unsigned v);
// The value of `term`, which reads `byte` and nothing else, for each of the byte's values in
// order; nothing where they cannot be worked out here (an array too large to copy, a quantifier).
std::optional<std::vector<u128>> termValues(const Expr *term, const InputByte &byte);

class ByteDomains {
public:
  // The byte `literal` reads, when it reads one and has few nodes (memoised; the memo keeps the
  // literals alive and is emptied when it grows past a bound).
  const InputByte *byteOf(const ExprRef &literal);
  // The values of its byte that satisfy `literal` (found when first asked, then memoised); null
  // when byteOf is.
  const std::bitset<256> *valuesOf(const ExprRef &literal);
  // The same where they are exactly the values that satisfy it; null where they could not be
  // worked out (valuesOf then allows every value).
  const std::bitset<256> *exactValuesOf(const ExprRef &literal);

  // The literals of a conjunction, by the byte each reads; a byte's values are worked out only
  // when a question touches it.
  class Conjunction {
  public:
    explicit Conjunction(ByteDomains &domains) : domains_(&domains) {}
    void add(const ExprRef &literal);
    // Whether every literal of `literals` could be added without leaving a byte no value (only
    // the bytes `literals` read are looked at).
    bool allows(const std::vector<ExprRef> &literals);

  private:
    using Key = std::pair<const SymbolDecl *, uint64_t>;
    struct Byte {
      std::vector<ExprRef> pending; // added, not yet in `values`
      std::bitset<256> values = std::bitset<256>().set();
    };
    const std::bitset<256> &values(Byte &b);
    ByteDomains *domains_;
    absl::flat_hash_map<Key, Byte> bytes_;
  };

private:
  struct Memo {
    ExprRef literal;
    std::optional<InputByte> byte;
    std::optional<std::bitset<256>> values; // once asked, when the literal reads a byte
    bool exact = false;                     // `values` are worked out, not all allowed
  };
  Memo &memo(const ExprRef &literal);
  Memo *withValues(const ExprRef &literal);
  static constexpr size_t kMaxMemo = 1 << 16;
  absl::flat_hash_map<const Expr *, Memo> memo_;
};

} // namespace cairn
