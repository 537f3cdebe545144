/* The <ctype.h> part of Cairn's libc model, C locale.
 *
 * The functions are branch-free range checks, so a symbolic character costs one expression and
 * no fork. glibc's <ctype.h> macros do not call them: isalpha(c) expands to
 * ((*__ctype_b_loc())[(int)(c)] & _ISalpha), toupper/tolower may go through
 * __ctype_toupper_loc/__ctype_tolower_loc. Those return pointers into constant tables defined
 * here (statically initialised: no constructor runs), indexed from -128 to 255 like glibc's. */
#include <stdint.h>

#include "runtime.h"

#define CAIRN_U(c) ((unsigned)(c))

CAIRN_RT int isupper(int c) { return CAIRN_U(c) - 'A' < 26u; }
CAIRN_RT int islower(int c) { return CAIRN_U(c) - 'a' < 26u; }
CAIRN_RT int isalpha(int c) { return (CAIRN_U(c) | 32u) - 'a' < 26u; }
CAIRN_RT int isdigit(int c) { return CAIRN_U(c) - '0' < 10u; }
CAIRN_RT int isalnum(int c) { return ((CAIRN_U(c) | 32u) - 'a' < 26u) | (CAIRN_U(c) - '0' < 10u); }
CAIRN_RT int isxdigit(int c) { return ((CAIRN_U(c) | 32u) - 'a' < 6u) | (CAIRN_U(c) - '0' < 10u); }
CAIRN_RT int isspace(int c) { return (c == ' ') | (CAIRN_U(c) - '\t' < 5u); }
CAIRN_RT int isblank(int c) { return (c == ' ') | (c == '\t'); }
CAIRN_RT int iscntrl(int c) { return (CAIRN_U(c) < 32u) | (c == 127); }
CAIRN_RT int isprint(int c) { return CAIRN_U(c) - 32u < 95u; }
CAIRN_RT int isgraph(int c) { return CAIRN_U(c) - 33u < 94u; }
CAIRN_RT int ispunct(int c) {
  return (CAIRN_U(c) - 33u < 94u) & !((CAIRN_U(c) | 32u) - 'a' < 26u) & !(CAIRN_U(c) - '0' < 10u);
}
CAIRN_RT int toupper(int c) { return c - (int)((CAIRN_U(c) - 'a' < 26u) << 5); }
CAIRN_RT int tolower(int c) { return c + (int)((CAIRN_U(c) - 'A' < 26u) << 5); }

/* glibc's class bits (<ctype.h>, _ISbit): the bit numbers are fixed, the mask depends on the
 * byte order because glibc's tables were once read as bytes. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define CT_BIT(b) (1u << (b))
#else
#define CT_BIT(b) ((b) < 8 ? ((1u << (b)) << 8) : ((1u << (b)) >> 8))
#endif
#define CT_UPPER CT_BIT(0)
#define CT_LOWER CT_BIT(1)
#define CT_ALPHA CT_BIT(2)
#define CT_DIGIT CT_BIT(3)
#define CT_XDIGIT CT_BIT(4)
#define CT_SPACE CT_BIT(5)
#define CT_PRINT CT_BIT(6)
#define CT_GRAPH CT_BIT(7)
#define CT_BLANK CT_BIT(8)
#define CT_CNTRL CT_BIT(9)
#define CT_PUNCT CT_BIT(10)
#define CT_ALNUM CT_BIT(11)

#define CT_IN(c, lo, hi) ((c) >= (lo) && (c) <= (hi))
#define CT_ISUP(c) CT_IN(c, 'A', 'Z')
#define CT_ISLO(c) CT_IN(c, 'a', 'z')
#define CT_ISDI(c) CT_IN(c, '0', '9')
#define CT_ISGR(c) CT_IN(c, 33, 126)
#define CT_CLASS(c)                                                                                \
  (unsigned short)((CT_ISUP(c) ? CT_UPPER | CT_ALPHA | CT_ALNUM : 0u) |                            \
                   (CT_ISLO(c) ? CT_LOWER | CT_ALPHA | CT_ALNUM : 0u) |                            \
                   (CT_ISDI(c) ? CT_DIGIT | CT_ALNUM : 0u) |                                        \
                   (CT_ISDI(c) || CT_IN(c, 'a', 'f') || CT_IN(c, 'A', 'F') ? CT_XDIGIT : 0u) |     \
                   ((c) == ' ' || CT_IN(c, 9, 13) ? CT_SPACE : 0u) |                               \
                   ((c) == ' ' || (c) == '\t' ? CT_BLANK : 0u) |                                   \
                   (CT_IN(c, 32, 126) ? CT_PRINT : 0u) | (CT_ISGR(c) ? CT_GRAPH : 0u) |            \
                   (CT_IN(c, 0, 31) || (c) == 127 ? CT_CNTRL : 0u) |                               \
                   (CT_ISGR(c) && !CT_ISUP(c) && !CT_ISLO(c) && !CT_ISDI(c) ? CT_PUNCT : 0u))
#define CT_TOUPPER(c) (CT_ISLO(c) ? (c) - 32 : (c))
#define CT_TOLOWER(c) (CT_ISUP(c) ? (c) + 32 : (c))

#define CT_R4(F, b) F(b), F((b) + 1), F((b) + 2), F((b) + 3)
#define CT_R16(F, b) CT_R4(F, b), CT_R4(F, (b) + 4), CT_R4(F, (b) + 8), CT_R4(F, (b) + 12)
#define CT_R64(F, b) CT_R16(F, b), CT_R16(F, (b) + 16), CT_R16(F, (b) + 32), CT_R16(F, (b) + 48)
#define CT_R128(F, b) CT_R64(F, b), CT_R64(F, (b) + 64)
#define CT_R384(F) CT_R128(F, -128), CT_R128(F, 0), CT_R128(F, 128)

/* In the C locale the bytes 128..255 (and the negative indices, signed chars) are in no class,
 * and toupper/tolower leave every value but the ASCII letters unchanged. */
static const unsigned short cairn_ctype_b[384] = {CT_R384(CT_CLASS)};
static const int32_t cairn_ctype_toupper[384] = {CT_R384(CT_TOUPPER)};
static const int32_t cairn_ctype_tolower[384] = {CT_R384(CT_TOLOWER)};

static const unsigned short *cairn_ctype_b_ptr = cairn_ctype_b + 128;
static const int32_t *cairn_ctype_toupper_ptr = cairn_ctype_toupper + 128;
static const int32_t *cairn_ctype_tolower_ptr = cairn_ctype_tolower + 128;

CAIRN_RT const unsigned short **__ctype_b_loc(void) { return &cairn_ctype_b_ptr; }
CAIRN_RT const int32_t **__ctype_toupper_loc(void) { return &cairn_ctype_toupper_ptr; }
CAIRN_RT const int32_t **__ctype_tolower_loc(void) { return &cairn_ctype_tolower_ptr; }
