/* The file descriptor system calls of the model: reading and writing in-memory files at an
 * offset, the terminal of stdout and stderr, opening by name, duplication and descriptor flags.
 * Every call returns its result or -errno. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <unistd.h>

#include "cairn.h"
#include "posix.h"

void *realloc(void *p, size_t size);
void free(void *p);

static struct cairn_fd *descriptor(int fd) {
  if (fd < 0 || fd >= CAIRN_MAX_FDS || !__cairn_posix.fds[fd].file)
    return 0;
  return &__cairn_posix.fds[fd];
}

static int readable(const struct cairn_fd *d) { return (d->flags & O_ACCMODE) != O_WRONLY; }
static int writable(const struct cairn_fd *d) { return (d->flags & O_ACCMODE) != O_RDONLY; }

/* A symbolic count or offset is fixed to one of its values: the model keeps offsets concrete. */
static size_t concrete_size(size_t n) {
  if (klee_is_symbolic(n)) {
    size_t v = (size_t)klee_get_value_i64((int64_t)n);
    klee_assume(n == v);
    return v;
  }
  return n;
}

static long read_at(struct cairn_file *f, void *buf, size_t count, off_t offset) {
  if (f->kind != CAIRN_REGULAR || offset < 0 || (size_t)offset >= f->size)
    return 0;
  size_t n = f->size - (size_t)offset;
  if (count < n)
    n = count;
  memcpy(buf, f->data + offset, n);
  return (long)n;
}

static int grow(struct cairn_file *f, size_t size) {
  if (size <= f->capacity)
    return 0;
  size_t capacity = f->capacity ? f->capacity * 2 : 64;
  if (capacity < size)
    capacity = size;
  unsigned char *data = realloc(f->data, capacity);
  if (!data)
    return -ENOSPC;
  f->data = data;
  f->capacity = capacity;
  return 0;
}

static long write_at(struct cairn_file *f, int fd, const void *buf, size_t count, off_t offset) {
  if (f->kind == CAIRN_OUTPUT) {
    cairn_write_output(fd, buf, count);
    return (long)count;
  }
  if (f->kind == CAIRN_NULL_DEV)
    return (long)count;
  if (offset < 0)
    return -EINVAL;
  size_t end = (size_t)offset + count;
  if (grow(f, end))
    return -ENOSPC;
  if ((size_t)offset > f->size)
    memset(f->data + f->size, 0, (size_t)offset - f->size);
  memcpy(f->data + offset, buf, count);
  if (end > f->size)
    f->size = end;
  return (long)count;
}

long cairn_sys_read(int fd, void *buf, size_t count) {
  struct cairn_fd *d = descriptor(fd);
  if (!d || !readable(d))
    return -EBADF;
  if (d->file->kind == CAIRN_DIRECTORY)
    return -EISDIR;
  if (cairn_injected_failure(CAIRN_FAIL_READ))
    return -EIO;
  long n = read_at(d->file, buf, concrete_size(count), d->offset);
  if (n > 0)
    d->offset += n;
  return n;
}

long cairn_sys_pread(int fd, void *buf, size_t count, off_t offset) {
  struct cairn_fd *d = descriptor(fd);
  if (!d || !readable(d))
    return -EBADF;
  if (d->file->kind == CAIRN_OUTPUT)
    return -ESPIPE;
  return read_at(d->file, buf, concrete_size(count), (off_t)concrete_size((size_t)offset));
}

long cairn_sys_write(int fd, const void *buf, size_t count) {
  struct cairn_fd *d = descriptor(fd);
  if (!d || !writable(d))
    return -EBADF;
  if (cairn_injected_failure(CAIRN_FAIL_WRITE))
    return -EIO;
  count = concrete_size(count);
  if (d->flags & O_APPEND)
    d->offset = (off_t)d->file->size;
  long n = write_at(d->file, fd, buf, count, d->offset);
  if (n > 0 && d->file->kind == CAIRN_REGULAR)
    d->offset += n;
  return n;
}

long cairn_sys_pwrite(int fd, const void *buf, size_t count, off_t offset) {
  struct cairn_fd *d = descriptor(fd);
  if (!d || !writable(d))
    return -EBADF;
  if (d->file->kind == CAIRN_OUTPUT)
    return -ESPIPE;
  return write_at(d->file, fd, buf, concrete_size(count), (off_t)concrete_size((size_t)offset));
}

