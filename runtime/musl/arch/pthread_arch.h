/* Cairn: replaces musl's arch/x86_64/pthread_arch.h. musl reads the thread pointer from %fs with
 * inline assembly; analysed programs run one thread, whose `struct pthread` is an ordinary global
 * defined by runtime/musl/glue/start.c (set up by __cairn_libc_init), so the thread pointer is
 * that object's address. x86_64 keeps TLS below the thread pointer (no TLS_ABOVE_TP), as musl's
 * header does. (`struct __pthread`: pthread_impl.h #defines `pthread` to `__pthread` only after
 * including this header.) */

extern struct __pthread __cairn_main_thread;

static inline uintptr_t __get_tp()
{
	return (uintptr_t)&__cairn_main_thread;
}

#define MC_PC gregs[REG_RIP]
