// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=8 paths_partial=0 tests=8
//
// A heap-allocated linked list of three symbolic values: pointers stored in heap objects,
// traversal, and freeing. Counting the positive values branches once per node: 8 paths.
#include "cairn.h"
#include <stdlib.h>

struct node {
  int v;
  struct node *next;
};

static struct node *push(struct node *head, int v) {
  struct node *n = malloc(sizeof *n);
  n->v = v;
  n->next = head;
  return n;
}

int main(void) {
  int vals[3];
  klee_make_symbolic(vals, sizeof vals, "vals");
  struct node *head = 0;
  for (int i = 0; i < 3; i++)
    head = push(head, vals[i]);
  int len = 0, pos = 0;
  for (struct node *n = head; n; n = n->next) {
    len++;
    if (n->v > 0)
      pos++;
  }
  klee_assert(len == 3);
  klee_assert(head->v == vals[2]);
  klee_assert(head->next->next->v == vals[0]);
  while (head) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return pos;
}
