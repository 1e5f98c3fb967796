# cmake -DPROFILE_DIR=DIR -DSTAMP=FILE -P TrainGrammars.cmake -- TRAINER ARGUMENTS...
#
# Runs grammar_trainer on fresh counts (an instrumented program adds to the .gcda files it finds,
# so old ones would make the profile depend on how often the build ran), then touches the stamp
# the trained objects depend on.
set(command)
set(after_separator OFF)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(index RANGE ${last})
  if(after_separator)
    list(APPEND command "${CMAKE_ARGV${index}}")
  elseif(CMAKE_ARGV${index} STREQUAL "--")
    set(after_separator ON)
  endif()
endforeach()
if(NOT command OR NOT PROFILE_DIR OR NOT STAMP)
  message(FATAL_ERROR "usage: cmake -DPROFILE_DIR=DIR -DSTAMP=FILE -P TrainGrammars.cmake -- TRAINER ARGUMENTS...")
endif()

file(GLOB old_counts ${PROFILE_DIR}/*.gcda)
if(old_counts)
  file(REMOVE ${old_counts})
endif()
execute_process(COMMAND ${command} RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "grammar_trainer failed (${status}): the trained tree-sitter build needs its corpus")
endif()
file(TOUCH ${STAMP})
