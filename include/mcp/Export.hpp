#pragma once
// MCP_API marks what libmcp's shared libraries export. They are built with hidden visibility, so
// what is not marked stays internal: a smaller dynamic symbol table, faster loading, and private
// code that can change without breaking programs linked against the library. In a static build
// the mark changes nothing.

#if defined(__GNUC__) || defined(__clang__)
#define MCP_API __attribute__((visibility("default")))
#else
#define MCP_API
#endif
