#!/usr/bin/env python3
"""C call edges against cscope and GNU Global, for `navigation.py cscope` (see its docstring):
cscope's and Global's cross-references of the trees, without writing into them, compared with
`mcpkit analyze callees '*' --tsv`, the differences counted by cause, both directions."""
import bisect
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

from navigation import EXCLUDED, run  # noqa: E402  (shared with the ctags check)


C_SOURCES = (".c", ".h")
# The parts of C the scans below care about: comments and literals (skipped), preprocessor
# directives (with their continuation lines and the comments in them) and braces.
C_TOKEN = re.compile(r"""
    (?P<comment>/\*.*?(?:\*/|\Z)|//(?:[^\\\n]|\\.)*)
  | (?P<literal>"(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?)
  | (?P<directive>^[ \t]*\#(?:/\*.*?(?:\*/|\Z)|//[^\n]*|[^\\\n/]|/(?![*/])|\\.)*)
  | (?P<brace>[{}])
""", re.M | re.S | re.X)
DIRECTIVE = re.compile(r"[ \t]*#[ \t]*(\w*)")
# What is left of a line for "is the name followed by a parenthesis": no literals, no comments.
LINE_NOISE = re.compile(r""""(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?|/\*.*?(?:\*/|$)|//.*""")


class CSource:
    """One C file: its lines, which of them are preprocessor directives (by directive), and its
    blocks in braces."""

    def __init__(self, text):
        self.lines = text.split("\n")
        newlines = [m.start() for m in re.finditer("\n", text)]
        self.directives = {}  # line -> the directive's name ("define", "if", …)
        # Matching braces: self.opens[i] is the line of a "{", self.closes[i] that of its "}" and
        # self.parents[i] the block it is in (-1: none). The branches of an #if chain each start
        # from the braces open at the #if, and the first one's carry on after the #endif
        # (`if( x ){` / `#else` / `{` / `#endif` opens one block).
        self.opens, self.closes, self.parents = [], [], []
        stack, conditionals = [], []  # open braces; per open #if: [stack at the #if, after the first branch]
        for token in C_TOKEN.finditer(text):
            kind = token.lastgroup
            if kind == "brace":
                if token.group() == "{":
                    self.parents.append(stack[-1] if stack else -1)
                    stack.append(len(self.opens))
                    self.opens.append(bisect.bisect_left(newlines, token.start()) + 1)
                    self.closes.append(len(self.lines))
                elif stack:
                    self.closes[stack.pop()] = bisect.bisect_left(newlines, token.start()) + 1
            elif kind == "directive":
                first = bisect.bisect_left(newlines, token.start()) + 1
                last = bisect.bisect_left(newlines, token.end()) + 1
                name = DIRECTIVE.match(token.group()).group(1)
                for line in range(first, last + 1):
                    self.directives[line] = name
                if name in ("if", "ifdef", "ifndef"):
                    conditionals.append([list(stack), None])
                elif name in ("elif", "else", "elifdef", "elifndef") and conditionals:
                    if conditionals[-1][1] is None:
                        conditionals[-1][1] = stack
                    stack = list(conditionals[-1][0])
                elif name == "endif" and conditionals:
                    _at_if, after_first = conditionals.pop()
                    if after_first is not None:
                        stack = after_first

    def blocks_around(self, line):
        """The lines of the "{" of the blocks holding the line, innermost first."""
        at = bisect.bisect_right(self.opens, line) - 1
        while at >= 0 and self.closes[at] < line:
            at = self.parents[at]
        found = []
        while at >= 0:
            found.append(self.opens[at])
            at = self.parents[at]
        return found

    def extents(self, functions):
        return Extents(self, functions)

    def text(self, line):
        return self.lines[line - 1] if 0 < line <= len(self.lines) else ""

    def calls_on(self, line, name):
        """Whether the line has name followed by an opening parenthesis, outside literals and comments."""
        code = LINE_NOISE.sub(" ", self.text(line))
        return re.search(r"(?<![\w$])" + re.escape(name) + r"\s*\(", code) is not None


