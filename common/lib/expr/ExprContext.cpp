// Hash-consing, node storage and symbol bookkeeping. The simplifying builders live in
// Simplify.cpp.
#include "cairn/expr/Expr.h"
#include "cairn/expr/ExprContext.h"
#include "cairn/expr/Float.h"

#include <cassert>
#include <cstring>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace cairn {

namespace {

uint64_t mix(uint64_t h, uint64_t v) {
  // A 64-bit multiply-xorshift combine: cheap and well distributed for pointer-free inputs.
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  h *= 0xff51afd7ed558ccdULL;
  return h ^ (h >> 32);
}

uint64_t hashString(std::string_view s) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : s)
    h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

uint64_t hashU128(u128 v) { return mix(uint64_t(v), uint64_t(v >> 64)); }

bool sameNode(const Expr &a, const Expr &b);

} // namespace

// Open-addressing set of live nodes, keyed by structure.
struct ExprContext::Table {
  std::vector<const Expr *> slots = std::vector<const Expr *>(1024, nullptr);
  size_t used = 0; // live entries plus tombstones
  size_t live = 0;
  static inline const Expr *const kTombstone = reinterpret_cast<const Expr *>(uintptr_t(1));

  size_t mask() const { return slots.size() - 1; }

  const Expr *find(const Expr &proto) const {
    for (size_t i = proto.hash() & mask();; i = (i + 1) & mask()) {
      const Expr *e = slots[i];
      if (!e)
        return nullptr;
      if (e != kTombstone && e->hash() == proto.hash() && sameNode(*e, proto))
        return e;
    }
  }

  void insert(const Expr *e) {
    if ((used + 1) * 4 > slots.size() * 3)
      rehash(live * 2 > slots.size() / 2 ? slots.size() * 2 : slots.size());
    size_t i = e->hash() & mask();
    while (slots[i] && slots[i] != kTombstone)
      i = (i + 1) & mask();
    if (!slots[i])
      ++used;
    slots[i] = e;
    ++live;
  }

  void erase(const Expr *e) {
    for (size_t i = e->hash() & mask();; i = (i + 1) & mask()) {
      if (slots[i] == e) {
        slots[i] = kTombstone;
        --live;
        return;
      }
      assert(slots[i] && "erasing a node that is not in the table");
    }
  }

  void rehash(size_t size) {
    std::vector<const Expr *> old(size, nullptr);
    old.swap(slots);
    used = live = 0;
    for (const Expr *e : old)
      if (e && e != kTombstone) {
        size_t i = e->hash() & mask();
        while (slots[i])
          i = (i + 1) & mask();
        slots[i] = e;
        ++used;
        ++live;
      }
  }
};

// Fixed-size blocks for nodes, recycled through a free list.
struct ExprContext::NodePool {
  static constexpr size_t kChunk = 4096;
  std::vector<std::unique_ptr<Expr[]>> chunks;
  std::vector<Expr *> freeList;
  size_t nextInChunk = kChunk;

  Expr *allocate() {
    if (!freeList.empty()) {
      Expr *e = freeList.back();
      freeList.pop_back();
      return e;
    }
    if (nextInChunk == kChunk) {
      chunks.emplace_back(new Expr[kChunk]);
      nextInChunk = 0;
    }
    return &chunks.back()[nextInChunk++];
  }
  void free(Expr *e) { freeList.push_back(e); }
};

struct ExprContext::PointerMemo {
  struct Entry {
    const Expr *base = nullptr;
    u128 offset = 0;
    ExprRef sum;
  };
  static constexpr unsigned kBits = 10;
  std::vector<Entry> entries = std::vector<Entry>(size_t(1) << kBits);

  Entry &at(const Expr *base, u128 offset) {
    uint64_t h = (uint64_t(reinterpret_cast<uintptr_t>(base)) ^ uint64_t(offset)) * 0x9e3779b97f4a7c15ull;
    return entries[h >> (64 - kBits)];
  }
};

struct ExprContext::SymbolIndex {
  std::unordered_map<std::string, const SymbolDecl *> byName;
};

