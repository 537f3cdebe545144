/* KLEE's header path (#include <klee/klee.h>): programs written for KLEE compile unchanged. */
#include "../cairn.h"
