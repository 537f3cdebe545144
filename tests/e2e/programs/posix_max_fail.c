// CAIRN-ARGS: --search dfs --libc full --all-tests --sym-stdin 2 --max-fail 1
// EXPECT: paths_completed=3 paths_partial=0 tests=3
// NO-REPLAY: a native run cannot make its system calls fail
//
// --max-fail 1: at most one system call fails on a path (with EIO), at the call the inputs
// read_fail, write_fail, ... name. The read fails or not; where it did not, the write fails or
// not: three paths. Nothing else fails: close is not reached.
#include <assert.h>
#include <errno.h>
#include <unistd.h>

int main(void) {
  char b[2];
  ssize_t n = read(0, b, sizeof b);
  if (n < 0) {
    assert(errno == EIO);
    return 1;
  }
  assert(n == 2);
  if (write(1, b, 2) < 0) {
    assert(errno == EIO);
    return 2;
  }
  return 0;
}