class Extents:
    """The functions of a file by line: each from its definition's line to the brace closing the first
    brace after it. A definition without a brace before the next definition has no body here (a
    prototype or a macro call), and one inside another's extent is left out (C has no nested
    functions: those are misreadings)."""

    def __init__(self, source, functions):
        self.starts, self.ends, self.names = [], [], []
        lines = sorted((line, name) for line, name, *_ in functions)
        for at, (line, name) in enumerate(lines):
            first = bisect.bisect_left(source.opens, line)
            if first == len(source.opens) or (self.ends and line <= self.ends[-1]):
                continue
            following = bisect.bisect_right(lines, (line, "\U0010ffff"), at)
            if following < len(lines) and source.opens[first] >= lines[following][0]:
                continue
            self.starts.append(line)
            self.ends.append(source.closes[first])
            self.names.append(name)

    def function_at(self, line):
        at = bisect.bisect_right(self.starts, line) - 1
        return self.names[at] if at >= 0 and line <= self.ends[at] else None

    def start_of(self, line):
        at = bisect.bisect_right(self.starts, line) - 1
        return self.starts[at] if at >= 0 and line <= self.ends[at] else None


def c_files(tree):
    found = []
    for directory, subdirectories, files in os.walk(tree):
        subdirectories[:] = sorted(d for d in subdirectories if d not in EXCLUDED)
        for name in sorted(files):
            if name.endswith(C_SOURCES) and os.path.isfile(os.path.join(directory, name)):
                found.append(os.path.relpath(os.path.join(directory, name), tree))
    return found


def read_text(path):
    with open(path, encoding="utf-8", errors="replace", newline="") as source:
        return source.read().replace("\r\n", "\n")


def analyze_tsv(mcpkit, what, tree):
    return run([mcpkit, "analyze", what, "*", "--tsv", "--no-cache", "--progress", "never", "--max-file-bytes",
                str(16 << 20), "--root", tree]).splitlines()


def our_calls(mcpkit, tree):
    """[(path, line, caller or None, called)] of every call analyze finds in the tree's C files."""
    calls = []
    for row in analyze_tsv(mcpkit, "callees", tree):
        path, line, _column, caller, called = row.split("\t")[:5]
        if path.endswith(C_SOURCES):
            calls.append((path, int(line), None if caller == "-" else caller.rsplit(".", 1)[-1], called))
    return calls


def our_functions(mcpkit, tree):
    """{path: [(line, name, outermost)]} of the functions analyze defines in the tree's C files, and
    {path: {names}} of its macros. outermost is the line of the function analyze's tree has the
    function in (C has no nested functions: it is its own line unless tree-sitter misread the code
    before it)."""
    rows, macros = collections.defaultdict(list), collections.defaultdict(set)
    for row in analyze_tsv(mcpkit, "find", tree):
        path, line, _column, kind, qualified = row.split("\t")
        if kind == "function" and path.endswith(C_SOURCES):
            rows[path].append((int(line), qualified))
        elif kind == "macro" and path.endswith(C_SOURCES):
            macros[path].add(qualified.rsplit(".", 1)[-1])
    functions = {}
    for path, defined in rows.items():
        lines = {qualified: line for line, qualified in reversed(defined)}
        functions[path] = []
        for line, qualified in defined:
            outermost, parent = line, qualified
            while "." in parent:
                parent = parent.rsplit(".", 1)[0]
                outermost = lines.get(parent, outermost)
            functions[path].append((line, qualified.rsplit(".", 1)[-1], outermost))
    return functions, macros


