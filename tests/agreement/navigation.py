#!/usr/bin/env python3
"""Checks `mcpkit analyze`'s navigation index against the established tools on real trees.

    navigation.py ctags   MCPKIT TREE...   ctags' functions, methods and types found at the same
                                           file, line and name (>= 99% per language)
    navigation.py cscope  MCPKIT TREE...   the C call edges (file, caller -> callee) of cscope and
                                           of GNU Global (gtags), also found by `mcpkit analyze
                                           callees` (>= 97% of each tool's), with the differences
                                           counted by cause and the reverse direction

A TREE may be zip:ARCHIVE:PREFIX (a part of a zip, unpacked to a scratch directory). Each run
prints what it compared, the agreement per language or tool and a sample of the differences, and
exits 1 when agreement is below the bar. Only the Python standard library is used; the tools come
from Debian (scripts/bootstrap.sh: universal-ctags, cscope, global). Nothing is written into a TREE:
cscope reads a copy and gtags writes its tag files to a scratch directory.
"""
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

sys.dont_write_bytecode = True  # call_edges is imported from here: no __pycache__ in the source tree

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
        if check == "ctags":
            failed = check_ctags(mcpkit, trees)
        else:
            from call_edges import check_cscope  # the C call-edge check lives beside this file
            failed = check_cscope(mcpkit, trees)
    sys.exit(1 if failed else 0)


# --- cscope: C call edges against cscope's and GNU Global's --------------------------------------


if __name__ == "__main__":
    main()
