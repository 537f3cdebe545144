/* runtime-musl-native's shim: what the engine provides to cairn-libc.bc, done natively so that a
 * program linked with the bitcode runs as an ordinary static executable (test only).
 *  - _start: reads argc, argv and envp from the initial stack, calls __cairn_libc_init, then
 *    exit(main(...)) (musl's exit: atexit handlers, stdio flushing, then _Exit);
 *  - __cairn_syscall: the real system call;
 *  - _exit, _Exit, abort: exit_group;
 *  - malloc & co.: a bump allocator over a static arena (free does nothing). */

#include <stddef.h>
#include <stdint.h>

#define SYS_exit_group 231

void __cairn_libc_init(char **argv, char **envp);
int main(int argc, char **argv, char **envp);
void exit(int status);

long __cairn_syscall(long n, long a1, long a2, long a3, long a4, long a5, long a6)
{
	unsigned long ret;
	register long r10 __asm__("r10") = a4;
	register long r8 __asm__("r8") = a5;
	register long r9 __asm__("r9") = a6;
	__asm__ __volatile__("syscall"
			     : "=a"(ret)
			     : "a"(n), "D"(a1), "S"(a2), "d"(a3), "r"(r10), "r"(r8), "r"(r9)
			     : "rcx", "r11", "memory");
	return ret;
}

_Noreturn void _Exit(int status)
{
	for (;;) __cairn_syscall(SYS_exit_group, status, 0, 0, 0, 0, 0);
}

_Noreturn void _exit(int status)
{
	_Exit(status);
}

_Noreturn void abort(void)
{
	_Exit(134);
}

/* The entry point: %rsp points at argc, then argv[], NULL, envp[], NULL. */
__asm__(".text\n"
	".global _start\n"
	"_start:\n"
	"	xor %rbp, %rbp\n"
	"	mov %rsp, %rdi\n"
	"	and $-16, %rsp\n"
	"	call cairn_start_c\n"
	"	hlt\n");

_Noreturn void cairn_start_c(long *sp)
{
	int argc = (int)sp[0];
	char **argv = (char **)(sp + 1);
	char **envp = argv + argc + 1;
	__cairn_libc_init(argv, envp);
	exit(main(argc, argv, envp));
	for (;;) {}
}

/* The allocator: 16-byte aligned blocks, each after a header holding its size (for realloc). */
static unsigned char arena[16 << 20] __attribute__((aligned(16)));
static size_t arena_used;

static void *bump(size_t size, size_t align)
{
	size_t start, end;
	if (align < 16) align = 16;
	start = (arena_used + 16 + align - 1) & ~(align - 1);
	if (size > sizeof arena || start + size > sizeof arena) return NULL;
	end = start + size;
	*(size_t *)(arena + start - 16) = size;
	arena_used = end;
	return arena + start;
}

void *malloc(size_t size)
{
	return bump(size, 16);
}

void free(void *p)
{
	(void)p;
}

void *calloc(size_t n, size_t size)
{
	unsigned char *p;
	size_t i;
	if (size && n > (size_t)-1 / size) return NULL;
	p = bump(n * size, 16);
	if (p)
		for (i = 0; i < n * size; i++) p[i] = 0;
	return p;
}

void *realloc(void *old, size_t size)
{
	unsigned char *p;
	size_t i, old_size;
	if (!old) return malloc(size);
	old_size = *(size_t *)((unsigned char *)old - 16);
	p = malloc(size);
	if (p)
		for (i = 0; i < old_size && i < size; i++) p[i] = ((unsigned char *)old)[i];
	return p;
}

void *aligned_alloc(size_t align, size_t size)
{
	if (!align || (align & (align - 1))) return NULL;
	return bump(size, align);
}

int posix_memalign(void **res, size_t align, size_t size)
{
	void *p;
	if (align < sizeof(void *) || (align & (align - 1))) return 22; /* EINVAL */
	p = bump(size, align);
	if (!p) return 12; /* ENOMEM */
	*res = p;
	return 0;
}
