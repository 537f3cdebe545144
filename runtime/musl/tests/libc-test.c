/* runtime-musl-native's program: uses a cross-section of the C library and prints what it got;
 * NativeTest.cmake compares its output with libc-test.expected. Compiled against musl's headers,
 * linked with cairn-libc.bc and run natively with native-shim.c.
 * Arguments: a scratch file name. Environment: CAIRN_MUSL_TEST=hello. */

#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

static int compare_ints(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	char buf[128];
	char *end;
	int n;

	if (argc != 2) {
		fprintf(stderr, "usage: %s SCRATCH_FILE\n", argv[0]);
		return 2;
	}

	/* printf & co. */
	printf("printf: %d %s %x %f %g\n", -42, "str", 0xbeefu, 3.25, 0.0001);
	printf("widths: [%5d] [%-5s] [%08.3f] [%#o] [%e] [%lld]\n", 7, "ab", -3.14159, 8, 12345.678,
	       LLONG_MIN);
	n = snprintf(buf, 10, "%s-%d", "truncated", 12345);
	printf("snprintf: %d \"%s\"\n", n, buf);

	/* strtol, strtod, errno */
	long l = strtol("  -0x1fz", &end, 16);
	printf("strtol: %ld rest \"%s\"\n", l, end);
	errno = 0;
	l = strtol("99999999999999999999", NULL, 10);
	printf("strtol overflow: %ld %s\n", l, errno == ERANGE ? "ERANGE" : "no ERANGE");
	double d = strtod("6.02214076e23xyz", &end);
	printf("strtod: %.9g rest \"%s\"\n", d, end);
	printf("strtod hex: %g\n", strtod("0x1.8p1", NULL));

	/* sscanf */
	int a, b;
	char word[16];
	double f;
	n = sscanf("12 abc 3.5 0x1f", "%d %15s %lf %i", &a, word, &f, &b);
	printf("sscanf: %d %d %s %g %d\n", n, a, word, f, b);

	/* qsort */
	int v[] = {5, -1, 9, 3, 3, 0, 42, -7};
	qsort(v, sizeof v / sizeof v[0], sizeof v[0], compare_ints);
	printf("qsort:");
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) printf(" %d", v[i]);
	printf("\n");

	/* strings */
	printf("strncasecmp: %d %d\n", strncasecmp("HeLLo world", "hello WORLD", 11) == 0,
	       strncasecmp("abc", "abd", 3) < 0);
	printf("strerror: %s / %s\n", strerror(ENOENT), strerror(EINVAL));
	char *dup = strdup("duplicated");
	printf("strdup: %s %zu\n", dup, strlen(dup));
	free(dup);

	/* the environment and start-up state */
	const char *env = getenv("CAIRN_MUSL_TEST");
	printf("getenv: %s %s\n", env ? env : "(null)", getenv("CAIRN_MUSL_NOT_SET") ? "set" : "unset");
	printf("progname: %s\n", program_invocation_short_name);
	printf("pthread_self: %s\n", pthread_self() ? "ok" : "null");
	printf("page size: %ld\n", sysconf(_SC_PAGESIZE));

	/* files */
	const char *path = argv[1];
	FILE *fp = fopen(path, "w");
	if (!fp) {
		printf("fopen w: %s\n", strerror(errno));
		return 1;
	}
	size_t written = fwrite("line one\nline two\n", 1, 18, fp);
	fprintf(fp, "%s=%d\n", "answer", 42);
	printf("fwrite: %zu, fclose: %d\n", written, fclose(fp));
	fp = fopen(path, "r");
	if (!fp) {
		printf("fopen r: %s\n", strerror(errno));
		return 1;
	}
	memset(buf, 0, sizeof buf);
	size_t got = fread(buf, 1, sizeof buf - 1, fp);
	printf("fread: %zu feof %d\n", got, feof(fp) != 0);
	fclose(fp);
	printf("content: %s", buf);
	fp = fopen(path, "r");
	char line[32];
	if (fp && fgets(line, sizeof line, fp)) printf("fgets: %s", line);
	if (fp) fclose(fp);
	printf("remove: %d\n", remove(path));
	errno = 0;
	fp = fopen(path, "r");
	printf("fopen missing: %s errno %s\n", fp ? "opened" : "NULL", errno == ENOENT ? "ENOENT" : "other");

	/* time */
	time_t t = time(NULL);
	printf("time: %s\n", t > 1600000000 ? "plausible" : "implausible");
	struct tm tm;
	time_t epoch = 86400 * 365;
	gmtime_r(&epoch, &tm);
	strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S %a", &tm);
	printf("gmtime: %s\n", buf);

	fputs("stderr works\n", stderr);
	return 3;
}
