/* Sleeping: time is not modelled, so every sleep is over at once, with nothing left of it
 * (nanosleep leaves `rem` alone, as it does when no signal interrupts it). An interval the
 * kernel refuses is refused: nanosleep fails with EINVAL. */
#include <stddef.h>

#include "runtime.h"

int *__errno_location(void);

#define CAIRN_EINVAL 22

struct timespec;
struct cairn_timespec {
  long tv_sec;
  long tv_nsec;
};

CAIRN_RT int nanosleep(const struct timespec *request, struct timespec *remaining) {
  const struct cairn_timespec *t = (const struct cairn_timespec *)request;
  if (t->tv_sec < 0 || t->tv_nsec < 0 || t->tv_nsec > 999999999) {
    *__errno_location() = CAIRN_EINVAL;
    return -1;
  }
  return 0;
}

CAIRN_RT unsigned int sleep(unsigned int seconds) { return 0; }

CAIRN_RT int usleep(unsigned int microseconds) { return 0; }