def for_cscope(text):
    """The text cscope is given: the same lines, without two constructs its scanner loses its way in
    (it then takes the rest of the file for one function, or for no function at all):
    a condition continued over lines (`#if defined(A) && \\` + `defined(B)`: the second line reads as
    the definition of a function `defined`) is joined onto its first line, and the braces of C++
    linkage blocks (`extern "C" {`, and a `}` alone in a conditional) are blanked. No call is on
    those lines, and every line keeps its number."""
    lines = text.split("\n")
    changed = 0
    at = 0
    while at < len(lines):
        line = lines[at]
        if re.match(r"\s*#\s*(if|elif)\b", line) and line.endswith("\\"):
            end = at
            while lines[end].endswith("\\") and end + 1 < len(lines):
                end += 1
            lines[at] = " ".join(part[:-1] if part.endswith("\\") else part for part in lines[at:end + 1])
            lines[at + 1:end + 1] = [""] * (end - at)
            changed += 1
            at = end
        elif re.match(r'\s*extern\s+"C"\s*\{\s*(/\*.*\*/\s*|//.*)?$', line) or (
                re.match(r"\s*\}\s*(/\*.*\*/\s*|//.*)?$", line) and 0 < at < len(lines) - 1
                and re.match(r"\s*#\s*if", lines[at - 1]) and re.match(r"\s*#\s*endif", lines[at + 1])):
            lines[at] = ""
            changed += 1
        at += 1
    return "\n".join(lines), changed


def cscope_calls(files, tree, scratch):
    """[(path, line, function or None, macro or None, called)] of the calls cscope records, with
    the function (cscope's $…} marks) or the #define body (#…)) they are in."""
    copy = os.path.join(scratch, "cscope")
    changed = 0
    for path in files:
        text, count = for_cscope(read_text(os.path.join(tree, path)))
        changed += count
        os.makedirs(os.path.dirname(os.path.join(copy, path)), exist_ok=True)
        with open(os.path.join(copy, path), "w", encoding="utf-8") as out:
            out.write(text)
    with open(os.path.join(scratch, "cscope.files"), "w", encoding="utf-8") as listing:
        listing.writelines(f'"{path}"\n' if " " in path else f"{path}\n" for path in files)
    run(["cscope", "-b", "-c", "-k", "-u", "-i", os.path.join(scratch, "cscope.files"), "-f",
         os.path.join(scratch, "cscope.out")], cwd=copy)
    # The uncompressed cross-reference (cscope's crossref.c): a header line, then per source line
    # "<number> <text>", followed by pairs of lines (a symbol, the text after it; the text keeps the
    # newlines of a literal continued over lines) and an empty line. A symbol with a mark starts
    # with a tab and the mark: @ file, $ function definition, } its end, ` function call,
    # # #define, ) the end of the #define. An @ without a name starts the trailer.
    calls = []
    path, number, function, macro = None, 0, None, None
    previous = ""
    with open(os.path.join(scratch, "cscope.out"), encoding="utf-8", errors="replace") as crossref:
        next(crossref)
        for line in crossref:
            line, empty_before, previous = line.rstrip("\n"), not previous, line.rstrip("\n")
            if not line.startswith("\t"):
                if empty_before and line[:1].isdigit():
                    number = int(line.split(" ", 1)[0])
                continue
            mark, name = line[1:2], line[2:]
            if mark == "@":
                if not name:
                    break
                path, function, macro = name, None, None
            elif mark == "$":
                function = name
            elif mark == "}":
                function = None
            elif mark == "#":
                macro = name
            elif mark == ")":
                macro = None
            elif mark == "`":
                calls.append((path, number, function, macro, name))
    return calls, changed


