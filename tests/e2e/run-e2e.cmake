# The end-to-end driver: run `cairn run` on one program of the corpus and compare the outcome
# with the expectations in the program's header comments.
#
#   cmake -DCAIRN=path/to/cairn -DPROGRAM=prog.c -DWORKDIR=dir [-DREPLAY=ON [-DREPLAY_CACHE=dir]]
#         -P run-e2e.cmake
#
# Header lines read from PROGRAM (anywhere in the file, one directive per line):
#   // CAIRN-VARIANT: NAME ARGS             read by CMakeLists.txt: another test of the program
#                                           with -DVARIANT=NAME -DVARIANT_ARGS=ARGS replacing
#                                           CAIRN-ARGS
#   // CAIRN-ARGS: --search dfs            extra `cairn run` arguments (default none); what
#                                          follows "--" becomes the program's argv; @DIR@ is
#                                          the program's directory (for data files beside it)
#   // EXPECT: paths_completed=N paths_partial=N tests=N [GROUP.KEY=N ...]
#                                          GROUP.KEY: a counter of the summary's object GROUP
#                                          (merging.quantified_merges=2)
#   // EXPECT-ERROR: TYPE KIND LINE        one per expected error; the set must match exactly
#   // EXPECT@NAME: ...                    the variant NAME's own expectations: with this line,
#   // EXPECT-ERROR@NAME: TYPE KIND LINE    they replace EXPECT and EXPECT-ERROR for that variant
#                                          (its errors are then exactly its EXPECT-ERROR@ lines)
#   // KNOWN-FAILING: reason               the engine is wrong here: the test is skipped (it
#                                          still runs, and fails if the engine now gets it right,
#                                          so the marker gets removed)
#   // NO-REPLAY: reason                   with REPLAY=ON, do not replay this program's tests: its
#                                          native behaviour differs by design (e.g. it asserts
#                                          klee_is_symbolic, which is 0 natively)
#
# Checks: paths_completed, paths_partial, tests and the exact set of (type, kind, line) errors of
# the JSON summary printed by --json; the JSON on stdout equals summary.json; the output
# directory holds `tests` .ktest files, one .TYPE.err file per error (next to the error's test),
# and one .early file per partial path. With REPLAY=ON (and unless the program is KNOWN-FAILING
# or NO-REPLAY) `cairn replay [--cflag, --entry, --check-* of the run] PROGRAM OUTPUT_DIR` replays
# every test of a path that ended, which must exit 0 and say it reproduced all of them; partial
# paths' tests are not replayed: they have no recorded outcome to reproduce. With REPLAY_CACHE,
# the replay keeps and reuses its native build there (--build-cache).
#
# A skip is exit status 77 where CMake can set it (3.29+, cmake_language(EXIT)) and otherwise
# the output line "CAIRN-E2E-SKIP", which the test's SKIP_REGULAR_EXPRESSION catches.

cmake_minimum_required(VERSION 3.25)

foreach(var CAIRN PROGRAM WORKDIR)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "run-e2e.cmake needs -D${var}=...")
  endif()
endforeach()
if(NOT EXISTS "${PROGRAM}")
  message(FATAL_ERROR "e2e: no program ${PROGRAM}")
endif()
get_filename_component(e2e_name "${PROGRAM}" NAME)

# --- the header ---------------------------------------------------------------------------------
file(STRINGS "${PROGRAM}" header_lines
     REGEX "^[ \t]*[/;]+[ \t]*(CAIRN-ARGS|EXPECT|EXPECT-ERROR|EXPECT@[A-Za-z0-9_-]+|EXPECT-ERROR@[A-Za-z0-9_-]+|KNOWN-FAILING|NO-REPLAY):")
set(cairn_args "")
set(compare_args "")
if(DEFINED COMPARE_ARGS AND NOT COMPARE_ARGS STREQUAL "")
  separate_arguments(compare_args UNIX_COMMAND "${COMPARE_ARGS}")
  string(APPEND e2e_name " (${COMPARE_ARGS} against the standard model)")
endif()
# Errors only: the run takes these arguments too and must report exactly the expected errors
# (a transformation that changes how many paths there are, not which errors the program has);
# the counts are not compared, the tests are still replayed on the original program.
set(errors_only_args "")
if(DEFINED ERRORS_ONLY_ARGS AND NOT ERRORS_ONLY_ARGS STREQUAL "")
  separate_arguments(errors_only_args UNIX_COMMAND "${ERRORS_ONLY_ARGS}")
  string(APPEND e2e_name " (${ERRORS_ONLY_ARGS}: the same errors)")
