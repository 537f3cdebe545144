// Expressions, queries and responses through their messages: round trips into another context
// are structurally identical, and malformed messages are rejected with std::invalid_argument.
#include "cairn/expr/Float.h"
#include "cairn/expr/Serialize.h"
#include "cairn/expr/ExprUtil.h"
#include "cairn/expr/SmtLib.h"
#include "cairn/solver/QuerySerialize.h"

#include "cairn/v1/expr.pb.h"

#include <google/protobuf/stubs/logging.h>
#include <gtest/gtest.h>

#include <random>
#include <set>

using namespace cairn;

namespace {

std::vector<ExprRef> roundTrip(std::span<const ExprRef> roots, ExprContext &to,
                               v1::ExprDag *dagOut = nullptr) {
  v1::ExprDag dag;
  std::vector<uint32_t> indices;
  serializeExprs(roots, dag, indices);
  EXPECT_EQ(indices.size(), roots.size());
  // Through bytes, as on the wire.
  v1::ExprDag parsed;
  EXPECT_TRUE(parsed.ParseFromString(dag.SerializeAsString()));
  if (dagOut)
    *dagOut = parsed;
  return deserializeExprs(parsed, indices, to);
}

// Compares by hash (context-independent) and, for trees small enough to print, by text.
void expectSame(std::span<const ExprRef> a, std::span<const ExprRef> b, bool text = true) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    if (text) {
      EXPECT_EQ(toString(a[i].get()), toString(b[i].get())) << "root " << i;
    }
    EXPECT_EQ(a[i]->hash(), b[i]->hash()) << "root " << i;
    EXPECT_EQ(a[i]->renameHash(), b[i]->renameHash()) << "root " << i;
    EXPECT_EQ(a[i]->width(), b[i]->width());
    EXPECT_EQ(a[i]->domainWidth(), b[i]->domainWidth());
  }
}

