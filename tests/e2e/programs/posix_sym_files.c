// CAIRN-ARGS: --search dfs --libc full --all-tests --sym-files 1 4
// EXPECT: paths_completed=3 paths_partial=0 tests=3
// EXPECT-ERROR: user user 29
//
// --sym-files 1 4: a file named A with four symbolic bytes. It opens by its name (and by
// ./A), its size shows in fstat, B does not exist, and its bytes decide the paths.
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cairn.h"

int main(void) {
  int fd = open("A", O_RDONLY);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0 || st.st_size != 4 || !S_ISREG(st.st_mode))
    klee_report_error(__FILE__, __LINE__, "A is not a four-byte file", "user.err");
  if (open("B", O_RDONLY) != -1 || errno != ENOENT)
    klee_report_error(__FILE__, __LINE__, "B exists", "user.err");
  if (open("./A", O_RDONLY) < 0)
    klee_report_error(__FILE__, __LINE__, "./A does not open", "user.err");
  char buf[8];
  if (read(fd, buf, sizeof buf) != 4)
    klee_report_error(__FILE__, __LINE__, "A does not read as four bytes", "user.err");
  if (memcmp(buf, "OK", 2) == 0)
    klee_report_error(__FILE__, __LINE__, "found OK", "user.err");
  close(fd);
  return 0;
}
