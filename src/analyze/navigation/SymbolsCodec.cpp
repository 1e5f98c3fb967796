#include "analyze/navigation/SymbolsCodec.hpp"

#include <cstdint>

namespace mcpkit::analyze {

namespace {

constexpr char format_version = 1;

class Writer {
public:
    void byte(std::uint8_t value) { out_ += static_cast<char>(value); }
    void number(std::uint64_t value) {
        while (value >= 0x80) {
            out_ += static_cast<char>((value & 0x7F) | 0x80);
            value >>= 7;
        }
        out_ += static_cast<char>(value);
    }
    void signed_number(std::int64_t value) { number((static_cast<std::uint64_t>(value) << 1) ^ static_cast<std::uint64_t>(value >> 63)); }
    void text(std::string_view value) {
        number(value.size());
        out_.append(value);
    }
    std::string take() { return std::move(out_); }

private:
    std::string out_;
};

class Reader {
public:
    explicit Reader(std::string_view in) : in_(in) {}
    bool failed() const { return failed_; }
    std::uint8_t byte() {
        if (position_ >= in_.size()) return fail();
        return static_cast<std::uint8_t>(in_[position_++]);
    }
    std::uint64_t number() {
        std::uint64_t value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (position_ >= in_.size()) return fail();
            auto part = static_cast<std::uint8_t>(in_[position_++]);
            value |= static_cast<std::uint64_t>(part & 0x7F) << shift;
            if (!(part & 0x80)) return value;
        }
        return fail();
    }
    std::int64_t signed_number() {
        std::uint64_t value = number();
        return static_cast<std::int64_t>(value >> 1) ^ -static_cast<std::int64_t>(value & 1);
    }
    std::string_view text() {
        std::uint64_t size = number();
        if (failed_ || size > in_.size() - position_) {
            fail();
            return {};
        }
        std::string_view value = in_.substr(position_, size);
        position_ += size;
        return value;
    }
    /// A count of items each taking at least one byte: more than the bytes left is damage.
    std::size_t count() {
        std::uint64_t value = number();
        if (value > in_.size() - position_) return fail();
        return static_cast<std::size_t>(value);
    }
    bool at_end() const { return position_ == in_.size(); }

private:
    std::uint8_t fail() {
        failed_ = true;
        position_ = in_.size();
        return 0;
    }
    std::string_view in_;
    std::size_t position_ = 0;
    bool failed_ = false;
};

}  // namespace

std::string encode_symbols(const FileSymbols& symbols) {
    Writer out;
    out.byte(format_version);
    out.byte(static_cast<std::uint8_t>(symbols.language));
    out.byte(symbols.parse_failed ? 1 : 0);
    out.text(symbols.package);
    out.number(symbols.strings.size() - 1);
    for (std::size_t i = 1; i < symbols.strings.size(); ++i) out.text(symbols.strings[i]);
    std::int64_t line = 0;
    out.number(symbols.definitions.size());
    for (const Definition& definition : symbols.definitions) {
        out.number(definition.name);
        out.number(definition.container);
        out.number(definition.signature);
        out.number(definition.doc);
        out.byte(static_cast<std::uint8_t>(static_cast<unsigned>(definition.kind) | (definition.exported ? 0x80u : 0u)));
        out.signed_number(static_cast<std::int64_t>(definition.line) - line);
        line = definition.line;
        out.number(definition.column);
        out.number(definition.end_line - std::min(definition.end_line, definition.line));
        out.number(static_cast<std::uint64_t>(definition.parent + 1));
    }
    line = 0;
    out.number(symbols.references.size());
    for (const Reference& reference : symbols.references) {
        out.number(reference.name);
        out.number(reference.qualifier);
        out.byte(static_cast<std::uint8_t>(static_cast<unsigned>(reference.kind) | (reference.member ? 0x80u : 0u)));
        out.signed_number(static_cast<std::int64_t>(reference.line) - line);
        line = reference.line;
        out.number(reference.column);
        out.number(static_cast<std::uint64_t>(reference.enclosing + 1));
    }
    out.number(symbols.relations.size());
    for (const Relation& relation : symbols.relations) {
        out.number(static_cast<std::uint64_t>(relation.type + 1));
        out.number(relation.subject);
        out.number(relation.target);
        out.number(relation.qualifier);
        out.byte(static_cast<std::uint8_t>(relation.kind));
        out.number(relation.line);
        out.number(relation.column);
    }
    out.number(symbols.imports.size());
    for (const ImportBinding& binding : symbols.imports) {
        out.number(binding.alias);
        out.number(binding.module);
        out.number(binding.member);
        out.number(binding.line);
    }
    return out.take();
}

