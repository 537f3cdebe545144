/* The libc's one way out: musl's system call entry calls __cairn_syscall, which runs the
 * model's version of the call. Time, the process's ids and the machine are fixed so that every
 * run of a test sees the same; a call the model does not know returns -ENOSYS (warned once per
 * call number), as an old kernel would, which programs are written to survive. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>

#include "cairn.h"
#include "posix.h"

void _exit(int status);

static long now(struct timespec *ts) {
  ts->tv_sec = CAIRN_EPOCH;
  ts->tv_nsec = 0;
  return 0;
}

static long uname_model(struct utsname *u) {
  memset(u, 0, sizeof *u);
  strcpy(u->sysname, "Linux");
  strcpy(u->nodename, "cairn");
  strcpy(u->release, "6.1.0");
  strcpy(u->version, "#1 SMP");
  strcpy(u->machine, "x86_64");
  return 0;
}

static long limits(int resource, struct rlimit *old) {
  if (!old)
    return 0;
  old->rlim_cur = old->rlim_max = RLIM_INFINITY;
  if (resource == RLIMIT_STACK)
    old->rlim_cur = 8 << 20;
  else if (resource == RLIMIT_NOFILE)
    old->rlim_cur = old->rlim_max = CAIRN_MAX_FDS;
  return 0;
}

/* A signal sent to the process itself ends it as the default action would: the status a
 * shell reports for it. */
static long signal_self(int sig) {
  if (sig == 0 || sig == SIGCHLD || sig == SIGURG || sig == SIGWINCH || sig == SIGCONT)
    return 0;
  if (sig == SIGABRT) {
    klee_report_error(__FILE__, __LINE__, "abort", "abort.err");
  }
  _exit(128 + sig);
  return 0;
}

static unsigned char warned[512];

static long unknown(long n) {
  if (n >= 0 && n < (long)sizeof warned && !warned[n]) {
    warned[n] = 1;
    klee_warning_once("a system call the environment model does not know returned ENOSYS");
  }
  return -ENOSYS;
}