// One expression of every kind (and every width class) over fresh symbols of `ctx`.
std::vector<ExprRef> everyKind(ExprContext &ctx) {
  std::vector<ExprRef> out;
  for (unsigned w : {1u, 7u, 8u, 32u, 63u, 64u, 65u, 100u, 127u, 128u}) {
    std::string s = std::to_string(w);
    ExprRef x = ctx.symbol(ctx.declareSymbol("x" + s, w, SymbolClass::Input));
    ExprRef y = ctx.symbol(ctx.declareSymbol("y" + s, w, SymbolClass::Address, 4096));
    ExprRef c = ctx.constant(widthMask(w) - (w > 1 ? 1 : 0), w);
    out.push_back(c);
    out.push_back(ctx.constant(0, w));
    out.push_back(x);
    if (w > 1) {
      out.push_back(ctx.add(x, y));
      out.push_back(ctx.add(c, x));
      out.push_back(ctx.sub(x, y));
      out.push_back(ctx.mul(x, y));
    }
    out.push_back(ctx.udiv(x, y));
    out.push_back(ctx.sdiv(x, y));
    out.push_back(ctx.urem(x, y));
    out.push_back(ctx.srem(x, y));
    out.push_back(ctx.bvnot(x));
    out.push_back(ctx.bvand(x, y));
    out.push_back(ctx.bvor(x, y));
    out.push_back(ctx.bvxor(x, y));
    out.push_back(ctx.shl(x, y));
    out.push_back(ctx.lshr(x, y));
    out.push_back(ctx.ashr(x, y));
    out.push_back(ctx.eq(x, y));
    out.push_back(ctx.ult(x, y));
    out.push_back(ctx.ule(x, y));
    out.push_back(ctx.slt(x, y));
    out.push_back(ctx.sle(x, y));
    out.push_back(ctx.ite(ctx.ult(x, y), x, y));
    if (w < 128) {
      out.push_back(ctx.zext(x, 128));
      out.push_back(ctx.sext(x, w + 1));
      out.push_back(ctx.concat(ctx.constant(1, 128 - w), x));
    }
    if (w > 1) {
      out.push_back(ctx.extract(x, 1, w - 1));
      out.push_back(ctx.extract(x, w - 1, 1));
    }
    // Arrays with this element width, and this domain width when it is allowed.
    ExprRef arr = ctx.symbol(ctx.declareArray("a" + s, 16, 32, w));
    ExprRef i32 = ctx.symbol(ctx.declareSymbol("i" + s, 32, SymbolClass::Input));
    out.push_back(ctx.select(ctx.store(arr, i32, x), ctx.add(ctx.constant(1, 32), i32)));
    std::vector<u128> values = {1, widthMask(w), 0, 3};
    ExprRef ca = ctx.constArray(values, w, 32, widthMask(w) >> 1);
    out.push_back(ctx.select(ca, i32));
    out.push_back(ctx.eq(ctx.store(ca, i32, x), arr));
    out.push_back(ctx.select(ctx.ite(ctx.ult(x, y), arr, ca), i32));
    if (w <= 64) {
      ExprRef byDomain = ctx.symbol(ctx.declareArray("d" + s, 4, w, 8));
      out.push_back(ctx.select(byDomain, x));
    }
    // Quantifiers.
    ExprRef v = ctx.symbol(ctx.declareSymbol("v" + s, w, SymbolClass::Bound));
    out.push_back(ctx.forall(v, ctx.ule(v, x)));
    ExprRef u = ctx.symbol(ctx.declareSymbol("u" + s, w, SymbolClass::Bound));
    out.push_back(ctx.exists(
        v, ctx.bvand(ctx.eq(ctx.bvxor(v, y), x), ctx.forall(u, ctx.ule(u, ctx.bvor(v, x))))));
  }
  // Floating point, in each format.
  for (unsigned w : {32u, 64u, 80u}) {
    std::string s = std::to_string(w);
    ExprRef x = ctx.symbol(ctx.declareSymbol("fx" + s, w, SymbolClass::Input));
    ExprRef y = ctx.symbol(ctx.declareSymbol("fy" + s, w, SymbolClass::Input));
    ExprRef i = ctx.symbol(ctx.declareSymbol("fi" + s, 16, SymbolClass::Input));
    auto f = [&](Kind k, std::vector<ExprRef> kids, unsigned width = 0, unsigned aux = 0) {
      out.push_back(ctx.floatOp(k, kids, width, aux));
    };
    for (Kind k : {Kind::FAdd, Kind::FSub, Kind::FMul, Kind::FDiv, Kind::FRem, Kind::FOeq, Kind::FOlt, Kind::FOle})
      f(k, {x, y});
    f(Kind::FFma, {x, y, x});
    f(Kind::FSqrt, {x});
    f(Kind::FRound, {x}, 0, 4);
    f(Kind::FConvert, {x}, w == 64 ? 32 : 64);
    f(Kind::FToSInt, {x}, 16);
    f(Kind::FToUInt, {x}, 64);
    f(Kind::SIntToF, {i}, w);
    f(Kind::UIntToF, {i}, w);
  }
  return out;
}

std::set<std::string> kindsIn(const v1::ExprDag &dag) {
  std::set<std::string> kinds;
  for (const v1::ExprNode &n : dag.nodes())
    kinds.insert(n.kind());
  return kinds;
}