def global_tags(files, tree, scratch):
    """GNU Global's definitions {path: [(line, name)]} (global -d) and references [(path, line, name)]
    (global -r and -s: symbols used, with or without a definition)."""
    database = os.path.join(scratch, "global")
    os.mkdir(database)
    with open(os.path.join(scratch, "gtags.files"), "w", encoding="utf-8") as listing:
        listing.writelines(f"./{path}\n" for path in files)
    environment = {k: v for k, v in os.environ.items() if not k.startswith("GTAGS")}
    run(["gtags", "-q", "-f", os.path.join(scratch, "gtags.files"), database], cwd=tree, env=environment)
    # `global -rx '.*'` prints the same but takes half a minute on sqlite3.c (it reads the source for
    # every line it prints), so the tag files are read through gtags' --dump. GPATH: "./path" -> file
    # number. GTAGS: name -> "<file number> @n <line> <the line, compressed>"; GRTAGS (and GTAGS made
    # with gtags -c): name -> "<file number> @n <lines>", the lines as comma-separated differences
    # from the one before, "d-k" for k more lines in a row after it.
    numbers = {}
    for row in run(["gtags", "--dump", os.path.join(database, "GPATH")]).splitlines():
        key, _, value = row.partition("\t")
        if key.startswith("./") and value.isdigit():
            numbers[value] = key[2:]
    tags = []
    for tag_file in ("GTAGS", "GRTAGS"):
        found = []
        for row in run(["gtags", "--dump", os.path.join(database, tag_file)]).splitlines():
            name, _, value = row.partition("\t")
            if name.startswith(" __."):
                continue
            number, tag, lines = (value.split(" ", 3) + [""])[:3]
            if tag != "@n" or number not in numbers or not re.fullmatch(r"\d+(-\d+)?(,\d+(-\d+)?)*", lines):
                sys.exit(f"gtags --dump {tag_file}: a record in an unknown format: {row[:200]}")
            line = 0
            for part in lines.split(","):
                step, _, more = part.partition("-")
                line += int(step)
                found.append((numbers[number], line, name))
                for _ in range(int(more or 0)):
                    line += 1
                    found.append((numbers[number], line, name))
        tags.append(found)
    definitions = collections.defaultdict(list)
    for path, line, name in tags[0]:
        definitions[path].append((line, name))
    return definitions, tags[1]


C_KEYWORDS = {"if", "else", "while", "for", "do", "switch", "case", "return", "sizeof", "void", "int", "char", "short",
              "long", "float", "double", "signed", "unsigned", "const", "volatile", "static", "extern", "struct",
              "union", "enum", "typedef", "goto", "break", "continue", "default", "register", "auto", "inline"}
# Compiler keywords and attributes a reference tool can take for called functions.
COMPILER_WORDS = {"__attribute__", "__attribute", "__asm__", "__asm", "asm", "__volatile__", "__volatile", "__declspec",
                  "__typeof__", "__typeof", "typeof", "_Alignas", "alignas", "_Alignof", "alignof", "__alignof__",
                  "_Static_assert", "static_assert", "__extension__", "_Pragma", "__pragma", "_Generic",
                  "__builtin_offsetof", "__builtin_va_arg"}
NOT_A_TYPE = r"(?!(?:return|else|case|goto|sizeof|do)\b)"
# The opening of a macro call whose arguments are not expressions: a statement (`return`, `;`), a
# type (`Expr*,`) or a declaration (`int n =`).
BAD_ARGUMENTS = r"\s*\((?:[^()]*\breturn\b|[^()]*;|\s*\w+\s*\*+\s*,|\s*(?:" + NOT_A_TYPE + r"\w+[\s*]+)+\w+\s*=)"

