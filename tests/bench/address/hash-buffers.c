// A hash table of heap nodes, each owning a heap buffer, looked up by a symbolic key after
// paths that allocate differently (each path its own layout). The lookup walks bucket chains
// through symbolic pointers; the value read goes through the node's buffer pointer.
#include "cairn.h"

#include <stdlib.h>

#define FORKS 4
#define BUCKETS 8
#define KEYS 12

typedef struct node_s {
  unsigned key;
  char *value;
  struct node_s *next;
} node_t;

static node_t *buckets[BUCKETS];

static void insert(unsigned key) {
  node_t *n = calloc(1, sizeof(node_t));
  n->key = key;
  n->value = calloc(4, 1);
  n->value[key % 4] = (char)key;
  n->next = buckets[key % BUCKETS];
  buckets[key % BUCKETS] = n;
}

int main(void) {
  unsigned char pre[FORKS];
  klee_make_symbolic(pre, sizeof pre, "pre");
  for (unsigned k = 0; k < FORKS; k++)
    if (pre[k] & 1) {
      char *scratch = malloc(24 * (k + 1));
      scratch[0] = (char)k;
    }
  for (unsigned k = 0; k < KEYS; k++)
    insert(k * 3);
  unsigned key;
  klee_make_symbolic(&key, sizeof key, "key");
  klee_assume(key < 64);
  node_t *n = buckets[key % BUCKETS];
  while (n && n->key != key)
    n = n->next;
  if (!n)
    return 0;
  return n->value[key % 4] == 9 ? 2 : 1;
}
