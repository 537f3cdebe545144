/* Stopping where the analysis ended the test's path.
 *
 * Some errors are the engine's limits rather than the program's (a `model` error: a symbolic
 * floating-point value); natively the run just goes on. What a replay can check is that the run
 * gets to the place where the analysis stopped, without ending otherwise first. `cairn replay`
 * passes that place's machine code addresses, read from the binary's line table:
 *
 *   CAIRN_REPLAY_STOP_ADDRESSES  hex link-time addresses, separated by commas
 *   CAIRN_REPLAY_STOP_AT         the place's name for the message ("file.c:13")
 *
 * Each address gets a breakpoint instruction (int3); reaching one prints
 * "cairn-replay: stopped at file.c:13" and exits with status 6. No instrumentation: the code
 * runs as compiled until then. */
#define _GNU_SOURCE
#include <link.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "replay.h"

void cairn_replay_arm_stops(void);

static uintptr_t *stops;
static size_t num_stops;
static const char *stop_name;

static int first_object(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  *(uintptr_t *)data = (uintptr_t)info->dlpi_addr;
  return 1; /* the first object is the executable */
}

static void on_trap(int sig, siginfo_t *info, void *context) {
  (void)info;
#if defined(__x86_64__)
  uintptr_t at = (uintptr_t)((ucontext_t *)context)->uc_mcontext.gregs[REG_RIP] - 1;
  for (size_t i = 0; i < num_stops; ++i)
    if (stops[i] == at) {
      fflush(stdout);
      fprintf(stderr, "cairn-replay: stopped at %s\n", stop_name);
      fflush(stderr);
      _Exit(CAIRN_EXIT_STOPPED);
    }
#else
  (void)context;
#endif
  /* The program's own trap: what it would have done without us. */
  signal(sig, SIG_DFL);
  raise(sig);
}

static void fail(const char *why) {
  fprintf(stderr, "cairn-replay: cannot stop at %s: %s\n",
          stop_name ? stop_name : "(unnamed place)", why);
  cairn_replay_skip_exit_checks();
  exit(CAIRN_EXIT_BAD_TEST);
}

void cairn_replay_arm_stops(void) {
  const char *list = getenv("CAIRN_REPLAY_STOP_ADDRESSES");
  if (!list || !*list)
    return;
#if !defined(__x86_64__)
  fail("breakpoints are implemented for x86-64 only");
#endif
  stop_name = getenv("CAIRN_REPLAY_STOP_AT");
  uintptr_t bias = 0;
  dl_iterate_phdr(first_object, &bias);
  size_t capacity = 1;
  for (const char *p = list; *p; ++p)
    capacity += *p == ',';
  stops = calloc(capacity, sizeof *stops);
  if (!stops)
    fail("out of memory");
  cairn_replay_heap_forget(stops);
  long page = sysconf(_SC_PAGESIZE);
  for (const char *p = list; *p;) {
    char *end;
    uintptr_t address = (uintptr_t)strtoull(p, &end, 16);
    if (end == p || (*end && *end != ','))
      fail("malformed CAIRN_REPLAY_STOP_ADDRESSES");
    p = *end ? end + 1 : end;
    uintptr_t at = bias + address;
    uintptr_t first = at & ~(uintptr_t)(page - 1);
    if (mprotect((void *)first, (size_t)page, PROT_READ | PROT_WRITE | PROT_EXEC))
      fail("the code cannot be made writable");
    *(volatile unsigned char *)at = 0xcc;
    mprotect((void *)first, (size_t)page, PROT_READ | PROT_EXEC);
    stops[num_stops++] = at;
  }
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_trap;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGTRAP, &sa, 0);
}
