# libmcp's API reference: `cmake --build <dir> --target docs` runs Doxygen (Debian: doxygen) over
# include/mcp/ and the examples, into <dir>/docs/api/html. Every warning fails it, so a public
# class or function without a summary does not get in (the test docs.api_reference_has_no_warnings).
find_package(Doxygen QUIET)
if(NOT DOXYGEN_FOUND)
  message(STATUS "doxygen not found: no docs target (Debian: doxygen)")
  return()
endif()
set(DOXYGEN_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/docs/api)
configure_file(${PROJECT_SOURCE_DIR}/docs/api/Doxyfile.in ${DOXYGEN_OUTPUT_DIRECTORY}/Doxyfile @ONLY)
add_custom_target(docs
  COMMAND ${CMAKE_COMMAND} -E make_directory ${DOXYGEN_OUTPUT_DIRECTORY}
  COMMAND ${DOXYGEN_EXECUTABLE} ${DOXYGEN_OUTPUT_DIRECTORY}/Doxyfile
  WORKING_DIRECTORY ${DOXYGEN_OUTPUT_DIRECTORY}
  COMMENT "API reference in ${DOXYGEN_OUTPUT_DIRECTORY}/html" VERBATIM)
