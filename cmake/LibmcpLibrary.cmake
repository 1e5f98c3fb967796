# mcpkit_add_libmcp(NAME EXPORT_NAME <name> OUTPUT_NAME <file> SOURCES ... [LIBMCP_PARTS ...] [PUBLIC_LIBRARIES ...]
#                   [PRIVATE_LIBRARIES ...] [PUBLIC_DEFINITIONS ...] [PRECOMPILED_HEADERS ...] [OPENSSL])
#
# One part of libmcp: NAME_objects compiled once, the static archive NAME, and with
# BUILD_SHARED_LIBS the shared library NAME_shared (lib<file>.a, lib<file>.so.VERSION with the
# soname by SOVERSION).
# LIBMCP_PARTS names the other parts this one builds on, which each variant links in the same
# flavour (mcpkit_mcp_http_shared links mcpkit_mcp_shared). mcpkit::EXPORT_NAME is the alias a project that adds
# mcpkit with add_subdirectory or FetchContent links: the shared variant if BUILD_SHARED_LIBS is on.
# OPENSSL: the part uses OpenSSL; the shared variant links the system's shared libssl even where
# the mcpkit binary links it statically.

# Pre-1.0, a minor version may break the ABI (docs/versioning.md), so it is in the soname.
# (Cached so the packaging, in another directory, names the runtime package after it.)
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(MCPKIT_SOVERSION "${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR}" CACHE INTERNAL "")
else()
  set(MCPKIT_SOVERSION "${PROJECT_VERSION_MAJOR}" CACHE INTERNAL "")
endif()

# Debian keeps libraries in lib/<multiarch> (under /usr and /usr/local alike), where ld.so, CMake
# and pkg-config look; the DEB packages must put them there.
if(PROJECT_IS_TOP_LEVEL AND NOT DEFINED CMAKE_INSTALL_LIBDIR AND CMAKE_LIBRARY_ARCHITECTURE AND EXISTS /etc/debian_version)
  set(CMAKE_INSTALL_LIBDIR lib/${CMAKE_LIBRARY_ARCHITECTURE} CACHE PATH "Object code libraries (lib/<multiarch> on Debian)")
endif()
include(GNUInstallDirs)

function(mcpkit_add_libmcp name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "OPENSSL" "EXPORT_NAME;OUTPUT_NAME"
    "SOURCES;LIBMCP_PARTS;PUBLIC_LIBRARIES;PRIVATE_LIBRARIES;PUBLIC_DEFINITIONS;PRECOMPILED_HEADERS")

  add_library(${name}_objects OBJECT ${arg_SOURCES})
  set_target_properties(${name}_objects PROPERTIES
    POSITION_INDEPENDENT_CODE ON CXX_VISIBILITY_PRESET hidden C_VISIBILITY_PRESET hidden)
  target_include_directories(${name}_objects PRIVATE ${PROJECT_SOURCE_DIR}/src/mcp)
  # Private headers refuse to compile elsewhere, though applications have src/ on their include path.
  target_compile_definitions(${name}_objects PRIVATE MCPKIT_BUILDING_LIBMCP)
  # Calls between libmcp's own exported functions stay direct calls, not through the PLT.
  target_compile_options(${name}_objects PRIVATE $<$<CXX_COMPILER_ID:GNU>:-fno-semantic-interposition>)
  if(arg_OPENSSL)
    target_link_libraries(${name}_objects PRIVATE OpenSSL::SSL)
  endif()
  target_link_libraries(${name}_objects PUBLIC ${arg_LIBMCP_PARTS} ${arg_PUBLIC_LIBRARIES}
                        PRIVATE ${arg_PRIVATE_LIBRARIES} mcpkit_warnings)
  target_compile_definitions(${name}_objects PUBLIC ${arg_PUBLIC_DEFINITIONS})
  target_include_directories(${name}_objects PUBLIC ${PROJECT_SOURCE_DIR}/include ${PROJECT_BINARY_DIR}/include)
  # Precompiled headers speed up this project's own build; a project that adds mcpkit as a
  # subdirectory may use another compiler, and without them ccache serves its builds.
  if(arg_PRECOMPILED_HEADERS AND PROJECT_IS_TOP_LEVEL)
    target_precompile_headers(${name}_objects PRIVATE ${arg_PRECOMPILED_HEADERS})
  endif()

  set(variants ${name})
  add_library(${name} STATIC $<TARGET_OBJECTS:${name}_objects>)
  if(BUILD_SHARED_LIBS)
    add_library(${name}_shared SHARED $<TARGET_OBJECTS:${name}_objects>)
    set_target_properties(${name}_shared PROPERTIES
      VERSION ${PROJECT_VERSION} SOVERSION ${MCPKIT_SOVERSION})
    # Every symbol a part needs is resolved when it is linked, not left for the program to find.
    target_link_options(${name}_shared PRIVATE -Wl,--no-undefined)
    list(APPEND variants ${name}_shared)
  endif()

  foreach(variant IN LISTS variants)
    set(suffix "")
    if(variant MATCHES "_shared$")
      set(suffix _shared)
    endif()
    set(parts "")
    foreach(part IN LISTS arg_LIBMCP_PARTS)
      list(APPEND parts ${part}${suffix})
    endforeach()
    set_target_properties(${variant} PROPERTIES EXPORT_NAME ${arg_EXPORT_NAME} OUTPUT_NAME ${arg_OUTPUT_NAME}
      LINKER_LANGUAGE CXX)
    target_include_directories(${variant} PUBLIC
      $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include> $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
      $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
    target_compile_definitions(${variant} PUBLIC ${arg_PUBLIC_DEFINITIONS})
    target_compile_features(${variant} PUBLIC cxx_std_20)
    target_link_libraries(${variant} PUBLIC ${parts} ${arg_PUBLIC_LIBRARIES} PRIVATE ${arg_PRIVATE_LIBRARIES})
    if(arg_OPENSSL AND suffix)
      target_link_libraries(${variant} PRIVATE $<BUILD_INTERFACE:mcpkit_shared_openssl>)
    elseif(arg_OPENSSL)
      target_link_libraries(${variant} PRIVATE OpenSSL::SSL OpenSSL::Crypto)
    endif()
  endforeach()

  if(BUILD_SHARED_LIBS)
    add_library(mcpkit::${arg_EXPORT_NAME} ALIAS ${name}_shared)
  else()
    add_library(mcpkit::${arg_EXPORT_NAME} ALIAS ${name})
  endif()
endfunction()
