/* The replay library's own verdicts on a run (the protocol is in replay.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "replay.h"

void cairn_replay_error(const char *type, const char *kind, const char *fmt, ...) {
  va_list ap;
  fflush(stdout);
  fprintf(stderr, "cairn-replay: error %s %s: ", type, kind);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  fflush(stderr);
  /* _exit: the program's atexit handlers and destructors would run code the analysis never ran
   * on this path. */
  _Exit(CAIRN_EXIT_ERROR);
}

void cairn_replay_diverged(const char *what) {
  fflush(stdout);
  fprintf(stderr, "cairn-replay: %s: the run does not follow the test's path\n", what);
  fflush(stderr);
  cairn_replay_skip_exit_checks();
  exit(CAIRN_EXIT_DIVERGED);
}

void cairn_replay_external_call(const char *name) {
  cairn_replay_error("external", "external-call",
                     "call to function '%s', which is neither defined nor modelled", name);
}
