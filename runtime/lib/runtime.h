/* Shared by the runtime's sources (not installed for users).
 *
 * Every definition is weak: a program that defines a function of the same name (an SV-COMP task
 * defining reach_error, a program with its own strlen) keeps its own, both when the bitcode is
 * linked into it and when the replay archive is linked natively.
 *
 * CAIRN_NATIVE is defined when a source is compiled natively into libcairn-replay.a rather than
 * to bitcode for the engine.
 */
#ifndef CAIRN_RUNTIME_INTERNAL_H
#define CAIRN_RUNTIME_INTERNAL_H

#include "cairn.h"

#define CAIRN_RT __attribute__((weak))

#endif