TEST(SerializeTest, EveryKindRoundTripsIntoAnotherContext) {
  ExprContext a, b;
  std::vector<ExprRef> roots = everyKind(a);
  v1::ExprDag dag;
  std::vector<ExprRef> back = roundTrip(roots, b, &dag);
  expectSame(roots, back);
  std::set<std::string> kinds = kindsIn(dag);
  for (unsigned k = 0; k < kNumKinds; ++k)
    EXPECT_TRUE(kinds.count(kindName(Kind(k)))) << "no " << kindName(Kind(k)) << " node";
  // Symbols come back with their class, tag and size.
  const SymbolDecl *y = b.findSymbol("y64");
  ASSERT_NE(y, nullptr);
  EXPECT_EQ(y->cls, SymbolClass::Address);
  EXPECT_EQ(y->tag, 4096u);
  const SymbolDecl *arr = b.findSymbol("a8");
  ASSERT_NE(arr, nullptr);
  EXPECT_EQ(arr->size, 16u);
  EXPECT_EQ(arr->domainWidth, 32u);
  EXPECT_EQ(b.findSymbol("v8")->cls, SymbolClass::Bound);
}

TEST(SerializeTest, RoundTripsPrintTheSameSmtLib) {
  ExprContext a, b;
  std::vector<ExprRef> roots = everyKind(a);
  std::vector<ExprRef> back = roundTrip(roots, b);
  std::vector<ExprRef> boolsA, boolsB;
  for (size_t i = 0; i < roots.size(); ++i)
    if (roots[i]->isBool() && !isFloatKind(roots[i]->kind())) {
      boolsA.push_back(roots[i]);
      boolsB.push_back(back[i]);
    }
  EXPECT_GT(boolsA.size(), 100u);
  EXPECT_EQ(toSmtLib2(boolsA), toSmtLib2(boolsB));
  // Float comparisons are refused by the printer, with a reason.
  std::vector<ExprRef> floats;
  for (const ExprRef &r : roots)
    if (r->isBool() && isFloatKind(r->kind()))
      floats.push_back(r);
  ASSERT_EQ(floats.size(), 9u);
  EXPECT_THROW(toSmtLib2(floats), std::invalid_argument);
}

TEST(SerializeTest, NamesAreBytes) {
  ExprContext a, b;
  std::string odd = "in\xff\xfe|put \n";
  std::vector<ExprRef> roots = {a.ult(a.symbol(a.declareSymbol(odd, 8, SymbolClass::Input)),
                                     a.constant(3, 8))};
  std::vector<ExprRef> back = roundTrip(roots, b);
  expectSame(roots, back);
  ASSERT_NE(b.findSymbol(odd), nullptr);

  SolverResponse r;
  r.result = SatResult::Sat;
  r.model.setScalar(a.findSymbol(odd), 2);
  v1::QueryResponse message, parsed;
  serializeResponse(r, message);
  ASSERT_TRUE(parsed.ParseFromString(message.SerializeAsString()));
  EXPECT_TRUE(deserializeResponse(parsed, b).model.scalar(b.findSymbol(odd)) == 2);
}

TEST(SerializeTest, UnsimplifiedNodesRoundTripExactly) {
  ExprContext a, b;
  a.setSimplify(false);
  b.setSimplify(false);
  ExprRef x = a.symbol(a.declareSymbol("x", 1, SymbolClass::Input));
  ExprRef c1 = a.constant(1, 1);
  ExprRef w = a.symbol(a.declareSymbol("w", 128, SymbolClass::Input));
  std::vector<ExprRef> roots = {
      a.add(x, c1),
      a.mul(c1, a.constant(0, 1)),
      a.sub(w, w),
      a.extract(w, 0, 128),
      a.zext(x, 1),
      a.ult(a.constant(3, 8), a.constant(4, 8)),
      a.bvnot(a.bvnot(x)),
      a.select(a.constArray(std::vector<u128>{5, 6}, 8, 32, 0), a.constant(1, 32)),
      a.concat(a.constant(0, 64), a.constant(~u128(0) >> 64, 64)),
  };
  std::vector<ExprRef> back = roundTrip(roots, b);
  expectSame(roots, back);
  for (size_t i = 0; i < roots.size(); ++i)
    EXPECT_EQ(roots[i]->kind(), back[i]->kind());
}

