// CAIRN-ARGS: --search dfs --libc full --all-tests --sym-files 1 3
// EXPECT: paths_completed=1 paths_partial=0 tests=1
// NO-REPLAY: the model's fixed pid, clock and working directory are not a native run's
//
// Every system call of the POSIX environment model, through musl, with the answers a Linux
// process with the model's fixed view would get. Any wrong answer is an assertion failure.
#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

int main(void) {
  // The streams: not terminals; stdin (not symbolic here) is empty.
  assert(!isatty(0) && !isatty(1) && errno == ENOTTY);
  char c;
  assert(read(0, &c, 1) == 0);
  assert(write(1, "", 0) == 0);
  assert(lseek(1, 0, SEEK_CUR) == -1 && errno == ESPIPE);

  // A file the path creates: write, seek, read back, pread/pwrite, truncate, append.
  int fd = open("out.txt", O_CREAT | O_RDWR | O_TRUNC, 0644);
  assert(fd >= 3);
  assert(write(fd, "hello", 5) == 5);
  assert(lseek(fd, 0, SEEK_CUR) == 5 && lseek(fd, 1, SEEK_SET) == 1);
  char buf[16] = {0};
  assert(read(fd, buf, 3) == 3 && memcmp(buf, "ell", 3) == 0);
  assert(pwrite(fd, "J", 1, 0) == 1 && pread(fd, buf, 5, 0) == 5 && memcmp(buf, "Jello", 5) == 0);
  assert(lseek(fd, 0, SEEK_END) == 5 && lseek(fd, -6, SEEK_END) == -1 && errno == EINVAL);
  assert(ftruncate(fd, 2) == 0 && lseek(fd, 0, SEEK_END) == 2);
  struct iovec iov[2] = {{"ab", 2}, {"cd", 2}};
  assert(writev(fd, iov, 2) == 4);
  struct stat st;
  assert(fstat(fd, &st) == 0 && st.st_size == 6 && S_ISREG(st.st_mode) && st.st_uid == getuid());
  assert(open("out.txt", O_CREAT | O_EXCL | O_WRONLY, 0644) == -1 && errno == EEXIST);
  int app = open("out.txt", O_WRONLY | O_APPEND);
  assert(app >= 0 && write(app, "!", 1) == 1 && close(app) == 0 && close(app) == -1 && errno == EBADF);
  assert(pread(fd, buf, 16, 0) == 7 && memcmp(buf, "Jeabcd!", 7) == 0);

  // Descriptors: dup, dup2, fcntl.
  int d = dup(fd);
  assert(d > fd && fcntl(d, F_GETFL) == O_RDWR);
  assert(dup2(fd, 20) == 20 && fcntl(20, F_GETFD) == 0);
  assert(fcntl(fd, F_SETFD, FD_CLOEXEC) == 0 && fcntl(fd, F_GETFD) == FD_CLOEXEC);
  assert(fcntl(99, F_GETFD) == -1 && errno == EBADF);
  assert(close(d) == 0 && close(20) == 0);

  // Names: stat, lstat, access, rename, unlink; the working directory.
  assert(stat("out.txt", &st) == 0 && st.st_size == 7);
  assert(lstat("A", &st) == 0 && st.st_size == 3);
  assert(stat(".", &st) == 0 && S_ISDIR(st.st_mode));
  assert(stat("", &st) == -1 && errno == ENOENT && access("", F_OK) == -1 && errno == ENOENT);
  assert(access("A", X_OK) == -1 && errno == EACCES); /* no file of the model is executable */
  assert(access("A", R_OK) == 0 && access("nope", F_OK) == -1 && errno == ENOENT);
  assert(rename("out.txt", "moved.txt") == 0 && access("out.txt", F_OK) == -1);
  assert(unlink("moved.txt") == 0 && stat("moved.txt", &st) == -1 && errno == ENOENT);
  assert(read(fd, buf, 2) == 1 && buf[0] == '!' && pread(fd, buf, 2, 0) == 2); // open after unlink
  assert(close(fd) == 0);
  assert(open("dir/x", O_CREAT | O_WRONLY, 0644) == -1 && errno == ENOENT);
  char cwd[64];
  assert(getcwd(cwd, sizeof cwd) && strcmp(cwd, "/cairn") == 0);
  assert(getcwd(cwd, 3) == 0 && errno == ERANGE);

  // The process and the clock: fixed values.
  assert(getpid() == 1000 && getppid() == 999 && getuid() == 1000 && getgid() == 1000);
  assert(time(0) == 1767225600);
  struct timeval tv;
  assert(gettimeofday(&tv, 0) == 0 && tv.tv_sec == 1767225600);
  struct timespec ts;
  assert(clock_gettime(CLOCK_MONOTONIC, &ts) == 0 && ts.tv_sec == 1767225600);
  struct utsname u;
  assert(uname(&u) == 0 && strcmp(u.sysname, "Linux") == 0);
  assert(umask(077) == 022 && umask(022) == 077);

  // stdio on a file through the model: fopen, fprintf, fseek, fgets, fclose.
  FILE *f = fopen("notes", "w+");
  assert(f && fprintf(f, "%d-%s\n", 42, "x") == 5 && fseek(f, 0, SEEK_SET) == 0);
  assert(fgets(buf, sizeof buf, f) && strcmp(buf, "42-x\n") == 0 && fclose(f) == 0);
  assert(fopen("missing", "r") == 0 && errno == ENOENT);

  // The working directory opens for reading its entries: ".", "..", then its files.
  int dir = open(".", O_RDONLY | O_DIRECTORY);
  assert(dir >= 0 && read(dir, buf, 1) == -1 && errno == EISDIR);
  assert(fstat(dir, &st) == 0 && S_ISDIR(st.st_mode) && close(dir) == 0);
  assert(open(".", O_WRONLY) == -1 && errno == EISDIR);
  assert(open("A", O_RDONLY | O_DIRECTORY) == -1 && errno == ENOTDIR);
  DIR *listing = opendir("./");
  assert(listing);
  struct dirent *e1 = readdir(listing), *e2 = readdir(listing), *e3 = readdir(listing);
  assert(e1 && strcmp(e1->d_name, ".") == 0 && e2 && strcmp(e2->d_name, "..") == 0);
  assert(e3 && strcmp(e3->d_name, "A") == 0 && e3->d_type == DT_REG);
  struct dirent *e4 = readdir(listing);
  assert(e4 && strcmp(e4->d_name, "notes") == 0 && readdir(listing) == 0);
  rewinddir(listing);
  assert(readdir(listing) && closedir(listing) == 0);
  // Files are made in the working directory by any of its names; "/" is not the user's; ".."
  // is a directory.
  assert(close(open("./made", O_CREAT | O_WRONLY, 0644)) == 0 && access("made", F_OK) == 0);
  assert(access(".//made", F_OK) == 0 && access("././made", F_OK) == 0 && access("/cairn//made", F_OK) == 0);
  assert(open("/rootfile", O_CREAT | O_WRONLY, 0644) == -1 && errno == EACCES);
  assert(stat("..", &st) == 0 && S_ISDIR(st.st_mode) && open("..", O_WRONLY) == -1 && errno == EISDIR);
  assert(open(".//.", O_CREAT | O_WRONLY, 0644) == -1 && errno == EISDIR && stat("./../", &st) == 0);
  assert(stat("..x", &st) == -1 && errno == ENOENT);
  return 0;
}
