# runtime-replay: compiles replay-demo.c natively against runtime/include and links it with
# libcairn-replay.a, as `cairn replay` does, then replays hand-written .ktest files.
# Arguments (-D): CLANG, INCLUDE_DIR, REPLAY_LIB, KTEST_WRITE, SOURCE, WORK_DIR.
cmake_minimum_required(VERSION 3.25)

foreach(v CLANG INCLUDE_DIR REPLAY_LIB KTEST_WRITE SOURCE WORK_DIR)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "ReplayTest.cmake: -D${v}=... is required")
  endif()
endforeach()

function(fail msg)
  message(SEND_ERROR "FAIL: ${msg}")
  set_property(GLOBAL APPEND PROPERTY CAIRN_TEST_FAILURES "x")
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
# Built twice: plainly, and as `cairn replay` builds (worker/lib/ReplayBuild.cpp: the sanitizers,
# -O0, the heap wrappers and the library's start-up code).
set(variants plain asan)
set(plain_flags -g -Wall -Werror)
set(asan_flags -g -O0 -fsanitize=address,unreachable -fno-sanitize-recover=all
    -fno-omit-frame-pointer -Wall -Werror -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free,--wrap=strdup,--wrap=strndup,--wrap=_exit
    -Wl,--undefined=cairn_replay_start)
foreach(variant IN LISTS variants)
  execute_process(
    COMMAND ${CLANG} ${${variant}_flags} -I${INCLUDE_DIR} ${SOURCE} ${REPLAY_LIB}
            -o ${WORK_DIR}/replay-demo-${variant}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "compiling ${SOURCE} (${variant}) with ${REPLAY_LIB} failed (${rc}):\n${out}${err}")
  endif()
endforeach()
set(ENV{ASAN_OPTIONS} "detect_leaks=0:handle_abort=0")