TEST(SerializeTest, SharedNodesAreWrittenOnceAndEqualRootsShareAnIndex) {
  ExprContext a, b;
  ExprRef x = a.symbol(a.declareSymbol("x", 32, SymbolClass::Input));
  ExprRef e = x;
  for (int i = 0; i < 60; ++i)
    e = a.add(e, e);
  std::vector<ExprRef> roots = {a.eq(e, x), e, a.eq(e, x)};
  v1::ExprDag dag;
  std::vector<uint32_t> indices;
  serializeExprs(roots, dag, indices);
  EXPECT_EQ(size_t(dag.nodes_size()), dagSize(roots[0].get()));
  EXPECT_EQ(dag.symbols_size(), 1);
  EXPECT_EQ(indices[0], indices[2]);
  // Topological: operands before users.
  for (int i = 0; i < dag.nodes_size(); ++i)
    for (uint32_t o : dag.nodes(i).operands())
      EXPECT_LT(o, uint32_t(i));
  std::vector<ExprRef> back = deserializeExprs(dag, indices, b);
  expectSame(roots, back, /*text=*/false); // 2^60 leaves as a tree
  EXPECT_EQ(dagSize(back[0].get()), dagSize(roots[0].get()));
  EXPECT_EQ(back[0], back[2]);
}

TEST(SerializeTest, DeserializingTwiceGivesTheSameNodes) {
  ExprContext a, b;
  std::vector<ExprRef> roots = everyKind(a);
  std::vector<ExprRef> first = roundTrip(roots, b);
  std::vector<ExprRef> second = roundTrip(roots, b);
  ASSERT_EQ(first.size(), second.size());
  for (size_t i = 0; i < first.size(); ++i)
    EXPECT_EQ(first[i], second[i]);
  // The symbols were declared once.
  EXPECT_EQ(b.findSymbol("x8_1"), nullptr);
}

TEST(SerializeTest, DeepStoreChainsNeedNoRecursion) {
  ExprContext a, b;
  ExprRef arr = a.symbol(a.declareArray("mem", 1 << 20, 32, 8));
  ExprRef i = a.symbol(a.declareSymbol("i", 32, SymbolClass::Input));
  ExprRef x = a.symbol(a.declareSymbol("x", 8, SymbolClass::Input));
  ExprRef chain = arr;
  const unsigned kDepth = 100000;
  for (unsigned k = 0; k < kDepth; ++k)
    chain = a.store(chain, a.add(a.constant(k, 32), i), x);
  ExprRef root = a.eq(a.select(chain, a.constant(7, 32)), x);
  std::vector<ExprRef> roots = {root};
  v1::ExprDag dag;
  std::vector<uint32_t> indices;
  serializeExprs(roots, dag, indices);
  EXPECT_GT(dag.nodes_size(), int(2 * kDepth));
  std::vector<ExprRef> back = deserializeExprs(dag, indices, b);
  EXPECT_EQ(back[0]->hash(), root->hash());
  EXPECT_EQ(dagSize(back[0].get()), dagSize(root.get()));
}

// ---------------------------------------------------------------------------------------------
// Malformed input

struct SerializeMalformed : ::testing::Test {
  ExprContext a, b;
  v1::ExprDag dag;
  std::vector<uint32_t> indices;

  void SetUp() override {
    ExprRef x = a.symbol(a.declareSymbol("x", 8, SymbolClass::Input));
    ExprRef y = a.symbol(a.declareSymbol("y", 8, SymbolClass::Input));
    ExprRef arr = a.symbol(a.declareArray("arr", 4, 32, 8));
    ExprRef idx = a.zext(x, 32);
    std::vector<ExprRef> roots = {a.ult(a.add(x, y), a.select(arr, idx))};
    serializeExprs(roots, dag, indices);
  }
  int find(const std::string &kind) {
    for (int i = 0; i < dag.nodes_size(); ++i)
      if (dag.nodes(i).kind() == kind)
        return i;
    ADD_FAILURE() << "no " << kind;
    return 0;
  }
  void expectRejected(const char *what) {
    size_t declared = b.symbols().size();
    try {
      deserializeExprs(dag, indices, b);
      ADD_FAILURE() << what << ": accepted";
    } catch (const std::invalid_argument &e) {
      EXPECT_NE(std::string(e.what()), "") << what;
    }
    EXPECT_EQ(b.symbols().size(), declared) << what << ": the context was touched";
  }
};