# Why an edge of a reference tool is not among analyze's, by what the check can see at one of its
# call sites (the first one that is not the tool's misreading, TOOL_NOISE, if there is one). The
# order is that of the tests in why_missing.
MISSING = {
    "not indexed": "in a file analyze did not index",
    "preprocessor": "a name in an #if line (`defined(X)`, `__has_feature(x)`): the preprocessor's, not a call",
    "compiler": "compiler keywords and attributes read as calls (`__attribute__((aligned(8)))`, "
                "`__asm__ __volatile__(…)`)",
    "offsetof": "offsetof(T, m): tree-sitter's C grammar reads it as an expression of its own (offsetof_expression), "
                "not a call",
    "lost definition": "analyze has no definition for the caller, and no caller for its calls: tree-sitter's error "
                       "recovery drops it (`SQLITE_PRIVATE int sqlite3InitOne(…){` in the amalgamation, though it "
                       "reads alone)",
    "macro caller": "the tool's caller is a macro or a keyword: a file-level macro call without a semicolon "
                    "(`IOMETHODS(…)`) or `__declspec(dllexport)` before a definition, read as a function "
                    "definition (and the code after it as its body)",
    "outside": "the tool's caller is not a function: cscope takes the prototype of a function returning a "
               "function pointer (`void (*f(…))(void);`) for a definition, and the declarations after it for "
               "its calls",
    "definition": "the definition of the caller itself, read as a reference to it: Global reads the line as "
                  "inside another construct (after a prototype ending in `__asm__(…)`, or with its brace count "
                  "thrown off by #if branches)",
    "declaration": "a function declared inside a function body (`extern int f(int);`), read as a call",
    "keyword caller": "tree-sitter misreads the function and analyze names it after a keyword: `else if (…) {…}` "
                      "after an #if line reads as the definition of a function `if` (the calls in its condition "
                      "as parameters), `MACRO void (*f(…))(void) {…}` as a function `void`",
    "other caller": "tree-sitter's error recovery puts the call in another function: a `{` opened in both "
                    "branches of an #if (`#if A` `if( x ){` `#else` `{` `#endif`) leaves the function open, "
                    "and what follows reads as nested in it",
    "local": "a call through a function pointer held in a parameter or local variable (`xDel(p)`): "
             "analyze leaves locals out of its index (SymbolBindings.cpp)",
    "declared in scope": "a declaration of the function inside the function analyze's tree has the call in "
                         "(`extern int f(int);` in the body, or a file-level prototype that tree-sitter's error "
                         "recovery put in a function) makes analyze take the name for a local variable and drop "
                         "the calls",
    "macro arguments": "a macro call with a statement or a type among its arguments (`SimulateIOError( return …; )`, "
                       "`SWAP(Expr*, a, b)`): tree-sitter cannot parse it (an ERROR node), analyze reads no call in it",
    "unparsed": "analyze reads no call on the line: code tree-sitter cannot parse (an ERROR node), such as a "
                "statement split by #if (`}else` `#endif` `{`) or a string followed by a macro "
                "(`\"Savepoint\" OpHelp(\"\")`)",
    "other": "not explained",
}
EXTRA = {
    "preprocessor": "a call analyze reads in a preprocessor line tree-sitter could not place (`#if defined(X)` "
                    "inside an initializer, `#ifndef X` inside an expression read as a call `X(…)`)",
    "keyword callee": "analyze reads a keyword as a call (`TESTONLY( if( n>=0 ) n++; )`: a statement as a macro "
                      "argument)",
    "compiler": "analyze reads an attribute's argument as a call (`__attribute__((section(\".text\")))`)",
    "keyword caller": MISSING["keyword caller"],
    "other caller": "analyze has the call in another function than the braces: " + MISSING["other caller"],
    "tool macro": "the tool files the call under a #define written inside the function",
    "macro caller": MISSING["macro caller"],
    "no function": "the tool has the call outside every function",
    "tool caller": "the tool has the call in another function",
    "none": "the tool records no call there",
}
CSCOPE_EXTRA = {
    "no function": "cscope has the call outside every function: its scanner ends the function early (a struct "
                   "defined in the body, `struct X {…} a[] = {…};`)",
    "none": "cscope marks no call there: it does not see the function start (a parameter list with "
            "`__attribute__((unused))` in it, or split by #if/#else), and reads its body as file-level code",
}
GLOBAL_EXTRA = {
    "no function": "Global has no function there: it reads the definition as a reference (`static int "
                   "afpSetLock(`, its brace count thrown off by #if branches), or analyze reads a file-level "
                   "prototype as a call in a function tree-sitter left open (`SQLITE_PRIVATE sqlite3_file "
                   "*sqlite3WalFile(Wal*);` as `SQLITE_PRIVATE sqlite3_file * sqlite3WalFile(…)`)",
    "none": "Global records no reference to the name at the line, or not one followed by `(` there",
}


# The MISSING categories that are the tool's reading, not a call analyze misses.
TOOL_NOISE = {"preprocessor", "compiler", "macro caller", "outside", "definition", "declaration"}