/* readv and writev: one buffer after the other, until one is not filled (a short read) or a
 * call fails; what was done before a failure counts. */
static long vectored(int fd, const struct iovec *v, int iovcnt, int writing) {
  if (iovcnt < 0 || iovcnt > 1024)
    return -EINVAL;
  long total = 0;
  for (int i = 0; i < iovcnt; ++i) {
    if (!v[i].iov_len)
      continue;
    long n = writing ? cairn_sys_write(fd, v[i].iov_base, v[i].iov_len)
                     : cairn_sys_read(fd, v[i].iov_base, v[i].iov_len);
    if (n < 0)
      return total ? total : n;
    total += n;
    if ((size_t)n < v[i].iov_len)
      break;
  }
  return total;
}

long cairn_sys_readv(int fd, const void *iov, int iovcnt) { return vectored(fd, iov, iovcnt, 0); }
long cairn_sys_writev(int fd, const void *iov, int iovcnt) { return vectored(fd, iov, iovcnt, 1); }

long cairn_sys_lseek(int fd, off_t offset, int whence) {
  struct cairn_fd *d = descriptor(fd);
  if (!d)
    return -EBADF;
  if (d->file->kind == CAIRN_OUTPUT)
    return -ESPIPE;
  offset = (off_t)concrete_size((size_t)offset);
  off_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? d->offset
             : whence == SEEK_END ? (off_t)d->file->size : -1;
  if (base < 0)
    return -EINVAL;
  if (base + offset < 0)
    return -EINVAL;
  d->offset = base + offset;
  return d->offset;
}

static int free_descriptor(int from) {
  for (int fd = from < 0 ? 0 : from; fd < CAIRN_MAX_FDS; ++fd)
    if (!__cairn_posix.fds[fd].file)
      return fd;
  return -1;
}

/* The working directory itself: stat(".") and stat("/cairn") describe it. */
static int is_directory(const char *path) {
  if (!path[0]) /* the empty path names nothing (ENOENT), as on Linux */
    return 0;
  /* and its parent, "/" (what ".." names), however many "./" and "/" spell them */
  if (!strcmp(path, CAIRN_CWD))
    return 1;
  if (!strncmp(path, CAIRN_CWD "/", sizeof CAIRN_CWD))
    path += sizeof CAIRN_CWD;
  for (;;) {
    if (path[0] == '/')
      path += 1;
    else if (path[0] == '.' && (path[1] == '/' || !path[1]))
      path += 1;
    else if (path[0] == '.' && path[1] == '.' && (path[2] == '/' || !path[2]))
      path += 2;
    else
      return !path[0];
  }
}

static void directory_stat(struct stat *st) {
  memset(st, 0, sizeof *st);
  st->st_dev = 0x801;
  st->st_ino = 1;
  st->st_mode = S_IFDIR | 0755;
  st->st_nlink = 2;
  st->st_uid = CAIRN_UID;
  st->st_gid = CAIRN_GID;
  st->st_size = 4096;
  st->st_blksize = 4096;
  st->st_atim.tv_sec = st->st_mtim.tv_sec = st->st_ctim.tv_sec = CAIRN_EPOCH;
}

/* The one directory, as a file a descriptor can hold: reads fail with EISDIR, getdents lists it. */
static struct cairn_file *the_directory(void) {
  static struct cairn_file *dir;
  for (unsigned i = 0; !dir && i < CAIRN_MAX_FILES; ++i)
    if (__cairn_posix.files[i].in_use && __cairn_posix.files[i].kind == CAIRN_DIRECTORY)
      dir = &__cairn_posix.files[i];
  if (!dir && (dir = cairn_new_file("", CAIRN_DIRECTORY)))
    dir->links = 0;
  return dir;
}

