// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
//
//
// Atomic operations in a single-threaded program (C11/GNU builtins and _Atomic): atomicrmw
// (add, or, xchg), cmpxchg with a symbolic new value, a fence, and atomic loads and stores.
// They behave like plain memory operations here. One branch: 2 paths, no error.
#include "cairn.h"

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  int v = 5;
  int old = __atomic_fetch_add(&v, 3, __ATOMIC_SEQ_CST);
  klee_assert(old == 5);
  klee_assert(v == 8);
  __sync_fetch_and_or(&v, 16);
  klee_assert(v == 24);
  int expected = 24;
  _Bool ok = __atomic_compare_exchange_n(&v, &expected, x, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  klee_assert(ok);
  klee_assert(v == x);
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  int prev = __atomic_exchange_n(&v, 1, __ATOMIC_SEQ_CST);
  klee_assert(prev == x);
  __atomic_store_n(&v, 7, __ATOMIC_RELEASE);
  klee_assert(__atomic_load_n(&v, __ATOMIC_ACQUIRE) == 7);
  _Atomic int counter = 0;
  counter++;
  counter += x;
  if (counter > 10)
    return 1;
  return 0;
}