TEST_F(SerializeMalformed, ValidMessageIsAccepted) {
  EXPECT_EQ(deserializeExprs(dag, indices, b).size(), 1u);
}

TEST_F(SerializeMalformed, OperandIndexNotEarlier) {
  int add = find("add");
  dag.mutable_nodes(add)->set_operands(1, uint32_t(add));
  expectRejected("self reference");
  dag.mutable_nodes(add)->set_operands(1, 1000);
  expectRejected("operand out of range");
}

TEST_F(SerializeMalformed, UnknownKind) {
  dag.mutable_nodes(find("add"))->set_kind("bvadd");
  expectRejected("unknown kind");
}

TEST_F(SerializeMalformed, WrongOperandCount) {
  dag.mutable_nodes(find("add"))->add_operands(0);
  expectRejected("three operands for add");
}

TEST_F(SerializeMalformed, WrongWidths) {
  v1::ExprDag good = dag;
  dag.mutable_nodes(find("add"))->set_width(16);
  expectRejected("add result width");
  dag = good;
  dag.mutable_nodes(find("zext"))->set_width(16);
  expectRejected("select index width");
  dag = good;
  dag.mutable_nodes(find("zext"))->set_width(4);
  expectRejected("narrowing zext");
  dag = good;
  dag.mutable_nodes(find("sym"))->set_width(0);
  expectRejected("width 0");
  dag = good;
  dag.mutable_nodes(find("ult"))->set_width(8);
  expectRejected("comparison width");
  dag = good;
  dag.mutable_symbols(0)->set_width(129);
  expectRejected("symbol width 129");
  dag = good;
  dag.mutable_symbols(0)->set_width(16);
  expectRejected("symbol and node widths differ");
  dag = good;
  v1::ExprNode *c = dag.add_nodes();
  c->set_kind("const");
  c->set_width(4);
  c->mutable_value()->set_lo(16);
  expectRejected("constant wider than its width");
  dag = good;
  v1::ExprNode *e = dag.add_nodes();
  e->set_kind("extract");
  e->set_width(4);
  e->set_aux(0xfffffffe);
  e->add_operands(uint32_t(find("add")));
  expectRejected("extract beyond the operand");
}

TEST_F(SerializeMalformed, ArraysWhereBitVectorsBelongAndBack) {
  v1::ExprDag good = dag;
  // add(x, arr)
  dag.mutable_nodes(find("add"))->set_operands(1, uint32_t(find("arraysym")));
  expectRejected("array operand of add");
  dag = good;
  dag.mutable_nodes(find("select"))->set_operands(0, uint32_t(find("sym")));
  expectRejected("select from a bit-vector");
  dag = good;
  dag.mutable_nodes(find("arraysym"))->set_kind("sym");
  expectRejected("array symbol as a bit-vector node");
}

TEST_F(SerializeMalformed, MissingSymbol) {
  dag.mutable_nodes(find("sym"))->set_symbol(17);
  expectRejected("symbol index out of range");
}

TEST_F(SerializeMalformed, SymbolTableProblems) {
  v1::ExprDag good = dag;
  dag.mutable_symbols(1)->set_name(dag.symbols(0).name());
  expectRejected("duplicate name");
  dag = good;
  dag.mutable_symbols(0)->set_name("");
  expectRejected("empty name");
  dag = good;
  dag.mutable_symbols(0)->set_cls(static_cast<v1::SymbolClass>(9));
  expectRejected("unknown class");
  dag = good;
  dag.mutable_symbols(2)->set_domain_width(65);
  expectRejected("domain width 65");
}