struct ExprContext::ConstArrayStore {
  std::unordered_multimap<uint64_t, std::unique_ptr<ConstArrayData>> byHash;
};

namespace {

bool sameNode(const Expr &a, const Expr &b) {
  if (a.kind() != b.kind() || a.width() != b.width() || a.domainWidth() != b.domainWidth() ||
      a.extractOffset() != b.extractOffset() || a.numKids() != b.numKids())
    return false;
  switch (a.kind()) {
  case Kind::Constant: return a.value() == b.value();
  case Kind::Symbol:
  case Kind::ArraySymbol: return a.symbol() == b.symbol();
  case Kind::ConstArray: return a.constArray() == b.constArray();
  default:
    for (unsigned i = 0; i < a.numKids(); ++i)
      if (a.kid(i) != b.kid(i))
        return false;
    return true;
  }
}

} // namespace

ExprContext::ExprContext()
    : table_(std::make_unique<Table>()), pool_(std::make_unique<NodePool>()),
      symbolIndex_(std::make_unique<SymbolIndex>()),
      constArrays_(std::make_unique<ConstArrayStore>()) {}

ExprRef ExprContext::basePlusConstant(const Expr *base, u128 c) {
  // Made on first use: most contexts (a solver's, a deserializer's) never move a pointer.
  if (!pointerMemo_)
    pointerMemo_ = std::make_unique<PointerMemo>();
  // The entry holds its sum, and so its base: a base compared here is a live node.
  PointerMemo::Entry &m = pointerMemo_->at(base, c);
  if (m.base != base || m.offset != c)
    m = {base, c, node(Kind::Add, base->width(), constant(c, base->width()), ExprRef(base))};
  return m.sum;
}

ExprContext::~ExprContext() {
  // Nodes still referenced from outside are a caller bug; their storage goes with the pool.
}

ExprRef ExprContext::intern(Expr &proto) {
  ++stats_.requests;
  if (const Expr *found = table_->find(proto)) {
    ++stats_.hits;
    return ExprRef(found);
  }
  Expr *e = pool_->allocate();
  *e = proto;
  e->refs_ = 0;
  e->ctx_ = this;
  e->id_ = nextId_++;
  if (e->kind_ != Kind::Constant && e->kind_ != Kind::Symbol && e->kind_ != Kind::ArraySymbol &&
      e->kind_ != Kind::ConstArray)
    for (unsigned i = 0; i < e->numKids_; ++i)
      e->u_.kids[i]->retain();
  table_->insert(e);
  ++stats_.created;
  ++stats_.live;
  return ExprRef(e);
}

void ExprContext::destroy(const Expr *root) {
  // Iterative, so that dropping a long store chain cannot overflow the stack.
  std::vector<const Expr *> work{root};
  while (!work.empty()) {
    const Expr *e = work.back();
    work.pop_back();
    table_->erase(e);
    --stats_.live;
    if (!isLeaf(e->kind_))
      for (unsigned i = 0; i < e->numKids_; ++i) {
        const Expr *k = e->u_.kids[i];
        if (--k->refs_ == 0)
          work.push_back(k);
      }
    pool_->free(const_cast<Expr *>(e));
  }
}

ExprRef ExprContext::node(Kind kind, unsigned width, const ExprRef &a, const ExprRef &b,
                          const ExprRef &c, unsigned aux) {
  Expr proto;
  proto.kind_ = kind;
  proto.width_ = width;
  proto.aux_ = aux;
  const Expr *kids[3] = {a.get(), b.get(), c.get()};
  proto.numKids_ = c ? 3 : b ? 2 : 1;
  uint64_t h = mix(mix(uint64_t(kind) + 1, width), aux);
  uint64_t rh = h;
  // Operands of commutative kinds are ordered by their hashes, which renaming changes: combine
  // their rename hashes in an order of their own so that renaming cannot change the result.
  bool swapRename = proto.numKids_ == 2 && isCommutative(kind) &&
                    kids[1]->renameHash() < kids[0]->renameHash();
  for (unsigned i = 0; i < proto.numKids_; ++i) {
    proto.u_.kids[i] = kids[i];
    h = mix(h, kids[i]->hash());
    rh = mix(rh, kids[swapRename ? 1 - i : i]->renameHash());
    proto.flags_ |= kids[i]->flags_;
  }
  if (isFloatKind(kind))
    proto.flags_ |= Expr::kMentionsFloat;
  if (kind == Kind::Store)
    proto.domainWidth_ = a->domainWidth();
  else if (kind == Kind::Ite)
    proto.domainWidth_ = b->domainWidth();
  proto.hash_ = h;
  proto.renameHash_ = rh;
  return intern(proto);
}