def declares(line_text, name):
    """Whether the line declares name as a function: type words, then the name and a parenthesis."""
    pattern = r"\s*(?:" + NOT_A_TYPE + r"[A-Za-z_]\w*[\s*]+)+" + re.escape(name) + r"\s*\("
    return re.match(pattern, line_text) is not None


def holds_local(source, first, last, name):
    """Whether lines first..last declare name as a parameter or local variable."""
    text = "\n".join(source.lines[first - 1:last])
    return re.search(r"\(\s*\*\s*" + re.escape(name) + r"\s*\)\s*\(", text) is not None or re.search(
        r"(?:^|[(,;{])\s*(?:" + NOT_A_TYPE + r"[A-Za-z_]\w*[\s*]+)+" + re.escape(name) + r"\s*(?:[,;)=\[]|$)", text,
        re.M) is not None


def is_pseudo_function(name, path, functions, macros):
    """Whether name, which a tool takes for a function, is a compiler keyword or a macro of the file."""
    return name in COMPILER_WORDS or (name in macros.get(path, ()) and
                                      not any(name == defined for _, defined, _ in functions.get(path, ())))


def why_missing(source, extents, functions, macros, ours_at, path, line, caller, called, indexed):
    """The MISSING category of a tool's call (path, line, caller -> called) analyze does not have;
    extents: those of analyze's functions in the file."""
    text = source.text(line)
    if path not in indexed:
        return "not indexed"
    if source.directives.get(line):
        return "preprocessor"
    if called in COMPILER_WORDS or re.search(r"__(?:attribute|declspec)__?\s*\(\(?[^;]*\b" + re.escape(called) + r"\b",
                                             text):
        return "compiler"
    if called == "offsetof":
        return "offsetof"
    start = extents.start_of(line)
    if start is None:
        header = re.compile(r"(?<![\w$])" + re.escape(caller) + r"\s*\(")
        if any(header.search("\n".join(source.lines[max(0, at - 20):at])) for at in source.blocks_around(line)):
            return "lost definition"
    if is_pseudo_function(caller, path, functions, macros):
        return "macro caller"
    if start is None:
        return "outside"
    if called == caller and line == start:
        return "definition"
    if declares(text, called):
        return "declaration"
    here = ours_at.get((path, line), [])
    defined_here = {name for at, name, _ in functions.get(path, ()) if at == line}
    elsewhere = [ours for ours, name in here if name == called and ours != caller]
    if any(other in C_KEYWORDS for other in elsewhere) or defined_here & C_KEYWORDS:
        return "keyword caller"
    if elsewhere:
        return "other caller"
    if holds_local(source, start, line, called):
        return "local"
    enclosing = [entry for entry in functions.get(path, ()) if entry[0] <= line]
    outermost = max(enclosing)[2] if enclosing else start
    if re.search(r"(?:^|[;{}])[ \t]*(?:" + NOT_A_TYPE + r"[A-Za-z_]\w*[ \t*]+)+" + re.escape(called) + r"[ \t]*\(",
                 "\n".join([source.text(outermost).partition("{")[2]] + source.lines[outermost:line]), re.M):
        return "declared in scope"
    if re.search(r"(?<![\w$])" + re.escape(called) + BAD_ARGUMENTS, text):
        return "macro arguments"
    if not here:
        if re.search(r"\b(?!(?:for|if|while|switch|return|sizeof)\b)[A-Za-z_]\w*" + BAD_ARGUMENTS, text):
            return "macro arguments"
        return "unparsed"
    return "other"