TEST_F(SerializeMalformed, NameDeclaredWithAnotherSort) {
  b.declareSymbol("x", 16, SymbolClass::Input);
  expectRejected("x is 16 bits in the context");
  ExprContext c;
  c.declareSymbol("y", 8, SymbolClass::Address);
  EXPECT_THROW(deserializeExprs(dag, indices, c), std::invalid_argument);
  ExprContext d;
  d.declareSymbol("arr", 8, SymbolClass::Input);
  EXPECT_THROW(deserializeExprs(dag, indices, d), std::invalid_argument);
}

TEST_F(SerializeMalformed, RootOutOfRange) {
  indices.push_back(uint32_t(dag.nodes_size()));
  expectRejected("root index");
}

TEST_F(SerializeMalformed, QuantifierOverANonSymbol) {
  v1::ExprNode *q = dag.add_nodes();
  q->set_kind("forall");
  q->set_width(1);
  q->add_operands(uint32_t(find("add")));
  q->add_operands(uint32_t(find("ult")));
  expectRejected("forall over add");
}

TEST_F(SerializeMalformed, BadConstArrays) {
  v1::ExprNode *n = dag.add_nodes();
  n->set_kind("constarray");
  n->set_width(8);
  expectRejected("missing contents");
  n = dag.mutable_nodes(dag.nodes_size() - 1);
  n->mutable_const_array()->set_width(8);
  n->mutable_const_array()->set_domain_width(32);
  n->mutable_const_array()->add_small(256);
  expectRejected("element too wide");
  n->mutable_const_array()->set_small(0, 255);
  EXPECT_NO_THROW(deserializeExprs(dag, indices, b));
  n->mutable_const_array()->add_wide()->set_lo(1);
  expectRejected("element in the wrong field");
}

// Random corruptions of a valid message are rejected or accepted, never crash.
TEST_F(SerializeMalformed, RandomCorruptionsNeverCrash) {
  ExprContext src;
  std::vector<ExprRef> roots = everyKind(src);
  v1::ExprDag good;
  std::vector<uint32_t> rootIndices;
  serializeExprs(roots, good, rootIndices);
  std::mt19937_64 rng(42);
  int rejected = 0;
  google::protobuf::LogSilencer quiet; // corrupted strings are not UTF-8
  for (int round = 0; round < 3000; ++round) {
    v1::ExprDag bad = good;
    for (int m = 0; m < 1 + int(rng() % 3); ++m) {
      v1::ExprNode &n = *bad.mutable_nodes(int(rng() % uint64_t(bad.nodes_size())));
      switch (rng() % 8) {
      case 0: n.set_width(uint32_t(rng() % 140)); break;
      case 1: n.set_aux(uint32_t(rng() % 140)); break;
      case 2:
        if (n.operands_size())
          n.set_operands(int(rng() % uint64_t(n.operands_size())),
                         uint32_t(rng() % uint64_t(bad.nodes_size())));
        break;
      case 3: n.set_kind(kindName(Kind(rng() % kNumKinds))); break;
      case 4: n.set_symbol(uint32_t(rng() % uint64_t(bad.symbols_size() + 1))); break;
      case 5: n.add_operands(uint32_t(rng() % uint64_t(bad.nodes_size()))); break;
      case 6: n.mutable_value()->set_hi(rng()); break;
      case 7: {
        v1::Symbol &s = *bad.mutable_symbols(int(rng() % uint64_t(bad.symbols_size())));
        s.set_width(uint32_t(rng() % 130));
        s.set_domain_width(uint32_t(rng() % 66));
        break;
      }
      }
    }
    // The bytes themselves, too.
    std::string bytes = bad.SerializeAsString();
    if (round % 3 == 0 && !bytes.empty())
      bytes[rng() % bytes.size()] ^= char(1u << (rng() % 8));
    v1::ExprDag parsed;
    if (!parsed.ParseFromString(bytes))
      continue;
    ExprContext to;
    try {
      std::vector<ExprRef> out = deserializeExprs(parsed, rootIndices, to);
      EXPECT_EQ(out.size(), rootIndices.size());
    } catch (const std::invalid_argument &) {
      ++rejected;
    }
  }
  EXPECT_GT(rejected, 1000);
}

