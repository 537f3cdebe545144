/* <arpa/inet.h>'s byte-order helpers. glibc's header turns them into byte swaps only when
 * optimizing; at -O0 a program calls these functions. x86-64 is little-endian: network order
 * is the other one. */
#include <stdint.h>

#include "runtime.h"

CAIRN_RT uint32_t htonl(uint32_t x) { return __builtin_bswap32(x); }
CAIRN_RT uint16_t htons(uint16_t x) { return __builtin_bswap16(x); }
CAIRN_RT uint32_t ntohl(uint32_t x) { return __builtin_bswap32(x); }
CAIRN_RT uint16_t ntohs(uint16_t x) { return __builtin_bswap16(x); }
