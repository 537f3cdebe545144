# runtime-bitcode: the runtime bitcode disassembles, defines the runtime's functions, leaves the
# engine's own (malloc, printf, the klee_* intrinsics, ...) undefined, calls nothing the engine
# does not implement, has no constructors, inline assembly or vector code, and links into a
# program that defines some of the same functions.
# Arguments (-D): CLANG, LLVM_LINK, LLVM_DIS, RUNTIME_BC, INCLUDE_DIR, LINK_SOURCE, WORK_DIR.
cmake_minimum_required(VERSION 3.25)

foreach(v CLANG LLVM_LINK LLVM_DIS RUNTIME_BC INCLUDE_DIR LINK_SOURCE WORK_DIR)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "BitcodeTest.cmake: -D${v}=... is required")
  endif()
endforeach()

function(fail msg)
  message(SEND_ERROR "FAIL: ${msg}")
  set_property(GLOBAL APPEND PROPERTY CAIRN_TEST_FAILURES "x")
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
if(NOT EXISTS ${RUNTIME_BC})
  message(FATAL_ERROR "the runtime bitcode ${RUNTIME_BC} does not exist")
endif()

set(ll ${WORK_DIR}/cairn-runtime.ll)
execute_process(COMMAND ${LLVM_DIS} ${RUNTIME_BC} -o ${ll} RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${LLVM_DIS} cannot disassemble ${RUNTIME_BC}: ${err}")
endif()

# The names a module defines or declares, from its disassembly.
function(symbols file kind out)
  file(STRINGS ${file} lines REGEX "^${kind} ")
  set(names "")
  foreach(line IN LISTS lines)
    if(line MATCHES "@([A-Za-z0-9_.$]+)\\(")
      list(APPEND names ${CMAKE_MATCH_1})
    endif()
  endforeach()
  set(${out} ${names} PARENT_SCOPE)
endfunction()

symbols(${ll} define defined)
symbols(${ll} declare declared)
list(LENGTH defined ndefined)
message(STATUS "the runtime defines ${ndefined} functions")

set(required
  # string.h
  memcpy memmove memset memcmp memchr strlen strnlen strcmp strncmp strcpy strncpy strcat
  strncat strchr strrchr strstr strdup strndup strspn strcspn strpbrk strtok
  # ctype.h
  isalpha isdigit isalnum isspace isupper islower isxdigit ispunct isprint iscntrl isgraph
  toupper tolower __ctype_b_loc __ctype_toupper_loc __ctype_tolower_loc
  # stdlib.h
  atoi atol atoll strtol strtoul strtoll strtoull abs labs llabs div ldiv qsort bsearch getenv
  rand srand
  # SV-COMP, assert, klee helpers
  __VERIFIER_nondet_int __VERIFIER_nondet_uint __VERIFIER_nondet_char __VERIFIER_nondet_uchar
  __VERIFIER_nondet_short __VERIFIER_nondet_ushort __VERIFIER_nondet_long __VERIFIER_nondet_ulong
  __VERIFIER_nondet_bool __VERIFIER_nondet__Bool __VERIFIER_nondet_pointer
  __VERIFIER_nondet_size_t __VERIFIER_nondet_float __VERIFIER_nondet_double __VERIFIER_assume
  reach_error __VERIFIER_error __assert_fail klee_range klee_int klee_get_valuell
  # extras: errno for strto*, isblank, lldiv
  __errno_location isblank lldiv)
foreach(f IN LISTS required)
  if(NOT f IN_LIST defined)
    fail("the runtime does not define ${f}")
  endif()
endforeach()

# The engine implements these; a definition in the runtime would shadow it.
set(engine_owned
  malloc calloc realloc free printf puts putchar exit abort _exit
  klee_make_symbolic klee_assume klee_abort klee_silent_exit klee_report_error klee_is_symbolic
  klee_get_value_i32 klee_get_value_i64 klee_get_valuel klee_prefer_cex klee_open_merge
  klee_close_merge klee_warning klee_warning_once klee_print_expr klee_is_replay
  cairn_aligned_malloc __printf_chk __fprintf_chk __sprintf_chk __snprintf_chk)
foreach(f IN LISTS engine_owned)
  if(f IN_LIST defined)
    fail("the runtime defines ${f}, which the engine implements")
  endif()
endforeach()

# Everything the runtime calls but does not define must be the engine's.
foreach(f IN LISTS declared)
  if(f IN_LIST engine_owned)
    continue()
  endif()
  if(f MATCHES "^llvm\\.(memcpy|memmove|memset|dbg|lifetime|abs|smin|smax|umin|umax|ctpop|ctlz|cttz|bswap|fshl|fshr|[su](add|sub|mul)\\.with\\.overflow|assume|expect)(\\.|$)")
    continue()
  endif()
  fail("the runtime calls ${f}, which neither it nor the engine defines")
endforeach()

file(READ ${ll} text)
if(text MATCHES "@llvm\\.global_ctors")
  fail("the runtime has global constructors")
endif()
if(text MATCHES "[ =]asm ")
  fail("the runtime has inline assembly")
endif()
if(text MATCHES "<[0-9]+ x ")
  fail("the runtime has vector code")
endif()
if(NOT text MATCHES "runtime/lib/")
  fail("the runtime's debug information does not name runtime/lib/ files (the engine uses it)")
endif()

# A program with its own reach_error and strlen links with the runtime: fully (weak runtime
# definitions give way) and the way the engine links (only what is needed).
set(user_bc ${WORK_DIR}/link-user.bc)
execute_process(COMMAND ${CLANG} -c -emit-llvm -O0 -g -I${INCLUDE_DIR} ${LINK_SOURCE} -o ${user_bc}
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "compiling ${LINK_SOURCE} failed: ${err}")
endif()
foreach(mode full only-needed)
  set(linked ${WORK_DIR}/linked-${mode}.bc)
  set(extra "")
  if(mode STREQUAL "only-needed")
    set(extra --only-needed)
  endif()
  execute_process(COMMAND ${LLVM_LINK} ${extra} ${user_bc} ${RUNTIME_BC} -o ${linked}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    fail("llvm-link (${mode}) of a program defining reach_error and strlen failed: ${err}")
    continue()
  endif()
  execute_process(COMMAND ${LLVM_DIS} ${linked} -o ${linked}.ll RESULT_VARIABLE rc)
  file(READ ${linked}.ll ltext)
  if(NOT ltext MATCHES "define [^\n]*@strlen\\([^\n]*\n[^}]*ret i64 7")
    fail("(${mode}) the program's own strlen was replaced by the runtime's")
  endif()
  if(NOT ltext MATCHES "define [^\n]*@reach_error\\([^\n]*\n[^}]*klee_abort")
    fail("(${mode}) the program's own reach_error was replaced by the runtime's")
  endif()
  symbols(${linked}.ll define ldefined)
  foreach(f strtol __VERIFIER_nondet_int)
    if(NOT f IN_LIST ldefined)
      fail("(${mode}) the linked program lacks the runtime's ${f}")
    endif()
  endforeach()
endforeach()

get_property(failures GLOBAL PROPERTY CAIRN_TEST_FAILURES)
list(LENGTH failures n)
if(n GREATER 0)
  message(FATAL_ERROR "${n} bitcode check(s) failed")
endif()
