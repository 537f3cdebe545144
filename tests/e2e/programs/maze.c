// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=129 paths_partial=0 tests=129
// EXPECT-ERROR: assert assertion-failure 43
//
// KLEE's classic maze (11x7 board, moves w/a/s/d read from a symbolic char array, with the
// "fake wall" bug: walls '|' on row 2 can be walked through). With 12 moves exactly one move
// sequence reaches the '#' ("sddwddddsddw", through two fake walls) and fails the assertion.
// Each step forks five ways (four moves and an invalid character); enumerating the board gives
// 128 paths that end normally (invalid move, wall, or all 12 moves used) plus the winning one.
// Written for KLEE: it includes klee/klee.h.
#include <klee/klee.h>

#define H 7
#define W 11
#define MOVES 12

static char maze[H][W + 1] = {
    "+-+---+---+",
    "| |     |#|",
    "| | --+ | |",
    "| |   | | |",
    "| +-- | | |",
    "|     |   |",
    "+-----+---+",
};

int main(void) {
  int x = 1, y = 1, ox, oy;
  char program[MOVES];
  klee_make_symbolic(program, sizeof program, "program");
  maze[y][x] = 'X';
  for (int i = 0; i < MOVES; i++) {
    ox = x;
    oy = y;
    switch (program[i]) {
    case 'w': y--; break;
    case 's': y++; break;
    case 'a': x--; break;
    case 'd': x++; break;
    default: return 1; /* an invalid move loses */
    }
    if (maze[y][x] == '#')
      klee_assert(0);
    if (maze[y][x] != ' ' && !(y == 2 && maze[y][x] == '|' && x > 0 && x < W)) {
      x = ox; /* a wall loses */
      y = oy;
      return 1;
    }
    if (ox == x && oy == y)
      return 1;
    maze[y][x] = 'X';
  }
  return 0;
}
// The same maze, paths and error under other searchers:
// CAIRN-VARIANT: bfs --search bfs
// CAIRN-VARIANT: random-path --search random-path
