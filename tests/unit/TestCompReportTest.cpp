// Test-Comp's test cases from a run's tests: each __VERIFIER_nondet_* object becomes one input
// written as a literal of its C type; objects of any other origin are not inputs. And the
// SHA-256 the suite's metadata names the program by.
#include "cairn/engine/TestCompReport.h"
#include "reports/Sha256.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace cairn;
using namespace cairn::engine;

namespace {

std::optional<TestCompInput> input(const std::string &suffix, std::vector<uint8_t> bytes) {
  return testCompInput(KTestObject{"__VERIFIER_nondet_" + suffix, std::move(bytes)});
}

template <typename T> std::vector<uint8_t> bytesOf(T v) {
  std::vector<uint8_t> b(sizeof v);
  std::memcpy(b.data(), &v, sizeof v);
  return b;
}

TEST(TestCompReport, Sha256MatchesTheStandardsExamples) {
  EXPECT_EQ(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  // 56 bytes: the length no longer fits the last block, so the padding takes a second one.
  EXPECT_EQ(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256Hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(TestCompReport, IntegersAreDecimalLiteralsOfTheirType) {
  EXPECT_EQ(input("int", bytesOf<int32_t>(-5))->value, "-5");
  EXPECT_EQ(input("int", bytesOf<int32_t>(-5))->type, "int");
  EXPECT_EQ(input("int", bytesOf<int32_t>(INT32_MIN))->value, "-2147483648");
  EXPECT_EQ(input("uint", bytesOf<uint32_t>(4000000000u))->value, "4000000000");
  EXPECT_EQ(input("uchar", {0xff})->value, "255");
  EXPECT_EQ(input("uchar", {0xff})->type, "unsigned char");
  EXPECT_EQ(input("char", {0x80})->value, "-128");
  EXPECT_EQ(input("short", bytesOf<int16_t>(-300))->value, "-300");
  EXPECT_EQ(input("ushort", bytesOf<uint16_t>(65535))->value, "65535");
  EXPECT_EQ(input("long", bytesOf<int64_t>(INT64_MIN))->value, "-9223372036854775808");
  EXPECT_EQ(input("long", bytesOf<int32_t>(-7))->value, "-7"); // a 32-bit program's long
  EXPECT_EQ(input("ulong", bytesOf<uint64_t>(UINT64_MAX))->value, "18446744073709551615");
  EXPECT_EQ(input("pointer", bytesOf<uint64_t>(4096))->value, "4096");
  EXPECT_EQ(input("size_t", bytesOf<uint64_t>(12))->type, "size_t");
  EXPECT_EQ(input("bool", {1})->value, "1");
  EXPECT_EQ(input("_Bool", {0})->value, "0");
  EXPECT_EQ(input("bool", {1})->type, "_Bool");
}

TEST(TestCompReport, FloatsReadBackToTheSameValue) {
  EXPECT_EQ(input("double", bytesOf(0.1))->value, "0.10000000000000001");
  EXPECT_EQ(input("float", bytesOf(0.1f))->value, "0.100000001");
  EXPECT_EQ(input("float", bytesOf(-2.5f))->value, "-2.5");
  EXPECT_EQ(input("double", bytesOf(-1.0 / 0.0))->value, "-inf");
}

TEST(TestCompReport, OtherObjectsAreNoInputs) {
  EXPECT_FALSE(testCompInput(KTestObject{"x", {1, 2, 3, 4}}));             // klee_make_symbolic
  EXPECT_FALSE(testCompInput(KTestObject{"stdin", {1}}));                  // the POSIX model's
  EXPECT_FALSE(input("int128", std::vector<uint8_t>(16)));                 // no such function
  EXPECT_FALSE(input("int", std::vector<uint8_t>(12)));                    // no C int is that wide
  EXPECT_FALSE(input("bool", {0, 0}));
}

} // namespace
