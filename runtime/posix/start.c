/* The program's start under the full libc: the command line with its symbolic arguments (as
 * KLEE's POSIX runtime builds it: `n_args` for each --sym-args group, then `argNN`, each LEN
 * symbolic bytes and a NUL), musl's own start-up state, the model's files, then main. */
#include <stdint.h>

#include "cairn.h"
#include "posix.h"

void *malloc(size_t size);
void exit(int status);
void __cairn_libc_init(char **argv, char **envp);
/* The loader's wrapper around the program's entry function (main with 0, 2 or 3 parameters). */
int __cairn_user_main(int argc, char **argv, char **envp);

static char *symbolic_argument(unsigned index, uint32_t length) {
  char name[8] = {'a', 'r', 'g', (char)('0' + index / 10 % 10), (char)('0' + index % 10), 0};
  char *s = malloc(length + 1);
  klee_make_symbolic(s, length + 1, name);
  klee_assume(s[length] == 0); /* the test records the terminator the program sees */
  return s;
}

static char **command_line(int *argc, char **argv, const struct cairn_environment_options *o) {
  unsigned most = (unsigned)*argc;
  for (uint32_t g = 0; g < o->groups; ++g)
    most += o->group[g].max;
  char **args = malloc((most + 1) * sizeof *args);
  int n = 0;
  for (; n < *argc; ++n)
    args[n] = argv[n];
  unsigned index = 0;
  for (uint32_t g = 0; g < o->groups && g < CAIRN_MAX_SYM_ARG_GROUPS; ++g) {
    const struct cairn_sym_arg_group *group = &o->group[g];
    unsigned count = group->counted ? (unsigned)klee_range((int)group->min, (int)group->max + 1, "n_args")
                                    : group->max;
    for (unsigned i = 0; i < group->max && i < count; ++i)
      args[n++] = symbolic_argument(index++, group->length);
  }
  args[n] = 0;
  *argc = n;
  return args;
}

void __cairn_start(int argc, char **argv, char **envp) {
  struct cairn_environment_options o;
  cairn_environment_options(&o);
  char **args = command_line(&argc, argv, &o);
  __cairn_libc_init(args, envp);
  cairn_posix_init(&o);
  exit(__cairn_user_main(argc, args, envp));
}
