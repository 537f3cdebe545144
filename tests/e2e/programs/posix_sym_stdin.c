// CAIRN-ARGS: --search dfs --libc full --all-tests --sym-stdin 4
// EXPECT: paths_completed=4 paths_partial=0 tests=4
// EXPECT-ERROR: assert assertion-failure 22
//
// --sym-stdin 4: stdin holds four symbolic bytes and then ends. Read through musl's stdio
// (getchar, fread: its buffer refilled by readv), then read() at the end of the input.
#include <assert.h>
#include <stdio.h>
#include <unistd.h>

int main(void) {
  int c = getchar();
  if (c != 'a')
    return 1;
  char rest[8];
  size_t n = fread(rest, 1, sizeof rest, stdin);
  if (n != 3) // the input is four bytes long on every path
    return 2;
  if (rest[0] == 'b') {
    char more;
    if (read(0, &more, 1) == 0 && rest[2] == 'z')
      assert(0 && "abz reached");
    return 3;
  }
  return 4;
}
