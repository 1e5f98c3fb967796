// The navigation index's readers of what comes from outside: source files of any content in any
// of analyze's languages (the first byte picks the language), read into symbols inside a parse
// arena, stored and read back; and stored bytes of any content read as symbols. Nothing may crash,
// leak or read out of bounds, and what is stored must read back the same.

#include "analyze/navigation/SymbolExtractor.hpp"
#include "analyze/navigation/SymbolsCodec.hpp"
#include "analyze/syntax/ParseArena.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

using namespace mcpkit::analyze;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    Language language = all_languages[data[0] % language_count];
    std::string_view source(reinterpret_cast<const char*>(data + 1), size - 1);
    FileSymbols symbols;
    {
        ParseArena arena;
        symbols = extract_symbols(source, language, "fuzz");
    }
    for (const Definition& definition : symbols.definitions)
        if (definition.name >= symbols.strings.size() || definition.parent >= static_cast<std::int32_t>(symbols.definitions.size()))
            std::abort();
    for (const Reference& reference : symbols.references)
        if (reference.name >= symbols.strings.size() || reference.enclosing >= static_cast<std::int32_t>(symbols.definitions.size()))
            std::abort();
    std::string stored = encode_symbols(symbols);
    std::optional<FileSymbols> back = decode_symbols(stored);
    if (!back || back->strings != symbols.strings || back->definitions.size() != symbols.definitions.size() ||
        back->references.size() != symbols.references.size())
        std::abort();
    (void)decode_symbols(std::string_view(reinterpret_cast<const char*>(data), size));
    return 0;
}
