/* Shared by the sources of libcairn-replay.a (not installed for users).
 *
 * How a replayed run tells `cairn replay` (worker/lib/Replay.cpp) what happened, besides the
 * program's own exit status and the sanitizers' reports:
 *   exit 3  the test cannot be used (see replay.c);
 *   exit 4  the run left the test's path: an input constraint the analysis added does not hold;
 *   exit 5  an error the analysis reports and the native run detects only here, announced by the
 *           line "cairn-replay: error TYPE KIND: message" (types and kinds as the engine names
 *           them);
 *   exit 6  the run reached the location where the analysis ended the test's path (stop.c),
 *           announced by "cairn-replay: stopped at FILE:LINE".
 * A memory fault prints "cairn-replay: fault ..." (faults.c) before AddressSanitizer's report.
 * Every message goes to stderr after stdout is flushed, so it follows the program's output. */
#ifndef CAIRN_REPLAY_INTERNAL_H
#define CAIRN_REPLAY_INTERNAL_H

#include <stdint.h>

enum {
  CAIRN_EXIT_BAD_TEST = 3,
  CAIRN_EXIT_DIVERGED = 4,
  CAIRN_EXIT_ERROR = 5,
  CAIRN_EXIT_STOPPED = 6,
};

__attribute__((noreturn, format(printf, 3, 4))) void
cairn_replay_error(const char *type, const char *kind, const char *fmt, ...);

__attribute__((noreturn)) void cairn_replay_diverged(const char *what);

/* The permissions ("r--p") of the mapping in /proc/self/maps that holds `address`, or "none";
 * async-signal-safe (faults.c). */
void cairn_replay_mapping_of(uintptr_t address, char perms[5]);

/* The program's heap blocks (exitchecks.c): heap.c's wrappers track the blocks they hand out and
 * forget those freed; the library forgets its own. */
void cairn_replay_heap_track(void *block);
void cairn_replay_heap_forget(void *block);
/* The checks of the heap at the program's end, armed at start-up when the replay asks for them;
 * run at exit (or _exit) unless the library ends the run itself and skips them first. */
void cairn_replay_watch_exit(void);
void cairn_replay_check_exit(void);
void cairn_replay_skip_exit_checks(void);

/* Called by the stubs `cairn replay` generates for functions the program calls but nothing
 * defines: the engine ends such a path with an external-call error. */
__attribute__((noreturn)) void cairn_replay_external_call(const char *name);

#endif
