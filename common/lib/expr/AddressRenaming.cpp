#include "cairn/expr/AddressRenaming.h"

namespace cairn {

bool AddressRenaming::match(const Expr *from, const Expr *to) {
  const size_t mark = journal_.size();
  if (matchNode(from, to))
    return true;
  rollback(mark);
  return false;
}

const SymbolDecl *AddressRenaming::image(const SymbolDecl *from) const {
  auto it = forward_.find(from);
  return it == forward_.end() ? nullptr : it->second;
}

bool AddressRenaming::bind(const SymbolDecl *a, const SymbolDecl *b) {
  if (a->tag != b->tag || a->width != b->width)
    return false; // objects of different sizes
  auto f = forward_.find(a);
  auto g = backward_.find(b);
  if (f != forward_.end() || g != backward_.end())
    return f != forward_.end() && g != backward_.end() && f->second == b; // one-to-one
  forward_.emplace(a, b);
  backward_.emplace(b, a);
  journal_.push_back({nullptr, nullptr, a});
  return true;
}

void AddressRenaming::rollback(size_t mark) {
  while (journal_.size() > mark) {
    const Step &s = journal_.back();
    if (s.base) {
      backward_.erase(forward_.at(s.base));
      forward_.erase(s.base);
    } else {
      matched_.erase({s.a, s.b});
    }
    journal_.pop_back();
  }
}

bool AddressRenaming::matchNode(const Expr *a, const Expr *b) {
  if (a == b && !a->mentionsAddress())
    return true; // hash-consed: the same node, and nothing in it to rename
  // The rename hash ignores base names but not object sizes: unequal means no renaming fits.
  if (a->renameHash() != b->renameHash() || a->kind() != b->kind() || a->width() != b->width() ||
      a->domainWidth() != b->domainWidth() || a->numKids() != b->numKids())
    return false;
  switch (a->kind()) {
  case Kind::Constant:
  case Kind::ArraySymbol:
  case Kind::ConstArray: return a == b;
  case Kind::Symbol:
    if (a->symbol()->renameable() && b->symbol()->renameable())
      return bind(a->symbol(), b->symbol());
    return a == b;
  default: break;
  }
  if (a->extractOffset() != b->extractOffset())
    return false;
  if (matched_.count({a, b}))
    return true;
  bool ok;
  if (a->numKids() == 2 && isCommutative(a->kind())) {
    // Operand order follows the structural hash, which renaming changes: pair the operands by
    // rename hash, and try both ways when that cannot tell them apart.
    const Expr *a0 = a->kid(0), *a1 = a->kid(1), *b0 = b->kid(0), *b1 = b->kid(1);
    const size_t mark = journal_.size();
    const bool straight = a0->renameHash() == b0->renameHash();
    const bool swapped = a0->renameHash() == b1->renameHash();
    ok = straight && matchNode(a0, b0) && matchNode(a1, b1);
    if (!ok && swapped) {
      rollback(mark);
      ok = matchNode(a0, b1) && matchNode(a1, b0);
    }
  } else {
    ok = true;
    for (unsigned i = 0; ok && i < a->numKids(); ++i)
      ok = matchNode(a->kid(i), b->kid(i));
  }
  if (!ok)
    return false;
  matched_.insert({a, b});
  journal_.push_back({a, b, nullptr});
  return true;
}

} // namespace cairn