endif()
# Extra arguments that must change nothing the expectations check (a solver layer that answers
# as the core does): the same counts, errors and natively replaying tests.
set(extra_args "")
if(DEFINED EXTRA_ARGS AND NOT EXTRA_ARGS STREQUAL "")
  separate_arguments(extra_args UNIX_COMMAND "${EXTRA_ARGS}")
  string(APPEND e2e_name " (${EXTRA_ARGS}: the same outcome)")
endif()
if(DEFINED VARIANT) # a CAIRN-VARIANT line: the same program and expectations, other arguments
  separate_arguments(cairn_args UNIX_COMMAND "${VARIANT_ARGS}")
  string(APPEND e2e_name " (${VARIANT})")
endif()
set(expect_line "")
set(expected_errors "")
set(variant_expect_line "")
set(variant_expected_errors "")
set(known_failing "")
set(no_replay "")
foreach(line IN LISTS header_lines)
  if(line MATCHES "^[ \t]*[/;]+[ \t]*CAIRN-ARGS:(.*)$")
    if(DEFINED VARIANT)
      continue() # a variant's own arguments replace the program's
    endif()
    string(STRIP "${CMAKE_MATCH_1}" args)
    get_filename_component(program_dir "${PROGRAM}" DIRECTORY)
    string(REPLACE "@DIR@" "${program_dir}" args "${args}")
    separate_arguments(args UNIX_COMMAND "${args}")
    list(APPEND cairn_args ${args})
  elseif(line MATCHES "^[ \t]*[/;]+[ \t]*EXPECT:(.*)$")
    if(NOT expect_line STREQUAL "")
      message(FATAL_ERROR "e2e ${e2e_name}: more than one EXPECT line")
    endif()
    string(STRIP "${CMAKE_MATCH_1}" expect_line)
  elseif(line MATCHES "^[ \t]*[/;]+[ \t]*EXPECT-ERROR:[ \t]*([^ \t]+)[ \t]+([^ \t]+)[ \t]+([0-9]+)[ \t]*$")
    list(APPEND expected_errors "${CMAKE_MATCH_1} ${CMAKE_MATCH_2} ${CMAKE_MATCH_3}")
  elseif(line MATCHES "^[ \t]*[/;]+[ \t]*EXPECT-ERROR:")
    message(FATAL_ERROR "e2e ${e2e_name}: malformed line '${line}' (want: EXPECT-ERROR: TYPE KIND LINE)")
  elseif(line MATCHES "^[ \t]*[/;]+[ \t]*EXPECT@([A-Za-z0-9_-]+):(.*)$")
    if(DEFINED VARIANT AND CMAKE_MATCH_1 STREQUAL VARIANT)
      string(STRIP "${CMAKE_MATCH_2}" variant_expect_line)
    endif()
  elseif(line MATCHES "^[ \t]*[/;]+[ \t]*EXPECT-ERROR@([A-Za-z0-9_-]+):[ \t]*([^ \t]+)[ \t]+([^ \t]+)[ \t]+([0-9]+)[ \t]*$")
    if(DEFINED VARIANT AND CMAKE_MATCH_1 STREQUAL VARIANT)
      list(APPEND variant_expected_errors "${CMAKE_MATCH_2} ${CMAKE_MATCH_3} ${CMAKE_MATCH_4}")
    endif()
  elseif(line MATCHES "^[ \t]*[/;]+[ \t]*EXPECT-ERROR@")
    message(FATAL_ERROR "e2e ${e2e_name}: malformed line '${line}' (want: EXPECT-ERROR@NAME: TYPE KIND LINE)")
  elseif(line MATCHES "^[ \t]*[/;]+[ \t]*KNOWN-FAILING:(.*)$")
    string(STRIP "${CMAKE_MATCH_1}" known_failing)
    if(known_failing STREQUAL "")
      set(known_failing "(no reason given)")
    endif()
  elseif(line MATCHES "^[ \t]*[/;]+[ \t]*NO-REPLAY:(.*)$")
    string(STRIP "${CMAKE_MATCH_1}" no_replay)
    if(no_replay STREQUAL "")
      set(no_replay "(no reason given)")
    endif()
  endif()