long __cairn_syscall(long n, long a, long b, long c, long d, long e, long f) {
  switch (n) {
  case SYS_read: return cairn_sys_read((int)a, (void *)b, (size_t)c);
  case SYS_write: return cairn_sys_write((int)a, (const void *)b, (size_t)c);
  case SYS_pread64: return cairn_sys_pread((int)a, (void *)b, (size_t)c, (off_t)d);
  case SYS_pwrite64: return cairn_sys_pwrite((int)a, (const void *)b, (size_t)c, (off_t)d);
  case SYS_readv: return cairn_sys_readv((int)a, (const void *)b, (int)c);
  case SYS_writev: return cairn_sys_writev((int)a, (const void *)b, (int)c);
  case SYS_lseek: return cairn_sys_lseek((int)a, (off_t)b, (int)c);
  case SYS_open: return cairn_sys_openat(AT_FDCWD, (const char *)a, (int)b, (mode_t)c);
  case SYS_openat: return cairn_sys_openat((int)a, (const char *)b, (int)c, (mode_t)d);
  case SYS_creat: return cairn_sys_openat(AT_FDCWD, (const char *)a, O_CREAT | O_WRONLY | O_TRUNC, (mode_t)b);
  case SYS_close: return cairn_sys_close((int)a);
  case SYS_fstat: return cairn_sys_fstat((int)a, (struct stat *)b);
  case SYS_stat: return cairn_sys_fstatat(AT_FDCWD, (const char *)a, (struct stat *)b, 0);
  case SYS_lstat: return cairn_sys_fstatat(AT_FDCWD, (const char *)a, (struct stat *)b, AT_SYMLINK_NOFOLLOW);
  case SYS_newfstatat: return cairn_sys_fstatat((int)a, (const char *)b, (struct stat *)c, (int)d);
  case SYS_access: return cairn_sys_faccessat(AT_FDCWD, (const char *)a, (int)b);
  case SYS_faccessat: case SYS_faccessat2: return cairn_sys_faccessat((int)a, (const char *)b, (int)c);
  case SYS_dup: return cairn_sys_dup3((int)a, 0, 0, 0);
  case SYS_dup2: return cairn_sys_dup3((int)a, (int)b, 0, 1);
  case SYS_dup3: return a == b ? -EINVAL : cairn_sys_dup3((int)a, (int)b, (int)c, 1);
  case SYS_fcntl: return cairn_sys_fcntl((int)a, (int)b, c);
  case SYS_ioctl: return cairn_sys_ioctl((int)a, (unsigned long)b, (void *)c);
  case SYS_ftruncate: return cairn_sys_ftruncate((int)a, (off_t)b);
  case SYS_unlink: return cairn_sys_unlinkat(AT_FDCWD, (const char *)a, 0);
  case SYS_rmdir: return cairn_sys_unlinkat(AT_FDCWD, (const char *)a, AT_REMOVEDIR);
  case SYS_unlinkat: return cairn_sys_unlinkat((int)a, (const char *)b, (int)c);
  case SYS_rename: return cairn_sys_renameat(AT_FDCWD, (const char *)a, AT_FDCWD, (const char *)b);
  case SYS_renameat: case SYS_renameat2:
    return cairn_sys_renameat((int)a, (const char *)b, (int)c, (const char *)d);
  case SYS_getcwd: return cairn_sys_getcwd((char *)a, (size_t)b);
  case SYS_chdir: return -EACCES;
  case SYS_mkdir: case SYS_mkdirat: case SYS_symlink: case SYS_symlinkat: case SYS_link:
  case SYS_linkat: case SYS_mknod: case SYS_mknodat:
    return -EPERM;
  case SYS_readlink: case SYS_readlinkat: return -EINVAL;
  case SYS_fsync: case SYS_fdatasync: case SYS_fadvise64: case SYS_sync: case SYS_syncfs: return 0;
  case SYS_chmod: case SYS_fchmod: case SYS_fchmodat: case SYS_chown: case SYS_fchown:
  case SYS_lchown: case SYS_fchownat: case SYS_utimensat:
    return 0;
  case SYS_umask: {
    long old = __cairn_posix.umask;
    __cairn_posix.umask = (mode_t)a & 0777;
    return old;
  }
  case SYS_getdents64: return cairn_sys_getdents64((int)a, (void *)b, (size_t)c);
  case SYS_pipe: case SYS_pipe2: case SYS_socket: case SYS_socketpair: return -EMFILE;
  case SYS_poll: case SYS_ppoll: case SYS_select: case SYS_pselect6: return -ENOSYS;

  case SYS_getpid: case SYS_gettid: case SYS_set_tid_address: return CAIRN_PID;
  case SYS_getppid: return CAIRN_PID - 1;
  case SYS_getpgid: case SYS_getsid: case SYS_getpgrp: return CAIRN_PID;
  case SYS_getuid: case SYS_geteuid: return CAIRN_UID;
  case SYS_getgid: case SYS_getegid: return CAIRN_GID;
  case SYS_getgroups: return 0;
  case SYS_setuid: case SYS_setgid: case SYS_setreuid: case SYS_setregid: case SYS_setpgid:
  case SYS_setsid:
    return -EPERM;
  case SYS_uname: return uname_model((struct utsname *)a);
  case SYS_getrlimit: return limits((int)a, (struct rlimit *)b);
  case SYS_prlimit64: return limits((int)b, (struct rlimit *)d);
  case SYS_setrlimit: return 0;

  case SYS_clock_gettime: return now((struct timespec *)b);
  case SYS_gettimeofday:
    if (a) {
      struct timespec ts;
      now(&ts);
      ((long *)a)[0] = ts.tv_sec;
      ((long *)a)[1] = 0;
    }
    return 0;
  case SYS_time:
    if (a)
      *(long *)a = CAIRN_EPOCH;
    return CAIRN_EPOCH;
  case SYS_clock_getres:
    if (b) {
      ((struct timespec *)b)->tv_sec = 0;
      ((struct timespec *)b)->tv_nsec = 1;
    }
    return 0;
  case SYS_nanosleep: case SYS_clock_nanosleep: return 0;
  case SYS_getrandom: /* fixed bytes: a test replays with what its path saw */
    for (size_t i = 0; i < (size_t)b; ++i)
      ((unsigned char *)a)[i] = (unsigned char)(i * 37 + 11);
    return b;

  case SYS_rt_sigaction: case SYS_rt_sigprocmask: case SYS_sigaltstack: case SYS_alarm:
  case SYS_setitimer: case SYS_madvise: case SYS_mprotect: case SYS_munmap: case SYS_sched_yield:
  case SYS_prctl:
    return 0;
  case SYS_brk: return 0;
  case SYS_mmap: case SYS_mremap: return -ENOMEM;
  case SYS_kill: return a == CAIRN_PID || a == 0 ? signal_self((int)b) : -EPERM;
  case SYS_tkill: return a == CAIRN_PID ? signal_self((int)b) : -ESRCH;
  case SYS_tgkill: return b == CAIRN_PID ? signal_self((int)c) : -ESRCH;
  case SYS_exit: case SYS_exit_group: _exit((int)a); return 0;
  case SYS_fork: case SYS_vfork: case SYS_clone: case SYS_execve: case SYS_wait4: return -ENOSYS;
  default: return unknown(n);
  }
}
