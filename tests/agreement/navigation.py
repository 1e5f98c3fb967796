#!/usr/bin/env python3
"""Checks `mcpkit analyze`'s navigation index against the established tools on real trees.

    navigation.py ctags   MCPKIT TREE...   ctags' functions, methods and types found at the same
                                           file, line and name (>= 99% per language)
    navigation.py cscope  MCPKIT TREE      C call edges (caller -> callee) that cscope finds,
                                           also found by `mcpkit analyze callees` (>= 97%)

A TREE may be zip:ARCHIVE:PREFIX (a part of a zip, unpacked to a scratch directory). Each run
prints what it compared, the agreement per language and a sample of the differences, and exits 1
when agreement is below the bar. Only the Python standard library is used; the tools come from
Debian (scripts/bootstrap.sh).
"""
import bisect
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
import zipfile

# ctags' kinds (long names) that are functions, methods or types, by ctags' language name.
CTAGS_KINDS = {
    "C": {"function", "struct", "union", "enum", "typedef"},
    "C++": {"function", "struct", "union", "enum", "typedef", "class"},
    "Python": {"function", "member", "class"},
    "JavaScript": {"function", "method", "class", "generator", "getter", "setter"},
    "TypeScript": {"function", "method", "class", "interface", "enum", "alias", "generator"},
    "Go": {"func", "struct", "interface", "type", "talias", "methodSpec"},
    "Rust": {"function", "method", "struct", "enum", "interface", "typedef"},
    "Java": {"class", "interface", "enum", "annotation", "method"},
}
# The file extensions analyze reads (Language.cpp), so that both look at the same files.
EXTENSIONS = {".c", ".h", ".cc", ".cpp", ".cxx", ".c++", ".hh", ".hpp", ".hxx", ".h++", ".py", ".js", ".mjs", ".cjs",
              ".jsx", ".ts", ".mts", ".cts", ".tsx", ".go", ".rs", ".java"}
EXCLUDED = [".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", "venv", ".tox", ".mypy_cache",
            ".pytest_cache", ".cache", ".idea", ".vscode"]


def run(command, cwd=None, env=None):
    result = subprocess.run(command, capture_output=True, text=True, cwd=cwd, env=env, errors="replace")
    if result.returncode != 0:
        sys.exit(f"{' '.join(command[:4])}… failed ({result.returncode}): {result.stderr.strip()[:2000]}")
    return result.stdout


def our_definitions(mcpkit, tree):
    """{(path, line): {names}} of every definition analyze indexes."""
    found = collections.defaultdict(set)
    text = run([mcpkit, "analyze", "find", "*", "--tsv", "--no-cache", "--progress", "never", "--max-file-bytes",
                str(16 << 20), "--root", tree])
    for line in text.splitlines():
        path, number, _column, _kind, qualified = line.split("\t")
        found[(path, int(number))].add(qualified.rsplit(".", 1)[-1])
    return found


def ctags_definitions(tree):
    """[(language, path, line, name, kind)] of ctags' functions, methods and types under the tree."""
    command = ["ctags", "-R", "--output-format=json", "--fields=+nKl", "-f", "-"]
    command += [f"--exclude={name}" for name in EXCLUDED]
    command.append(".")
    tags = []
    for line in run(command, cwd=tree).splitlines():
        try:
            tag = json.loads(line)
        except json.JSONDecodeError:
            continue
        language = tag.get("language")
        path = tag.get("path", "")
        if path.startswith("./"):
            path = path[2:]
        if tag.get("_type") != "tag" or language not in CTAGS_KINDS or tag.get("kind") not in CTAGS_KINDS[language]:
            continue
        if os.path.splitext(path)[1] not in EXTENSIONS:
            continue
        # Names ctags makes up for anonymous structs, enums and functions: nothing a user could ask for.
        if tag["name"].startswith("__anon") or tag["name"].startswith("AnonymousFunction"):
            continue
        pattern = tag.get("pattern", "")
        # Two of ctags' readings that are not definitions: JavaScript object-literal keys holding
        # objects become "classes" (`$defs: {…}`), and TypeScript's `import { type X }` becomes a
        # type alias X. Left out, and counted.
        if language == "JavaScript" and tag["kind"] == "class" and not any(
                word + " " + tag["name"] in pattern for word in ("class", "function")):
            not_definitions[language] += 1
            continue
        if language == "TypeScript" and tag["kind"] == "alias" and pattern.lstrip("/^").startswith(("import", "export {", "export type {")):
            not_definitions[language] += 1
            continue
        tags.append((language, path, tag["line"], tag["name"], tag["kind"]))
    return tags


not_definitions = collections.Counter()


def check_ctags(mcpkit, trees):
    failed = False
    per_language = collections.defaultdict(lambda: [0, 0])
    misses = collections.defaultdict(list)
    for tree in trees:
        ours = our_definitions(mcpkit, tree)
        indexed_files = {path for path, _ in ours}
        for language, path, line, name, kind in ctags_definitions(tree):
            # ctags reads some files analyze skips (over its size limit, binary): compare the rest.
            if path not in indexed_files and not any(p == path for p, _ in ours):
                continue
            counts = per_language[language]
            counts[0] += 1
            # C++ operators and destructors: ctags names them "operator ==", "~T".
            if name in ours.get((path, line), set()) or name.replace(" ", "") in ours.get((path, line), set()):
                counts[1] += 1
            else:
                misses[language].append(f"{tree}/{path}:{line} {kind} {name}")
    for language, (total, found) in sorted(per_language.items()):
        share = found / total if total else 1.0
        print(f"{language}: {found} of ctags' {total} functions, methods and types found at the same line ({share:.2%})")
        if not_definitions[language]:
            print(f"  (left out: {not_definitions[language]} tags ctags gives to object keys or imports, see the source)")
        for miss in misses[language][:15]:
            print(f"  missing {miss}")
        if share < 0.99:
            failed = True
    if not per_language:
        print("ctags found nothing to compare")
        failed = True
    return failed


