# Installing the mcpkit binary and making the DEB packages.
#
#   cmake --build --preset release --target deb     # build/release/packages/*.deb
#
# Three packages: mcpkit (the binary, its man page, the Chrome and VS Code extensions' built files
# under share/mcpkit/extensions), libmcp-dev (headers, static libraries, the shared libraries'
# development links, the CMake and pkg-config packages; cmake/LibmcpInstall.cmake) and the runtime
# libmcp<soversion> (the shared libraries, which programs linked against them need). Their
# dependencies are the Debian packages the files need, found by dpkg-shlibdeps, plus what building
# against libmcp takes.
include(GNUInstallDirs)

install(TARGETS mcpkit RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT mcpkit)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/docs/security.md
  DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT mcpkit)
# The changelogs as Debian names them: upstream's CHANGELOG.md as changelog.gz (mcpkit), and the
# packaging's own changelog.Debian.gz (every package), compressed with gzip -9n (policy 12.7).
set(package_docs ${PROJECT_BINARY_DIR}/package-docs)
configure_file(${PROJECT_SOURCE_DIR}/cmake/package/debian/changelog.in ${package_docs}/changelog.Debian @ONLY)
add_custom_command(OUTPUT ${package_docs}/changelog.gz ${package_docs}/changelog.Debian.gz
  COMMAND sh -c "gzip -9n < '${PROJECT_SOURCE_DIR}/CHANGELOG.md' > '${package_docs}/changelog.gz'"
  COMMAND sh -c "gzip -9n < '${package_docs}/changelog.Debian' > '${package_docs}/changelog.Debian.gz'"
  DEPENDS ${PROJECT_SOURCE_DIR}/CHANGELOG.md ${package_docs}/changelog.Debian VERBATIM)
add_custom_target(package_changelogs ALL DEPENDS ${package_docs}/changelog.gz ${package_docs}/changelog.Debian.gz)
install(FILES ${package_docs}/changelog.gz DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT mcpkit)
# Each package carries its copyright file (Debian policy 12.5) and its changelog.Debian.gz.
set(libmcp_runtime_package libmcp${MCPKIT_SOVERSION})
foreach(component_and_package mcpkit:mcpkit libmcp-dev:libmcp-dev libmcp:${libmcp_runtime_package})
  string(REPLACE ":" ";" pair ${component_and_package})
  list(GET pair 0 component)
  list(GET pair 1 package)
  install(FILES ${PROJECT_SOURCE_DIR}/cmake/package/copyright ${package_docs}/changelog.Debian.gz
    DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/${package} COMPONENT ${component})
endforeach()

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
# Not built by default (npm): installing the mcpkit package without them is an error that says how.
install(CODE "
  foreach(built ${CHROME_EXTENSION_DIR}/dist/manifest.json ${CHROME_EXTENSION_DIR}/mcpkit-devconsole.zip
                ${VSCODE_EXTENSION_DIR}/mcpkit-review.vsix)
    if(NOT EXISTS \${built})
      message(FATAL_ERROR \"\${built} is missing: build the extensions first (cmake --build <dir> --target extensions)\")
    endif()
  endforeach()" COMPONENT mcpkit)
install(DIRECTORY ${CHROME_EXTENSION_DIR}/dist/ DESTINATION ${extensions_destination}/chrome COMPONENT mcpkit)
install(FILES ${CHROME_EXTENSION_DIR}/mcpkit-devconsole.zip ${VSCODE_EXTENSION_DIR}/mcpkit-review.vsix
  DESTINATION ${extensions_destination} COMPONENT mcpkit)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME mcpkit)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "mcpkit")
