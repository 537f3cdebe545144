/* Cairn: replaces musl's src/string/explicit_bzero.c, whose only difference is an empty inline
 * assembly statement that keeps the compiler from removing the memset as a dead store. Built with
 * -fno-builtin, the call of memset is not removed anyway, and the engine cannot run inline
 * assembly. */

#define _BSD_SOURCE
#include <string.h>

void explicit_bzero(void *d, size_t n)
{
	memset(d, 0, n);
}
