// A state machine driven by a transition table `int next[S][C]` read at a symbolic state and a
// symbolic input class: the machine recognises decimal numbers such as "-12.5e+3". The input is
// LEN symbolic 4-byte words, each assumed below C (an interval, not a mask), so from the second
// step on both indices of the table are symbolic and the state is a nest of table reads. The
// path forks on whether each state is accepting (an int table read at the state) and ends at
// the dead state.
//   -DLEN=n   the number of input symbols (default 9)
#include "cairn.h"

#ifndef LEN
#define LEN 9
#endif

enum { START, SIGN, INT, DOT, FRAC, EXP, EXPSIGN, EXPINT, DEAD, S };
enum { DIGIT, PLUS_MINUS, POINT, E, OTHER, C };

static const int next[S][C] = {
    /* START   */ {INT, SIGN, DOT, DEAD, DEAD},
    /* SIGN    */ {INT, DEAD, DOT, DEAD, DEAD},
    /* INT     */ {INT, DEAD, FRAC, EXP, DEAD},
    /* DOT     */ {FRAC, DEAD, DEAD, DEAD, DEAD},
    /* FRAC    */ {FRAC, DEAD, DEAD, EXP, DEAD},
    /* EXP     */ {EXPINT, EXPSIGN, DEAD, DEAD, DEAD},
    /* EXPSIGN */ {EXPINT, DEAD, DEAD, DEAD, DEAD},
    /* EXPINT  */ {EXPINT, DEAD, DEAD, DEAD, DEAD},
    /* DEAD    */ {DEAD, DEAD, DEAD, DEAD, DEAD},
};
static const int accepting[S] = {0, 0, 1, 0, 1, 0, 0, 1, 0};

int main(void) {
  unsigned in[LEN];
  klee_make_symbolic(in, sizeof in, "in");
  for (int i = 0; i < LEN; ++i)
    klee_assume(in[i] < C);
  int state = START, accepted = 0;
  for (int i = 0; i < LEN; ++i) {
    state = next[state][in[i]];
    if (state == DEAD)
      return -1;
    if (accepting[state])
      accepted |= 1 << i;
  }
  return accepted;
}
