// memset, memcpy and memmove of a symbolic length: the symbolic-size model checks and does them
// for every length the path allows; the concrete model fixes the length to one value.
#include "RunSource.h"

#include <gtest/gtest.h>

#include <string>

namespace cairn::engine {
namespace {

class SymbolicLength : public unit::EngineRunTest {
protected:
  static ExecutorOptions model(SizeModelKind kind) {
    ExecutorOptions eo;
    eo.search = SearchStrategy::Dfs;
    eo.sizeModel.kind = kind;
    eo.sizeModel.capacity = 8;
    return eo;
  }
  static uint64_t input(const TestCase &t, const std::string &name) {
    for (const auto &[objName, bytes] : t.objects)
      if (objName == name) {
        uint64_t v = 0;
        for (size_t i = 0; i < bytes.size() && i < 8; ++i)
          v |= uint64_t(bytes[i]) << (8 * i);
        return v;
      }
    ADD_FAILURE() << "no input " << name;
    return 0;
  }
};

// A 4-byte buffer set over m bytes: out of bounds exactly for m > 4.
const char *kMemsetPastTheEnd = R"(
int main(void) {
  char buf[4];
  unsigned long m;
  klee_make_symbolic(&m, sizeof m, "m");
  klee_assume(m <= 6);
  __builtin_memset(buf, 0, m);
  return buf[0];
}
)";

TEST_F(SymbolicLength, TheBoundIsCheckedForEveryLength) {
  unit::Outcome o = runSource(kMemsetPastTheEnd, model(SizeModelKind::Symbolic));
  EXPECT_EQ(o.errors(), (std::multiset<std::string>{"ptr out-of-bounds " + std::to_string(unit::kEnginePreludeLines + 7)}));
  EXPECT_EQ(o.stats.pathsCompleted, 2u) << "the lengths that fit, and those that overflow";
  for (const TestCase &t : o.tests)
    if (t.error)
      EXPECT_GT(input(t, "m"), 4u);
    else
      EXPECT_LE(input(t, "m"), 4u);
}

TEST_F(SymbolicLength, TheConcreteModelStillFixesTheLength) {
  unit::Outcome o = runSource(kMemsetPastTheEnd, model(SizeModelKind::Concrete));
  EXPECT_EQ(o.stats.pathsCompleted, 1u);
  ASSERT_EQ(o.tests.size(), 1u);
  EXPECT_EQ(o.stats.errors.empty(), input(o.tests[0], "m") <= 4);
}

TEST_F(SymbolicLength, ACopyWritesExactlyTheBytesBelowTheLength) {
  // After copying m bytes of src over dst, byte k is src's below m and dst's old one past it,
  // for every m and k: no assertion can fail, and no byte access forks.
  unit::Outcome o = runSource(R"(
int main(void) {
  unsigned char src[6], dst[6];
  klee_make_symbolic(src, sizeof src, "src");
  klee_make_symbolic(dst, sizeof dst, "dst");
  unsigned char old[6];
  for (int i = 0; i < 6; i++)
    old[i] = dst[i];
  unsigned long m, k;
  klee_make_symbolic(&m, sizeof m, "m");
  klee_make_symbolic(&k, sizeof k, "k");
  klee_assume(m <= 6);
  klee_assume(k < 6);
  __builtin_memcpy(dst, src, m);
  unsigned char want = old[k];
  if (k < m)
    want = src[k];
  if (dst[k] != want)
    *(volatile int *)0 = 1;
  return 0;
}
)",
                              model(SizeModelKind::Symbolic));
  EXPECT_TRUE(o.stats.errors.empty()) << o.stats.errors[0].message;
  EXPECT_EQ(o.stats.pathsCompleted, 2u) << "k < m and k >= m";
}

TEST_F(SymbolicLength, AZeroLengthThroughANullPointerIsNoAccess) {
  unit::Outcome o = runSource(R"(
int main(void) {
  unsigned long m;
  klee_make_symbolic(&m, sizeof m, "m");
  klee_assume(m <= 2);
  __builtin_memset((char *)0, 0, m);
  return 0;
}
)",
                              model(SizeModelKind::Symbolic));
  EXPECT_EQ(o.errors(), (std::multiset<std::string>{"ptr null " + std::to_string(unit::kEnginePreludeLines + 6)}));
  ASSERT_EQ(o.stats.pathsCompleted, 2u);
  for (const TestCase &t : o.tests)
    EXPECT_EQ(input(t, "m") == 0, !t.error);
}

} // namespace
} // namespace cairn::engine
