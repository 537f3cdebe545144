#include "ByteDomains.h"

#include "Footprint.h"

#include "cairn/expr/Assignment.h"
#include "cairn/expr/Fold.h"

#include <algorithm>
#include <stdexcept>

namespace cairn {

std::optional<InputByte> onlyByte(const Footprint &fp) {
  std::optional<InputByte> byte;
  bool more = false;
  fp.forEach([&](const SymbolDecl *s, bool whole, const std::vector<uint64_t> &indices) {
    const bool oneElement = s->isArray() ? !whole && indices.size() == 1 : true;
    if (byte || !oneElement || s->width > 8 || s->cls == SymbolClass::Bound) {
      more = true;
      return;
    }
    byte = InputByte{s, s->isArray() ? indices.front() : 0};
  });
  if (more)
    return std::nullopt;
  return byte;
}

std::optional<Assignment> byteCandidate(const InputByte &byte) {
  const SymbolDecl *s = byte.symbol;
  Assignment candidate;
  if (s->isArray()) {
    if (s->size > kMostByteArrayElements || byte.index >= kMostByteArrayElements)
      return std::nullopt;
    candidate.setArray(s, std::vector<u128>(std::max<uint64_t>(s->size, byte.index + 1), 0));
  }
  return candidate;
}

void setByte(Assignment &candidate, const InputByte &byte, unsigned v) {
  if (byte.symbol->isArray())
    candidate.setElement(byte.symbol, byte.index, v);
  else
    candidate.setScalar(byte.symbol, v);
}

namespace {

// Whether `t` is the byte: the scalar itself, or the array's element at its constant index.
bool isByte(const Expr *t, const InputByte &byte) {
  if (t->kind() == Kind::Symbol)
    return t->symbol() == byte.symbol;
  return t->kind() == Kind::Select && t->kid(0)->kind() == Kind::ArraySymbol && t->kid(0)->symbol() == byte.symbol &&
         t->kid(1)->isConstant() && t->kid(1)->value() == byte.index;
}

bool isComparisonKind(Kind k) { return k == Kind::Eq || k == Kind::Ult || k == Kind::Ule || k == Kind::Slt || k == Kind::Sle; }

// The value of `e` with `byte` holding `v`, for the kinds a byte's literals are made of, with no
// allocation (the general evaluator keeps a memo per call: 256 calls per literal were most of
// this class's time); nothing for any other kind, which the general evaluator then takes.
std::optional<u128> withByte(const Expr *e, const InputByte &byte, u128 v, unsigned depth = 0) {
  if (depth > 32)
    return std::nullopt;
  auto kid = [&](unsigned i) { return withByte(e->kid(i), byte, v, depth + 1); };
  const unsigned w = e->width();
  switch (e->kind()) {
  case Kind::Constant:
    return e->value();
  case Kind::Symbol:
  case Kind::Select:
    return isByte(e, byte) ? std::optional<u128>(v) : std::nullopt;
  case Kind::ZExt:
  case Kind::SExt:
  case Kind::Extract:
  case Kind::Not: {
    std::optional<u128> x = kid(0);
    if (!x)
      return x;
    return foldUnary(e->kind(), *x, e->kid(0)->width(), w, e->kind() == Kind::Extract ? e->extractOffset() : 0);
  }
  case Kind::And:
  case Kind::Or:
  case Kind::Xor:
  case Kind::Add:
  case Kind::Sub:
  case Kind::Eq:
  case Kind::Ult:
  case Kind::Ule:
  case Kind::Slt:
  case Kind::Sle: {
    std::optional<u128> a = kid(0), b = kid(1);
    if (!a || !b)
      return std::nullopt;
    return foldBinary(e->kind(), *a, *b, e->kid(0)->width());
  }
  case Kind::Ite: {
    std::optional<u128> c = kid(0);
    if (!c)
      return c;
    return kid(*c ? 1 : 2);
  }
  default:
    return std::nullopt;
  }
}

// Literals of more nodes than this (a merged value's choice of tens of paths) are not looked at:
// 256 evaluations each cost more than what they rarely decide.
constexpr unsigned kMostLiteralNodes = 24;

// The byte `e` reads with `budget` nodes at most, found by a walk that allocates nothing; false
// when it reads more than one, reads an array otherwise than at a constant index, or is larger.
bool readsOneByte(const Expr *e, unsigned &budget, std::optional<InputByte> &byte) {
  if (budget == 0)
    return false;
  --budget;
  auto read = [&](const SymbolDecl *s, uint64_t index) {
    if (s->width > 8 || s->cls == SymbolClass::Bound)
      return false;
    if (byte)
      return byte->symbol == s && byte->index == index;
    byte = InputByte{s, index};
    return true;
  };
  switch (e->kind()) {
  case Kind::Symbol:
    return read(e->symbol(), 0);
  case Kind::ArraySymbol:
    return false; // read whole
  case Kind::Select:
    if (e->kid(0)->kind() == Kind::ArraySymbol && e->kid(1)->isConstant())
      return e->kid(1)->value() < kMostByteArrayElements && read(e->kid(0)->symbol(), uint64_t(e->kid(1)->value()));
    return false;
  default:
    for (unsigned i = 0; i < e->numKids(); ++i)
      if (!readsOneByte(e->kid(i), budget, byte))
        return false;
    return true;
  }
}

// Whether `t` is the byte itself, or its zero or sign extension (`sext` says which).
bool isByteTerm(const Expr *t, const InputByte &byte, bool &sext) {
  sext = t->kind() == Kind::SExt;
  return isByte(t->kind() == Kind::ZExt || sext ? t->kid(0) : t, byte);
}

// The values of a comparison of the byte (extended or not) with a constant, negated or not, by
// one loop: most literals of input bytes are such (a C program's `c >= '0'`).
std::optional<std::bitset<256>> comparisonValues(const Expr *e, const InputByte &byte) {
  bool negated = false;
  for (; e->kind() == Kind::Not && e->width() == 1; e = e->kid(0))
    negated = !negated;
  const Kind k = e->kind();
  if (!isComparisonKind(k))
    return std::nullopt;
  bool sext = false, byteFirst = true;
  const Expr *constant = e->kid(1);
  if (e->kid(0)->isConstant() && isByteTerm(e->kid(1), byte, sext)) {
    constant = e->kid(0);
    byteFirst = false;
  } else if (!constant->isConstant() || !isByteTerm(e->kid(0), byte, sext)) {
    return std::nullopt;
  }
  const unsigned w = constant->width(), from = byte.symbol->width;
  const u128 c = constant->value();
  std::bitset<256> out;
  for (unsigned v = 0; v < (1u << from); ++v) {
    const u128 x = sext ? foldUnary(Kind::SExt, v, from, w) : u128(v);
    out[v] = (foldBinary(k, byteFirst ? x : c, byteFirst ? c : x, w) != 0) != negated;
  }
  return out;
}

// Nothing when they cannot be worked out here (an array too large to copy, a quantifier).
std::optional<std::bitset<256>> valuesOfByte(const Expr *literal, const InputByte &byte) {
  if (std::optional<std::bitset<256>> values = comparisonValues(literal, byte))
    return values;
  std::optional<std::vector<u128>> values = termValues(literal, byte);
  if (!values)
    return std::nullopt;
  std::bitset<256> out;
  for (size_t v = 0; v < values->size(); ++v)
    out[v] = (*values)[v] != 0;
  return out;
}

} // namespace

std::optional<std::vector<u128>> termValues(const Expr *term, const InputByte &byte) {
  const unsigned count = 1u << byte.symbol->width;
  std::vector<u128> out(count);
  bool direct = true;
  for (unsigned v = 0; v < count && direct; ++v) {
    std::optional<u128> x = withByte(term, byte, v);
    direct = x.has_value();
    out[v] = direct ? *x : 0;
  }
  if (direct)
    return out;
  std::optional<Assignment> candidate = byteCandidate(byte);
  if (!candidate)
    return std::nullopt;
  try {
    for (unsigned v = 0; v < count; ++v) {
      setByte(*candidate, byte, v);
      out[v] = evaluate(term, *candidate);
    }
  } catch (const std::domain_error &) { // a quantifier the evaluator cannot enumerate
    return std::nullopt;
  }
  return out;
}

ByteDomains::Memo &ByteDomains::memo(const ExprRef &literal) {
  auto it = memo_.find(literal.get());
  if (it != memo_.end())
    return it->second;
  if (memo_.size() >= kMaxMemo)
    memo_.clear();
  Memo m{literal, std::nullopt, std::nullopt};
  unsigned budget = kMostLiteralNodes;
  if (literal->width() != 1 || !readsOneByte(literal.get(), budget, m.byte))
    m.byte.reset();
  return memo_.emplace(literal.get(), std::move(m)).first->second;
}

const InputByte *ByteDomains::byteOf(const ExprRef &literal) {
  Memo &m = memo(literal);
  return m.byte ? &*m.byte : nullptr;
}

ByteDomains::Memo *ByteDomains::withValues(const ExprRef &literal) {
  Memo &m = memo(literal);
  if (!m.byte)
    return nullptr;
  if (!m.values) {
    std::optional<std::bitset<256>> values = valuesOfByte(literal.get(), *m.byte);
    m.exact = values.has_value();
    m.values = values ? *values : std::bitset<256>().set(); // nothing known: any value may do
  }
  return &m;
}

const std::bitset<256> *ByteDomains::valuesOf(const ExprRef &literal) {
  Memo *m = withValues(literal);
  return m ? &*m->values : nullptr;
}

const std::bitset<256> *ByteDomains::exactValuesOf(const ExprRef &literal) {
  Memo *m = withValues(literal);
  return m && m->exact ? &*m->values : nullptr;
}

void ByteDomains::Conjunction::add(const ExprRef &literal) {
  if (const InputByte *b = domains_->byteOf(literal))
    bytes_[Key{b->symbol, b->index}].pending.push_back(literal);
}

const std::bitset<256> &ByteDomains::Conjunction::values(Byte &b) {
  for (const ExprRef &l : b.pending)
    b.values &= *domains_->valuesOf(l);
  b.pending.clear();
  return b.values;
}

bool ByteDomains::Conjunction::allows(const std::vector<ExprRef> &literals) {
  std::vector<std::pair<Key, std::bitset<256>>> touched; // the literals' bytes: a few
  for (const ExprRef &l : literals) {
    const InputByte *b = domains_->byteOf(l);
    if (!b)
      continue;
    const Key key{b->symbol, b->index};
    auto t = std::find_if(touched.begin(), touched.end(), [&](const auto &e) { return e.first == key; });
    if (t == touched.end()) {
      auto held = bytes_.find(key);
      touched.emplace_back(key, held == bytes_.end() ? std::bitset<256>().set() : values(held->second));
      t = touched.end() - 1;
    }
    t->second &= *domains_->valuesOf(l);
    if (t->second.none())
      return false;
  }
  return true;
}

} // namespace cairn
