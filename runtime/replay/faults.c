/* Memory faults, described so that `cairn replay` can name them as the engine does.
 *
 * AddressSanitizer reports an access through a wild pointer as "SEGV on unknown address" without
 * saying why it faulted; the engine tells a write to read-only memory (a string literal, a const
 * global) and a call through a pointer to no function from other bad accesses. This handler
 * prints, before AddressSanitizer's report (it runs first and then hands the signal on):
 *
 *   cairn-replay: fault signal=11 code=2 address=0x... pc=0x... sp-mapping=rw-p access=write mapping=r--p
 *
 * code is si_code (SEGV_MAPERR 1, SEGV_ACCERR 2), access is read, write or unknown (the x86-64
 * page-fault error code), and mapping and sp-mapping the permissions of the mappings in
 * /proc/self/maps that hold the address and the stack pointer, or "none". Only
 * async-signal-safe calls: the fault may come from anywhere. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

#include "replay.h"

void cairn_replay_watch_faults(void);

static struct sigaction previous_segv, previous_bus;

static char line[256];
static size_t line_length;

static void put(const char *s) {
  size_t n = strlen(s);
  if (line_length + n < sizeof line) {
    memcpy(line + line_length, s, n);
    line_length += n;
  }
}

static void put_hex(uintptr_t v) {
  char digits[2 + 2 * sizeof v + 1], *p = digits + sizeof digits - 1;
  *p = 0;
  do {
    *--p = "0123456789abcdef"[v & 15];
    v >>= 4;
  } while (v);
  *--p = 'x';
  *--p = '0';
  put(p);
}

static void put_int(int v) {
  char digits[16], *p = digits + sizeof digits - 1;
  unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
  *p = 0;
  do {
    *--p = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  if (v < 0)
    *--p = '-';
  put(p);
}

static uintptr_t parse_hex(const char **s) {
  uintptr_t v = 0;
  for (;; ++*s) {
    char c = **s;
    if (c >= '0' && c <= '9')
      v = v * 16 + (uintptr_t)(c - '0');
    else if (c >= 'a' && c <= 'f')
      v = v * 16 + (uintptr_t)(c - 'a' + 10);
    else
      return v;
  }
}

/* The permissions ("r--p") of the mapping holding `address`; "none" when none does. */
void cairn_replay_mapping_of(uintptr_t address, char perms[5]) {
  static char buffer[4096];
  memcpy(perms, "none", 5);
  int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return;
  size_t have = 0;
  for (;;) {
    ssize_t n = read(fd, buffer + have, sizeof buffer - 1 - have);
    if (n <= 0)
      break;
    have += (size_t)n;
    char *start = buffer, *end;
    while ((end = memchr(start, '\n', (size_t)(buffer + have - start)))) {
      /* "begin-end perms offset device inode path" */
      const char *s = start;
      uintptr_t begin = parse_hex(&s);
      uintptr_t limit = *s == '-' ? (++s, parse_hex(&s)) : 0;
      if (*s == ' ' && end - s > 4 && address >= begin && address < limit) {
        memcpy(perms, s + 1, 4);
        perms[4] = 0;
        close(fd);
        return;
      }
      start = end + 1;
    }
    have = (size_t)(buffer + have - start);
    memmove(buffer, start, have);
    if (have == sizeof buffer - 1)
      have = 0; /* no line is this long; drop it rather than stall */
  }
  close(fd);
}

static void on_fault(int sig, siginfo_t *info, void *context) {
  const ucontext_t *uc = context;
  uintptr_t address = (uintptr_t)info->si_addr;
  const char *access = "unknown";
  line_length = 0;
  put("cairn-replay: fault signal=");
  put_int(sig);
  put(" code=");
  put_int(info->si_code);
  put(" address=");
  put_hex(address);
#if defined(__x86_64__)
  put(" pc=");
  put_hex((uintptr_t)uc->uc_mcontext.gregs[REG_RIP]);
  char stack[5];
  cairn_replay_mapping_of((uintptr_t)uc->uc_mcontext.gregs[REG_RSP], stack);
  put(" sp-mapping=");
  put(stack);
  access = uc->uc_mcontext.gregs[REG_ERR] & 2 ? "write" : "read";
#else
  (void)uc;
#endif
  put(" access=");
  put(access);
  char perms[5];
  cairn_replay_mapping_of(address, perms);
  put(" mapping=");
  put(perms);
  put("\n");
  (void)!write(2, line, line_length);

  struct sigaction *previous = sig == SIGSEGV ? &previous_segv : &previous_bus;
  if ((previous->sa_flags & SA_SIGINFO) && previous->sa_sigaction) {
    previous->sa_sigaction(sig, info, context);
  } else if (previous->sa_handler != SIG_DFL && previous->sa_handler != SIG_IGN) {
    previous->sa_handler(sig);
  } else {
    /* Returning re-executes the access, which now ends the process as it would have. */
    sigaction(sig, previous, 0);
  }
}

void cairn_replay_watch_faults(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_fault;
  /* A stack overflow leaves no stack to run on but the alternate one (AddressSanitizer sets it up). */
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, &previous_segv);
  sigaction(SIGBUS, &sa, &previous_bus);
}
