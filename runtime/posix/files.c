/* The model's file system: the symbolic files A, B, ... (`--sym-files`), stdin (`--sym-stdin`),
 * the host files mapped in (`--file NAME=PATH`), the terminal of stdout and stderr, and the
 * regular files a path creates. Inputs are named and
 * laid out as KLEE's POSIX runtime lays them out (`A-data`, `A-data-stat`, `stdin`,
 * `stdin-stat`, `model_version`), so tests read the same in either tool. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include "cairn.h"
#include "posix.h"

void *malloc(size_t size);

struct cairn_posix __cairn_posix;

static void copy_name(char *dst, const char *src) {
  size_t i = 0;
  for (; src[i] && i + 1 < sizeof(((struct cairn_file *)0)->name); ++i)
    dst[i] = src[i];
  dst[i] = 0;
}

struct cairn_file *cairn_new_file(const char *name, enum cairn_file_kind kind) {
  for (unsigned i = 0; i < CAIRN_MAX_FILES; ++i) {
    struct cairn_file *f = &__cairn_posix.files[i];
    if (f->in_use)
      continue;
    memset(f, 0, sizeof *f);
    f->in_use = 1;
    f->kind = kind;
    f->links = 1;
    copy_name(f->name, name);
    return f;
  }
  return 0;
}

/* What stat says of a file the model made: a regular file (a character device for the
 * streams) of the process's own user, dated at the model's fixed time. */
void cairn_default_stat(struct cairn_file *f, struct stat *st) {
  memset(st, 0, sizeof *st);
  st->st_dev = 0x801;
  st->st_ino = (ino_t)(f - __cairn_posix.files) + 2;
  st->st_mode = f->kind != CAIRN_REGULAR ? S_IFCHR | 0666 : f->read_only ? S_IFREG | 0444 : S_IFREG | 0644;
  st->st_nlink = f->links;
  st->st_uid = CAIRN_UID;
  st->st_gid = CAIRN_GID;
  st->st_rdev = f->kind == CAIRN_REGULAR ? 0 : 0x103;
  st->st_size = (off_t)f->size;
  st->st_blksize = 4096;
  st->st_blocks = (blkcnt_t)((f->size + 511) / 512);
  st->st_atim.tv_sec = st->st_mtim.tv_sec = st->st_ctim.tv_sec = CAIRN_EPOCH;
}

int cairn_fill_stat(struct cairn_file *f, struct stat *st) {
  if (f->stat)
    memcpy(st, f->stat, sizeof *st);
  else
    cairn_default_stat(f, st);
  st->st_size = (off_t)f->size;
  st->st_nlink = f->links;
  return 0;
}

/* An input of `size` bytes named `name`, with its stat as the input `name-stat`. The stat is
 * recorded as KLEE records it but held to the model's defaults, so that a test replays natively
 * with the same metadata. */
static struct cairn_file *symbolic_file(const char *path, const char *name, size_t size) {
  struct cairn_file *f = cairn_new_file(path, CAIRN_REGULAR);
  char stat_name[80];
  size_t n = strlen(name);
  memcpy(stat_name, name, n);
  memcpy(stat_name + n, "-stat", 6);
  f->size = f->capacity = size;
  f->data = malloc(size ? size : 1);
  if (size)
    klee_make_symbolic(f->data, size, name);
  struct stat defaults;
  cairn_default_stat(f, &defaults);
  f->stat = malloc(sizeof *f->stat);
  klee_make_symbolic(f->stat, sizeof *f->stat, stat_name);
  const uint64_t *want = (const uint64_t *)&defaults;
  const uint64_t *got = (const uint64_t *)f->stat;
  for (size_t i = 0; i < sizeof defaults / 8; ++i)
    klee_assume(got[i] == want[i]);
  return f;
}

