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
