/* The POSIX environment model's state: a small in-memory file system (the symbolic files A, B,
 * ..., stdin, the host files the user mapped in, and the files a path creates) and the file
 * descriptor table. It lives in the analysed program's memory, so every path has its own copy,
 * forked with the path. Host files are never opened: a mapped file's contents come from the
 * engine, which read it once at the start. */
#ifndef CAIRN_POSIX_H
#define CAIRN_POSIX_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "environment.h"

#define CAIRN_MAX_FILES 32
#define CAIRN_MAX_FDS 64

enum cairn_file_kind {
  CAIRN_REGULAR,  /* contents in memory */
  CAIRN_NULL_DEV, /* reads see end of file, writes vanish (stdin when it is not symbolic) */
  CAIRN_OUTPUT,   /* the terminal of stdout and stderr: writes go to the path's output */
  CAIRN_DIRECTORY, /* the working directory, opened to read its entries */
};

struct cairn_file {
  int in_use;
  enum cairn_file_kind kind;
  char name[64];        /* the path it is opened by; "" for the standard streams */
  unsigned char *data;
  size_t size, capacity;
  struct stat *stat;    /* for the symbolic files: the recorded `X-data-stat` input */
  int links;            /* 0 once unlinked: still readable through open descriptors */
  int read_only;        /* a mapped host file (--file): mode 0444, opened for reading only */
};

struct cairn_fd {
  struct cairn_file *file; /* NULL: the descriptor is closed */
  off_t offset;
  int flags;            /* O_ACCMODE | O_APPEND | O_NONBLOCK */
  int cloexec;
};

/* The calls `--max-fail N` may fail, each at most once per path, at the call whose number (1,
 * 2, ...) the input `read_fail`, `write_fail`, ... names (as KLEE's model does). */
enum cairn_failable {
  CAIRN_FAIL_READ, CAIRN_FAIL_WRITE, CAIRN_FAIL_CLOSE, CAIRN_FAIL_FTRUNCATE, CAIRN_FAIL_GETCWD,
  CAIRN_FAILABLE
};

struct cairn_posix {
  struct cairn_file files[CAIRN_MAX_FILES];
  struct cairn_fd fds[CAIRN_MAX_FDS];
  struct cairn_file *sym_files[26];
  unsigned n_sym_files;
  mode_t umask;
  unsigned failures_left;
  uint32_t *fail_at[CAIRN_FAILABLE];
  uint32_t calls[CAIRN_FAILABLE];
};

extern struct cairn_posix __cairn_posix;

/* The model's fixed view of the process, the same on every path. */
#define CAIRN_PID 1000
#define CAIRN_UID 1000
#define CAIRN_GID 1000
#define CAIRN_EPOCH 1767225600 /* 2026-01-01 00:00:00 UTC */
#define CAIRN_CWD "/cairn"

void cairn_posix_init(const struct cairn_environment_options *o);
struct cairn_file *cairn_new_file(const char *name, enum cairn_file_kind kind);
void cairn_default_stat(struct cairn_file *f, struct stat *st);
int cairn_fill_stat(struct cairn_file *f, struct stat *st);
struct cairn_file *cairn_lookup(const char *path);
const char *cairn_name_in_directory(const char *path);
/* 1 when this call of kind `k` is the one to fail (--max-fail). */
int cairn_injected_failure(enum cairn_failable k);

/* System calls: each returns the result or -errno, as the kernel's entry does. */
long cairn_sys_read(int fd, void *buf, size_t count);
long cairn_sys_write(int fd, const void *buf, size_t count);
long cairn_sys_pread(int fd, void *buf, size_t count, off_t offset);
long cairn_sys_pwrite(int fd, const void *buf, size_t count, off_t offset);
long cairn_sys_readv(int fd, const void *iov, int iovcnt);
long cairn_sys_writev(int fd, const void *iov, int iovcnt);
long cairn_sys_lseek(int fd, off_t offset, int whence);
long cairn_sys_openat(int dirfd, const char *path, int flags, mode_t mode);
long cairn_sys_close(int fd);
long cairn_sys_fstat(int fd, struct stat *st);
long cairn_sys_fstatat(int dirfd, const char *path, struct stat *st, int flags);
long cairn_sys_faccessat(int dirfd, const char *path, int mode);
long cairn_sys_dup3(int oldfd, int newfd, int flags, int exact);
long cairn_sys_fcntl(int fd, int cmd, long arg);
long cairn_sys_ioctl(int fd, unsigned long request, void *arg);
long cairn_sys_ftruncate(int fd, off_t length);
long cairn_sys_unlinkat(int dirfd, const char *path, int flags);
long cairn_sys_renameat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath);
long cairn_sys_getcwd(char *buf, size_t size);
long cairn_sys_getdents64(int fd, void *buf, size_t size);

#endif
