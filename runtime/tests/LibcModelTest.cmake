# runtime-libc-model: compiles the libc model natively with clang-15 and the bitcode's flags,
# links it into libc-model-test.c (its definitions take precedence over glibc's) and runs it.
# Arguments (-D): CLANG, FLAGS (space-separated), INCLUDE_DIR, LIB_DIR, SOURCE, WORK_DIR.
cmake_minimum_required(VERSION 3.25)

foreach(v CLANG FLAGS INCLUDE_DIR LIB_DIR SOURCE WORK_DIR)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "LibcModelTest.cmake: -D${v}=... is required")
  endif()
endforeach()

separate_arguments(FLAGS UNIX_COMMAND "${FLAGS}")
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
file(GLOB model ${LIB_DIR}/libc-*.c)
if(NOT model)
  message(FATAL_ERROR "no libc model sources (libc-*.c) in ${LIB_DIR}")
endif()
set(prog ${WORK_DIR}/libc-model-test)
execute_process(
  COMMAND ${CLANG} ${FLAGS} -Wall -Werror -I${INCLUDE_DIR} -I${LIB_DIR} ${SOURCE} ${model} -o ${prog}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "compiling the libc model test failed (${rc}):\n${out}${err}")
endif()
execute_process(COMMAND ${prog} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message(STATUS "${out}${err}")
if(NOT rc EQUAL 0 OR NOT out MATCHES "([0-9]+) of ([0-9]+) checks passed")
  message(FATAL_ERROR "the libc model test failed ('${rc}')")
endif()
if(NOT CMAKE_MATCH_1 EQUAL CMAKE_MATCH_2 OR CMAKE_MATCH_2 LESS 100)
  message(FATAL_ERROR "the libc model test passed only ${CMAKE_MATCH_1} of ${CMAKE_MATCH_2} checks")
endif()
