// CAIRN-ARGS: --search dfs
// EXPECT: paths_completed=2 paths_partial=0 tests=2
//
// The byte-order helpers (functions at -O0, where glibc's header does not turn them into byte
// swaps), on a symbolic value too; and sleeping, over at once: nanosleep, sleep and usleep
// return 0, nanosleep leaves its remainder alone and refuses an interval the kernel refuses.
#include "cairn.h"
#include <arpa/inet.h>
#include <errno.h>
#include <time.h>
#include <unistd.h>

int main(void) {
  klee_assert(htonl(0x11223344u) == 0x44332211u);
  klee_assert(ntohl(0x44332211u) == 0x11223344u);
  klee_assert(htons(0x1122) == 0x2211);
  klee_assert(ntohs(0x2211) == 0x1122);
  uint32_t x;
  klee_make_symbolic(&x, sizeof x, "x");
  klee_assert(ntohl(htonl(x)) == x);
  uint16_t port = htons((uint16_t)x);
  if ((port & 0xff) == 0x50) // the high byte of x's low half: "port" 0x50xx
    klee_assert(((x >> 8) & 0xff) == 0x50);

  struct timespec request = {0, 1000}, remaining = {7, 7};
  klee_assert(nanosleep(&request, &remaining) == 0);
  klee_assert(remaining.tv_sec == 7 && remaining.tv_nsec == 7);
  klee_assert(sleep(0) == 0);
  klee_assert(usleep(1) == 0);
  struct timespec invalid = {0, 1000000000};
  errno = 0;
  klee_assert(nanosleep(&invalid, 0) == -1);
  klee_assert(errno == EINVAL);
  return 0;
}
// Paths: the low byte of htons(x) is 0x50 or not (the other checks hold on every path, the
// `&&` of a klee_assert on concrete values forks nothing): 2 paths.
