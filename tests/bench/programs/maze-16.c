// A KLEE-style maze explored exhaustively: 16 symbolic moves (w/a/s/d) through a room of
// pillars with two missing, where a walk may not cross its own trail. Every move forks five
// ways (four directions and an invalid byte), so the frontier is wide: run it under bfs to
// measure exploration at thousands of live states. 28,293 paths; 160 programs reach the '#'
// on their 16th move (the assertion, reported once).
//   build/client/cairn run --search bfs tests/bench/programs/maze-16.c
#include "cairn.h"

#define H 9
#define W 13
#define MOVES 16

static char maze[H][W + 1] = {"+-----------+", "|           |", "| +   + + + |", "|           |",
                              "| + + +   + |", "|           |", "| + + + + + |", "|          #|",
                              "+-----------+"};

int main(void) {
  int x = 1, y = 1;
  char program[MOVES];
  klee_make_symbolic(program, sizeof program, "program");
  maze[y][x] = 'X';
  for (int i = 0; i < MOVES; i++) {
    switch (program[i]) {
    case 'w': y--; break;
    case 's': y++; break;
    case 'a': x--; break;
    case 'd': x++; break;
    default: return 1; // an invalid move ends the game
    }
    if (maze[y][x] == '#')
      klee_assert(0); // the way out
    if (maze[y][x] != ' ')
      return 1; // a wall, or the trail: the game is lost
    maze[y][x] = 'X';
  }
  return 0;
}
