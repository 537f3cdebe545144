// The relocatable memory model: symbolic bases, dynamic segments and object splitting, on the
// thesis's example programs (sizes doubled for 64-bit pointers).
#include "RunSource.h"

using namespace cairn;
using namespace cairn::engine;
using namespace cairn::engine::unit;

namespace {

class MemoryModelTest : public unit::EngineRunTest {
protected:
  Outcome run(const std::string &body, MemoryModelOptions memory) {
    ExecutorOptions eo;
    eo.search = SearchStrategy::Dfs;
    eo.memory = memory;
    return runSource(body, eo);
  }

  static MemoryModelOptions standard() { return {}; }
  static MemoryModelOptions relocatable() {
    MemoryModelOptions m;
    m.kind = MemoryModelKind::Relocatable;
    return m;
  }
  static MemoryModelOptions segments() {
    MemoryModelOptions m = relocatable();
    m.mergeObjects = true;
    return m;
  }
  static MemoryModelOptions splitting(uint64_t threshold, uint64_t partition) {
    MemoryModelOptions m = relocatable();
    m.splitObjects = true;
    m.splitThreshold = threshold;
    m.partitionSize = partition;
    return m;
  }
};

// Fig. 1.4: buffer[j] may point into the two buffers of the first array only. The standard
// model forks per buffer; with segments the two buffers (and nothing else) move into one
// segment and the access does not fork.
const char *kArrayOfBuffers = R"(
int main(void) {
  char **arrays[2];
  for (int i = 0; i < 2; i++) {
    arrays[i] = malloc(2 * sizeof(char *));
    for (int j = 0; j < 2; j++)
      arrays[i][j] = malloc(10);
  }
  int i, j;
  klee_make_symbolic(&i, sizeof i, "i");
  klee_make_symbolic(&j, sizeof j, "j");
  char **array = arrays[0];
  if (0 <= i && i < 2 && 0 <= j && j < 10) {
    char *buffer = array[i];
    buffer[j] = 'a';
  }
  return 0;
}
)";

TEST_F(MemoryModelTest, ArrayOfBuffersForksInTheStandardModel) {
  Outcome o = run(kArrayOfBuffers, standard());
  EXPECT_EQ(o.stats.memory.resolutionForks, 1u);
  EXPECT_EQ(o.stats.memory.segments, 0u);
  EXPECT_TRUE(o.stats.errors.empty());
}

TEST_F(MemoryModelTest, ArrayOfBuffersResolvesToOneSegmentWithoutForking) {
  Outcome fork = run(kArrayOfBuffers, relocatable());
  Outcome merged = run(kArrayOfBuffers, segments());
  EXPECT_EQ(fork.stats.memory.resolutionForks, 1u);
  EXPECT_EQ(merged.stats.memory.resolutionForks, 0u);
  EXPECT_EQ(merged.stats.memory.segments, 1u);
  EXPECT_EQ(merged.stats.memory.segmentObjects, 2u); // the first array's buffers only
  EXPECT_EQ(merged.stats.memory.maxSegmentSize, 16u + 10u); // second member aligned to 16
  EXPECT_EQ(merged.stats.pathsCompleted, fork.stats.pathsCompleted - 1);
  EXPECT_TRUE(merged.stats.errors.empty());
}

// With everything off, the relocatable model finds what the standard model finds: paths,
// tests and errors, on heap-heavy programs with every heap error kind.
TEST_F(MemoryModelTest, RelocatableExploresTheSamePathsAsStandard) {
  const char *programs[] = {
      // A linked list built and searched by a symbolic key, with pointer comparisons.
      R"(struct node { int key; struct node *next; };
      int main(void) {
        struct node *head = 0;
        for (int i = 0; i < 4; i++) {
          struct node *n = malloc(sizeof *n);
          n->key = i * 3; n->next = head; head = n;
        }
        int k; klee_make_symbolic(&k, sizeof k, "k");
        int found = 0;
        for (struct node *n = head; n != 0; n = n->next)
          if (n->key == k) found++;
        while (head) { struct node *next = head->next; free(head); head = next; }
        return found;
      })",
      // Out of bounds at a symbolic index, use after free, double free, invalid free.
      R"(int main(void) {
        int *a = malloc(4 * sizeof(int));
        int i; klee_make_symbolic(&i, sizeof i, "i");
        char c; klee_make_symbolic(&c, sizeof c, "c");
        if (i >= 0 && i <= 4) a[i] = 1;
        if (c == 1) { free(a); return a[0]; }
        if (c == 2) { free(a); free(a); }
        if (c == 3) { free(a + 1); }
        if (c == 4) { a = realloc(a, 64); a[15] = 2; a[16] = 3; }
        return 0;
      })",
      // Pointers compared and subtracted within one object; a pointer table read symbolically.
      R"(int main(void) {
        char *bufs[3];
        for (int i = 0; i < 3; i++) { bufs[i] = calloc(8, 1); bufs[i][i] = 7; }
        unsigned i, j; klee_make_symbolic(&i, sizeof i, "i"); klee_make_symbolic(&j, sizeof j, "j");
        if (i >= 3 || j >= 8) return 1;
        char *p = bufs[i] + j;
        if (p - bufs[i] > 4) return 2;
        if (*p == 7) return 3;
        return 0;
      })",
  };
  for (const char *program : programs) {
    Outcome a = run(program, standard());
    Outcome b = run(program, relocatable());
    EXPECT_EQ(a.stats.pathsCompleted, b.stats.pathsCompleted) << program;
    EXPECT_EQ(a.stats.pathsPartial, b.stats.pathsPartial) << program;
    EXPECT_EQ(a.stats.tests, b.stats.tests) << program;
    EXPECT_EQ(a.errors(), b.errors()) << program;
    EXPECT_EQ(a.stats.forks, b.stats.forks) << program;
  }
}

