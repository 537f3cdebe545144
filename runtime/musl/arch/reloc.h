/* Cairn: replaces musl's arch/x86_64/reloc.h, which dynlink.h includes. Outside the dynamic linker
 * (not built) only src/thread/__unmapself.c uses it, for CRTJMP: switching to another stack with
 * inline assembly. That cannot be done in plain C; __unmapself (a detached thread unmapping its own
 * stack as it exits) never runs in a single-threaded program, so CRTJMP traps. GETFUNCSYM is only
 * used by the dynamic linker and is left out. */

#define LDSO_ARCH "x86_64"

#define REL_SYMBOLIC    R_X86_64_64
#define REL_OFFSET32    R_X86_64_PC32
#define REL_GOT         R_X86_64_GLOB_DAT
#define REL_PLT         R_X86_64_JUMP_SLOT
#define REL_RELATIVE    R_X86_64_RELATIVE
#define REL_COPY        R_X86_64_COPY
#define REL_DTPMOD      R_X86_64_DTPMOD64
#define REL_DTPOFF      R_X86_64_DTPOFF64
#define REL_TPOFF       R_X86_64_TPOFF64
#define REL_TLSDESC     R_X86_64_TLSDESC

#define CRTJMP(pc,sp) ((void)(pc), (void)(sp), __builtin_trap())
