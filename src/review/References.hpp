#pragma once
// Code references in a review, and where they point:
//   path:line            src/server.cpp:42   (a trailing :column is allowed and ignored)
//   path:start-end       src/server.cpp:42-60
//   path?text            src/server.cpp?handle_request: the first line containing the text,
//                        which keeps pointing at the right place after edits
// A path must look like one (a '/' or an extension, and a letter) so that prose such as
// "ratio 3:1" or "note:5" is left alone.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcpkit::review {

struct Reference {
    std::string path;  ///< as written
    int line = 0;      ///< 0 with a search
    int end_line = 0;  ///< 0 unless a range
    std::string search;
};

/// `text` as a whole is one reference (a code span or a link destination; search text may hold spaces).
std::optional<Reference> parse_reference(std::string_view text);

/// A markdown link's destination as a reference: as parse_reference, and a bare relative path
/// (which opens at line 1). Nothing with a scheme or a fragment.
std::optional<Reference> parse_link_destination(std::string_view destination);

struct FoundReference {
    std::size_t offset, length;  ///< in the text searched
    Reference reference;
};
/// The references in prose, word by word, with surrounding punctuation left out.
std::vector<FoundReference> find_references(std::string_view text);

struct ResolvedReference {
    std::string path;  ///< absolute, normalised
    int line = 1;
    int end_line = 0;
    bool exists = false;
    std::string note;  ///< why the place may be off ("no line contains …", "no such file")
};
/// Resolves against `base_directory`; reads the file for a search.
ResolvedReference resolve(const Reference& reference, const std::string& base_directory);

}  // namespace mcpkit::review
