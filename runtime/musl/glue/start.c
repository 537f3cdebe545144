/* Cairn's start-up glue for musl (compiled with musl's internal include paths and linked into
 * cairn-libc.bc).
 *
 * A musl program starts in crt1's _start, which calls __libc_start_main: __init_libc reads the
 * kernel's auxiliary vector, __init_tls sets up the thread pointer with system calls
 * (set_thread_area, set_tid_address), then the constructors run and main is called. Under the
 * engine there is no kernel stack image and no %fs: the engine calls __cairn_libc_init(argv, envp)
 * before main instead, which leaves musl in the same state with plain stores only: no system call
 * and no constructor (the engine runs llvm.global_ctors itself). The one thread's `struct pthread`
 * is the global below, which __get_tp() (runtime/musl/arch/pthread_arch.h) returns. */

#include <elf.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>
#include "libc.h"
#include "pthread_impl.h"

/* The process's only thread. __get_tp() returns its address. */
struct pthread __cairn_main_thread;

/* The thread id the main thread gets, which getpid() and gettid() return too (the engine's POSIX
 * model answers getpid with the same number). */
#define CAIRN_MAIN_TID 1000

/* The main thread's stack as the engine has it (its default --stack-size). */
#define CAIRN_STACK_SIZE (8u << 20)

/* What the kernel would put in AT_RANDOM: 16 bytes, fixed, so every run is the same. musl uses
 * them for the stack-protector canary (and nothing else). */
static const unsigned char cairn_at_random[16] = {
	0x43, 0x61, 0x69, 0x72, 0x6e, 0x2d, 0x72, 0x61,
	0x6e, 0x64, 0x6f, 0x6d, 0x2d, 0x31, 0x36, 0x00,
};

/* The auxiliary vector getauxval() reads (libc.auxv): only what musl consults. */
static size_t cairn_auxv[] = {
	AT_PAGESZ, 4096,
	AT_RANDOM, (size_t)cairn_at_random,
	AT_NULL, 0,
};

/* The dynamic thread vector: dtv[0] is the number of TLS modules. musl itself uses no TLS and the
 * engine gives the program's own thread-local variables storage of their own, so there are none. */
static uintptr_t cairn_dtv[1];

/* Our empty environment when the engine passes none. */
static char *cairn_no_env[1];

void __cairn_libc_init(char **argv, char **envp)
{
	struct pthread *td = &__cairn_main_thread;
	char *pn;
	size_t i;

	/* __init_libc */
	__environ = envp ? envp : cairn_no_env;
	libc.auxv = cairn_auxv;
	__hwcap = 0;
	libc.page_size = 4096;
	libc.secure = 0;
	pn = argv && argv[0] ? argv[0] : "";
	__progname = __progname_full = pn;
	for (i = 0; pn[i]; i++)
		if (pn[i] == '/') __progname = pn + i + 1;

	/* static_init_tls: no PT_TLS segment, so no TLS module; the sizes pthread_create would use
	 * (it fails anyway: clone is not available) cover the thread structure alone. */
	libc.tls_head = 0;
	libc.tls_cnt = 0;
	libc.tls_align = _Alignof(struct pthread);
	libc.tls_size = 2 * sizeof(void *) + sizeof(struct pthread);

	/* __copy_tls and __init_tp */
	td->self = td;
	td->dtv = cairn_dtv;
	td->prev = td->next = td;
	td->sysinfo = 0;
	td->tid = CAIRN_MAIN_TID;
	td->errno_val = 0;
	td->detach_state = DT_JOINABLE;
	td->locale = &libc.global_locale;
	td->robust_list.head = &td->robust_list.head;
	td->robust_list.off = 0;
	td->robust_list.pending = 0;
	/* The main thread's stack, as pthread_getattr_np reports it: its top and size (musl would probe
	 * the kernel's mappings with mremap for these). The argument vector lies at the top of a
	 * process's initial stack; there is no guard area of musl's own below it. */
	td->stack = argv;
	td->stack_size = CAIRN_STACK_SIZE;
	td->guard_size = 0;
	td->map_base = 0;
	td->map_size = 0;
	/* set_thread_area is not made: the thread pointer is fixed, but threads cannot be created. */
	libc.can_do_threads = 0;
	libc.threaded = 0;
	libc.threads_minus_1 = 0;
	libc.need_locks = 0;

	/* __init_ssp: the stack-protector canary from AT_RANDOM (plain stores). */
	__init_ssp((void *)cairn_at_random);
}