# replay(NAME MODE EXPECT_RESULT EXPECT_STDOUT_REGEX EXPECT_STDERR_REGEX OBJECTS...)
# EXPECT_RESULT: an exit status, or "abort" for SIGABRT.
function(replay name mode expect_rc expect_out expect_err)
  set(name ${variant}-${name})
  set(ktest ${WORK_DIR}/${name}.ktest)
  execute_process(COMMAND ${KTEST_WRITE} ${ktest} ${ARGN} RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "ktest-write failed for ${name}: ${err}")
  endif()
  set(ENV{KTEST_FILE} ${ktest})
  execute_process(COMMAND ${WORK_DIR}/replay-demo-${variant} ${mode} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  unset(ENV{KTEST_FILE})
  if(expect_rc STREQUAL "abort")
    if(rc MATCHES "^[0-9]+$" AND NOT rc EQUAL 134)
      fail("${name}: expected SIGABRT, got exit status ${rc}\nstdout: ${out}\nstderr: ${err}")
    elseif(NOT rc MATCHES "^[0-9]+$" AND NOT rc MATCHES "[Aa]bort")
      fail("${name}: expected SIGABRT, got '${rc}'\nstdout: ${out}\nstderr: ${err}")
    endif()
  elseif(NOT rc STREQUAL expect_rc)
    fail("${name}: expected exit status ${expect_rc}, got '${rc}'\nstdout: ${out}\nstderr: ${err}")
  endif()
  if(NOT out MATCHES "${expect_out}")
    fail("${name}: stdout does not match '${expect_out}':\n${out}")
  endif()
  if(NOT err MATCHES "${expect_err}")
    fail("${name}: stderr does not match '${expect_err}':\n${err}")
  endif()
  message(STATUS "${name}: exit '${rc}' stdout '${out}'")
endfunction()

foreach(variant IN LISTS variants)
  # An int and a char[4], in the order the program makes them (little-endian x86-64 ints).
  replay(basic basic 0 "^x=42 buf=41420043\nsymbolic=0 value=42\n$" "^$"
         x=2a000000 buf=41420043)
  replay(basic-negative basic 0 "^x=-2 buf=ffffffff\n" "^$" x=feffffff buf=ffffffff)
  # Extra objects left over are not an error (a test may come from a longer program version).
  replay(basic-extra basic 0 "^x=7 " "^$" x=07000000 buf=00000000 more=00)
  # Object names do not have to match; sizes do.
  replay(size-mismatch basic 3 "^$" "size mismatch for input 1 'buf'.*asks for 4 bytes.*has 2"
         x=01000000 buf=4142)
  replay(out-of-objects basic 3 "^$" "asks for input 'buf'.*only 1 objects" x=01000000)
  # SV-COMP and klee_range/klee_int take inputs in order; klee_range(5, 6) takes none.
  replay(svcomp svcomp 0 "^a=5 b=1 c=200 r=13 one=5 k=-1\n$" "^$"
         __VERIFIER_nondet_int=05000000 __VERIFIER_nondet_bool=01 __VERIFIER_nondet_uchar=c8
         r=0d000000 k=ffffffff)
  replay(svcomp-range-diverged svcomp 4 "^$" "klee_range value out of range"
         __VERIFIER_nondet_int=05000000 __VERIFIER_nondet_bool=01 __VERIFIER_nondet_uchar=c8
         r=14000000 k=ffffffff)
  # A false __VERIFIER_assume ends its path silently under analysis: no test reaches it.
  replay(svcomp-assume-diverged svcomp 4 "^$" "__VERIFIER_assume does not hold"
         __VERIFIER_nondet_int=00000000 __VERIFIER_nondet_bool=00 __VERIFIER_nondet_uchar=c8
         r=0a000000 k=00000000)
  replay(svcomp-bool-diverged svcomp 4 "^$" "__VERIFIER_nondet_bool is neither 0 nor 1"
         __VERIFIER_nondet_int=05000000 __VERIFIER_nondet_bool=02 __VERIFIER_nondet_uchar=c8
         r=0a000000 k=00000000)
  replay(assume-holds assume 0 "^x=101\n$" "^$" x=65000000)
  # A false klee_assume is the analysis's user error (it found the condition provably false).
  replay(assume-fails assume 5 "^$" "cairn-replay: error user assume: " x=64000000)
  replay(reach-error reach abort "^$" "ERROR: reach_error \\[assert\\.err\\]\n" __VERIFIER_nondet_int=2a000000)
  replay(reach-no-error reach 0 "^no error\n$" "^$" __VERIFIER_nondet_int=2b000000)
  replay(assert-fails assert abort "^$" "ERROR: [^\n]*replay-demo\\.c:[0-9]+: x > 0 \\[assert\\.err\\]\n" x=00000000)
  replay(assert-holds assert 0 "^x positive\n$" "^$" x=01000000)
  replay(silent-exit exit 7 "^$" "^$" x=07000000)
  replay(klee-abort abort abort "^$" "ERROR: klee_abort called\n" x=07000000)
  replay(state-api state-api 0 "^errno=34\n$"
         "klee_alias_function\\(\"puts\", \"abort\"\\): a native run cannot redirect calls\nklee_print_range: v == 5\n")
  if(variant STREQUAL "asan")
    # What only the replay build detects: memory that is not one object, a block of no bytes,
    # a write to constant data (the fault is described before AddressSanitizer's report).
    replay(make-symbolic-overflow make-symbolic 5 "^$"
           "cairn-replay: error user make-symbolic: .*'buf', 8 bytes" n=00000000 buf=00000000)
    replay(make-symbolic-fits make-symbolic 0 "^ok\n$" "^$" n=01000000 buf=0102030405060708)
    replay(empty-block empty-block 1 "^$" "AddressSanitizer: use-after-poison" x=00000000)
    # realloc(p, 0) frees p and returns NULL, as glibc's does: the write is through NULL.
    replay(realloc-zero-is-null empty-block 1 "^$"
           "cairn-replay: fault signal=11 code=1 address=0x0 pc=0x[0-9a-f]+ sp-mapping=rw-p access=write mapping=none\n" x=01000000)
    replay(empty-block-calloc empty-block 1 "^$" "AddressSanitizer: use-after-poison" x=02000000)
    replay(one-byte-block empty-block 0 "^$" "^$" x=03000000)
    # KLEE's memory functions: sizes from AddressSanitizer (and the fixed objects), errors as
    # an access would have them.
    replay(memory-api-fits memory-api 0 "^sizes 8 40 12 20\n$" "^$" x=05000000)
    replay(memory-api-check memory-api 1 "^sizes " "AddressSanitizer: heap-buffer-overflow" x=00000000)
    replay(memory-api-fixed-overlap memory-api 5 "^sizes "
           "cairn-replay: error user fixed-object: .*meets the fixed object at 0x40002000" x=01000000)
    replay(memory-api-null memory-api 5 "^sizes " "cairn-replay: error ptr null: " x=02000000)
    replay(memory-api-freed memory-api 1 "^sizes " "AddressSanitizer: heap-use-after-free" x=03000000)
    replay(memory-api-past-fixed memory-api 1 "^sizes " "AddressSanitizer: use-after-poison" x=04000000)
    replay(read-only read-only 1 "^$"
           "cairn-replay: fault signal=11 code=2 address=0x[0-9a-f]+ pc=0x[0-9a-f]+ sp-mapping=rw-p access=write mapping=r--p\n"
           x=00000000)
  endif()

  # Not a ktest file at all; and no KTEST_FILE.
  file(WRITE ${WORK_DIR}/garbage.ktest "hello")
  set(ENV{KTEST_FILE} ${WORK_DIR}/garbage.ktest)
  execute_process(COMMAND ${WORK_DIR}/replay-demo-${variant} basic RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 3 OR NOT err MATCHES "not a .ktest file")
    fail("garbage: expected exit 3 and 'not a .ktest file', got '${rc}': ${err}")
  endif()
  unset(ENV{KTEST_FILE})
  execute_process(COMMAND ${WORK_DIR}/replay-demo-${variant} basic RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 3 OR NOT err MATCHES "KTEST_FILE is not set")
    fail("no-ktest: expected exit 3 and 'KTEST_FILE is not set', got '${rc}': ${err}")
  endif()
endforeach()

get_property(failures GLOBAL PROPERTY CAIRN_TEST_FAILURES)
list(LENGTH failures n)
if(n GREATER 0)
  message(FATAL_ERROR "${n} replay check(s) failed")
endif()