// ---------------------------------------------------------------------------------------------
// Queries and responses

TEST(QuerySerializeTest, QueryRoundTrip) {
  ExprContext a, b;
  ExprRef x = a.symbol(a.declareSymbol("x", 32, SymbolClass::Input));
  ExprRef mem = a.symbol(a.declareArray("mem", 64, 32, 8));
  ExprRef byte = a.select(mem, x);
  Query q({a.ult(x, a.constant(10, 32)), a.eq(byte, a.constant(3, 8))}, a.ne(x, a.constant(4, 32)),
          {a.zext(byte, 32), x});
  v1::Query message;
  serializeQuery(q, true, 2.5, message);
  v1::Query parsed;
  ASSERT_TRUE(parsed.ParseFromString(message.SerializeAsString()));
  EXPECT_DOUBLE_EQ(parsed.timeout_s(), 2.5);
  bool wantModel = false;
  Query back = deserializeQuery(parsed, b, &wantModel);
  EXPECT_TRUE(wantModel);
  expectSame(q.constraints, back.constraints);
  expectSame(std::span<const ExprRef>(&q.expr, 1), std::span<const ExprRef>(&back.expr, 1));
  expectSame(q.terms, back.terms);

  // Without an expression, and without a model.
  Query noExpr({a.ult(x, a.constant(10, 32))}, ExprRef());
  serializeQuery(noExpr, false, 0, message);
  EXPECT_FALSE(message.has_expr());
  Query back2 = deserializeQuery(message, b, &wantModel);
  EXPECT_FALSE(wantModel);
  EXPECT_FALSE(back2.expr);
  ASSERT_EQ(back2.constraints.size(), 1u);
  EXPECT_TRUE(back2.terms.empty());
}

TEST(QuerySerializeTest, MalformedQueries) {
  ExprContext a, b;
  ExprRef x = a.symbol(a.declareSymbol("x", 32, SymbolClass::Input));
  Query q({a.ult(x, a.constant(10, 32))}, a.eq(x, a.constant(3, 32)));
  v1::Query message;
  serializeQuery(q, false, 0, message);
  v1::Query bad = message;
  bad.set_constraints(0, 0); // the symbol x: 32 bits
  EXPECT_THROW(deserializeQuery(bad, b), std::invalid_argument);
  bad = message;
  bad.set_expr(uint32_t(bad.dag().nodes_size()));
  EXPECT_THROW(deserializeQuery(bad, b), std::invalid_argument);
  bad = message;
  bad.add_terms(99);
  EXPECT_THROW(deserializeQuery(bad, b), std::invalid_argument);
  // An array of width-1 elements is not a boolean either.
  ExprRef bits = a.symbol(a.declareArray("bits", 8, 32, 1));
  Query arr({}, a.eq(bits, a.store(bits, x, a.constant(1, 1))));
  serializeQuery(arr, false, 0, message);
  bad = message;
  for (int i = 0; i < bad.dag().nodes_size(); ++i)
    if (bad.dag().nodes(i).kind() == "arraysym")
      bad.set_expr(uint32_t(i));
  ASSERT_NE(bad.expr(), message.expr());
  EXPECT_THROW(deserializeQuery(bad, b), std::invalid_argument);
}

