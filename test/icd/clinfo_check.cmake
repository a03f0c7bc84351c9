# Runs clinfo and fails unless it exits 0 and shows the Hetero platform with its device.
execute_process(COMMAND ${CLINFO} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "clinfo exited with ${rc}\n${out}\n${err}")
endif()
foreach(expected "Platform Name +Hetero" "Platform Extensions function suffix +HETERO" "Number of devices +1"
                 "Device Name +Hetero: " "Device Version +OpenCL [0-9]\\.[0-9] Hetero")
  if(NOT out MATCHES "${expected}")
    message(FATAL_ERROR "clinfo output lacks '${expected}':\n${out}")
  endif()
endforeach()
message(STATUS "clinfo lists Hetero")