// Fig. 3.2 with splitting (threshold below 256): in each state bound to one 256-byte row,
// the row splits into 4 chunks of 64 bytes and j < 100 resolves to the first two.
const char *kMatrix = R"(
int main(void) {
  char **array = calloc(2, sizeof(char *));
  for (unsigned k = 0; k < 2; k++)
    array[k] = calloc(256, 1);
  unsigned i, j;
  klee_make_symbolic(&i, sizeof i, "i");
  klee_make_symbolic(&j, sizeof j, "j");
  klee_assume(i < 2);
  klee_assume(j < 100);
  if (array[i][j] == 1)
    return 1;
  return 0;
}
)";

TEST_F(MemoryModelTest, SplittingResolvesToTheChunksAnAccessCanReach) {
  Outcome plain = run(kMatrix, relocatable());
  Outcome split = run(kMatrix, splitting(100, 64));
  EXPECT_EQ(plain.stats.pathsCompleted, 2u);
  EXPECT_EQ(split.stats.memory.splits, 2u);
  EXPECT_EQ(split.stats.memory.chunks, 8u);
  EXPECT_EQ(split.stats.memory.maxSplitSize, 256u);
  EXPECT_EQ(split.stats.pathsCompleted, 4u);
  EXPECT_EQ(split.stats.memory.maxSymbolicAccessBytes, 64u); // reads go through 64-byte arrays
  EXPECT_TRUE(split.stats.errors.empty());
}

TEST_F(MemoryModelTest, SplittingKeepsOutOfBoundsDetectionAtTheObjectsEnds) {
  const char *program = R"(
int main(void) {
  int *a = malloc(100 * sizeof(int));
  for (int k = 0; k < 100; k++) a[k] = k;
  int i;
  klee_make_symbolic(&i, sizeof i, "i");
  if (i >= -1 && i <= 100)
    return a[i];
  return 0;
}
)";
  Outcome plain = run(program, relocatable());
  Outcome split = run(program, splitting(300, 128));
  EXPECT_EQ(split.stats.memory.splits, 1u);
  EXPECT_EQ(split.stats.memory.chunks, 4u); // 400 bytes: 128 + 128 + 128 + 16
  EXPECT_EQ(plain.errors(), split.errors());
  EXPECT_EQ(split.errors().size(), 1u); // out of bounds, reached from below and above
}

// An unaligned access across two chunks is no error: the object is joined again for it.
TEST_F(MemoryModelTest, AnAccessAcrossChunksJoinsTheObject) {
  const char *program = R"(
int main(void) {
  unsigned char *a = malloc(512);
  for (int k = 0; k < 512; k++) a[k] = (unsigned char)k;
  unsigned i;
  klee_make_symbolic(&i, sizeof i, "i");
  klee_assume(i < 8);
  unsigned *p = (unsigned *)(a + 60 + i);  // crosses the first chunk's end for i > 0
  return *p == 0x3f3e3d3cu;
}
)";
  Outcome split = run(program, splitting(300, 64));
  EXPECT_TRUE(split.stats.errors.empty());
  EXPECT_EQ(split.stats.memory.splits, 1u);
  // One path per chunk the pointer starts in (i = 0: the first; i >= 4: the second) and one
  // for the accesses across both (i = 1..3), which run on the joined object.
  EXPECT_EQ(split.stats.pathsCompleted, 3u);
  EXPECT_EQ(run(program, relocatable()).stats.pathsCompleted, 1u);
}

