#include "ArrayReads.h"

#include <algorithm>

namespace cairn::arrays {

bool hasSymbolicStore(const Expr *array) {
  for (; array->kind() == Kind::Store; array = array->kid(0))
    if (!array->kid(1)->isConstant())
      return true;
  return false;
}

bool isRead(const Expr *e) {
  return e->kind() == Kind::Select && (!e->kid(1)->isConstant() || hasSymbolicStore(e->kid(0)));
}

const Expr *rootOf(const Expr *array) {
  while (array->kind() == Kind::Store)
    array = array->kid(0);
  return array;
}

QueryReads collectReads(const std::vector<const Expr *> &conjuncts) {
  QueryReads out;
  // Whether a read occurs below each node, computed once per node in post-order: conjuncts
  // share subterms, and each must know whether it reads an array.
  std::unordered_map<const Expr *, bool> below;
  std::vector<std::pair<const Expr *, bool>> stack;
  for (const Expr *c : conjuncts) {
    if (c)
      stack.push_back({c, false});
    while (!stack.empty()) {
      auto [e, expanded] = stack.back();
      stack.pop_back();
      if (below.contains(e))
        continue;
      if (!expanded) {
        stack.push_back({e, true});
        for (unsigned i = 0; i < e->numKids(); ++i)
          if (!below.contains(e->kid(i)))
            stack.push_back({e->kid(i), false});
        continue;
      }
      bool reads = isRead(e);
      for (unsigned i = 0; i < e->numKids() && !reads; ++i)
        reads = below.at(e->kid(i));
      below.emplace(e, reads);
      if (isRead(e)) {
        out.reads.push_back({e, e->kid(0), rootOf(e->kid(0)), e->kid(1)});
        out.symbolicWrite |= hasSymbolicStore(e->kid(0));
      }
    }
    out.readsArray.push_back(c && below.at(c));
  }
  return out;
}

// Splits an index into its constant part and the rest: c + x (x null for a constant).
static std::pair<u128, const Expr *> splitConstant(const Expr *index) {
  if (index->isConstant())
    return {index->value(), nullptr};
  if (index->kind() == Kind::Add && index->kid(0)->isConstant())
    return {index->kid(0)->value(), index->kid(1)};
  return {0, index};
}

std::optional<WordRead> asWordRead(const Expr *e) {
  if (e->kind() != Kind::Concat)
    return std::nullopt;
  // The bytes from the lowest: the concatenation's leaves from right to left.
  std::vector<const Expr *> bytes;
  std::vector<const Expr *> stack{e};
  while (!stack.empty()) {
    const Expr *x = stack.back();
    stack.pop_back();
    if (x->kind() == Kind::Concat) {
      stack.push_back(x->kid(0)); // high, visited after the low half
      stack.push_back(x->kid(1));
    } else {
      bytes.push_back(x);
    }
  }
  const Expr *low = bytes.front();
  if (low->kind() != Kind::Select || low->width() != 8 || !isRead(low))
    return std::nullopt;
  const auto [base, rest] = splitConstant(low->kid(1));
  const u128 mask = widthMask(low->kid(1)->width());
  for (size_t i = 1; i < bytes.size(); ++i) {
    const Expr *b = bytes[i];
    if (b->kind() != Kind::Select || b->width() != 8 || b->kid(0) != low->kid(0))
      return std::nullopt;
    const auto [c, r] = splitConstant(b->kid(1));
    if (r != rest || c != ((base + i) & mask))
      return std::nullopt;
  }
  return WordRead{low->kid(0), low->kid(1), unsigned(bytes.size())};
}

std::optional<u128> residue(const Expr *e, u128 m) {
  if (m <= 1)
    return 0;
  if (e->width() < 128 && (u128(1) << e->width()) % m != 0)
    return std::nullopt; // wrap-around would not keep the residue
  switch (e->kind()) {
  case Kind::Constant: return e->value() % m;
  case Kind::Add: {
    std::optional<u128> a = residue(e->kid(0), m), b = residue(e->kid(1), m);
    if (!a || !b)
      return std::nullopt;
    return (*a + *b) % m;
  }
  case Kind::Mul: {
    std::optional<u128> a = residue(e->kid(0), m);
    if (a && *a == 0)
      return 0;
    std::optional<u128> b = residue(e->kid(1), m);
    if (b && *b == 0)
      return 0;
    if (!a || !b)
      return std::nullopt;
    return (*a * *b) % m;
  }
  case Kind::Shl: {
    if (!e->kid(1)->isConstant())
      return std::nullopt;
    const u128 k = e->kid(1)->value();
    if (k >= e->width())
      return 0;
    if (k < 128 && (u128(1) << k) % m == 0)
      return 0;
    std::optional<u128> a = residue(e->kid(0), m);
    if (!a)
      return std::nullopt;
    return (*a << unsigned(k)) % m;
  }
  case Kind::ZExt: return residue(e->kid(0), m);
  default: return std::nullopt;
  }
}

std::optional<ArrayContents> ArrayContents::of(const Expr *array) {
  ArrayContents c;
  for (; array->kind() == Kind::Store; array = array->kid(0)) {
    if (!array->kid(1)->isConstant())
      return std::nullopt;
    const u128 at = array->kid(1)->value();
    if (at >> 64)
      return std::nullopt;
    c.stores_.try_emplace(uint64_t(at), array->kid(2)); // the newest store wins
  }
  if (array->kind() != Kind::ConstArray)
    return std::nullopt;
  c.root_ = array->constArray();
  return c;
}

const Expr *ArrayContents::at(u128 position, u128 &value) const {
  if (position >> 64) {
    value = root_->defaultValue;
    return nullptr;
  }
  if (auto it = stores_.find(uint64_t(position)); it != stores_.end()) {
    if (it->second->isConstant()) {
      value = it->second->value();
      return nullptr;
    }
    return it->second;
  }
  value = root_->at(position);
  return nullptr;
}

bool ArrayContents::symbolic() const {
  return std::any_of(stores_.begin(), stores_.end(), [](const auto &s) { return !s.second->isConstant(); });
}

unsigned elementBytes(const ArrayTypes *types, const Expr *root) {
  if (!types)
    return 1;
  const uint32_t bytes = types->bytesOf(root);
  return bytes && (bytes & (bytes - 1)) == 0 && bytes <= 8 ? bytes : 1;
}

} // namespace cairn::arrays