void cairn_posix_init(const struct cairn_environment_options *o) {
  __cairn_posix.umask = 022;
  unsigned files = o->sym_files > 26 ? 26 : o->sym_files;
  for (unsigned i = 0; i < files; ++i) {
    char path[2] = {(char)('A' + i), 0};
    char name[7] = {(char)('A' + i), '-', 'd', 'a', 't', 'a', 0};
    __cairn_posix.sym_files[i] = symbolic_file(path, name, o->sym_file_size);
  }
  __cairn_posix.n_sym_files = files;
  for (unsigned i = 0; i < o->mapped_files; ++i) {
    char name[64];
    unsigned long size = cairn_mapped_file(i, name, 0);
    struct cairn_file *f = cairn_new_file(name, CAIRN_REGULAR);
    if (!f) /* the engine allows no more than the table holds */
      break;
    f->size = f->capacity = size;
    f->data = malloc(size ? size : 1);
    cairn_mapped_file(i, 0, f->data);
    f->read_only = 1;
  }

  struct cairn_file *in = o->sym_stdin ? symbolic_file("", "stdin", o->sym_stdin_size)
                                       : cairn_new_file("", CAIRN_NULL_DEV);
  in->links = 0; /* no name in the file system */
  struct cairn_file *term = cairn_new_file("", CAIRN_OUTPUT);
  term->links = 0;
  __cairn_posix.fds[0] = (struct cairn_fd){in, 0, O_RDONLY, 0};
  __cairn_posix.fds[1] = (struct cairn_fd){term, 0, O_WRONLY, 0};
  __cairn_posix.fds[2] = (struct cairn_fd){term, 0, O_WRONLY, 0};

  __cairn_posix.failures_left = o->max_fail;
  if (o->max_fail) {
    static const char *const names[CAIRN_FAILABLE] = {"read_fail", "write_fail", "close_fail",
                                                      "ftruncate_fail", "getcwd_fail"};
    for (unsigned k = 0; k < CAIRN_FAILABLE; ++k) {
      __cairn_posix.fail_at[k] = malloc(sizeof(uint32_t));
      klee_make_symbolic(__cairn_posix.fail_at[k], sizeof(uint32_t), names[k]);
    }
  }

  uint32_t version;
  klee_make_symbolic(&version, sizeof version, "model_version");
  klee_assume(version == 1);
}

int cairn_injected_failure(enum cairn_failable k) {
  struct cairn_posix *p = &__cairn_posix;
  if (!p->failures_left || !p->fail_at[k])
    return 0;
  if (*p->fail_at[k] != ++p->calls[k])
    return 0;
  --p->failures_left;
  return 1;
}

static int same_name(const char *a, const char *b) {
  size_t i = 0;
  for (; a[i] && b[i]; ++i)
    if (a[i] != b[i])
      return 0;
  return a[i] == b[i];
}

/* The name a path gives a file of the working directory (without a leading "./" or the
 * directory's own path), or NULL for a path elsewhere. */
const char *cairn_name_in_directory(const char *path) {
  if (path[0] == '/') {
    if (strncmp(path, CAIRN_CWD "/", sizeof CAIRN_CWD) != 0)
      return 0;
    path += sizeof CAIRN_CWD;
  }
  /* "./", "/" repeated: ".//A" and "././A" are A */
  for (;;) {
    if (path[0] == '.' && path[1] == '/')
      path += 2;
    else if (path[0] == '/')
      path += 1;
    else
      break;
  }
  return path[0] && !strchr(path, '/') ? path : 0;
}

/* A path names a file by its name, with or without a leading "./" or the working directory. */
struct cairn_file *cairn_lookup(const char *path) {
  path = cairn_name_in_directory(path);
  if (!path)
    return 0;
  for (unsigned i = 0; i < CAIRN_MAX_FILES; ++i) {
    struct cairn_file *f = &__cairn_posix.files[i];
    if (f->in_use && f->links && same_name(f->name, path))
      return f;
  }
  return 0;
}