// Both sides of a fork on z resolve the same access to the same two buffers (allocated before
// the fork): with reuse the second side gets the first side's segment, address and base.
const char *kTwoSidesMerge = R"(
int main(void) {
  char **array = calloc(2, sizeof(char *));
  for (unsigned k = 0; k < 2; k++)
    array[k] = calloc(2, 1);
  array[0][1] = 7;
  int z;
  klee_make_symbolic(&z, sizeof z, "z");
  int r = z > 0 ? 1 : 2;
  if (z > 0)
    r = 3;
  unsigned i, j;
  klee_make_symbolic(&i, sizeof i, "i");
  klee_make_symbolic(&j, sizeof j, "j");
  klee_assume(i < 2);
  klee_assume(j < 2);
  if (array[i][j] == 7)
    return r;
  return 0;
}
)";

TEST_F(MemoryModelTest, SegmentsAreReusedAcrossStates) {
  Outcome reuse = run(kTwoSidesMerge, segments());
  EXPECT_EQ(reuse.stats.memory.segments, 2u);
  EXPECT_EQ(reuse.stats.memory.segmentsReused, 1u);
  EXPECT_EQ(reuse.stats.memory.resolutionForks, 0u);
  EXPECT_EQ(reuse.stats.pathsCompleted, 4u);
  MemoryModelOptions fresh = segments();
  fresh.reuseSegments = false;
  Outcome noReuse = run(kTwoSidesMerge, fresh);
  EXPECT_EQ(noReuse.stats.memory.segments, 2u);
  EXPECT_EQ(noReuse.stats.memory.segmentsReused, 0u);
  EXPECT_EQ(noReuse.stats.pathsCompleted, 4u);
}

// A loop resolving the same access to the same objects: reuse across iterations and states,
// and the allocation contexts seen there answer later resolutions.
const char *kRepeatedLookups = R"(
int main(void) {
  char *bufs[4];
  for (int k = 0; k < 4; k++) { bufs[k] = calloc(16, 1); bufs[k][k] = (char)k; }
  char *other = calloc(16, 1);
  other[0] = 9;
  int sum = 0;
  for (int round = 0; round < 3; round++) {
    unsigned i, j;
    klee_make_symbolic(&i, sizeof i, "i");
    klee_make_symbolic(&j, sizeof j, "j");
    klee_assume(i < 2);
    klee_assume(j < 16);
    sum += bufs[i + 2 * (round & 1)][j];
  }
  return sum + other[0];
}
)";

TEST_F(MemoryModelTest, ContextBasedResolutionAnswersRepeatedAccesses) {
  MemoryModelOptions byContext = segments();
  byContext.contextDepth = 1;
  Outcome plain = run(kRepeatedLookups, segments());
  Outcome ctx = run(kRepeatedLookups, byContext);
  EXPECT_EQ(plain.stats.memory.resolutionForks, 0u);
  EXPECT_EQ(ctx.stats.memory.resolutionForks, 0u);
  EXPECT_GE(ctx.stats.memory.contextHits, 1u);
  EXPECT_EQ(ctx.stats.pathsCompleted, plain.stats.pathsCompleted);
  EXPECT_TRUE(ctx.stats.errors.empty());
}

// Fig. 1.2's clean-up: every buffer of a segment can be freed; freeing one twice is a double
// free, and a concrete access to a freed member a use after free.
TEST_F(MemoryModelTest, SegmentMembersAreFreedOneByOne) {
  const char *program = R"(
int main(void) {
  char **ptrs = malloc(2 * sizeof(char *));
  for (int i = 0; i < 2; i++) ptrs[i] = malloc(10);
  int k;
  char c;
  klee_make_symbolic(&k, sizeof k, "k");
  klee_make_symbolic(&c, sizeof c, "c");
  if (0 <= k && k < 2) {
    char *s = ptrs[k];
    s[0] = 'a';
  }
  free(ptrs[0]);
  if (c == 1) free(ptrs[0]);
  if (c == 2) return ptrs[0][3];
  free(ptrs[1]);
  free(ptrs);
  return 0;
}
)";
  Outcome merged = run(program, segments());
  Outcome plain = run(program, standard());
  EXPECT_GE(merged.stats.memory.segments, 1u);
  EXPECT_EQ(merged.errors(), plain.errors());
  EXPECT_EQ(merged.errors().size(), 2u);
}

TEST_F(MemoryModelTest, OptionsParse) {
  MemoryModelKind k = MemoryModelKind::Standard;
  EXPECT_TRUE(parseMemoryModelKind("relocatable", k));
  EXPECT_EQ(k, MemoryModelKind::Relocatable);
  EXPECT_TRUE(parseMemoryModelKind("standard", k));
  EXPECT_EQ(k, MemoryModelKind::Standard);
  EXPECT_FALSE(parseMemoryModelKind("segmented", k));
}

} // namespace
