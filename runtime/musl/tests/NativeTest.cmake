# runtime-musl-native: cairn-libc.bc is a working C library. A test program compiled against
# musl's installed headers (musl-dev) is linked with the bitcode (llvm-link --only-needed),
# compiled to a native object and linked, without any other libc, with a native shim standing in
# for the engine (start-up, system calls, _exit/abort, malloc): the executable's output, standard
# error and exit status must be the expected ones.
# Arguments (-D): CLANG, LLVM_LINK, LIBC_BC, MUSL_INCLUDE (musl-dev's headers), SOURCE, SHIM,
# EXPECTED, WORK_DIR.
cmake_minimum_required(VERSION 3.25)

foreach(v CLANG LLVM_LINK LIBC_BC MUSL_INCLUDE SOURCE SHIM EXPECTED WORK_DIR)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "NativeTest.cmake: -D${v}=... is required")
  endif()
endforeach()

if(NOT EXISTS ${MUSL_INCLUDE}/stdio.h)
  message(FATAL_ERROR "musl's headers are not in ${MUSL_INCLUDE} (install musl-dev)")
endif()
if(NOT EXISTS ${LIBC_BC})
  message(FATAL_ERROR "the libc bitcode ${LIBC_BC} does not exist")
endif()

file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

function(run what)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY ${WORK_DIR}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}${err}")
  endif()
endfunction()

execute_process(COMMAND ${CLANG} -print-resource-dir OUTPUT_VARIABLE resource_dir
                OUTPUT_STRIP_TRAILING_WHITESPACE)
set(headers -nostdinc -isystem ${MUSL_INCLUDE} -isystem ${resource_dir}/include)

# The shim goes through the bitcode link too (its inline assembly is native code all the same):
# --only-needed takes from the libc what the program and the shim (__cairn_libc_init, exit) use.
run("compiling the test program to bitcode"
    ${CLANG} -O1 -g -fno-builtin ${headers} -emit-llvm -c ${SOURCE} -o test.bc)
run("compiling the shim to bitcode"
    ${CLANG} -O1 -ffreestanding -fno-builtin -emit-llvm -c ${SHIM} -o shim.bc)
run("linking the program with the shim" ${LLVM_LINK} test.bc shim.bc -o program.bc)
run("linking it with ${LIBC_BC}" ${LLVM_LINK} program.bc --only-needed ${LIBC_BC} -o linked.bc)
run("compiling the linked bitcode to native code" ${CLANG} -O1 -c linked.bc -o linked.o)
run("linking the executable" ${CLANG} -nostdlib -static linked.o -o libc-test)

execute_process(
  COMMAND ${CMAKE_COMMAND} -E env --unset=CAIRN_MUSL_NOT_SET CAIRN_MUSL_TEST=hello
          ${WORK_DIR}/libc-test ${WORK_DIR}/scratch.txt
  WORKING_DIRECTORY ${WORK_DIR}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(WRITE ${WORK_DIR}/stdout.txt "${out}")
file(READ ${EXPECTED} expected)

set(failed FALSE)
if(NOT out STREQUAL expected)
  message(SEND_ERROR "FAIL: the output differs from ${EXPECTED}:\n--- got\n${out}--- expected\n${expected}")
  set(failed TRUE)
endif()
if(NOT err STREQUAL "stderr works\n")
  message(SEND_ERROR "FAIL: standard error is \"${err}\", not \"stderr works\\n\"")
  set(failed TRUE)
endif()
if(NOT rc STREQUAL "3")
  message(SEND_ERROR "FAIL: the exit status is ${rc}, not 3 (main's return value)")
  set(failed TRUE)
endif()
if(failed)
  message(FATAL_ERROR "runtime-musl-native failed")
endif()
message(STATUS "the program linked with cairn-libc.bc ran natively with the expected output")
