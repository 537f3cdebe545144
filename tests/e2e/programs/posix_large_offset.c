// CAIRN-ARGS: --search dfs --libc full --all-tests --sym-stdin 2 --sym-files 1 2
// EXPECT: paths_completed=2 paths_partial=0 tests=2
//
// Offsets past the end of a file, as far as the in-memory file system goes (tail -c +41T seeks
// stdin to 41 TiB): the model allows them, as Linux's tmpfs does. The replay keeps stdin and
// the files in memory too where the machine has /dev/shm; on ext4 the seek past 16 TiB would
// be EINVAL and the test would not replay.
#include <stdio.h>
#include <fcntl.h>
#include <unistd.h>

int main(void) {
  const off_t far = (off_t)41 << 40;
  if (lseek(0, far, SEEK_SET) != far)
    return 3;
  char c;
  if (read(0, &c, 1) != 0) // past the end: nothing to read
    return 4;
  int fd = open("A", O_RDONLY);
  if (fd < 0 || lseek(fd, far, SEEK_CUR) != far)
    return 5;
  if (lseek(0, 0, SEEK_SET) != 0 || read(0, &c, 1) != 1)
    return 6;
  printf("first byte %s\n", c == 'x' ? "x" : "other");
  return c == 'x' ? 1 : 0;
}
