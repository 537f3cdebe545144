// Queries and responses to and from their messages.
#include "cairn/solver/QuerySerialize.h"

#include "cairn/expr/Serialize.h"
#include "cairn/v1/expr.pb.h"

#include <algorithm>
#include <stdexcept>
#include <unordered_set>

namespace cairn {

namespace {

// The roots (constant or input arrays under their stores) of the arrays the query selects from.
std::vector<ExprRef> arrayRootsOf(const Query &query) {
  std::vector<ExprRef> roots;
  std::unordered_set<const Expr *> visited;
  std::vector<const Expr *> work;
  for (const ExprRef &c : query.constraints)
    work.push_back(c.get());
  if (query.expr)
    work.push_back(query.expr.get());
  while (!work.empty()) {
    const Expr *e = work.back();
    work.pop_back();
    if (!e || !visited.insert(e).second)
      continue;
    if (e->kind() == Kind::Select) {
      const Expr *root = e->kid(0);
      while (root->kind() == Kind::Store)
        root = root->kid(0);
      if (std::find(roots.begin(), roots.end(), root) == roots.end())
        roots.emplace_back(root);
    }
    for (unsigned i = 0; i < e->numKids(); ++i)
      work.push_back(e->kid(i));
  }
  return roots;
}

void serializeAddressForm(const QueryForm &form, v1::AddressForm &out) {
  std::vector<ExprRef> roots = form.constraints;
  if (form.expr)
    roots.push_back(form.expr);
  std::vector<uint32_t> indices;
  serializeExprs(roots, *out.mutable_dag(), indices);
  for (size_t i = 0; i < form.constraints.size(); ++i)
    out.add_constraints(indices[i]);
  if (form.expr)
    out.set_expr(indices.back());
  out.set_layout_dependent(form.concreteOnly);
}

std::shared_ptr<const QueryForm> deserializeAddressForm(const v1::AddressForm &message,
                                                          ExprContext &ctx) {
  std::vector<uint32_t> indices(message.constraints().begin(), message.constraints().end());
  if (message.has_expr())
    indices.push_back(message.expr());
  std::vector<ExprRef> exprs = deserializeExprs(message.dag(), indices, ctx);
  for (size_t i = 0; i < exprs.size(); ++i)
    if (!exprs[i]->isBool())
      throw std::invalid_argument(
          "malformed query: the symbolic form's " +
          (i < size_t(message.constraints_size()) ? "constraint " + std::to_string(i)
                                                  : std::string("expression")) +
          " is not a width-1 bit-vector");
  auto form = std::make_shared<QueryForm>();
  form->concreteOnly = message.layout_dependent();
  if (message.has_expr()) {
    form->expr = std::move(exprs.back());
    exprs.pop_back();
  }
  form->constraints = std::move(exprs);
  return form;
}

} // namespace

void serializeQuery(const Query &query, bool wantModel, double timeoutSeconds, v1::Query &out,
                    bool withAddressForm) {
  out.Clear();
  std::vector<ExprRef> roots;
  roots.reserve(query.constraints.size() + 1 + query.terms.size());
  roots.insert(roots.end(), query.constraints.begin(), query.constraints.end());
  if (query.expr)
    roots.push_back(query.expr);
  roots.insert(roots.end(), query.terms.begin(), query.terms.end());
  const size_t queryRoots = roots.size();
  // Array types only for arrays of the query: their roots are nodes of the dag already, so the
  // dag (a cache key) is the same with or without them.
  std::vector<uint32_t> typeBytes;
  if (query.arrayTypes)
    for (const ExprRef &root : arrayRootsOf(query))
      if (uint32_t bytes = query.arrayTypes->bytesOf(root.get()); bytes > 1) {
        roots.push_back(root);
        typeBytes.push_back(bytes);
      }
  std::vector<uint32_t> indices;
  serializeExprs(roots, *out.mutable_dag(), indices);
  size_t i = 0;
  for (; i < query.constraints.size(); ++i)
    out.add_constraints(indices[i]);
  if (query.expr)
    out.set_expr(indices[i++]);
  for (; i < queryRoots; ++i)
    out.add_terms(indices[i]);
  for (size_t t = 0; t < typeBytes.size(); ++t) {
    v1::ArrayElementWidth *w = out.add_array_types();
    w->set_root(indices[queryRoots + t]);
    w->set_bytes(typeBytes[t]);
  }
  if (withAddressForm && query.original)
    serializeAddressForm(*query.original, *out.mutable_symbolic());
  out.set_want_model(wantModel);
  out.set_timeout_s(timeoutSeconds);
}

Query deserializeQuery(const v1::Query &message, ExprContext &ctx, bool *wantModel) {
  std::vector<uint32_t> indices(message.constraints().begin(), message.constraints().end());
  if (message.has_expr())
    indices.push_back(message.expr());
  indices.insert(indices.end(), message.terms().begin(), message.terms().end());
  for (const v1::ArrayElementWidth &w : message.array_types()) {
    if (w.bytes() != 1 && w.bytes() != 2 && w.bytes() != 4 && w.bytes() != 8)
      throw std::invalid_argument("malformed query: an array element width of " + std::to_string(w.bytes()) +
                                  " bytes");
    indices.push_back(w.root());
  }
  std::vector<ExprRef> exprs = deserializeExprs(message.dag(), indices, ctx);
  std::shared_ptr<ArrayTypes> types;
  for (int t = message.array_types_size(); t-- > 0;) {
    ExprRef root = std::move(exprs.back());
    exprs.pop_back();
    if (!root->isArray())
      throw std::invalid_argument("malformed query: an array element width for a node that is not an array");
    if (!types)
      types = std::make_shared<ArrayTypes>();
    types->elementBytes.emplace_back(std::move(root), message.array_types(t).bytes());
  }
  const size_t numBool = size_t(message.constraints_size()) + (message.has_expr() ? 1 : 0);
  for (size_t i = 0; i < numBool; ++i)
    if (!exprs[i]->isBool())
      throw std::invalid_argument("malformed query: " +
                                  (i < size_t(message.constraints_size())
                                       ? "constraint " + std::to_string(i)
                                       : std::string("the expression")) +
                                  " is not a width-1 bit-vector");
  Query q;
  size_t i = 0;
  for (; i < size_t(message.constraints_size()); ++i)
    q.constraints.push_back(std::move(exprs[i]));
  if (message.has_expr())
    q.expr = std::move(exprs[i++]);
  for (; i < exprs.size(); ++i)
    q.terms.push_back(std::move(exprs[i]));
  if (message.has_symbolic())
    q.original = deserializeAddressForm(message.symbolic(), ctx);
  q.arrayTypes = std::move(types);
  if (wantModel)
    *wantModel = message.want_model();
  return q;
}

void serializeResponse(const SolverResponse &response, v1::QueryResponse &out) {
  out.Clear();
  switch (response.result) {
  case SatResult::Sat: out.set_result(v1::QueryResponse::RESULT_SAT); break;
  case SatResult::Unsat: out.set_result(v1::QueryResponse::RESULT_UNSAT); break;
  case SatResult::Unknown: out.set_result(v1::QueryResponse::RESULT_UNKNOWN); break;
  }
  out.set_reason(response.reason);
  auto byName = [](const auto *a, const auto *b) { return a->first->name < b->first->name; };

  std::vector<const std::pair<const SymbolDecl *const, u128> *> scalars;
  for (const auto &binding : response.model.scalars())
    scalars.push_back(&binding);
  std::sort(scalars.begin(), scalars.end(), byName);
  for (const auto *binding : scalars) {
    v1::ScalarValue &v = *out.add_scalars();
    v.set_name(binding->first->name);
    if (binding->second != 0)
      toProto(binding->second, *v.mutable_value());
  }

  std::vector<const std::pair<const SymbolDecl *const, std::vector<u128>> *> arrays;
  for (const auto &binding : response.model.arrays())
    arrays.push_back(&binding);
  std::sort(arrays.begin(), arrays.end(), byName);
  for (const auto *binding : arrays) {
    v1::ArrayValue &v = *out.add_arrays();
    v.set_name(binding->first->name);
    const std::vector<u128> &values = binding->second;
    if (binding->first->width <= 64) {
      v.mutable_small()->Reserve(int(values.size()));
      for (u128 x : values)
        v.add_small(uint64_t(x));
    } else {
      v.mutable_wide()->Reserve(int(values.size()));
      for (u128 x : values)
        toProto(x, *v.add_wide());
    }
  }
}

SolverResponse deserializeResponse(const v1::QueryResponse &message, ExprContext &ctx) {
  auto fail = [](const std::string &why) {
    throw std::invalid_argument("malformed query response: " + why);
  };
  SolverResponse r;
  switch (message.result()) {
  case v1::QueryResponse::RESULT_SAT: r.result = SatResult::Sat; break;
  case v1::QueryResponse::RESULT_UNSAT: r.result = SatResult::Unsat; break;
  case v1::QueryResponse::RESULT_UNKNOWN: r.result = SatResult::Unknown; break;
  default: fail("unknown result " + std::to_string(int(message.result())));
  }
  r.reason = message.reason();
  std::unordered_set<const SymbolDecl *> bound;
  auto lookup = [&](const std::string &name, bool array) {
    const SymbolDecl *s = ctx.findSymbol(name);
    if (!s)
      fail("model binds unknown symbol '" + name + "'");
    if (s->isArray() != array)
      fail("model binds " + std::string(s->isArray() ? "array" : "bit-vector") + " '" + name +
           "' as " + (array ? "an array" : "a bit-vector"));
    if (!bound.insert(s).second)
      fail("model binds '" + name + "' twice");
    return s;
  };
  auto checkFits = [&](u128 v, const SymbolDecl *s) {
    if (v & ~widthMask(s->width))
      fail("value for '" + s->name + "' does not fit in " + std::to_string(s->width) + " bits");
  };
  for (const v1::ScalarValue &v : message.scalars()) {
    const SymbolDecl *s = lookup(v.name(), false);
    u128 x = fromProto(v.value());
    checkFits(x, s);
    r.model.setScalar(s, x);
  }
  for (const v1::ArrayValue &v : message.arrays()) {
    const SymbolDecl *s = lookup(v.name(), true);
    if (s->width <= 64 ? v.wide_size() != 0 : v.small_size() != 0)
      fail("elements of '" + s->name + "' are in the wrong field for width " +
           std::to_string(s->width));
    std::vector<u128> values;
    if (s->width <= 64) {
      values.assign(v.small().begin(), v.small().end());
    } else {
      values.reserve(size_t(v.wide_size()));
      for (const v1::U128 &x : v.wide())
        values.push_back(fromProto(x));
    }
    for (u128 x : values)
      checkFits(x, s);
    r.model.setArray(s, std::move(values));
  }
  return r;
}

} // namespace cairn
