// An object's symbolic bytes by chunks: bytes on either side of a chunk boundary, pieces of a
// value written whole, clearing (a whole chunk given back), copies that do not share, and an
// ObjectState over a large buffer reading its few symbolic bytes back.
#include "cairn/engine/Memory.h"
#include "cairn/engine/SymbolicBytes.h"
#include "cairn/expr/ExprContext.h"

#include <gtest/gtest.h>

using namespace cairn;
using namespace cairn::engine;

namespace {

struct Symbols {
  ExprContext ctx;
  ExprRef byte(const char *name) { return ctx.symbol(ctx.declareSymbol(name, 8, SymbolClass::Input)); }
  ExprRef word(const char *name) { return ctx.symbol(ctx.declareSymbol(name, 32, SymbolClass::Input)); }
};

TEST(SymbolicBytes, BytesAcrossChunksKeepTheirExpressionsAndPieces) {
  Symbols s;
  SymbolicBytes bytes(200);
  EXPECT_TRUE(bytes.empty());
  EXPECT_EQ(bytes.at(0), nullptr);
  EXPECT_EQ(bytes.at(199), nullptr);
  ExprRef a = s.byte("a"), w = s.word("w");
  bytes.set(63, a);
  for (unsigned i = 0; i < 4; ++i) // a value written whole across the boundary at 64
    bytes.set(63 + i, w, uint8_t(i));
  EXPECT_FALSE(bytes.empty());
  EXPECT_EQ(bytes.at(63), w.get()); // overwritten by the word's first piece
  EXPECT_EQ(bytes.piece(63), 0);
  EXPECT_EQ(bytes.at(66), w.get());
  EXPECT_EQ(bytes.piece(66), 3);
  EXPECT_EQ(bytes.at(62), nullptr);
  EXPECT_EQ(bytes.at(67), nullptr);
  EXPECT_EQ(bytes.at(199), nullptr);
  bytes.set(199, a);
  EXPECT_EQ(bytes.at(199), a.get());
}

TEST(SymbolicBytes, ClearingAndCopies) {
  Symbols s;
  ExprRef a = s.byte("a");
  SymbolicBytes bytes(256);
  for (uint64_t i = 0; i < 256; ++i)
    bytes.set(i, a);
  SymbolicBytes copy = bytes;
  bytes.clear(10, 150); // a part of chunk 0, all of chunk 1, a part of chunk 2
  for (uint64_t i = 0; i < 256; ++i) {
    EXPECT_EQ(bytes.at(i), i >= 10 && i < 160 ? nullptr : a.get()) << i;
    EXPECT_EQ(copy.at(i), a.get()) << i; // the copy has its own chunks
  }
  copy = SymbolicBytes(256);
  EXPECT_TRUE(copy.empty());
  EXPECT_EQ(bytes.at(200), a.get());
}

// A 128 KiB buffer with four symbolic bytes (a stdio buffer after a read of symbolic stdin):
// they read back as written, the concrete bytes around them as bytes, and a copy of the state
// keeps its own.
TEST(SymbolicBytes, ALargeObjectWithAFewSymbolicBytes) {
  Symbols s;
  ObjectState os(128 << 10);
  ExprRef w = s.word("w");
  os.write(s.ctx, 4096, Value(w), 4);
  os.write(s.ctx, 4100, Value(u128(0x2a)), 1);
  ObjectState copy = os;
  EXPECT_EQ(os.read(s.ctx, 4096, 4).sym.get(), w.get()); // the value itself, written whole
  EXPECT_TRUE(os.read(s.ctx, 4100, 1).concrete());
  EXPECT_EQ(os.read(s.ctx, 4100, 1).bits, 0x2a);
  EXPECT_FALSE(os.isConcreteByte(4097));
  EXPECT_TRUE(os.isConcreteByte(4095));
  os.write(s.ctx, 4096, Value(u128(7)), 4);
  EXPECT_TRUE(os.read(s.ctx, 4096, 4).concrete());
  EXPECT_EQ(copy.read(s.ctx, 4096, 4).sym.get(), w.get());
}

} // namespace

// The native string functions' test: how many bytes from an offset are concrete, whole empty
// chunks skipped; and concrete stores over symbolic bytes, in an object with and without its
// array expression built.
TEST(SymbolicBytes, ConcreteRunsStopAtTheFirstSymbolicByte) {
  Symbols s;
  SymbolicBytes bytes(300);
  EXPECT_EQ(bytes.concreteRun(0, 300), 300u);
  bytes.set(130, s.byte("a"));
  EXPECT_EQ(bytes.concreteRun(0, 300), 130u); // across two empty chunks
  EXPECT_EQ(bytes.concreteRun(0, 100), 100u);
  EXPECT_EQ(bytes.concreteRun(129, 10), 1u);
  EXPECT_EQ(bytes.concreteRun(130, 10), 0u);
  EXPECT_EQ(bytes.concreteRun(131, 169), 169u);
  bytes.clear(130, 1);
  EXPECT_EQ(bytes.concreteRun(0, 300), 300u);
}

TEST(SymbolicBytes, ConcreteStoresReplaceSymbolicBytes) {
  Symbols s;
  for (bool withArray : {false, true}) {
    ObjectState os(100);
    os.write(s.ctx, 10, Value(s.word("w")), 4);
    if (withArray) // a symbolic-offset read built the array expression, which stores keep up to date
      (void)os.readSymbolic(s.ctx, s.ctx.constant(0, 64), 1);
    EXPECT_EQ(os.concreteRun(0, 100), 10u);
    const uint8_t text[] = {'a', 'b', 'c', 'd', 'e'};
    os.writeConcrete(s.ctx, 9, text, 5);
    EXPECT_EQ(os.concreteRun(0, 100), 100u) << withArray;
    EXPECT_EQ(os.read(s.ctx, 9, 4).bits, u128(0x64636261)) << withArray;
    os.fillConcrete(s.ctx, 0, 'z', 3);
    EXPECT_EQ(os.concreteByte(2), 'z');
    EXPECT_TRUE(os.read(s.ctx, 12, 2).concrete());
    // The array expression, read at a symbolic offset, agrees with the bytes.
    EXPECT_EQ(os.readSymbolic(s.ctx, s.ctx.constant(9, 64), 1).expr(s.ctx, 8), s.ctx.constant('a', 8)) << withArray;
  }
}
