/* KLEE's header name: programs written for KLEE include this (or klee/klee.h) unchanged. */
#include "cairn.h"