TEST(QuerySerializeTest, ResponseRoundTripByName) {
  ExprContext a, b;
  const SymbolDecl *x = a.declareSymbol("x", 32, SymbolClass::Input);
  const SymbolDecl *w = a.declareSymbol("w", 128, SymbolClass::Input);
  const SymbolDecl *mem = a.declareArray("mem", 4, 32, 8);
  const SymbolDecl *wide = a.declareArray("wide", 2, 32, 100);
  SolverResponse r;
  r.result = SatResult::Sat;
  r.model.setScalar(x, 12345);
  r.model.setScalar(w, ~u128(0));
  r.model.setArray(mem, {1, 2, 255, 0});
  r.model.setArray(wide, {u128(1) << 99, 7});
  v1::QueryResponse message;
  serializeResponse(r, message);
  v1::QueryResponse parsed;
  ASSERT_TRUE(parsed.ParseFromString(message.SerializeAsString()));
  ASSERT_EQ(parsed.scalars_size(), 2);
  EXPECT_EQ(parsed.scalars(0).name(), "w"); // sorted by name
  EXPECT_EQ(parsed.scalars(1).name(), "x");

  // Read back against a context that knows the symbols by name.
  b.declareSymbol("x", 32, SymbolClass::Input);
  b.declareSymbol("w", 128, SymbolClass::Input);
  b.declareArray("mem", 4, 32, 8);
  b.declareArray("wide", 2, 32, 100);
  SolverResponse back = deserializeResponse(parsed, b);
  EXPECT_EQ(back.result, SatResult::Sat);
  EXPECT_TRUE(back.model.scalar(b.findSymbol("x")) == 12345u);
  EXPECT_TRUE(back.model.scalar(b.findSymbol("w")) == ~u128(0));
  ASSERT_NE(back.model.array(b.findSymbol("mem")), nullptr);
  EXPECT_TRUE(*back.model.array(b.findSymbol("mem")) == (std::vector<u128>{1, 2, 255, 0}));
  EXPECT_TRUE(*back.model.array(b.findSymbol("wide")) == (std::vector<u128>{u128(1) << 99, 7}));

  SolverResponse unknown = SolverResponse::unknown("timeout");
  serializeResponse(unknown, message);
  SolverResponse u = deserializeResponse(message, b);
  EXPECT_EQ(u.result, SatResult::Unknown);
  EXPECT_EQ(u.reason, "timeout");
  EXPECT_TRUE(u.model.empty());
}

TEST(QuerySerializeTest, MalformedResponses) {
  ExprContext ctx;
  const SymbolDecl *x = ctx.declareSymbol("x", 8, SymbolClass::Input);
  const SymbolDecl *mem = ctx.declareArray("mem", 2, 32, 8);
  SolverResponse r;
  r.result = SatResult::Sat;
  r.model.setScalar(x, 5);
  r.model.setArray(mem, {1, 2});
  v1::QueryResponse good;
  serializeResponse(r, good);
  EXPECT_NO_THROW(deserializeResponse(good, ctx));

  v1::QueryResponse bad = good;
  bad.mutable_scalars(0)->set_name("nope");
  EXPECT_THROW(deserializeResponse(bad, ctx), std::invalid_argument);
  bad = good;
  bad.mutable_scalars(0)->mutable_value()->set_lo(256);
  EXPECT_THROW(deserializeResponse(bad, ctx), std::invalid_argument);
  bad = good;
  bad.mutable_arrays(0)->set_name("x");
  EXPECT_THROW(deserializeResponse(bad, ctx), std::invalid_argument);
  bad = good;
  bad.mutable_scalars(0)->set_name("mem");
  EXPECT_THROW(deserializeResponse(bad, ctx), std::invalid_argument);
  bad = good;
  *bad.add_scalars() = good.scalars(0);
  EXPECT_THROW(deserializeResponse(bad, ctx), std::invalid_argument);
  bad = good;
  bad.mutable_arrays(0)->add_small(300);
  EXPECT_THROW(deserializeResponse(bad, ctx), std::invalid_argument);
  bad = good;
  bad.set_result(static_cast<v1::QueryResponse::Result>(7));
  EXPECT_THROW(deserializeResponse(bad, ctx), std::invalid_argument);
}

} // namespace
