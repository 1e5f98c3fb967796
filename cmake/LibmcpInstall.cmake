# Installs libmcp for other projects: headers under include/mcp/, the static archives and (built
# with BUILD_SHARED_LIBS) the shared libraries, a CMake package (find_package(mcpkit) with
# components http and redis, static or shared) and pkg-config files. All of it is the DEB package
# libmcp-dev's, but for the shared libraries themselves, which are the runtime package libmcp<soversion>.
include(CMakePackageConfigHelpers)
set(MCPKIT_CMAKE_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/mcpkit)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/mcp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        COMPONENT libmcp-dev FILES_MATCHING PATTERN "*.hpp")
install(FILES ${PROJECT_BINARY_DIR}/include/mcp/Version.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/mcp COMPONENT libmcp-dev)

# One export set per part and flavour, so the package loads only what was asked for.
foreach(part mcpkit_mcp mcpkit_mcp_http mcpkit_mcp_redis)
  if(NOT TARGET ${part})  # left out: MCPKIT_WITH_HTTP or MCPKIT_WITH_REDIS is OFF
    continue()
  endif()
  get_target_property(component ${part} EXPORT_NAME)
  set(flavours static)
  if(TARGET ${part}_shared)
    list(APPEND flavours shared)
  endif()
  foreach(flavour IN LISTS flavours)
    set(target ${part})
    if(flavour STREQUAL "shared")
      set(target ${part}_shared)
    endif()
    install(TARGETS ${target} EXPORT mcpkit-${component}-${flavour}
      ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT libmcp-dev
      LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT libmcp NAMELINK_COMPONENT libmcp-dev)
    install(EXPORT mcpkit-${component}-${flavour} NAMESPACE mcpkit::
      FILE mcpkit-${component}-${flavour}-targets.cmake
      DESTINATION ${MCPKIT_CMAKE_PACKAGE_DIR} COMPONENT libmcp-dev)
  endforeach()
endforeach()

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/package/mcpkitConfig.cmake.in
  ${PROJECT_BINARY_DIR}/package/mcpkitConfig.cmake INSTALL_DESTINATION ${MCPKIT_CMAKE_PACKAGE_DIR})
# Before 1.0 a minor version may break the API (docs/versioning.md): 0.1.x is compatible with 0.1.0
# only. From 1.0 on, any later version of the same major is.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(compatibility SameMinorVersion)
else()
  set(compatibility SameMajorVersion)
endif()
write_basic_package_version_file(${PROJECT_BINARY_DIR}/package/mcpkitConfigVersion.cmake
  COMPATIBILITY ${compatibility})
install(FILES ${PROJECT_BINARY_DIR}/package/mcpkitConfig.cmake ${PROJECT_BINARY_DIR}/package/mcpkitConfigVersion.cmake
  DESTINATION ${MCPKIT_CMAKE_PACKAGE_DIR} COMPONENT libmcp-dev)

# pkg-config: mcpkit (the core), mcpkit-http, mcpkit-redis. Installed under /usr (the DEB) they
# name /usr, so pkg-config recognises its system directories and leaves them out of the flags;
# anywhere else the prefix is found from the file's own place, so the tree can move.
set(MCPKIT_PKGCONFIG_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH MCPKIT_PKGCONFIG_TO_PREFIX /prefix/${MCPKIT_PKGCONFIG_DIR} /prefix)
set(pkgconfig_files mcpkit)
if(MCPKIT_WITH_HTTP)
  list(APPEND pkgconfig_files mcpkit-http)
endif()
if(MCPKIT_WITH_REDIS)
  list(APPEND pkgconfig_files mcpkit-redis)
endif()
foreach(file IN LISTS pkgconfig_files)
  set(MCPKIT_PKGCONFIG_PREFIX "\${pcfiledir}/${MCPKIT_PKGCONFIG_TO_PREFIX}")
  configure_file(${CMAKE_CURRENT_LIST_DIR}/package/${file}.pc.in ${PROJECT_BINARY_DIR}/package/relocatable/${file}.pc @ONLY)
  set(MCPKIT_PKGCONFIG_PREFIX /usr)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/package/${file}.pc.in ${PROJECT_BINARY_DIR}/package/usr/${file}.pc @ONLY)
endforeach()
install(CODE "
  set(pkgconfig_flavour relocatable)
  if(CMAKE_INSTALL_PREFIX STREQUAL \"/usr\")
    set(pkgconfig_flavour usr)
  endif()
  file(INSTALL \"${PROJECT_BINARY_DIR}/package/\${pkgconfig_flavour}/\" DESTINATION \"\${CMAKE_INSTALL_PREFIX}/${MCPKIT_PKGCONFIG_DIR}\"
       FILES_MATCHING PATTERN \"*.pc\")" COMPONENT libmcp-dev)
