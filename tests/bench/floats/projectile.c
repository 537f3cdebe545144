// A projectile under gravity and drag, integrated with explicit Euler steps from a symbolic
// launch velocity (two floats): where it comes down decides whether it hits the target. Each
// step's "below ground yet?" is a branch on a float computed from the symbolic inputs.
#include "cairn.h"

#ifndef STEPS
#define STEPS 2
#endif

int main(void) {
  float vx, vy;
  klee_make_symbolic(&vx, sizeof vx, "vx");
  klee_make_symbolic(&vy, sizeof vy, "vy");
  klee_assume(vx > 0.0f & vx < 50.0f & vy > 0.0f & vy < 20.0f);
  const float dt = 0.1f, g = 9.81f, drag = 0.99f;
  float x = 0.0f, y = 0.0f;
  for (int step = 0; step < STEPS; ++step) {
    x += vx * dt;
    y += vy * dt;
    vy -= g * dt;
    vx *= drag;
    vy *= drag;
    if (y < 0.0f)
      break;
  }
  if (y < 0.0f && x > 10.0f && x < 12.0f)
    return 1; // a hit
  return 0;
}