def compare_calls(tool, edges, sites, ours_edges, ours_sites, ours_at, sources, ours_extents, functions, macros,
                  indexed, tool_at, excluded):
    """Prints how many of a tool's edges analyze has, why the others are missing, and the reverse.
    edges: {(path, caller, called): [lines]}; sites: {(path, line, caller, called)}; tool_at:
    {(path, line, called): set of the tool's callers there ("#define" for a #define body)}.
    Returns the share of the tool's edges analyze has."""
    if not edges:
        print(f"{tool}: no call edges to compare")
        return 0.0
    found = sum(1 for edge in edges if edge in ours_edges)
    share = found / len(edges)
    same_line = sum(1 for site in sites if site in ours_sites)
    print(f"{tool}: {len(edges)} call edges (file, caller, callee) in function bodies; analyze has {found} "
          f"({share:.2%})")
    print(f"  at the same line: {same_line} of the tool's {len(sites)} call sites "
          f"({same_line / len(sites) if sites else 1.0:.2%})")
    for count, what in excluded:
        if count:
            print(f"  not compared: {count} {what}")
    missing = collections.defaultdict(list)
    for (path, caller, called), lines in sorted(edges.items()):
        if (path, caller, called) in ours_edges:
            continue
        # Why: at the first call site that is not the tool's misreading, if there is one.
        line, category = lines[0], None
        for at in sorted(set(lines)):
            why = why_missing(sources[path], ours_extents[path], functions, macros, ours_at, path, at, caller, called,
                              indexed)
            if category is None or (category in TOOL_NOISE and why not in TOOL_NOISE):
                line, category = at, why
            if category not in TOOL_NOISE:
                break
        note = ""
        if category in ("keyword caller", "other caller"):
            others = sorted({ours or "-" for ours, name in ours_at.get((path, line), []) if name == called})
            note = f"  (analyze: from {', '.join(others)})" if others else ""
        missing[category].append(f"{path}:{line} {caller} -> {called}{note}  | {sources[path].text(line).strip()[:90]}")
    noise = sum(len(missing[category]) for category in TOOL_NOISE)
    if noise and len(edges) > noise:
        print(f"  without the {noise} edges that are the tool's misreadings ({', '.join(sorted(TOOL_NOISE))} below): "
              f"{found / (len(edges) - noise):.2%}")
    print_categories(f"{tool} has, analyze lacks", missing, MISSING)

    extra = collections.defaultdict(list)
    ours_count = ours_found = 0
    for (path, caller, called), lines in sorted(ours_edges.items()):
        if path not in sources:
            continue
        ours_count += 1
        if (path, caller, called) in edges:
            ours_found += 1
            continue
        line = min(lines)
        source = sources[path]
        theirs = tool_at.get((path, line, called), set())
        if caller in C_KEYWORDS:
            category = "keyword caller"
        elif called in C_KEYWORDS:
            category = "keyword callee"
        elif source.directives.get(line):
            category = "preprocessor"
        elif re.search(r"__(?:attribute|declspec)__?\s*\(\(?[^;]*\b" + re.escape(called) + r"\b", source.text(line)):
            category = "compiler"
        elif "#define" in theirs:
            category = "tool macro"
        elif any(theirs) and all(c is None or is_pseudo_function(c, path, functions, macros) for c in theirs):
            category = "macro caller"
        elif theirs == {None}:
            category = "no function"
        elif ours_extents[path].function_at(line) in theirs:
            category = "other caller"
        elif theirs:
            category = "tool caller"
        else:
            category = "none"
        note = ""
        if category in ("other caller", "no function", "tool caller", "macro caller"):
            note = f"  ({tool}: from {', '.join(sorted(c or '-' for c in theirs))})"
        extra[category].append(f"{path}:{line} {caller} -> {called}{note}  | {source.text(line).strip()[:90]}")
    print(f"  the reverse: {ours_found} of analyze's {ours_count} edges in the same files are {tool}'s "
          f"({ours_found / ours_count if ours_count else 1.0:.2%})")
    explanations = dict(EXTRA, **(CSCOPE_EXTRA if tool == "cscope" else GLOBAL_EXTRA))
    print_categories(f"analyze has, {tool} lacks", extra, explanations)
    return share


def print_categories(title, entries, explanations, samples=20):
    """Counts per category, then up to `samples` examples spread over the categories."""
    total = sum(len(items) for items in entries.values())
    print(f"  {title}: {total} edges")
    order = [category for category in explanations if entries.get(category)]
    quota = {category: 0 for category in order}
    left = samples
    while left > 0 and any(quota[c] < len(entries[c]) for c in order):
        for category in order:
            if left > 0 and quota[category] < len(entries[category]):
                quota[category] += 1
                left -= 1
    for category in order:
        print(f"    {len(entries[category])} {category}: {explanations[category]}")
        for item in entries[category][:quota[category]]:
            print(f"        {item}")


