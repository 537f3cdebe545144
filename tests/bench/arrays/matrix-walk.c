// A walk over a constant 8x8 int cost matrix (`int cost[8][8]`) steered by STEPS symbolic
// moves: each move adds 0-3 to the row and to the column (wrapping around), so from the first
// step on the cell read is `cost[r][c]` with a symbolic row and a symbolic column, and each
// position depends on every earlier move. The paths fork on traps (negative cells) and end when
// the running total passes a budget.
//   -DSTEPS=n   the number of moves (default 6)
#include "cairn.h"

#ifndef STEPS
#define STEPS 6
#endif
#define DIM 8
#define BUDGET 60

static int cost[DIM][DIM];

int main(void) {
  // Costs 1..19 with a few traps (-5) scattered by a fixed rule.
  for (int r = 0; r < DIM; ++r)
    for (int c = 0; c < DIM; ++c)
      cost[r][c] = (r * 7 + c * 13 + r * c) % 23 == 4 ? -5 : 1 + (r * 5 + c * 11 + r * c * 3) % 19;
  unsigned char moves[STEPS];
  klee_make_symbolic(moves, sizeof moves, "moves");
  unsigned r = 0, c = 0;
  int total = 0, traps = 0;
  for (int k = 0; k < STEPS; ++k) {
    r = (r + (moves[k] & 3u)) % DIM;
    c = (c + ((moves[k] >> 2) & 3u)) % DIM;
    int v = cost[r][c];
    if (v < 0)
      traps++;
    total += v;
    if (total > BUDGET)
      return -traps;
  }
  return total + 100 * traps;
}