ExprRef ExprContext::constant(u128 value, unsigned width) {
  assert(width >= 1 && width <= 128);
  Expr proto;
  proto.kind_ = Kind::Constant;
  proto.width_ = width;
  proto.u_.value = value & widthMask(width);
  proto.hash_ = proto.renameHash_ = mix(mix(0x1234, width), hashU128(proto.u_.value));
  return intern(proto);
}

ExprRef ExprContext::boolean(bool b) { return constant(b ? 1 : 0, 1); }

const SymbolDecl *ExprContext::declareSymbol(std::string_view name, unsigned width,
                                             SymbolClass cls, uint64_t tag) {
  assert(width >= 1 && width <= 128);
  std::string unique(name);
  for (unsigned n = 1; symbolIndex_->byName.count(unique); ++n)
    unique = std::string(name) + "_" + std::to_string(n);
  auto decl = std::make_unique<SymbolDecl>();
  decl->name = unique;
  decl->width = width;
  decl->cls = cls;
  decl->tag = tag;
  decl->id = uint32_t(symbolStore_.size());
  const SymbolDecl *raw = decl.get();
  symbolIndex_->byName.emplace(unique, raw);
  symbolStore_.push_back(std::move(decl));
  symbolList_.push_back(raw);
  return raw;
}

const SymbolDecl *ExprContext::declareArray(std::string_view name, uint64_t size,
                                            unsigned domainWidth, unsigned rangeWidth,
                                            SymbolClass cls) {
  assert(domainWidth >= 1 && domainWidth <= 64 && rangeWidth >= 1 && rangeWidth <= 128);
  auto *decl = const_cast<SymbolDecl *>(declareSymbol(name, rangeWidth, cls, 0));
  decl->domainWidth = domainWidth;
  decl->size = size;
  return decl;
}

const SymbolDecl *ExprContext::findSymbol(std::string_view name) const {
  auto it = symbolIndex_->byName.find(std::string(name));
  return it == symbolIndex_->byName.end() ? nullptr : it->second;
}

ExprRef ExprContext::symbol(const SymbolDecl *decl) {
  Expr proto;
  proto.kind_ = decl->isArray() ? Kind::ArraySymbol : Kind::Symbol;
  proto.width_ = decl->width;
  proto.domainWidth_ = decl->domainWidth;
  proto.u_.symbol = decl;
  uint64_t shape = mix(mix(mix(uint64_t(proto.kind_) + 1, decl->width), decl->domainWidth),
                       uint64_t(decl->cls));
  proto.hash_ = mix(shape, hashString(decl->name));
  if (decl->renameable()) {
    proto.renameHash_ = mix(shape, decl->tag);
    proto.flags_ |= Expr::kMentionsAddress;
  } else {
    proto.renameHash_ = proto.hash_;
  }
  return intern(proto);
}