std::optional<FileSymbols> decode_symbols(std::string_view bytes) {
    Reader in(bytes);
    if (in.byte() != format_version) return std::nullopt;
    FileSymbols symbols;
    std::uint8_t language = in.byte();
    if (language >= language_count) return std::nullopt;
    symbols.language = static_cast<Language>(language);
    symbols.parse_failed = in.byte() != 0;
    symbols.package = std::string(in.text());
    std::size_t string_count = in.count();
    symbols.strings.reserve(string_count + 1);
    for (std::size_t i = 0; i < string_count && !in.failed(); ++i) symbols.strings.emplace_back(in.text());
    if (in.failed()) return std::nullopt;
    const std::uint64_t strings = symbols.strings.size();
    bool valid = true;
    auto string_id = [&] {
        std::uint64_t id = in.number();
        if (id >= strings) valid = false;
        return static_cast<StringId>(id);
    };
    std::int64_t line = 0;
    std::size_t definition_count = in.count();
    symbols.definitions.resize(definition_count);
    for (Definition& definition : symbols.definitions) {
        definition.name = string_id();
        definition.container = string_id();
        definition.signature = string_id();
        definition.doc = string_id();
        std::uint8_t kind = in.byte();
        if ((kind & 0x7F) >= symbol_kind_count) valid = false;
        definition.kind = static_cast<SymbolKind>(kind & 0x7F);
        definition.exported = (kind & 0x80) != 0;
        line += in.signed_number();
        if (line < 0 || line > 0xFFFFFFF) valid = false;
        definition.line = static_cast<std::uint32_t>(line);
        definition.column = static_cast<std::uint32_t>(in.number());
        definition.end_line = definition.line + static_cast<std::uint32_t>(in.number());
        std::uint64_t parent = in.number();
        if (parent > definition_count) valid = false;
        definition.parent = static_cast<std::int32_t>(parent) - 1;
        if (!valid || in.failed()) return std::nullopt;
    }
    line = 0;
    symbols.references.resize(in.count());
    for (Reference& reference : symbols.references) {
        reference.name = string_id();
        reference.qualifier = string_id();
        std::uint8_t kind = in.byte();
        if ((kind & 0x7F) > static_cast<std::uint8_t>(ReferenceKind::type)) valid = false;
        reference.kind = static_cast<ReferenceKind>(kind & 0x7F);
        reference.member = (kind & 0x80) != 0;
        line += in.signed_number();
        if (line < 0 || line > 0xFFFFFFF) valid = false;
        reference.line = static_cast<std::uint32_t>(line);
        reference.column = static_cast<std::uint32_t>(in.number());
        std::uint64_t enclosing = in.number();
        if (enclosing > definition_count) valid = false;
        reference.enclosing = static_cast<std::int32_t>(enclosing) - 1;
        if (!valid || in.failed()) return std::nullopt;
    }
    symbols.relations.resize(in.count());
    for (Relation& relation : symbols.relations) {
        std::uint64_t type = in.number();
        if (type > definition_count) valid = false;
        relation.type = static_cast<std::int32_t>(type) - 1;
        relation.subject = string_id();
        relation.target = string_id();
        relation.qualifier = string_id();
        std::uint8_t kind = in.byte();
        if (kind > static_cast<std::uint8_t>(RelationKind::embeds)) valid = false;
        relation.kind = static_cast<RelationKind>(kind);
        relation.line = static_cast<std::uint32_t>(in.number());
        relation.column = static_cast<std::uint32_t>(in.number());
        if (!valid || in.failed()) return std::nullopt;
    }
    symbols.imports.resize(in.count());
    for (ImportBinding& binding : symbols.imports) {
        binding.alias = string_id();
        binding.module = string_id();
        binding.member = string_id();
        binding.line = static_cast<std::uint32_t>(in.number());
        if (!valid || in.failed()) return std::nullopt;
    }
    if (in.failed() || !valid || !in.at_end()) return std::nullopt;
    return symbols;
}

}  // namespace mcpkit::analyze