set(CPACK_PACKAGE_CONTACT "mcpkit developers <mcpkit@users.noreply.github.com>")
# No CPACK_PACKAGE_DESCRIPTION_SUMMARY: CPack would put it above every package's own summary line.
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR}/packages)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL mcpkit libmcp-dev libmcp)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://modelcontextprotocol.io")
# Debian ships stripped binaries and libraries (policy 10.1); symbols belong in -dbgsym packages.
set(CPACK_STRIP_FILES ON)
# Packed relative relocations (DT_RELR) need glibc 2.36, which dpkg-shlibdeps does not know.
set(needs_libc "")
if(MCPKIT_LINKER_PACKS_RELOCATIONS)
  set(needs_libc "libc6 (>= 2.36)")
endif()

set(CPACK_DEBIAN_MCPKIT_PACKAGE_NAME mcpkit)
set(CPACK_DEBIAN_MCPKIT_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_MCPKIT_PACKAGE_DEPENDS "${needs_libc}")
set(CPACK_DEBIAN_MCPKIT_DESCRIPTION "Model Context Protocol toolkit: servers, client, chat host
mcpkit runs MCP servers (review, devconsole, analyze, everything), an MCP
client and a chat host that lets an LLM call tools from any MCP servers. It
also carries the Chrome (devconsole) and VS Code (review) extensions' built
files.")

set(CPACK_DEBIAN_LIBMCP_PACKAGE_NAME ${libmcp_runtime_package})
set(CPACK_DEBIAN_LIBMCP_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_LIBMCP_PACKAGE_DEPENDS "${needs_libc}")
set(CPACK_DEBIAN_LIBMCP_DESCRIPTION "Model Context Protocol library for C++ (shared libraries)
libmcp: JSON-RPC, MCP server and client APIs, stdio and Streamable HTTP
transports, OAuth, Redis stores. The shared libraries programs built against
libmcp-dev's shared flavour run with.")
# A shlibs file, so packages of programs linked against libmcp depend on it through dpkg-shlibdeps.
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
# ldconfig through a dpkg trigger, as dh_makeshlibs does. CPack's postinst and postrm still call it
# too (lintian's maintscript-calls-ldconfig warning): it has no switch for them, and scripts that
# do nothing would only trade that warning for maintainer-script-empty.
set(CPACK_DEBIAN_LIBMCP_PACKAGE_CONTROL_EXTRA ${PROJECT_SOURCE_DIR}/cmake/package/debian/triggers)
set(CPACK_DEBIAN_LIBMCP_PACKAGE_CONTROL_STRICT_PERMISSION ON)

set(CPACK_DEBIAN_LIBMCP-DEV_PACKAGE_NAME libmcp-dev)
set(CPACK_DEBIAN_LIBMCP-DEV_PACKAGE_SECTION libdevel)
# What a program built against libmcp needs besides the libraries' own shared dependencies: the
# headers libmcp's headers include, and what its CMake and pkg-config packages look for.
set(CPACK_DEBIAN_LIBMCP-DEV_PACKAGE_DEPENDS
  "${libmcp_runtime_package} (= ${PROJECT_VERSION}-1), libboost1.81-dev, libboost-url1.81-dev, libssl-dev, libhiredis-dev, pkg-config, g++ (>= 4:12)")
set(CPACK_DEBIAN_LIBMCP-DEV_DESCRIPTION "Model Context Protocol library for C++ (development files)
libmcp: JSON-RPC, MCP server and client APIs, stdio and Streamable HTTP
transports, OAuth, Redis stores. Headers, static libraries and the links to
the shared ones, the CMake package (find_package(mcpkit)) and pkg-config files.")

include(CPack)

# One target for the whole package build: the binary, the man page, the extensions, then cpack.
add_custom_target(deb
  COMMAND ${CMAKE_CPACK_COMMAND} --config ${PROJECT_BINARY_DIR}/CPackConfig.cmake
  WORKING_DIRECTORY ${PROJECT_BINARY_DIR}
  COMMENT "Making the DEB packages in ${PROJECT_BINARY_DIR}/packages" VERBATIM)
add_dependencies(deb mcpkit extensions package_changelogs)
if(TARGET man_page)
  add_dependencies(deb man_page)
endif()