def unpack(targets, scratch):
    trees = []
    for target in targets:
        if target.startswith("zip:"):
            _, archive, prefix = target.split(":", 2)
            destination = os.path.join(scratch, os.path.basename(prefix.rstrip("/")) or "zip")
            with zipfile.ZipFile(archive) as bundle:
                for member in bundle.namelist():
                    if member.startswith(prefix) and not member.endswith("/"):
                        bundle.extract(member, destination)
            trees.append(destination)
        else:
            trees.append(os.path.abspath(target))
    return trees


def main():
    if len(sys.argv) < 4 or sys.argv[1] not in ("ctags", "cscope"):
        sys.exit(__doc__)
    check, mcpkit = sys.argv[1], os.path.abspath(sys.argv[2])
    with tempfile.TemporaryDirectory() as scratch:
        trees = unpack(sys.argv[3:], scratch)
        failed = check_ctags(mcpkit, trees) if check == "ctags" else check_cscope(mcpkit, trees)
    sys.exit(1 if failed else 0)


# --- cscope: C call edges against cscope's and GNU Global's --------------------------------------

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
    """One C file: its lines, which of them are preprocessor directives (by directive), and the
    extent of each function analyze defines in it."""

    def __init__(self, text):
        self.lines = text.split("\n")
        newlines = [m.start() for m in re.finditer("\n", text)]
        self.directives = {}  # line -> the directive's name ("define", "if", …)
        # Matching braces: self.opens[i] is the line of a "{", self.closes[i] that of its "}". The
        # branches of an #if chain each start from the braces open at the #if, and the first one's
        # carry on after the #endif (`if( x ){` / `#else` / `{` / `#endif` opens one block).
        self.opens, self.closes = [], []
        stack, conditionals = [], []  # open braces; per open #if: [stack at the #if, after the first branch]
        for token in C_TOKEN.finditer(text):
            kind = token.lastgroup
            if kind == "brace":
                if token.group() == "{":
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
                    at_if, after_first = conditionals.pop()
                    if after_first is not None:
                        stack = after_first
        self.starts, self.ends, self.names = [], [], []

    def set_functions(self, functions):
        """Extents of the functions defined at [(line, name)]: from the definition's line to the brace
        closing the first brace at or after it. A definition inside another one's extent is left out
        (C has no nested functions: those are misreadings)."""
        for line, name in sorted(functions):
            first = bisect.bisect_left(self.opens, line)
            if first == len(self.opens) or (self.ends and line <= self.ends[-1]):
                continue
            self.starts.append(line)
            self.ends.append(self.closes[first])
            self.names.append(name)

    def function_at(self, line):
        at = bisect.bisect_right(self.starts, line) - 1
        return self.names[at] if at >= 0 and line <= self.ends[at] else None

    def text(self, line):
        return self.lines[line - 1] if 0 < line <= len(self.lines) else ""

    def calls_on(self, line, name):
        """Whether the line has name followed by an opening parenthesis, outside literals and comments."""
        code = LINE_NOISE.sub(" ", self.text(line))
        return re.search(r"(?<![\w$])" + re.escape(name) + r"\s*\(", code) is not None


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
    """{path: [(line, name)]} of the functions analyze defines in the tree's C files."""
    functions = collections.defaultdict(list)
    for row in analyze_tsv(mcpkit, "find", tree):
        path, line, _column, kind, qualified = row.split("\t")
        if kind == "function" and path.endswith(C_SOURCES):
            functions[path].append((int(line), qualified.rsplit(".", 1)[-1]))
    return functions


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


def global_references(files, tree, scratch):
    """[(path, line, name)] of the symbols GNU Global's gtags records as used (global -r and -s)."""
    database = os.path.join(scratch, "global")
    os.mkdir(database)
    with open(os.path.join(scratch, "gtags.files"), "w", encoding="utf-8") as listing:
        listing.writelines(f"./{path}\n" for path in files)
    environment = {k: v for k, v in os.environ.items() if not k.startswith("GTAGS")}
    run(["gtags", "-q", "-f", os.path.join(scratch, "gtags.files"), database], cwd=tree, env=environment)
    # `global -rx '.*'` prints the same but takes half a minute on sqlite3.c (it reads the source for
    # every line it prints), so the tag files are read through gtags' --dump. GPATH: "./path" -> file
    # number. GRTAGS (always in the compact format): name -> "<file number> @n <lines>", the lines as
    # comma-separated differences from the one before, "d-k" for k more lines in a row after it.
    numbers = {}
    for row in run(["gtags", "--dump", os.path.join(database, "GPATH")]).splitlines():
        key, _, value = row.partition("\t")
        if key.startswith("./") and value.isdigit():
            numbers[value] = key[2:]
    references = []
    for row in run(["gtags", "--dump", os.path.join(database, "GRTAGS")]).splitlines():
        name, _, value = row.partition("\t")
        if name.startswith(" __."):
            continue
        number, tag, lines = value.split(" ")
        if tag != "@n" or number not in numbers:
            sys.exit(f"gtags --dump: a record in an unknown format: {row[:200]}")
        line = 0
        for part in lines.split(","):
            step, _, more = part.partition("-")
            line += int(step)
            references.append((numbers[number], line, name))
            for _ in range(int(more or 0)):
                line += 1
                references.append((numbers[number], line, name))
    return references

#@@CSCOPE2@@


if __name__ == "__main__":
    main()
