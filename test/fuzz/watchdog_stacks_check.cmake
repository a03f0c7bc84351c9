# Runs the fuzzer with HETERO_FUZZ_TEST_STALL (set by the test) and fails unless the watchdog aborted
# it and printed every thread's native stack: the fuzz threads stuck in clWaitForEvents inside
# Hetero, under the function that made them wait.
execute_process(COMMAND ${FUZZ} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}\n${err}")
if(rc EQUAL 0 OR NOT rc MATCHES "abort")
  message(FATAL_ERROR "the fuzzer was to abort, it ended with '${rc}':\n${all}")
endif()
foreach(expected
    "api_fuzz: HANG"
    "=== native stacks of all [0-9]+ threads"
    "--- thread [0-9]+ \"fuzz watchdog\" \\(this one, printing\\)"
    # each fuzz thread's frames (lines indented by four): Hetero's clWaitForEvents, then its caller
    "--- thread [0-9]+ \"fuzz 0\"[^\n]*\n(    [^\n]*\n)*    #[0-9]+ +0x[0-9a-f]+  clWaitForEvents\\+0x[0-9a-f]+  \\([^\n]*libHeteroOpenCL\\.so[.0-9]*\\+0x[0-9a-f]+\\)\n(    [^\n]*\n)*    #[0-9]+ +0x[0-9a-f]+  [^\n]*waitOnAUserEventNobodySets"
    "--- thread [0-9]+ \"fuzz 1\"[^\n]*\n(    [^\n]*\n)*    #[0-9]+ +0x[0-9a-f]+  clWaitForEvents\\+0x[0-9a-f]+  \\([^\n]*libHeteroOpenCL\\.so[.0-9]*\\+0x[0-9a-f]+\\)\n(    [^\n]*\n)*    #[0-9]+ +0x[0-9a-f]+  [^\n]*waitOnAUserEventNobodySets"
    "=== end of stacks ===")
  if(NOT all MATCHES "${expected}")
    message(FATAL_ERROR "the output lacks '${expected}':\n${all}")
  endif()
endforeach()
message(STATUS "the watchdog printed every thread's stack, the stuck call in it")