long cairn_sys_openat(int dirfd, const char *path, int flags, mode_t mode) {
  if (!path)
    return -EFAULT;
  if (!path[0])
    return -ENOENT;
  struct cairn_file *f = 0;
  if (is_directory(path)) {
    if ((flags & O_ACCMODE) != O_RDONLY || (flags & O_CREAT))
      return -EISDIR;
    if (!(f = the_directory()))
      return -ENFILE;
  } else if (flags & O_DIRECTORY) {
    return cairn_lookup(path) ? -ENOTDIR : -ENOENT;
  } else {
    f = cairn_lookup(path);
  }
  if (f && (flags & O_CREAT) && (flags & O_EXCL))
    return -EEXIST;
  if (f && f->read_only && ((flags & O_ACCMODE) != O_RDONLY || (flags & O_TRUNC)))
    return -EACCES;
  if (!f) {
    if (!(flags & O_CREAT))
      return -ENOENT;
    const char *name = cairn_name_in_directory(path);
    if (!name) /* the model has one directory, the working one; "/" is not its user's */
      return path[0] == '/' && !strchr(path + 1, '/') ? -EACCES : -ENOENT;
    if (!(f = cairn_new_file(name, CAIRN_REGULAR)))
      return -ENOSPC;
  }
  int fd = free_descriptor(0);
  if (fd < 0)
    return -EMFILE;
  if ((flags & O_TRUNC) && (flags & O_ACCMODE) != O_RDONLY && f->kind == CAIRN_REGULAR)
    f->size = 0;
  __cairn_posix.fds[fd] = (struct cairn_fd){f, 0, flags & (O_ACCMODE | O_APPEND | O_NONBLOCK),
                                            (flags & O_CLOEXEC) != 0};
  return fd;
}

long cairn_sys_close(int fd) {
  struct cairn_fd *d = descriptor(fd);
  if (!d)
    return -EBADF;
  d->file = 0; /* closed even when the call fails, as Linux does */
  return cairn_injected_failure(CAIRN_FAIL_CLOSE) ? -EIO : 0;
}

long cairn_sys_fstat(int fd, struct stat *st) {
  struct cairn_fd *d = descriptor(fd);
  if (!d)
    return -EBADF;
  if (d->file->kind == CAIRN_DIRECTORY) {
    directory_stat(st);
    return 0;
  }
  return cairn_fill_stat(d->file, st);
}

long cairn_sys_fstatat(int dirfd, const char *path, struct stat *st, int flags) {
  if ((flags & AT_EMPTY_PATH) && path && !path[0])
    return cairn_sys_fstat(dirfd, st);
  if (!path)
    return -EFAULT;
  if (is_directory(path)) {
    directory_stat(st);
    return 0;
  }
  struct cairn_file *f = cairn_lookup(path);
  if (!f)
    return -ENOENT;
  return cairn_fill_stat(f, st);
}

long cairn_sys_faccessat(int dirfd, const char *path, int mode) {
  if (!path)
    return -EFAULT;
  if (is_directory(path))
    return 0;
  struct cairn_file *f = cairn_lookup(path);
  if (!f)
    return -ENOENT;
  /* no file of the model is executable; a mapped one is not writable either */
  if ((mode & X_OK) || (f->read_only && (mode & W_OK)))
    return -EACCES;
  return 0;
}

long cairn_sys_dup3(int oldfd, int newfd, int flags, int exact) {
  struct cairn_fd *d = descriptor(oldfd);
  if (!d)
    return -EBADF;
  if (!exact) {
    newfd = free_descriptor(newfd);
    if (newfd < 0)
      return -EMFILE;
  } else if (newfd < 0 || newfd >= CAIRN_MAX_FDS) {
    return -EBADF;
  }
  if (newfd == oldfd)
    return newfd;
  __cairn_posix.fds[newfd] = *d;
  __cairn_posix.fds[newfd].cloexec = (flags & O_CLOEXEC) != 0;
  return newfd;
}

long cairn_sys_fcntl(int fd, int cmd, long arg) {
  struct cairn_fd *d = descriptor(fd);
  if (!d)
    return -EBADF;
  switch (cmd) {
  case F_DUPFD: return cairn_sys_dup3(fd, (int)arg, 0, 0);
  case F_DUPFD_CLOEXEC: return cairn_sys_dup3(fd, (int)arg, O_CLOEXEC, 0);
  case F_GETFD: return d->cloexec ? FD_CLOEXEC : 0;
  case F_SETFD: d->cloexec = (arg & FD_CLOEXEC) != 0; return 0;
  case F_GETFL: return d->flags;
  case F_SETFL: d->flags = (d->flags & O_ACCMODE) | (int)(arg & (O_APPEND | O_NONBLOCK)); return 0;
  case F_GETLK: case F_SETLK: case F_SETLKW: return 0;
  default: return -EINVAL;
  }
}