endforeach()

if(NOT variant_expect_line STREQUAL "")
  set(expect_line "${variant_expect_line}")
  set(expected_errors "${variant_expected_errors}")
elseif(NOT variant_expected_errors STREQUAL "")
  message(FATAL_ERROR "e2e ${e2e_name}: EXPECT-ERROR@${VARIANT} lines need an EXPECT@${VARIANT} line")
endif()
foreach(key paths_completed paths_partial tests)
  if(NOT expect_line MATCHES "(^|[ \t])${key}=([0-9]+)([ \t]|$)")
    message(FATAL_ERROR "e2e ${e2e_name}: the EXPECT line must give ${key}=N (got '${expect_line}')")
  endif()
  set(expected_${key} "${CMAKE_MATCH_2}")
endforeach()
list(SORT expected_errors)
list(REMOVE_DUPLICATES expected_errors)
string(REGEX MATCHALL "[a-z_]+\\.[a-z_]+=[0-9]+" expected_counters "${expect_line}")

# --- the run ------------------------------------------------------------------------------------
set(out "${WORKDIR}/out")
file(REMOVE_RECURSE "${out}")
file(MAKE_DIRECTORY "${WORKDIR}")

# Arguments after "--" are the program's: they go after the program.
set(program_args "")
list(FIND cairn_args "--" dashdash)
if(dashdash GREATER_EQUAL 0)
  math(EXPR after "${dashdash} + 1")
  list(SUBLIST cairn_args ${after} -1 program_args)
  list(SUBLIST cairn_args 0 ${dashdash} cairn_args)
endif()
set(command "${CAIRN}" run --json --quiet --output-dir "${out}" ${cairn_args} ${compare_args} ${errors_only_args}
    ${extra_args} "${PROGRAM}")
if(program_args)
  list(APPEND command -- ${program_args})
endif()
# Model comparison: the baseline run, without COMPARE_ARGS, whose results this run must equal.
if(NOT compare_args STREQUAL "")
  set(baseline "${WORKDIR}/baseline")
  file(REMOVE_RECURSE "${baseline}")
  set(baseline_command "${CAIRN}" run --json --quiet --output-dir "${baseline}" ${cairn_args} "${PROGRAM}")
  if(program_args)
    list(APPEND baseline_command -- ${program_args})
  endif()
  execute_process(COMMAND ${baseline_command} OUTPUT_VARIABLE baseline_stdout
                  ERROR_VARIABLE baseline_stderr RESULT_VARIABLE baseline_rc)
endif()
string(JOIN " " command_text ${command})
string(TIMESTAMP t0 "%s")
execute_process(COMMAND ${command}
                OUTPUT_VARIABLE run_stdout
                ERROR_VARIABLE run_stderr
                RESULT_VARIABLE run_rc)
string(TIMESTAMP t1 "%s")
math(EXPR seconds "${t1} - ${t0}")

# Collects the differences; reported together at the end.
set(problems "")
function(problem text)
  set(problems "${problems}  - ${text}\n" PARENT_SCOPE)
endfunction()

set(actual_errors "")
set(json "")
if(NOT run_rc STREQUAL "0")
  problem("cairn run exited with '${run_rc}' (want 0)\n    stderr: ${run_stderr}")
else()
  # The summary is the last JSON object on stdout (the program's own output, if any, comes
  # before it).
  string(FIND "${run_stdout}" "{\"paths_completed\"" at REVERSE)
  if(at GREATER_EQUAL 0)
    string(SUBSTRING "${run_stdout}" ${at} -1 json)
    string(STRIP "${json}" json)
  endif()
  if(json STREQUAL "")
    problem("no JSON summary on stdout\n    stdout: ${run_stdout}\n    stderr: ${run_stderr}")
  endif()
endif()