def check_cscope(mcpkit, trees):
    for tool in ("cscope", "gtags", "global"):
        if not shutil.which(tool):
            sys.exit(f"{tool} is not installed (Debian: cscope, global)")
    failed = False
    for tree in trees:
        files = c_files(tree)
        print(f"== {tree}: {len(files)} C files")
        if not files:
            failed = True
            continue
        functions, macros = our_functions(mcpkit, tree)
        calls = our_calls(mcpkit, tree)
        indexed = set(functions) | {path for path, *_ in calls}
        sources = {path: CSource(read_text(os.path.join(tree, path))) for path in files}
        ours_extents = {path: sources[path].extents(functions.get(path, ())) for path in files}
        ours_edges = collections.defaultdict(list)
        ours_sites, ours_at = set(), collections.defaultdict(list)
        for path, line, caller, called in calls:
            ours_at[(path, line)].append((caller, called))
            if caller is not None:
                ours_edges[(path, caller, called)].append(line)
                ours_sites.add((path, line, caller, called))
        print(f"analyze: {len(calls)} calls, {len(ours_edges)} call edges in {len(indexed)} files")

        with tempfile.TemporaryDirectory() as scratch:
            cscope, rewritten = cscope_calls(files, tree, scratch)
            definitions, references = global_tags(files, tree, scratch)

        # cscope: the function of a call is cscope's own ($ … } marks).
        edges, sites, tool_at = collections.defaultdict(list), set(), collections.defaultdict(set)
        in_macros = outside = 0
        for path, line, function, macro, called in cscope:
            tool_at[(path, line, called)].add("#define" if macro else function)
            if macro:
                in_macros += 1
            elif function is None:
                outside += 1
            else:
                edges[(path, function, called)].append(line)
                sites.add((path, line, function, called))
        if rewritten:
            print(f"(cscope read a copy with {rewritten} lines rewritten, see for_cscope)")
        excluded = [(in_macros, "calls in #define bodies (no calling function; tree-sitter does not parse macro "
                                "bodies)"),
                    (outside, "calls outside every function in cscope's reading (file-level prototypes it reads "
                              "as calls, as in `SQLITE_API int f(int);`)")]
        failed |= compare_calls("cscope", edges, sites, ours_edges, ours_sites, ours_at, sources, ours_extents,
                                functions, macros, indexed, tool_at, excluded) < 0.97

        # Global: references followed by "(", in the function whose extent holds them, of the functions
        # Global defines (its definitions whose line has the name and a parenthesis, not a #define).
        extents = {}
        for path in files:
            source = sources[path]
            extents[path] = source.extents(
                (line, name) for line, name in definitions.get(path, ())
                if not source.directives.get(line) and source.calls_on(line, name))
        edges, sites, tool_at = collections.defaultdict(list), set(), collections.defaultdict(set)
        in_macros = outside = directives = 0
        for path, line, name in references:
            source = sources.get(path)
            if source is None or not source.calls_on(line, name):
                continue
            directive = source.directives.get(line)
            function = extents[path].function_at(line)
            tool_at[(path, line, name)].add("#define" if directive == "define" else function)
            if directive == "define":
                in_macros += 1
            elif directive:
                directives += 1
            elif function is None:
                outside += 1
            else:
                edges[(path, function, name)].append(line)
                sites.add((path, line, function, name))
        excluded = [(in_macros, "calls in #define bodies"),
                    (directives, "names followed by ( in other preprocessor lines (`#if defined(X)`)"),
                    (outside, "outside every function (prototypes, initializers)")]
        failed |= compare_calls("global", edges, sites, ours_edges, ours_sites, ours_at, sources, ours_extents,
                                functions, macros, indexed, tool_at, excluded) < 0.97
    return failed