/* No descriptor is a terminal: the streams behave as when a test harness redirects them. */
long cairn_sys_ioctl(int fd, unsigned long request, void *arg) {
  struct cairn_fd *d = descriptor(fd);
  if (!d)
    return -EBADF;
  if (request == FIONREAD && d->file->kind == CAIRN_REGULAR) {
    off_t left = (off_t)d->file->size - d->offset;
    *(int *)arg = left > 0 ? (int)left : 0;
    return 0;
  }
  return -ENOTTY;
}

long cairn_sys_ftruncate(int fd, off_t length) {
  struct cairn_fd *d = descriptor(fd);
  if (!d)
    return -EBADF;
  if (!writable(d) || d->file->kind != CAIRN_REGULAR)
    return -EINVAL;
  if (cairn_injected_failure(CAIRN_FAIL_FTRUNCATE))
    return -EIO;
  size_t size = concrete_size((size_t)length);
  if ((off_t)size < 0)
    return -EINVAL;
  if (grow(d->file, size))
    return -ENOSPC;
  if (size > d->file->size)
    memset(d->file->data + d->file->size, 0, size - d->file->size);
  d->file->size = size;
  return 0;
}

long cairn_sys_unlinkat(int dirfd, const char *path, int flags) {
  if (!path)
    return -EFAULT;
  if (is_directory(path))
    return (flags & AT_REMOVEDIR) ? -EBUSY : -EISDIR;
  struct cairn_file *f = cairn_lookup(path);
  if (!f)
    return -ENOENT;
  if (flags & AT_REMOVEDIR)
    return -ENOTDIR;
  f->links = 0;
  return 0;
}

long cairn_sys_renameat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath) {
  if (!oldpath || !newpath)
    return -EFAULT;
  struct cairn_file *f = cairn_lookup(oldpath);
  if (!f)
    return -ENOENT;
  const char *name = cairn_name_in_directory(newpath);
  if (!name)
    return -ENOENT;
  struct cairn_file *old = cairn_lookup(newpath);
  if (old == f)
    return 0;
  if (old)
    old->links = 0;
  size_t i = 0;
  for (; name[i] && i + 1 < sizeof f->name; ++i)
    f->name[i] = name[i];
  f->name[i] = 0;
  return 0;
}

long cairn_sys_getcwd(char *buf, size_t size) {
  if (cairn_injected_failure(CAIRN_FAIL_GETCWD))
    return -ENOENT; /* the working directory was removed */
  if (size < sizeof CAIRN_CWD)
    return -ERANGE;
  memcpy(buf, CAIRN_CWD, sizeof CAIRN_CWD);
  return sizeof CAIRN_CWD;
}

/* The working directory's entries as linux_dirent64 records: ".", "..", then its files; the
 * descriptor's offset counts the entries given so far. */
long cairn_sys_getdents64(int fd, void *buf, size_t size) {
  struct cairn_fd *d = descriptor(fd);
  if (!d)
    return -EBADF;
  if (d->file->kind != CAIRN_DIRECTORY)
    return -ENOTDIR;
  size_t used = 0;
  long index = 0;
  for (unsigned i = 0; i < CAIRN_MAX_FILES + 2; ++i) {
    const char *name;
    uint64_t ino;
    unsigned char type = 4; /* DT_DIR */
    if (i == 0) {
      name = ".", ino = 1;
    } else if (i == 1) {
      name = "..", ino = 1;
    } else {
      struct cairn_file *f = &__cairn_posix.files[i - 2];
      if (!f->in_use || !f->links || f->kind != CAIRN_REGULAR)
        continue;
      name = f->name, ino = (uint64_t)(i - 2) + 2, type = 8; /* DT_REG */
    }
    if (index++ < d->offset)
      continue;
    size_t length = strlen(name);
    size_t record = (19 + length + 1 + 7) & ~(size_t)7;
    if (used + record > size)
      return used ? (long)used : -EINVAL;
    unsigned char *r = (unsigned char *)buf + used;
    memset(r, 0, record);
    memcpy(r, &ino, 8);
    int64_t next = index;
    memcpy(r + 8, &next, 8);
    uint16_t reclen = (uint16_t)record;
    memcpy(r + 16, &reclen, 2);
    r[18] = type;
    memcpy(r + 19, name, length + 1);
    used += record;
    d->offset = index;
  }
  return (long)used;
}
