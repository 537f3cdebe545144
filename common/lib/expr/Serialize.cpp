// Expression DAGs to and from cairn.v1.ExprDag.
//
// Reading is two passes: the first checks the whole message (symbols against each other and
// against the context, every node's kind, operands and widths) computing each node's sort from
// the message alone; the second declares the symbols and builds the nodes, which can then no
// longer fail.
#include "cairn/expr/Serialize.h"
#include "cairn/expr/Float.h"

#include "cairn/v1/expr.pb.h"

#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>

namespace cairn {

void toProto(u128 v, v1::U128 &out) {
  out.set_lo(uint64_t(v));
  out.set_hi(uint64_t(v >> 64));
}

u128 fromProto(const v1::U128 &v) { return (u128(v.hi()) << 64) | v.lo(); }

namespace {

v1::SymbolClass classToProto(SymbolClass c) {
  switch (c) {
  case SymbolClass::Input: return v1::SYMBOL_CLASS_INPUT;
  case SymbolClass::Address: return v1::SYMBOL_CLASS_ADDRESS;
  case SymbolClass::Bound: return v1::SYMBOL_CLASS_BOUND;
  }
  return v1::SYMBOL_CLASS_INPUT;
}

void writeConstArray(const ConstArrayData &d, v1::ConstArray &out) {
  out.set_width(d.width);
  out.set_domain_width(d.domainWidth);
  if (d.width <= 64) {
    out.mutable_small()->Reserve(int(d.values.size()));
    for (u128 v : d.values)
      out.add_small(uint64_t(v));
  } else {
    out.mutable_wide()->Reserve(int(d.values.size()));
    for (u128 v : d.values)
      toProto(v, *out.add_wide());
  }
  if (d.defaultValue != 0)
    toProto(d.defaultValue, *out.mutable_default_value());
}

} // namespace

void serializeExprs(std::span<const ExprRef> roots, v1::ExprDag &out,
                    std::vector<uint32_t> &rootIndices) {
  out.Clear();
  rootIndices.clear();
  rootIndices.reserve(roots.size());
  std::unordered_map<const Expr *, uint32_t> index;
  std::unordered_map<const SymbolDecl *, uint32_t> symbolIndex;
  std::vector<std::pair<const Expr *, bool>> work; // node, operands already emitted

  auto emit = [&](const Expr *e) {
    v1::ExprNode &n = *out.add_nodes();
    n.set_kind(kindName(e->kind()));
    n.set_width(e->width());
    switch (e->kind()) {
    case Kind::Constant:
      if (e->value() != 0)
        toProto(e->value(), *n.mutable_value());
      break;
    case Kind::Symbol:
    case Kind::ArraySymbol: {
      const SymbolDecl *s = e->symbol();
      auto [it, fresh] = symbolIndex.emplace(s, uint32_t(out.symbols_size()));
      if (fresh) {
        v1::Symbol &m = *out.add_symbols();
        m.set_name(s->name);
        m.set_width(s->width);
        m.set_domain_width(s->domainWidth);
        m.set_size(s->size);
        m.set_cls(classToProto(s->cls));
        m.set_tag(s->tag);
      }
      n.set_symbol(it->second);
      break;
    }
    case Kind::ConstArray: writeConstArray(*e->constArray(), *n.mutable_const_array()); break;
    default:
      if (e->kind() == Kind::Extract || e->kind() == Kind::FRound)
        n.set_aux(e->aux());
      for (unsigned i = 0; i < e->numKids(); ++i)
        n.add_operands(index.at(e->kid(i)));
    }
    index.emplace(e, uint32_t(out.nodes_size() - 1));
  };

  for (const ExprRef &root : roots) {
    if (!root)
      throw std::invalid_argument("serializeExprs: null root expression");
    work.push_back({root.get(), false});
    while (!work.empty()) {
      auto [e, expanded] = work.back();
      if (index.count(e)) {
        work.pop_back();
        continue;
      }
      if (!expanded && !isLeaf(e->kind())) {
        work.back().second = true;
        // Pushed in reverse, so operands are emitted first to last.
        for (unsigned i = e->numKids(); i-- > 0;)
          if (!index.count(e->kid(i)))
            work.push_back({e->kid(i), false});
        continue;
      }
      work.pop_back();
      emit(e);
    }
    rootIndices.push_back(index.at(root.get()));
  }
}

// ---------------------------------------------------------------------------------------------
// Reading

namespace {

[[noreturn]] void fail(const std::string &what) {
  throw std::invalid_argument("malformed expression dag: " + what);
}

const std::unordered_map<std::string_view, Kind> &kindsByName() {
  static const auto *table = [] {
    auto *m = new std::unordered_map<std::string_view, Kind>;
    for (unsigned k = 0; k < kNumKinds; ++k)
      m->emplace(kindName(Kind(k)), Kind(k));
    return m;
  }();
  return *table;
}

// The sort of a node as the message describes it.
struct NodeSort {
  Kind kind;
  uint32_t width;
  uint32_t domainWidth; // 0 unless an array
  bool isArray() const { return domainWidth != 0; }
};

struct SymbolPlan {
  const SymbolDecl *existing = nullptr; // found in the context
  SymbolClass cls = SymbolClass::Input;
};

std::string sortText(uint32_t width, uint32_t domainWidth) {
  if (!domainWidth)
    return "bv" + std::to_string(width);
  return "array bv" + std::to_string(domainWidth) + " -> bv" + std::to_string(width);
}

const char *className(SymbolClass c) {
  switch (c) {
  case SymbolClass::Input: return "input";
  case SymbolClass::Address: return "address";
  case SymbolClass::Bound: return "bound";
  }
  return "?";
}

std::vector<SymbolPlan> checkSymbols(const v1::ExprDag &dag, const ExprContext &ctx) {
  std::vector<SymbolPlan> plans(size_t(dag.symbols_size()));
  std::unordered_map<std::string_view, int> seen;
  for (int i = 0; i < dag.symbols_size(); ++i) {
    const v1::Symbol &s = dag.symbols(i);
    const std::string where = "symbol " + std::to_string(i) + " '" + s.name() + "'";
    if (s.name().empty())
      fail("symbol " + std::to_string(i) + " has an empty name");
    if (!seen.emplace(s.name(), i).second)
      fail(where + " is listed twice");
    if (s.width() < 1 || s.width() > 128)
      fail(where + " has width " + std::to_string(s.width()) + " (must be 1 to 128)");
    if (s.domain_width() > 64)
      fail(where + " has domain width " + std::to_string(s.domain_width()) +
           " (must be 0 for a bit-vector or 1 to 64 for an array)");
    SymbolPlan &p = plans[size_t(i)];
    switch (s.cls()) {
    case v1::SYMBOL_CLASS_INPUT: p.cls = SymbolClass::Input; break;
    case v1::SYMBOL_CLASS_ADDRESS: p.cls = SymbolClass::Address; break;
    case v1::SYMBOL_CLASS_BOUND: p.cls = SymbolClass::Bound; break;
    default: fail(where + " has unknown class " + std::to_string(int(s.cls())));
    }
    if (const SymbolDecl *d = ctx.findSymbol(s.name())) {
      if (d->width != s.width() || d->domainWidth != s.domain_width())
        fail(where + " has sort " + sortText(s.width(), s.domain_width()) +
             " but the context declares it as " + sortText(d->width, d->domainWidth));
      if (d->cls != p.cls)
        fail(where + " has class " + className(p.cls) + " but the context declares it as " +
             className(d->cls));
      p.existing = d;
    }
  }
  return plans;
}

bool fits(u128 v, uint32_t width) { return (v & ~widthMask(width)) == 0; }

// A floating-point node's operands, width and rounding mode (checkNode has checked the rest).
template <class Bad>
NodeSort checkFloatNode(Kind kind, uint32_t width, uint32_t aux, const NodeSort *const *op, unsigned arity,
                        const Bad &bad) {
  for (unsigned k = 0; k < arity; ++k) {
    if (op[k]->isArray())
      bad("operand " + std::to_string(k) + " is an array, expected a bit-vector");
    if (op[k]->width != op[0]->width)
      bad("operands have different widths");
  }
  const bool takesInteger = kind == Kind::SIntToF || kind == Kind::UIntToF;
  if (!takesInteger && !floatFormat(op[0]->width))
    bad("operand width " + std::to_string(op[0]->width) + " is not a float format (32, 64 or 80)");
  auto needFormat = [&] {
    if (!floatFormat(width))
      bad("width " + std::to_string(width) + " is not a float format (32, 64 or 80)");
  };
  switch (kind) {
  case Kind::FOeq:
  case Kind::FOlt:
  case Kind::FOle:
    if (width != 1)
      bad("width " + std::to_string(width) + ", expected 1");
    break;
  case Kind::FToSInt:
  case Kind::FToUInt: break;
  case Kind::FConvert:
    needFormat();
    if (width == op[0]->width)
      bad("converts to its own format");
    break;
  case Kind::SIntToF:
  case Kind::UIntToF: needFormat(); break;
  default:
    if (width != op[0]->width)
      bad("width " + std::to_string(width) + ", expected " + std::to_string(op[0]->width));
  }
  if (kind == Kind::FRound && aux > unsigned(RoundingMode::TowardZero))
    bad("rounding mode " + std::to_string(aux) + " (must be 0 to 4)");
  return {kind, width, 0};
}

// Checks node `i` against the sorts of the nodes before it and returns its own sort.
NodeSort checkNode(const v1::ExprDag &dag, int i, const std::vector<NodeSort> &sorts) {
  const v1::ExprNode &n = dag.nodes(i);
  auto it = kindsByName().find(n.kind());
  if (it == kindsByName().end())
    fail("node " + std::to_string(i) + " has unknown kind '" + n.kind() + "'");
  const Kind kind = it->second;
  const std::string where = "node " + std::to_string(i) + " (" + n.kind() + ")";
  const uint32_t width = n.width();
  if (width < 1 || width > 128)
    fail(where + " has width " + std::to_string(width) + " (must be 1 to 128)");

  // Operands: the right number, all earlier nodes.
  unsigned arity = 2;
  switch (kind) {
  case Kind::Constant:
  case Kind::Symbol:
  case Kind::ArraySymbol:
  case Kind::ConstArray: arity = 0; break;
  case Kind::Extract:
  case Kind::ZExt:
  case Kind::SExt:
  case Kind::Not: arity = 1; break;
  case Kind::Store:
  case Kind::Ite: arity = 3; break;
  default:
    if (isFloatKind(kind))
      arity = floatArity(kind);
    break;
  }
  if (n.operands_size() != int(arity))
    fail(where + " has " + std::to_string(n.operands_size()) + " operands, expected " +
         std::to_string(arity));
  const NodeSort *op[3] = {};
  for (unsigned k = 0; k < arity; ++k) {
    uint32_t o = n.operands(int(k));
    if (o >= uint32_t(i))
      fail(where + ": operand " + std::to_string(k) + " refers to node " + std::to_string(o) +
           ", which does not come before it");
    op[k] = &sorts[o];
  }
  auto bad = [&](const std::string &why) { fail(where + ": " + why); };
  auto needScalar = [&](unsigned k) {
    if (op[k]->isArray())
      bad("operand " + std::to_string(k) + " is an array, expected a bit-vector");
  };
  auto needWidth = [&](uint32_t expected) {
    if (width != expected)
      bad("width " + std::to_string(width) + ", expected " + std::to_string(expected));
  };
  if (kind != Kind::Constant && n.has_value())
    bad("only constants carry a value");
  if (kind != Kind::ConstArray && n.has_const_array())
    bad("only constant arrays carry contents");
  if (kind != Kind::Extract && kind != Kind::FRound && n.aux() != 0)
    bad("only extracts and float roundings carry an auxiliary operand");
  if (kind != Kind::Symbol && kind != Kind::ArraySymbol && n.symbol() != 0)
    bad("only symbols refer to a symbol");
  if (isFloatKind(kind))
    return checkFloatNode(kind, width, n.aux(), op, arity, bad);

  switch (kind) {
  case Kind::Constant:
    if (!fits(fromProto(n.value()), width))
      bad("value does not fit in " + std::to_string(width) + " bits");
    return {kind, width, 0};
  case Kind::Symbol:
  case Kind::ArraySymbol: {
    if (n.symbol() >= uint32_t(dag.symbols_size()))
      bad("symbol index " + std::to_string(n.symbol()) + " out of range (" +
          std::to_string(dag.symbols_size()) + " symbols)");
    const v1::Symbol &s = dag.symbols(int(n.symbol()));
    if ((s.domain_width() != 0) != (kind == Kind::ArraySymbol))
      bad("symbol '" + s.name() + "' is " + (s.domain_width() ? "an array" : "a bit-vector"));
    needWidth(s.width());
    return {kind, width, s.domain_width()};
  }
  case Kind::ConstArray: {
    if (!n.has_const_array())
      bad("missing contents");
    const v1::ConstArray &a = n.const_array();
    if (a.width() != width)
      bad("element width " + std::to_string(a.width()) + " differs from the node's width");
    if (a.domain_width() < 1 || a.domain_width() > 128)
      bad("domain width " + std::to_string(a.domain_width()) + " (must be 1 to 128)");
    if (width <= 64) {
      if (a.wide_size() != 0)
        bad("elements of up to 64 bits belong in 'small'");
      for (uint64_t v : a.small())
        if (!fits(v, width))
          bad("element " + std::to_string(v) + " does not fit in " + std::to_string(width) +
              " bits");
    } else {
      if (a.small_size() != 0)
        bad("elements wider than 64 bits belong in 'wide'");
      for (const v1::U128 &v : a.wide())
        if (!fits(fromProto(v), width))
          bad("an element does not fit in " + std::to_string(width) + " bits");
    }
    if (!fits(fromProto(a.default_value()), width))
      bad("default value does not fit in " + std::to_string(width) + " bits");
    return {kind, width, a.domain_width()};
  }
  case Kind::Store:
    if (!op[0]->isArray())
      bad("operand 0 is not an array");
    needScalar(1);
    needScalar(2);
    if (op[1]->width != op[0]->domainWidth)
      bad("index width " + std::to_string(op[1]->width) + " differs from the domain width " +
          std::to_string(op[0]->domainWidth));
    if (op[2]->width != op[0]->width)
      bad("value width " + std::to_string(op[2]->width) + " differs from the element width " +
          std::to_string(op[0]->width));
    needWidth(op[0]->width);
    return {kind, width, op[0]->domainWidth};
  case Kind::Select:
    if (!op[0]->isArray())
      bad("operand 0 is not an array");
    needScalar(1);
    if (op[1]->width != op[0]->domainWidth)
      bad("index width " + std::to_string(op[1]->width) + " differs from the domain width " +
          std::to_string(op[0]->domainWidth));
    needWidth(op[0]->width);
    return {kind, width, 0};
  case Kind::Concat:
    needScalar(0);
    needScalar(1);
    if (op[0]->width + op[1]->width > 128)
      bad("result wider than 128 bits");
    needWidth(op[0]->width + op[1]->width);
    return {kind, width, 0};
  case Kind::Extract:
    needScalar(0);
    if (uint64_t(n.aux()) + width > op[0]->width)
      bad("bits " + std::to_string(n.aux()) + ".." + std::to_string(uint64_t(n.aux()) + width) +
          " exceed the operand's width " + std::to_string(op[0]->width));
    return {kind, width, 0};
  case Kind::ZExt:
  case Kind::SExt:
    needScalar(0);
    if (width < op[0]->width)
      bad("extends a " + std::to_string(op[0]->width) + "-bit operand to fewer bits");
    return {kind, width, 0};
  case Kind::Not:
    needScalar(0);
    needWidth(op[0]->width);
    return {kind, width, 0};
  case Kind::Ite:
    if (op[0]->isArray() || op[0]->width != 1)
      bad("condition is not a width-1 bit-vector");
    if (op[1]->width != op[2]->width || op[1]->domainWidth != op[2]->domainWidth)
      bad("branches have different sorts");
    needWidth(op[1]->width);
    return {kind, width, op[1]->domainWidth};
  case Kind::Forall:
  case Kind::Exists:
    if (op[0]->kind != Kind::Symbol)
      bad("operand 0 is not a bit-vector symbol");
    if (op[1]->isArray() || op[1]->width != 1)
      bad("body is not a width-1 bit-vector");
    needWidth(1);
    return {kind, width, 0};
  case Kind::Eq:
    if (op[0]->width != op[1]->width || op[0]->domainWidth != op[1]->domainWidth)
      bad("operands have different sorts");
    needWidth(1);
    return {kind, width, 0};
  case Kind::Ult:
  case Kind::Ule:
  case Kind::Slt:
  case Kind::Sle:
    needScalar(0);
    needScalar(1);
    if (op[0]->width != op[1]->width)
      bad("operands have different widths");
    needWidth(1);
    return {kind, width, 0};
  default: // binary arithmetic, bitwise and shifts
    needScalar(0);
    needScalar(1);
    if (op[0]->width != op[1]->width)
      bad("operands have different widths");
    needWidth(op[0]->width);
    return {kind, width, 0};
  }
}

ExprRef buildConstArray(const v1::ConstArray &a, ExprContext &ctx) {
  std::vector<u128> values;
  if (a.width() <= 64) {
    values.assign(a.small().begin(), a.small().end());
  } else {
    values.reserve(size_t(a.wide_size()));
    for (const v1::U128 &v : a.wide())
      values.push_back(fromProto(v));
  }
  return ctx.constArray(values, a.width(), a.domain_width(), fromProto(a.default_value()));
}

} // namespace

std::vector<ExprRef> deserializeExprs(const v1::ExprDag &dag, std::span<const uint32_t> indices,
                                      ExprContext &ctx) {
  // Pass 1: validate everything.
  std::vector<SymbolPlan> plans = checkSymbols(dag, ctx);
  std::vector<NodeSort> sorts;
  sorts.reserve(size_t(dag.nodes_size()));
  for (int i = 0; i < dag.nodes_size(); ++i)
    sorts.push_back(checkNode(dag, i, sorts));
  for (size_t r = 0; r < indices.size(); ++r)
    if (indices[r] >= uint32_t(dag.nodes_size()))
      fail("root " + std::to_string(r) + " refers to node " + std::to_string(indices[r]) + " of " +
           std::to_string(dag.nodes_size()));

  // Pass 2: build.
  std::vector<const SymbolDecl *> decls(plans.size());
  for (size_t i = 0; i < plans.size(); ++i) {
    const v1::Symbol &s = dag.symbols(int(i));
    const SymbolDecl *d = plans[i].existing;
    if (!d) {
      d = s.domain_width()
              ? ctx.declareArray(s.name(), s.size(), s.domain_width(), s.width(), plans[i].cls)
              : ctx.declareSymbol(s.name(), s.width(), plans[i].cls, s.tag());
      auto *mut = const_cast<SymbolDecl *>(d);
      mut->tag = s.tag();
      mut->size = s.size();
    }
    decls[i] = d;
  }
  std::vector<ExprRef> built(size_t(dag.nodes_size()));
  for (int i = 0; i < dag.nodes_size(); ++i) {
    const v1::ExprNode &n = dag.nodes(i);
    ExprRef &e = built[size_t(i)];
    switch (sorts[size_t(i)].kind) {
    case Kind::Constant: e = ctx.constant(fromProto(n.value()), n.width()); break;
    case Kind::Symbol:
    case Kind::ArraySymbol: e = ctx.symbol(decls[n.symbol()]); break;
    case Kind::ConstArray: e = buildConstArray(n.const_array(), ctx); break;
    default: {
      ExprRef kids[3];
      for (int k = 0; k < n.operands_size(); ++k)
        kids[k] = built[n.operands(k)];
      e = ctx.build(sorts[size_t(i)].kind,
                    std::span<const ExprRef>(kids, size_t(n.operands_size())), n.width(), n.aux());
    }
    }
  }
  std::vector<ExprRef> result;
  result.reserve(indices.size());
  for (uint32_t r : indices)
    result.push_back(built[r]);
  return result;
}

} // namespace cairn
