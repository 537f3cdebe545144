// CAIRN-ARGS: --search dfs --merge-encoding quantified
// EXPECT: paths_completed=4 paths_partial=0 tests=4
//
// State merging with quantifiers on the thesis' memspn (Fig. 6.1) with chars = "a" and n <= 3
// (T1): the loop's seven paths reach the close of the region as words of their branch
// conditions. Three repeat "count < n, s[count] == 'a'" k times and end with a mismatch, four
// k times and end with count >= n: the two partitions of Table 6.1, each one state with a
// fresh k and ∀i. 1 <= i <= k → n > i-1 ∧ s[i-1] = 'a', count = k. The path that matched three
// times decides count < 3 without a fork (n <= 3), and the decision still ends its word, so it
// joins the second partition with k = 3. The two states then fork on r == 2: four paths. The
// tree variant merges all seven into one state: two paths.
#include "cairn.h"

static int memspn(const char *s, unsigned n, const char *chars) {
  const char *p = chars;
  unsigned count = 0;
  while (*p && count < n) {
    if (*p == s[count]) {
      count++;
      p = chars;
    } else {
      p++;
    }
  }
  return count;
}

int main(void) {
  char s[4];
  unsigned n;
  klee_make_symbolic(s, sizeof s, "s");
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= 3);
  klee_open_merge();
  int r = memspn(s, n, "a");
  klee_close_merge();
  if (r == 2)
    return 1;
  return 0;
}

// CAIRN-VARIANT: tree --search dfs --merge-encoding tree
// EXPECT@tree: paths_completed=2 paths_partial=0 tests=2
// With static state merging the two quantified states, and the sides of r == 2, merge again
// at the joins after the region (whole states, disjunctive): one path.
// CAIRN-VARIANT: ssm --search dfs --merge-encoding quantified --merge-strategy ssm --validate-merges
// EXPECT@ssm: paths_completed=1 paths_partial=0 tests=1
