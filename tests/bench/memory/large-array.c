// A large heap table read and written at symbolic offsets: every query over it carries the
// whole table as one array unless the table is split into chunks.
#include "cairn.h"

#include <stdlib.h>

#define N 2048

int main(void) {
  int *table = malloc(N * sizeof(int));
  for (int i = 0; i < N; i++)
    table[i] = (i * 7919) % 1000;
  unsigned w, r[4];
  klee_make_symbolic(&w, sizeof w, "w");
  klee_make_symbolic(r, sizeof r, "r");
  // Each index ranges over a few dozen entries somewhere in the table.
  klee_assume(w >= 500);
  klee_assume(w < 520);
  table[w] = 5000;
  int hits = 0;
  for (int k = 0; k < 4; k++) {
    klee_assume(r[k] >= 500u * k + 8);
    klee_assume(r[k] < 500u * k + 24);
    if (table[r[k]] == 5000)
      hits++;
    else if (table[r[k]] > 500)
      hits += 2;
  }
  return hits;
}
