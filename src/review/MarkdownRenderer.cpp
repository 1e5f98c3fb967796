#include "review/MarkdownRenderer.hpp"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>

#include <cstdlib>
#include <memory>
#include <unordered_map>

namespace mcpkit::review {

namespace {

std::string percent_encode(std::string_view text) {
    std::string out;
    for (unsigned char c : text) {
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
            c == '_' || c == '~') {
            out += static_cast<char>(c);
        } else {
            constexpr char hex[] = "0123456789ABCDEF";
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

std::string describe(const ResolvedReference& reference) {
    std::string title = reference.path + ":" + std::to_string(reference.line);
    if (reference.end_line > 0) title += "-" + std::to_string(reference.end_line);
    if (!reference.note.empty()) title += " (" + reference.note + ")";
    return title;
}

bool inside_link(cmark_node* node) {
    for (cmark_node* parent = cmark_node_parent(node); parent; parent = cmark_node_parent(parent))
        if (cmark_node_get_type(parent) == CMARK_NODE_LINK) return true;
    return false;
}

struct Linker {
    const std::string& base;
    std::vector<ResolvedReference>& references;
    /// A review names the same files over and over: each file is looked at (and searched) once.
    std::unordered_map<std::string, ResolvedReference> resolved_targets;

    ResolvedReference resolve_once(const Reference& reference) {
        std::string key = reference.path + '\0' + reference.search;
        auto found = resolved_targets.find(key);
        if (found == resolved_targets.end()) found = resolved_targets.emplace(key, resolve(reference, base)).first;
        ResolvedReference resolved = found->second;
        if (reference.search.empty()) {
            resolved.line = reference.line > 0 ? reference.line : 1;
            resolved.end_line = reference.end_line;
        }
        return resolved;
    }

    cmark_node* link_to(const Reference& reference, cmark_node* child) {
        ResolvedReference resolved = resolve_once(reference);
        cmark_node* link = cmark_node_new(CMARK_NODE_LINK);
        cmark_node_set_url(link, open_link(resolved).c_str());
        cmark_node_set_title(link, describe(resolved).c_str());
        cmark_node_append_child(link, child);
        references.push_back(std::move(resolved));
        return link;
    }

    static cmark_node* text_node(std::string_view text) {
        cmark_node* node = cmark_node_new(CMARK_NODE_TEXT);
        cmark_node_set_literal(node, std::string(text).c_str());
        return node;
    }

    /// Splits a text node around the references in it.
    void link_text(cmark_node* node) {
        std::string literal = cmark_node_get_literal(node) ? cmark_node_get_literal(node) : "";
        auto found = find_references(literal);
        if (found.empty()) return;
        std::size_t done = 0;
        for (const auto& match : found) {
            if (match.offset > done) cmark_node_insert_before(node, text_node(std::string_view(literal).substr(done, match.offset - done)));
            cmark_node_insert_before(
                node, link_to(match.reference, text_node(std::string_view(literal).substr(match.offset, match.length))));
            done = match.offset + match.length;
        }
        if (done < literal.size()) cmark_node_insert_before(node, text_node(std::string_view(literal).substr(done)));
        cmark_node_free(node);
    }

    /// `src/a.cpp:4` in backticks: the code span becomes the link's text.
    void link_code(cmark_node* node) {
        const char* literal = cmark_node_get_literal(node);
        auto reference = literal ? parse_reference(literal) : std::nullopt;
        if (!reference) return;
        cmark_node* code = cmark_node_new(CMARK_NODE_CODE);
        cmark_node_set_literal(code, literal);
        cmark_node_insert_before(node, link_to(*reference, code));
        cmark_node_free(node);
    }

    /// [the parser](src/parse.cpp:10): the author's link, pointed at the editor.
    void link_destination(cmark_node* node) {
        const char* url = cmark_node_get_url(node);
        auto reference = url ? parse_link_destination(url) : std::nullopt;
        if (!reference) return;
        ResolvedReference resolved = resolve_once(*reference);
        cmark_node_set_url(node, open_link(resolved).c_str());
        cmark_node_set_title(node, describe(resolved).c_str());
        references.push_back(std::move(resolved));
    }
};

}  // namespace

std::string open_link(const ResolvedReference& reference) {
    std::string href = "/open?path=" + percent_encode(reference.path) + "&line=" + std::to_string(reference.line);
    if (reference.end_line > 0) href += "&end=" + std::to_string(reference.end_line);
    return href;
}

RenderedReview render_review(std::string_view markdown, const std::string& base_directory) {
    cmark_gfm_core_extensions_ensure_registered();
    std::unique_ptr<cmark_parser, decltype(&cmark_parser_free)> parser(cmark_parser_new(CMARK_OPT_DEFAULT),
                                                                       cmark_parser_free);
    for (const char* name : {"table", "strikethrough", "autolink", "tagfilter", "tasklist"})
        if (cmark_syntax_extension* extension = cmark_find_syntax_extension(name))
            cmark_parser_attach_syntax_extension(parser.get(), extension);
    cmark_parser_feed(parser.get(), markdown.data(), markdown.size());
    std::unique_ptr<cmark_node, decltype(&cmark_node_free)> document(cmark_parser_finish(parser.get()), cmark_node_free);
    // "src/my_file.cpp" arrives as three text nodes (an underscore may open emphasis); join them first.
    cmark_consolidate_text_nodes(document.get());

    // The tree must not change while iterated: collect, then rewrite.
    std::vector<cmark_node*> texts, codes, links;
    cmark_iter* iterator = cmark_iter_new(document.get());
    for (cmark_event_type event; (event = cmark_iter_next(iterator)) != CMARK_EVENT_DONE;) {
        if (event != CMARK_EVENT_ENTER) continue;
        cmark_node* node = cmark_iter_get_node(iterator);
        switch (cmark_node_get_type(node)) {
        case CMARK_NODE_TEXT:
            if (!inside_link(node)) texts.push_back(node);
            break;
        case CMARK_NODE_CODE:
            if (!inside_link(node)) codes.push_back(node);
            break;
        case CMARK_NODE_LINK: links.push_back(node); break;
        default: break;
        }
    }
    cmark_iter_free(iterator);

    RenderedReview rendered;
    Linker linker{base_directory, rendered.references};
    for (cmark_node* link : links) linker.link_destination(link);
    for (cmark_node* text : texts) linker.link_text(text);
    for (cmark_node* code : codes) linker.link_code(code);

    char* html = cmark_render_html(document.get(), CMARK_OPT_DEFAULT, cmark_parser_get_syntax_extensions(parser.get()));
    rendered.html = html;
    std::free(html);
    return rendered;
}

}  // namespace mcpkit::review
