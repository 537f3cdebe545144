/* Cairn: musl's internal allocation entry points. Parts of musl (atexit, locales, the time zone,
 * dcngettext, sem_open, aio, posix_spawn's file actions) call __libc_malloc & co. rather than
 * malloc, so that an application's replacement malloc does not see them. src/malloc/ is not built:
 * the engine owns malloc, calloc, realloc and free, so these hand the requests to it. */

#include <stdlib.h>

void *__libc_malloc(size_t n)
{
	return malloc(n);
}

void *__libc_calloc(size_t m, size_t n)
{
	return calloc(m, n);
}

void *__libc_realloc(void *p, size_t n)
{
	return realloc(p, n);
}

void __libc_free(void *p)
{
	free(p);
}
