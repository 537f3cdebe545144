/* Cairn: replaces musl's arch/x86_64/syscall_arch.h. musl's issues the `syscall` instruction with
 * inline assembly, which the engine cannot execute; here every system call goes through one plain
 * function, __cairn_syscall, which stays undefined in cairn-libc.bc: the engine's POSIX
 * environment model defines it (a native test defines it with the real instruction). */

#define __SYSCALL_LL_E(x) (x)
#define __SYSCALL_LL_O(x) (x)

long __cairn_syscall(long n, long a1, long a2, long a3, long a4, long a5, long a6);

static __inline long __syscall0(long n)
{
	return __cairn_syscall(n, 0, 0, 0, 0, 0, 0);
}

static __inline long __syscall1(long n, long a1)
{
	return __cairn_syscall(n, a1, 0, 0, 0, 0, 0);
}

static __inline long __syscall2(long n, long a1, long a2)
{
	return __cairn_syscall(n, a1, a2, 0, 0, 0, 0);
}

static __inline long __syscall3(long n, long a1, long a2, long a3)
{
	return __cairn_syscall(n, a1, a2, a3, 0, 0, 0);
}

static __inline long __syscall4(long n, long a1, long a2, long a3, long a4)
{
	return __cairn_syscall(n, a1, a2, a3, a4, 0, 0);
}

static __inline long __syscall5(long n, long a1, long a2, long a3, long a4, long a5)
{
	return __cairn_syscall(n, a1, a2, a3, a4, a5, 0);
}

static __inline long __syscall6(long n, long a1, long a2, long a3, long a4, long a5, long a6)
{
	return __cairn_syscall(n, a1, a2, a3, a4, a5, a6);
}

/* musl's x86_64 header also defines VDSO_USEFUL and the VDSO_* symbol names: left out on purpose,
 * so clock_gettime and getcpu make the system call instead of looking for a vDSO (there is none
 * under the engine, and src/internal/vdso.c would parse ELF images it does not have). */

#define IPC_64 0
