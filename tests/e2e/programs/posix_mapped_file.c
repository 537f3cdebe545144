// CAIRN-ARGS: --search dfs --libc full --all-tests --file settings=@DIR@/posix_mapped_file.conf --sym-stdin 2
// EXPECT: paths_completed=2 paths_partial=0 tests=2
// EXPECT-ERROR: user user 40
//
// --file settings=PATH: the host file as the read-only file `settings` of the working
// directory. Its contents are the host file's, it reads through stdio, stat says 0444 and its
// size, opening it to write or truncate is EACCES, access(W_OK) too; a name nobody mapped does
// not exist. Two bytes of stdin compared with its `limit` value decide the paths. The replay
// lays the file out again from the output directory (files/settings).
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cairn.h"

int main(void) {
  struct stat st;
  if (stat("settings", &st) != 0 || st.st_size != 21 || (st.st_mode & 0777) != 0444)
    klee_report_error(__FILE__, __LINE__, "settings has the wrong metadata", "user.err");
  if (open("settings", O_WRONLY) != -1 || errno != EACCES || open("./settings", O_RDONLY | O_TRUNC) != -1 ||
      access("settings", W_OK) != -1 || errno != EACCES || access("settings", R_OK) != 0)
    klee_report_error(__FILE__, __LINE__, "settings is writable", "user.err");
  if (open("other.conf", O_RDONLY) != -1 || errno != ENOENT)
    klee_report_error(__FILE__, __LINE__, "a file nobody mapped exists", "user.err");
  FILE *f = fopen("settings", "r");
  char line[32];
  if (!f || !fgets(line, sizeof line, f) || strcmp(line, "mode=strict\n") != 0 || !fgets(line, sizeof line, f) ||
      strncmp(line, "limit=", 6) != 0)
    klee_report_error(__FILE__, __LINE__, "settings does not read as the host file", "user.err");
  fclose(f);
  int limit = atoi(line + 6);
  char in[2];
  if (read(0, in, 2) != 2)
    return 1;
  if (in[0] * 10 + in[1] == limit) // one path finds the limit
    klee_report_error(__FILE__, __LINE__, "stdin reached the limit", "user.err");
  return in[0] == 'x' ? 2 : 0;
}
