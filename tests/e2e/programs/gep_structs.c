// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
//
// getelementptr over structs: nested structs, arrays of structs inside structs, an anonymous
// inner struct, struct copy (memcpy) from a global, member addresses and offsetof, and a store
// through a symbolic index into an array of structs. Paths: the write hit in[0] or in[1]: 2.
#include "cairn.h"
#include <stddef.h>

struct inner {
  short s;
  char tag[3];
  long long big;
};

struct outer {
  int id;
  struct inner in[2];
  struct {
    unsigned char x, y;
  } pt;
  int tail[3];
};

static struct outer g = {7, {{1, "ab", 100}, {2, "cd", 200}}, {3, 4}, {9, 8, 7}};

int main(void) {
  unsigned i;
  klee_make_symbolic(&i, sizeof i, "i");
  klee_assume(i < 2);

  struct outer o = g;
  klee_assert(o.in[i].big == (long long)(i + 1) * 100);
  klee_assert(o.in[i].s == (short)(i + 1));
  o.in[i].tag[1] = 'z';
  klee_assert(o.in[1].tag[1] == (i == 1 ? 'z' : 'd'));

  struct outer *po = &o;
  struct inner *pi = &po->in[1];
  klee_assert(pi->tag[0] == 'c');
  klee_assert(po->pt.y == 4);
  klee_assert((char *)&po->tail[2] - (char *)po == (long)(offsetof(struct outer, tail) + 8));
  klee_assert((char *)&po->in[1].big - (char *)&po->in[0].big == (long)sizeof(struct inner));
  klee_assert(g.in[0].tag[1] == 'b'); /* the copy did not alias the global */

  if (o.in[0].tag[1] == 'z')
    return 1;
  return 0;
}