if(NOT json STREQUAL "")
  foreach(key paths_completed paths_partial tests)
    string(JSON actual_${key} ERROR_VARIABLE json_error GET "${json}" ${key})
    if(json_error)
      problem("the summary has no '${key}': ${json_error}")
      set(actual_${key} "?")
    endif()
  endforeach()
  string(JSON n_errors ERROR_VARIABLE json_error LENGTH "${json}" errors)
  if(json_error)
    problem("the summary has no 'errors' array: ${json_error}")
    set(n_errors 0)
  endif()
  set(error_tests "")
  if(n_errors GREATER 0)
    math(EXPR last "${n_errors} - 1")
    foreach(i RANGE ${last})
      string(JSON type GET "${json}" errors ${i} type)
      string(JSON kind GET "${json}" errors ${i} kind)
      string(JSON line GET "${json}" errors ${i} line)
      string(JSON test ERROR_VARIABLE json_error GET "${json}" errors ${i} test)
      string(JSON file ERROR_VARIABLE file_error GET "${json}" errors ${i} file)
      string(JSON msg ERROR_VARIABLE msg_error GET "${json}" errors ${i} message)
      string(REPLACE ";" "," msg "${msg}")
      list(APPEND actual_errors "${type} ${kind} ${line}")
      list(APPEND actual_error_details "${type} ${kind} ${line}  (${file}: ${msg}) [${test}]")
      if(json_error OR test STREQUAL "")
        problem("error ${type} ${kind} ${line} names no test")
      else()
        list(APPEND error_tests "${test}")
        if(NOT EXISTS "${out}/${test}")
          problem("error ${type} ${kind} ${line}: its test ${test} does not exist")
        endif()
        string(REGEX REPLACE "\\.ktest$" "" stem "${test}")
        if(NOT EXISTS "${out}/${stem}.${type}.err")
          problem("error ${type} ${kind} ${line}: no ${stem}.${type}.err beside its test")
        endif()
      endif()
    endforeach()
  endif()
  list(SORT actual_errors)
  list(LENGTH actual_errors n_listed)
  set(actual_errors_unique ${actual_errors})
  list(REMOVE_DUPLICATES actual_errors_unique)
  list(LENGTH actual_errors_unique n_unique)
  if(NOT n_listed EQUAL n_unique)
    problem("the summary lists an error location more than once: ${actual_errors}")
  endif()
  set(actual_errors ${actual_errors_unique})

  # Counts.
  foreach(key paths_completed paths_partial tests)
    if(errors_only_args STREQUAL "" AND NOT "${actual_${key}}" STREQUAL "${expected_${key}}")
      problem("${key}: expected ${expected_${key}}, got ${actual_${key}}")
    endif()
  endforeach()

  foreach(counter IN LISTS expected_counters)
    string(REGEX MATCH "^([a-z_]+)\\.([a-z_]+)=([0-9]+)$" _ "${counter}")
    set(group "${CMAKE_MATCH_1}")
    set(key "${CMAKE_MATCH_2}")
    set(want "${CMAKE_MATCH_3}")
    string(JSON got ERROR_VARIABLE json_error GET "${json}" ${group} ${key})
    if(json_error)
      problem("the summary has no '${group}.${key}'")
    elseif(errors_only_args STREQUAL "" AND NOT got STREQUAL want)
      problem("${group}.${key}: expected ${want}, got ${got}")
    endif()
  endforeach()

  # The exact set of errors.
  set(missing ${expected_errors})
  if(actual_errors)
    list(REMOVE_ITEM missing ${actual_errors})
  endif()
  set(unexpected ${actual_errors})
  if(expected_errors)
    list(REMOVE_ITEM unexpected ${expected_errors})
  endif()
  foreach(e IN LISTS missing)
    problem("expected error '${e}' was not reported")
  endforeach()
  foreach(e IN LISTS unexpected)
    problem("unexpected error '${e}'")
  endforeach()

  # The output directory agrees with the summary.
  if(EXISTS "${out}/summary.json")
    file(READ "${out}/summary.json" summary_file)
    string(STRIP "${summary_file}" summary_file)
    string(STRIP "${json}" json_stripped)
    if(NOT summary_file STREQUAL json_stripped)
      problem("summary.json differs from the --json output\n    summary.json: ${summary_file}\n    stdout:       ${json_stripped}")
    endif()
  else()
    problem("no summary.json in ${out}")
  endif()
  file(GLOB ktests RELATIVE "${out}" "${out}/*.ktest")
  list(LENGTH ktests n_ktests)
  if(NOT n_ktests EQUAL "${actual_tests}")
    problem("${n_ktests} .ktest files in the output directory, but the summary says tests=${actual_tests}")
  endif()
  file(GLOB errs RELATIVE "${out}" "${out}/*.err")
  list(LENGTH errs n_errs)
  if(NOT n_errs EQUAL n_errors)
    problem("${n_errs} .err files in the output directory, but the summary lists ${n_errors} errors")
  endif()
  file(GLOB earlies RELATIVE "${out}" "${out}/*.early")
  list(LENGTH earlies n_earlies)
  if(NOT n_earlies EQUAL "${actual_paths_partial}")
    problem("${n_earlies} .early files in the output directory, but the summary says paths_partial=${actual_paths_partial}")
  endif()
  # The symbolic-size model's bound: each partial path it cut says so in its .early file, and
  # summary.json's size_bound counts exactly those (no size_bound, no such path).
  set(n_cut 0)
  foreach(early IN LISTS earlies)
    file(READ "${out}/${early}" reason)
    if(reason MATCHES "not explored \\(--capacity\\)")
      math(EXPR n_cut "${n_cut} + 1")
    endif()
  endforeach()
  string(JSON summary_cut ERROR_VARIABLE no_size_bound GET "${json}" size_bound paths_cut)
  if(no_size_bound)
    set(summary_cut 0)
  endif()
  if(NOT n_cut EQUAL summary_cut)
    problem("${n_cut} partial paths cut by the capacity in the output directory, but the summary's size_bound says paths_cut=${summary_cut}")
  endif()

  # Model comparison: the same exploration as the baseline run, so the same summary counts and,
  # test for test, the same files (inputs, errors with their messages and stacks, partial
  # paths' reasons). A time limit makes the tests depend on speed: then only the counts and
  # errors above are compared, through the expectations.
  set(compared_with_baseline FALSE)
  if(NOT compare_args STREQUAL "")
    if(NOT baseline_rc STREQUAL "0")
      problem("the baseline run exited with '${baseline_rc}' (want 0)\n    stderr: ${baseline_stderr}")
    elseif(NOT "--max-time" IN_LIST cairn_args)
      foreach(key paths_completed paths_partial tests instructions forks)
        string(JSON base_value ERROR_VARIABLE json_error GET "${baseline_stdout}" ${key})
        string(JSON this_value ERROR_VARIABLE json_error GET "${json}" ${key})
        if(NOT base_value STREQUAL this_value)
          problem("${key}: ${this_value}, but ${base_value} in the standard model")
        endif()
      endforeach()
      file(GLOB base_files RELATIVE "${baseline}" "${baseline}/*.ktest" "${baseline}/*.err" "${baseline}/*.early")
      file(GLOB this_files RELATIVE "${out}" "${out}/*.ktest" "${out}/*.err" "${out}/*.early")
      list(SORT base_files)
      list(SORT this_files)
      if(NOT base_files STREQUAL this_files)
        problem("the output files differ from the standard model's:\n    standard: ${base_files}\n    this:     ${this_files}")
      else()
        set(n_differing 0)
        foreach(f IN LISTS base_files)
          file(SHA256 "${baseline}/${f}" base_hash)
          file(SHA256 "${out}/${f}" this_hash)
          if(NOT base_hash STREQUAL this_hash)
            math(EXPR n_differing "${n_differing} + 1")
            if(n_differing LESS_EQUAL 5)
              problem("${f} differs from the standard model's")
            endif()
          endif()
        endforeach()
        if(n_differing EQUAL 0)
          set(compared_with_baseline TRUE)
          list(LENGTH base_files n_compared)
          message("e2e ${e2e_name}: ${n_compared} output files identical to the standard model's")
        endif()
      endif()
    endif()
  endif()

  # Replay every test natively, with the run's options that shape the native build. Tests
  # identical to the baseline's replay like those; the baseline's own test replays them.
  if(compared_with_baseline)
    message("e2e ${e2e_name}: not replayed (identical to the standard model's tests)")
  elseif(REPLAY AND NOT no_replay STREQUAL "")
    message("e2e ${e2e_name}: not replayed (NO-REPLAY: ${no_replay})")
  elseif(REPLAY AND NOT known_failing STREQUAL "")
    message("e2e ${e2e_name}: not replayed (KNOWN-FAILING: the run's outcome is not the right one)")
  elseif(REPLAY AND run_rc STREQUAL "0")
    set(replay_flags "")
    list(LENGTH cairn_args n_args)
    set(i 0)
    while(i LESS n_args)
      list(GET cairn_args ${i} a)
      if(a STREQUAL "--cflag" OR a STREQUAL "--entry")
        math(EXPR i "${i} + 1")
        if(i LESS n_args)
          list(GET cairn_args ${i} v)
          list(APPEND replay_flags ${a} "${v}")
        endif()
      elseif(a MATCHES "^--(cflag|entry)=" OR a STREQUAL "--check-overflow" OR a STREQUAL "--check-overshift"
             OR a STREQUAL "--check-leaks" OR a STREQUAL "--check-memcleanup")
        list(APPEND replay_flags "${a}")
      endif()
      math(EXPR i "${i} + 1")
    endwhile()
    # cairn replay takes the output directory: one native build for all its tests, of which it
    # replays those of paths that ended (a partial path's test has no outcome to reproduce: the
    # engine stopped it early, natively it runs on).
    set(n_partial 0)
    foreach(t IN LISTS ktests)
      string(REGEX REPLACE "\\.ktest$" "" stem "${t}")
      if(EXISTS "${out}/${stem}.early")
        math(EXPR n_partial "${n_partial} + 1")
      endif()
    endforeach()
    math(EXPR n_replayed "${n_ktests} - ${n_partial}")
    if(DEFINED REPLAY_CACHE AND NOT REPLAY_CACHE STREQUAL "")
      list(APPEND replay_flags --build-cache "${REPLAY_CACHE}")
    endif()
    execute_process(COMMAND "${CAIRN}" replay ${replay_flags} "${PROGRAM}" "${out}"
                    OUTPUT_VARIABLE replay_out ERROR_VARIABLE replay_err RESULT_VARIABLE replay_rc)
    if(NOT replay_rc STREQUAL "0")
      # Keep the lines about tests that were not reproduced.
      string(REPLACE ";" "," replay_text "${replay_out}${replay_err}\n")
      string(REGEX MATCHALL "[^\n]*\n" replay_lines "${replay_text}")
      set(not_reproduced "")
      foreach(l IN LISTS replay_lines)
        if(NOT l MATCHES ": reproduced\n$")
          string(APPEND not_reproduced "    ${l}")
        endif()
      endforeach()
      problem("cairn replay exited with '${replay_rc}' (want 0):\n${not_reproduced}")
    elseif(NOT replay_out MATCHES "(^|\n)${n_replayed} of ${n_replayed} tests reproduced")
      problem("cairn replay did not reproduce the ${n_replayed} tests of paths that ended:\n${replay_out}")
    endif()
    message("e2e ${e2e_name}: replayed ${n_replayed} tests natively (${n_partial} partial-path tests not replayed)")
  endif()
