# Header-only dependencies from Debian packages, wrapped as imported targets so the rest of the
# build names them like any other library.

if(NOT MCPKIT_LIBRARY_ONLY)  # the mcpkit binary's command line
  find_path(CLI11_INCLUDE_DIR CLI/CLI.hpp REQUIRED)
  add_library(cli11 INTERFACE IMPORTED)
  target_include_directories(cli11 SYSTEM INTERFACE ${CLI11_INCLUDE_DIR})
endif()

# hiredis (Debian libhiredis-dev) for libmcp's Redis part.
find_package(PkgConfig REQUIRED)
if(MCPKIT_WITH_REDIS)
  pkg_check_modules(HIREDIS REQUIRED IMPORTED_TARGET hiredis)
endif()
