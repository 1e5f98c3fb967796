# Installing the mcpkit binary and making the DEB packages.
#
#   cmake --build --preset release --target deb     # build/release/packages/*.deb
#
# Two packages: mcpkit (the binary, its man page, the Chrome and VS Code extensions' built files
# under share/mcpkit/extensions) and libmcp-dev (headers, static and shared libraries, the CMake
# and pkg-config packages; cmake/LibmcpInstall.cmake). Their dependencies are the Debian packages
# the files need, found by dpkg-shlibdeps, plus what building against libmcp takes.
include(GNUInstallDirs)

install(TARGETS mcpkit RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT mcpkit)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/CHANGELOG.md ${PROJECT_SOURCE_DIR}/docs/security.md
  DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT mcpkit)

# The man page, written by help2man from `mcpkit --help` and `--version` (docs/mcpkit.h2m adds
# the rest), compressed as Debian's policy wants.
find_program(HELP2MAN help2man)
if(HELP2MAN)
  set(man_page ${PROJECT_BINARY_DIR}/man/mcpkit.1)
  add_custom_command(OUTPUT ${man_page}.gz
    COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/man
    COMMAND ${HELP2MAN} --no-info --section=1 --include=${PROJECT_SOURCE_DIR}/docs/mcpkit.h2m
            --name "a Model Context Protocol toolkit: servers, client, chat host" --output=${man_page} $<TARGET_FILE:mcpkit>
    COMMAND sh -c "gzip -9n < '${man_page}' > '${man_page}.gz'"
    DEPENDS mcpkit ${PROJECT_SOURCE_DIR}/docs/mcpkit.h2m VERBATIM)
  add_custom_target(man_page ALL DEPENDS ${man_page}.gz)
  install(FILES ${man_page}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT mcpkit)
else()
  message(STATUS "help2man not found: no man page (Debian: help2man)")
endif()

# The extensions are built by npm (scripts/bootstrap.sh installs their tools): the Chrome
# extension unpacked (for "Load unpacked") and zipped, the VS Code extension as a .vsix.
set(CHROME_EXTENSION_DIR ${PROJECT_SOURCE_DIR}/extensions/chrome)
set(VSCODE_EXTENSION_DIR ${PROJECT_SOURCE_DIR}/extensions/vscode)
add_custom_target(extensions
  COMMAND npm run --silent package WORKING_DIRECTORY ${CHROME_EXTENSION_DIR}
  COMMAND sh -c "npm run --silent build && npm run --silent package" WORKING_DIRECTORY ${VSCODE_EXTENSION_DIR}
  COMMENT "Building the Chrome and VS Code extensions" VERBATIM)
set(extensions_destination ${CMAKE_INSTALL_DATADIR}/mcpkit/extensions)
install(DIRECTORY ${CHROME_EXTENSION_DIR}/dist/ DESTINATION ${extensions_destination}/chrome COMPONENT mcpkit OPTIONAL)
install(FILES ${CHROME_EXTENSION_DIR}/mcpkit-devconsole.zip ${VSCODE_EXTENSION_DIR}/mcpkit-review.vsix
  DESTINATION ${extensions_destination} COMPONENT mcpkit OPTIONAL)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME mcpkit)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "mcpkit")
set(CPACK_PACKAGE_CONTACT "mcpkit developers <mcpkit@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Model Context Protocol toolkit")
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR}/packages)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL mcpkit libmcp-dev)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://modelcontextprotocol.io")

set(CPACK_DEBIAN_MCPKIT_PACKAGE_NAME mcpkit)
set(CPACK_DEBIAN_MCPKIT_PACKAGE_SECTION utils)
set(CPACK_COMPONENT_MCPKIT_DESCRIPTION
  "Model Context Protocol toolkit\n mcpkit runs MCP servers (review, devconsole, analyze, everything), an MCP client\n and a chat host that lets an LLM call tools from any MCP servers. It also\n carries the Chrome (devconsole) and VS Code (review) extensions' built files.")

set(CPACK_DEBIAN_LIBMCP-DEV_PACKAGE_NAME libmcp-dev)
set(CPACK_DEBIAN_LIBMCP-DEV_PACKAGE_SECTION libdevel)
# What a program built against libmcp needs besides the libraries' own shared dependencies: the
# headers libmcp's headers include, and what its CMake and pkg-config packages look for.
set(CPACK_DEBIAN_LIBMCP-DEV_PACKAGE_DEPENDS
  "libboost1.81-dev, libboost-url1.81-dev, libssl-dev, libhiredis-dev, pkg-config, g++ (>= 4:12)")
set(CPACK_COMPONENT_LIBMCP-DEV_DESCRIPTION
  "Model Context Protocol library for C++ (development files)\n libmcp: JSON-RPC, MCP server and client APIs, stdio and Streamable HTTP\n transports, OAuth, Redis stores. Headers, static and shared libraries, the\n CMake package (find_package(mcpkit)) and pkg-config files.")

include(CPack)

# One target for the whole package build: the binary, the man page, the extensions, then cpack.
add_custom_target(deb
  COMMAND ${CMAKE_CPACK_COMMAND} --config ${PROJECT_BINARY_DIR}/CPackConfig.cmake
  WORKING_DIRECTORY ${PROJECT_BINARY_DIR}
  COMMENT "Making the DEB packages in ${PROJECT_BINARY_DIR}/packages" VERBATIM)
add_dependencies(deb mcpkit extensions)
if(TARGET man_page)
  add_dependencies(deb man_page)
endif()