endif()

# --- the verdict --------------------------------------------------------------------------------
string(JOIN "\n            " expected_errors_text ${expected_errors})
string(JOIN "\n            " actual_errors_text ${actual_error_details})
set(report
  "e2e ${e2e_name}: ${command_text}  (${seconds} s)\n"
  "  expected: paths_completed=${expected_paths_completed} paths_partial=${expected_paths_partial} tests=${expected_tests}\n"
  "    errors: ${expected_errors_text}\n"
  "  actual:   paths_completed=${actual_paths_completed} paths_partial=${actual_paths_partial} tests=${actual_tests}\n"
  "    errors: ${actual_errors_text}\n")
string(CONCAT report ${report})

if(NOT known_failing STREQUAL "" AND NOT errors_only_args STREQUAL "")
  message("CAIRN-E2E-SKIP ${e2e_name}: KNOWN-FAILING: ${known_failing} (its expectations are not the right ones)")
  return()
endif()
if(NOT known_failing STREQUAL "")
  if(problems STREQUAL "")
    message(FATAL_ERROR "${report}e2e ${e2e_name}: PASSES although marked KNOWN-FAILING "
                        "(${known_failing}): remove the KNOWN-FAILING line")
  endif()
  message("${report}differences:\n${problems}")
  if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.29)
    message("e2e ${e2e_name}: skipped, KNOWN-FAILING: ${known_failing}")
    cmake_language(EXIT 77)
  endif()
  message("CAIRN-E2E-SKIP ${e2e_name}: KNOWN-FAILING: ${known_failing}")
  return()
endif()

if(NOT problems STREQUAL "")
  message(FATAL_ERROR "${report}FAILED:\n${problems}")
endif()
message("${report}e2e ${e2e_name}: passed")
