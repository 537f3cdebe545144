/* What the replay library sets up before the program starts. `cairn replay` links with
 * --undefined=cairn_replay_start, which brings this in (and with it faults.c and stop.c) even
 * when the program calls nothing of the library. */
void cairn_replay_watch_faults(void);
void cairn_replay_arm_stops(void);
void cairn_replay_watch_exit(void);

/* Priority 101, the first one programs may use: before the program's own constructors, which
 * may already fault or reach the stopping place; after AddressSanitizer's (which it reserves
 * lower priorities for), whose signal handlers faults.c hands faults on to. */
__attribute__((constructor(101))) void cairn_replay_start(void) {
  cairn_replay_watch_faults();
  cairn_replay_arm_stops();
  cairn_replay_watch_exit();
}
