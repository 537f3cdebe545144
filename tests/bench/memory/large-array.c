// A large heap table read and written at symbolic offsets: every query over it carries the
// whole table as one array unless the table is split into chunks.
#include "cairn.h"

#include <stdlib.h>

#define N 512

int main(void) {
  int *table = malloc(N * sizeof(int));
  for (int i = 0; i < N; i++)
    table[i] = (i * 7919) % 1000;
  unsigned w, r[4];
  klee_make_symbolic(&w, sizeof w, "w");
  klee_make_symbolic(r, sizeof r, "r");
  // Each index ranges over a few entries somewhere in the table.
  klee_assume(w >= 120);
  klee_assume(w < 130);
  table[w] = 5000;
  int hits = 0;
  for (int k = 0; k < 4; k++) {
    klee_assume(r[k] >= 120u * k + 4);
    klee_assume(r[k] < 120u * k + 12);
    if (table[r[k]] == 5000)
      hits++;
    else if (table[r[k]] > 500)
      hits += 2;
  }
  return hits;
}