ExprRef ExprContext::constArray(std::span<const u128> values, unsigned rangeWidth,
                                unsigned domainWidth, u128 defaultValue) {
  defaultValue &= widthMask(rangeWidth); // hashed, compared and stored masked, like the values
  uint64_t h = mix(mix(rangeWidth, domainWidth), hashU128(defaultValue));
  for (u128 v : values)
    h = mix(h, hashU128(v & widthMask(rangeWidth)));
  const ConstArrayData *data = nullptr;
  auto range = constArrays_->byHash.equal_range(h);
  for (auto it = range.first; it != range.second && !data; ++it) {
    const ConstArrayData &d = *it->second;
    if (d.width == rangeWidth && d.domainWidth == domainWidth && d.defaultValue == defaultValue &&
        d.values.size() == values.size() &&
        std::equal(values.begin(), values.end(), d.values.begin(),
                   [&](u128 a, u128 b) { return (a & widthMask(rangeWidth)) == b; }))
      data = &d;
  }
  if (!data) {
    auto d = std::make_unique<ConstArrayData>();
    d->width = rangeWidth;
    d->domainWidth = domainWidth;
    d->defaultValue = defaultValue & widthMask(rangeWidth);
    d->values.reserve(values.size());
    for (u128 v : values)
      d->values.push_back(v & widthMask(rangeWidth));
    d->hash = h;
    data = d.get();
    constArrays_->byHash.emplace(h, std::move(d));
  }
  Expr proto;
  proto.kind_ = Kind::ConstArray;
  proto.width_ = rangeWidth;
  proto.domainWidth_ = domainWidth;
  proto.u_.carray = data;
  proto.hash_ = proto.renameHash_ = mix(0x5151, h);
  return intern(proto);
}

ExprRef ExprContext::readLE(const ExprRef &array, const ExprRef &index, unsigned bytes) {
  assert(bytes >= 1);
  const unsigned iw = array->domainWidth();
  ExprRef result = select(array, index);
  for (unsigned i = 1; i < bytes; ++i)
    result = concat(select(array, add(constant(i, iw), index)), result);
  return result;
}

ExprRef ExprContext::build(Kind kind, std::span<const ExprRef> kids, unsigned width,
                           unsigned aux) {
  auto need = [&](size_t n) {
    if (kids.size() != n)
      throw std::invalid_argument(std::string("wrong number of operands for ") + kindName(kind));
  };
  switch (kind) {
  case Kind::Constant:
  case Kind::Symbol:
  case Kind::ArraySymbol:
  case Kind::ConstArray: throw std::invalid_argument("leaves are not built from operands");
  case Kind::Store: need(3); return store(kids[0], kids[1], kids[2]);
  case Kind::Select: need(2); return select(kids[0], kids[1]);
  case Kind::Concat: need(2); return concat(kids[0], kids[1]);
  case Kind::Extract: need(1); return extract(kids[0], aux, width);
  case Kind::ZExt: need(1); return zext(kids[0], width);
  case Kind::SExt: need(1); return sext(kids[0], width);
  case Kind::Not: need(1); return bvnot(kids[0]);
  case Kind::Ite: need(3); return ite(kids[0], kids[1], kids[2]);
  case Kind::Forall: need(2); return forall(kids[0], kids[1]);
  case Kind::Exists: need(2); return exists(kids[0], kids[1]);
  default:
    if (isFloatKind(kind))
      return floatOp(kind, kids, width, aux);
    break;
  }
  need(2);
  const ExprRef &a = kids[0], &b = kids[1];
  switch (kind) {
  case Kind::Add: return add(a, b);
  case Kind::Sub: return sub(a, b);
  case Kind::Mul: return mul(a, b);
  case Kind::UDiv: return udiv(a, b);
  case Kind::SDiv: return sdiv(a, b);
  case Kind::URem: return urem(a, b);
  case Kind::SRem: return srem(a, b);
  case Kind::And: return bvand(a, b);
  case Kind::Or: return bvor(a, b);
  case Kind::Xor: return bvxor(a, b);
  case Kind::Shl: return shl(a, b);
  case Kind::LShr: return lshr(a, b);
  case Kind::AShr: return ashr(a, b);
  case Kind::Eq: return eq(a, b);
  case Kind::Ult: return ult(a, b);
  case Kind::Ule: return ule(a, b);
  case Kind::Slt: return slt(a, b);
  case Kind::Sle: return sle(a, b);
  default: throw std::invalid_argument("unknown expression kind");
  }
}

