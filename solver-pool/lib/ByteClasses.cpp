// A byte's classes are found by refinement: all its values start in one class, and each of its
// atoms (a largest subterm that reads that byte alone) splits every class by the atom's value.
// A node's bytes are a mask over the query's few bytes (at most eight: ByteDomainSolver's
// kMostBytes), found once per node.
#include "ByteClasses.h"

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>

#include <array>
#include <bit>
#include <cstdint>
#include <tuple>

namespace cairn {

namespace {

// Past these, the classes are not worth their cost (or the walk would be too deep).
constexpr unsigned kMostDepth = 512;
constexpr size_t kMostNodes = 4096;

class AtomFinder {
public:
  explicit AtomFinder(const std::vector<InputByte> &bytes) : bytes_(bytes), atoms_(bytes.size()) {}

  // Adds the atoms of `literal`; false when its dependence on a byte does not pass through atoms.
  bool add(const Expr *literal) { return collect(literal, 0); }
  const std::vector<std::vector<const Expr *>> &atoms() const { return atoms_; }

private:
  static constexpr uint16_t kFail = 0x100; // read otherwise than as one of the bytes
  static constexpr uint64_t kAnyElement = ~uint64_t(0);

  uint16_t bitOf(const SymbolDecl *s, uint64_t index) const {
    for (size_t k = 0; k < bytes_.size(); ++k)
      if (bytes_[k].symbol == s && bytes_[k].index == index)
        return uint16_t(1u << k);
    return kFail;
  }

  // The bytes a scalar node reads.
  uint16_t mask(const Expr *e, unsigned depth) {
    if (e->isConstant())
      return 0;
    if (depth > kMostDepth)
      return kFail;
    if (auto it = masks_.find(e); it != masks_.end())
      return it->second;
    uint16_t m = 0;
    if (e->kind() == Kind::Symbol) {
      m = bitOf(e->symbol(), 0);
    } else if (e->kind() == Kind::Select) {
      const Expr *index = e->kid(1);
      m = mask(index, depth + 1) |
          elementMask(e->kid(0), index->isConstant() ? uint64_t(index->value()) : kAnyElement, depth + 1);
    } else if (e->isArray()) {
      m = kFail; // arrays are read through a select
    } else {
      for (unsigned i = 0; i < e->numKids(); ++i)
        m |= mask(e->kid(i), depth + 1);
    }
    masks_.emplace(e, m);
    return m;
  }

  // The bytes the element `at` of an array reads (kAnyElement: some element).
  uint16_t elementMask(const Expr *a, uint64_t at, unsigned depth) {
    uint16_t m = 0;
    for (;; ++depth) {
      if (depth > kMostDepth)
        return kFail;
      switch (a->kind()) {
      case Kind::ArraySymbol: return at == kAnyElement ? kFail : uint16_t(m | bitOf(a->symbol(), at));
      case Kind::ConstArray: return m;
      case Kind::Store:
        m |= mask(a->kid(1), depth + 1) | mask(a->kid(2), depth + 1);
        a = a->kid(0);
        continue;
      case Kind::Ite:
        m |= mask(a->kid(0), depth + 1) | elementMask(a->kid(1), at, depth + 1);
        a = a->kid(2);
        continue;
      default: return kFail;
      }
    }
  }

  bool collect(const Expr *e, unsigned depth) {
    const uint16_t m = mask(e, depth);
    if (m & kFail)
      return false;
    if (m == 0 || !seen_.insert(e).second)
      return true;
    if (seen_.size() > kMostNodes)
      return false;
    if (std::has_single_bit(m)) {
      atoms_[std::countr_zero(m)].push_back(e);
      return true;
    }
    if (e->kind() == Kind::Select) {
      // A select of a constant table at an index of several bytes depends on them through
      // its index; one of a written array, through elements that are no node of their own.
      return e->kid(0)->kind() == Kind::ConstArray && collect(e->kid(1), depth + 1);
    }
    for (unsigned i = 0; i < e->numKids(); ++i)
      if (e->kid(i)->isArray() || !collect(e->kid(i), depth + 1))
        return false;
    return true;
  }

  const std::vector<InputByte> &bytes_;
  absl::flat_hash_map<const Expr *, uint16_t> masks_;
  absl::flat_hash_set<const Expr *> seen_;
  std::vector<std::vector<const Expr *>> atoms_; // by byte
};

// Splits the classes of the allowed values by `value(v)`.
template <class Value>
void refine(std::array<uint16_t, 256> &cls, unsigned &classes, const std::bitset<256> &allowed, Value value) {
  absl::flat_hash_map<std::tuple<uint16_t, uint64_t, uint64_t>, uint16_t> renamed; // by (class, value)
  for (unsigned v = 0; v < 256; ++v)
    if (allowed[v]) {
      const u128 x = value(v);
      cls[v] = renamed.try_emplace({cls[v], uint64_t(x >> 64), uint64_t(x)}, uint16_t(renamed.size())).first->second;
    }
  classes = unsigned(renamed.size());
}

} // namespace

bool keepOneValuePerClass(const std::vector<const Expr *> &literals, const std::vector<InputByte> &bytes,
                          std::vector<std::bitset<256>> &allowed, ByteDomains &domains) {
  AtomFinder finder(bytes);
  for (const Expr *literal : literals)
    if (!finder.add(literal))
      return false;
  std::vector<std::bitset<256>> narrowed = allowed;
  for (size_t k = 0; k < bytes.size(); ++k) {
    const unsigned values = unsigned(allowed[k].count());
    std::array<uint16_t, 256> cls{};
    unsigned classes = 1;
    for (const Expr *atom : finder.atoms()[k]) {
      if (classes == values)
        break; // every value its own class already
      const std::bitset<256> *truth = atom->width() == 1 ? domains.exactValuesOf(ExprRef(atom)) : nullptr;
      if (truth) {
        refine(cls, classes, allowed[k], [&](unsigned v) { return u128((*truth)[v]); });
        continue;
      }
      std::optional<std::vector<u128>> term = termValues(atom, bytes[k]);
      if (!term)
        return false;
      refine(cls, classes, allowed[k], [&](unsigned v) { return v < term->size() ? (*term)[v] : u128(0); });
    }
    std::vector<bool> represented(classes, false);
    narrowed[k].reset();
    for (unsigned v = 0; v < 256; ++v)
      if (allowed[k][v] && !represented[cls[v]]) {
        represented[cls[v]] = true;
        narrowed[k].set(v);
      }
  }
  allowed = std::move(narrowed);
  return true;
}

} // namespace cairn
