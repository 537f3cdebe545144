// CAIRN-ARGS: --search dfs --check-leaks
// EXPECT: paths_completed=2 paths_partial=0 tests=2
// EXPECT-ERROR: leak unreachable-memory 45
//
// --check-leaks: a list reachable from a global only through its head. Dropping the head loses
// every node (the later ones were reachable only through the earlier ones); freeing the nodes
// one by one leaves nothing. Paths: c == 0 or not: 2, the leak at main's return on the first
// (main's one `ret`, where both returns go: at its closing brace).
#include "cairn.h"
#include <stdlib.h>

struct node {
  struct node *next;
  int value;
};

static struct node *head;

static void push(int value) {
  struct node *n = malloc(sizeof *n);
  n->next = head;
  n->value = value;
  head = n;
}

static void release(void) {
  while (head) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
}

int main(void) {
  int c;
  klee_make_symbolic(&c, sizeof c, "c");
  for (int i = 0; i < 3; i++)
    push(i);
  if (c == 0) {
    head = 0;
    return 0;
  }
  release();
  return 0;
}