ExprRef ExprContext::import(const Expr *root) {
  std::unordered_map<const Expr *, ExprRef> done;
  std::vector<std::pair<const Expr *, bool>> work{{root, false}};
  while (!work.empty()) {
    auto [e, expanded] = work.back();
    if (done.count(e)) {
      work.pop_back();
      continue;
    }
    switch (e->kind()) {
    case Kind::Constant: done[e] = constant(e->value(), e->width()); break;
    case Kind::Symbol:
    case Kind::ArraySymbol: {
      const SymbolDecl *s = e->symbol();
      const SymbolDecl *mine = findSymbol(s->name);
      if (!mine) {
        mine = s->isArray() ? declareArray(s->name, s->size, s->domainWidth, s->width, s->cls)
                            : declareSymbol(s->name, s->width, s->cls, s->tag);
        const_cast<SymbolDecl *>(mine)->tag = s->tag;
      }
      if (mine->width != s->width || mine->domainWidth != s->domainWidth)
        throw std::invalid_argument("symbol '" + s->name + "' imported with a different sort");
      done[e] = symbol(mine);
      break;
    }
    case Kind::ConstArray: {
      const ConstArrayData *d = e->constArray();
      done[e] = constArray(d->values, d->width, d->domainWidth, d->defaultValue);
      break;
    }
    default:
      if (!expanded) {
        work.back().second = true;
        for (unsigned i = 0; i < e->numKids(); ++i)
          work.push_back({e->kid(i), false});
        continue;
      }
      ExprRef kids[3];
      for (unsigned i = 0; i < e->numKids(); ++i)
        kids[i] = done.at(e->kid(i));
      done[e] = build(e->kind(), std::span<const ExprRef>(kids, e->numKids()), e->width(),
                      e->extractOffset());
    }
    work.pop_back();
  }
  return done.at(root);
}

const char *kindName(Kind k) {
  static const char *names[kNumKinds] = {
      "const", "sym",  "arraysym", "constarray", "store", "select", "concat", "extract",
      "zext",  "sext", "add",      "sub",        "mul",   "udiv",   "sdiv",   "urem",
      "srem",  "not",  "and",      "or",         "xor",   "shl",    "lshr",   "ashr",
      "eq",    "ult",  "ule",      "slt",        "sle",   "ite",    "forall", "exists",
      "fadd",  "fsub", "fmul",     "fdiv",       "frem",  "ffma",   "fsqrt",  "fround",
      "fconvert", "fptosi", "fptoui", "sitofp", "uitofp", "foeq", "folt", "fole"};
  return names[static_cast<unsigned>(k)];
}

bool isCommutative(Kind k) {
  return k == Kind::Add || k == Kind::Mul || k == Kind::And || k == Kind::Or || k == Kind::Xor ||
         k == Kind::Eq;
}

bool isComparison(Kind k) {
  return k == Kind::Eq || k == Kind::Ult || k == Kind::Ule || k == Kind::Slt || k == Kind::Sle;
}

std::string toDecimal(u128 v) {
  if (v == 0)
    return "0";
  std::string s;
  while (v) {
    s.push_back(char('0' + unsigned(v % 10)));
    v /= 10;
  }
  return std::string(s.rbegin(), s.rend());
}

std::string toString(const Expr *e) {
  switch (e->kind()) {
  case Kind::Constant: return toDecimal(e->value()) + ":w" + std::to_string(e->width());
  case Kind::Symbol:
  case Kind::ArraySymbol: return e->symbol()->name;
  case Kind::ConstArray: return "constarray#" + std::to_string(e->constArray()->values.size());
  default: break;
  }
  std::string s = std::string("(") + kindName(e->kind());
  if (e->kind() == Kind::Extract || e->kind() == Kind::FRound)
    s += " " + std::to_string(e->aux());
  const Kind k = e->kind();
  if (k == Kind::Extract || k == Kind::ZExt || k == Kind::SExt || k == Kind::FConvert ||
      k == Kind::FToSInt || k == Kind::FToUInt || k == Kind::SIntToF || k == Kind::UIntToF)
    s += " w" + std::to_string(e->width());
  for (unsigned i = 0; i < e->numKids(); ++i)
    s += " " + toString(e->kid(i));
  return s + ")";
}

} // namespace cairn
