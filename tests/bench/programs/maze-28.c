// KLEE's classic maze: find the moves (w/a/s/d) that reach the '#'. Cairn reports the
// assertion failure at the exit with the winning moves as its test.
//   build/client/cairn run --search bfs examples/maze.c
#include "cairn.h"

#define H 7
#define W 11
#define MOVES 28

static char maze[H][W + 1] = {"+-+---+---+", "| |     |#|", "| | --+ | |", "| |   | | |",
                              "| +-- | | |", "|     |   |", "+-----+---+"};

int main(void) {
  int x = 1, y = 1;
  char program[MOVES];
  klee_make_symbolic(program, sizeof program, "program");
  maze[y][x] = 'X';
  for (int i = 0; i < MOVES; i++) {
    int ox = x, oy = y;
    switch (program[i]) {
    case 'w': y--; break;
    case 's': y++; break;
    case 'a': x--; break;
    case 'd': x++; break;
    default: return 1; // an invalid move ends the game
    }
    if (maze[y][x] == '#')
      klee_assert(0); // the way out
    if (maze[y][x] != ' ' && !((y == 2 && maze[y][x] == '|' && x > 0 && x < W))) {
      x = ox;
      y = oy;
      return 1; // a wall: the game is lost
    }
    if (ox == x && oy == y)
      return 1;
    maze[y][x] = 'X';
  }
  return 0;
}
