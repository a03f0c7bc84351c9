# Runs a PolyBench program at MINI size natively on PoCL and through Hetero, and fails unless both
# pass their check and Hetero's results are bit-identical to PoCL's (equal --digest): the tolerance
# of the program's own check would let a wrong merge of a few elements through.
#   cmake -DPROGRAM=<polybench-x> -DHETERO_ENV=<VAR=value|VAR=value|...> [-DEXPECT_NWAY=ON] -P same_bits.cmake
# HETERO_ENV ('|'-separated) is the environment of the Hetero run only; the native run gets the
# test's own environment, in which the loader shows PoCL as it does for bench.*.native.
# EXPECT_NWAY: the Hetero run must also have split launches N-way (platform/split/nway_split.hpp),
# as its counters logged at exit say (HETERO_LOG=info is added for that).
string(REPLACE "|" ";" hetero_env "${HETERO_ENV}")
if(EXPECT_NWAY)
  list(APPEND hetero_env HETERO_LOG=info)
endif()

# Runs `launcher` (a list, may be empty) + the program + --size MINI --digest --platform `platform`;
# sets `out` to the digest it printed.
function(run_once label out launcher platform)
  execute_process(COMMAND ${launcher} ${PROGRAM} --size MINI --digest --platform ${platform}
                  OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr RESULT_VARIABLE rc)
  string(REGEX MATCH "polybench digest=([0-9a-f]+)" digest "${stdout}")
  set(digest "${CMAKE_MATCH_1}")
  if(NOT rc EQUAL 0 OR NOT stdout MATCHES "result=PASS" OR NOT digest)
    message(FATAL_ERROR "${label} run failed (exit ${rc}):\n${stdout}${stderr}")
  endif()
  set(${out} ${digest} PARENT_SCOPE)
  set(last_log "${stderr}" PARENT_SCOPE)
  message(STATUS "${label}: ${stdout}")
endfunction()

run_once("native PoCL" native "" Portable)
run_once("Hetero" hetero "${CMAKE_COMMAND};-E;env;${hetero_env};--" Hetero)
if(EXPECT_NWAY AND NOT last_log MATCHES "launches_split_nway=[1-9]")
  string(REGEX MATCH "counters: [^\n]*" counters "${last_log}")
  message(FATAL_ERROR "the Hetero run split no launch N-way (${counters})")
endif()
# NVIDIA rounds differently from PoCL (docs/hazards.md, H7): with it among the slots only the
# program's own check applies.
if(HETERO_ENV MATCHES "HETERO_DEVICES=[^|]*nvidia")
  return()
endif()
if(NOT native STREQUAL hetero)
  message(FATAL_ERROR "Hetero's results differ from PoCL's: digest ${hetero}, PoCL's ${native}")
endif()
