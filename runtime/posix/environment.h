/* What the engine tells the POSIX environment model at the program's start: the symbolic
 * inputs the user asked for (`cairn run --sym-arg/--sym-args/--sym-stdin/--sym-files`). Plain C
 * with fixed-width fields: the engine (C++) writes this layout into the model's memory. */
#ifndef CAIRN_POSIX_ENVIRONMENT_H
#define CAIRN_POSIX_ENVIRONMENT_H

#include <stdint.h>

#define CAIRN_MAX_SYM_ARG_GROUPS 16

/* `--sym-arg LEN` is a group {1, 1, LEN, 0}: one argument and no `n_args` input;
 * `--sym-args MIN MAX LEN` is {MIN, MAX, LEN, 1}: a symbolic count `n_args` in [MIN, MAX]. */
struct cairn_sym_arg_group {
  uint32_t min, max, length, counted;
};

struct cairn_environment_options {
  uint32_t groups;
  struct cairn_sym_arg_group group[CAIRN_MAX_SYM_ARG_GROUPS];
  uint32_t sym_files;     /* files A, B, ... */
  uint32_t sym_file_size; /* bytes in each */
  uint32_t sym_stdin;     /* 1: stdin is symbolic */
  uint32_t sym_stdin_size;
  uint32_t max_fail;      /* system calls that may fail on a path (--max-fail) */
  uint32_t mapped_files;  /* host files mapped in, read-only (--file NAME=PATH) */
};

/* The engine's: fills `out` with the run's options. */
void cairn_environment_options(struct cairn_environment_options *out);
/* The engine's: the mapped file `index`: writes its name (64 bytes, NUL-terminated) to `name`
 * and its contents to `data`, each when not NULL, and returns its size. */
unsigned long cairn_mapped_file(uint32_t index, char *name, void *data);
/* The engine's: appends what the program wrote to fd 1 or 2 to the path's output. */
void cairn_write_output(int fd, const void *buf, unsigned long count);

#endif
