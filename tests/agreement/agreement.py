#!/usr/bin/env python3
"""Checks `mcpkit analyze` against the established tools on real trees.

    agreement.py cloc      MCPKIT TREE...   every file's blank/comment/code, and per language
    agreement.py radon-cc  MCPKIT TREE      cyclomatic complexity of Python functions (>= 95%)
    agreement.py radon-mi  MCPKIT FILE...   maintainability index within 1 point (every file)
    agreement.py pmccabe   MCPKIT TREE      cyclomatic complexity of C functions (>= 95%)

Each run prints what it compared and every disagreement it found, and exits 1 when agreement is
below the bar. Only the Python standard library is used; the tools come from Debian (bootstrap).
"""
import collections
import json
import os
import subprocess
import sys
import tempfile
import zipfile

# cloc's names for the languages analyze understands.
CLOC_LANGUAGES = {"C", "C++", "C/C++ Header", "Python", "JavaScript", "JSX", "TypeScript", "Go", "Rust", "Java"}


def run(command):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0 and not result.stdout:
        sys.exit(f"{' '.join(command[:3])}… failed ({result.returncode}): {result.stderr.strip()[:2000]}")
    return result.stdout


# Directories analyze leaves out unless asked (ProjectAnalyzer's default excludes); cloc is told
# the same so that both look at the same files.
DEFAULT_EXCLUDED_DIRECTORIES = ".git,.hg,.svn,node_modules,__pycache__,.venv,venv,.tox,.mypy_cache,.pytest_cache,.cache,.idea,.vscode"


def mcpkit_report(mcpkit, path, skipped=None):
    """The full JSON report of a file or tree, keyed by absolute path. `skipped` collects the files
    the report says it left out, with the reason."""
    report = json.loads(run([mcpkit, "analyze", "report", path, "--json", "--no-cache", "--progress", "never"]))
    if "files" not in report:  # a single file
        return {os.path.abspath(path): report}
    root = report["root"] if os.path.isabs(report.get("root", "")) else path
    if skipped is not None:
        for entry in report["skipped"]:
            skipped[os.path.normpath(os.path.join(root, entry["path"]))] = entry["reason"]
    return {os.path.normpath(os.path.join(root, f["path"])): f for f in report["files"]}


def check_cloc(mcpkit, trees):
    failures = []
    notes = []
    totals = collections.defaultdict(lambda: [0, 0, 0, 0, 0, 0, 0, 0])
    compared = 0
    for tree in trees:
        skipped = {}
        ours = mcpkit_report(mcpkit, tree, skipped)
        # --skip-uniqueness: cloc otherwise drops files whose content it has seen already.
        # --timeout: cloc gives up on a file after ~1 s by default and calls every line a comment.
        cloc = json.loads(run(["cloc", "--by-file", "--skip-uniqueness", "--json", "--quiet", "--timeout", "600",
                               "--exclude-dir", DEFAULT_EXCLUDED_DIRECTORIES, tree]))
        theirs = {os.path.normpath(os.path.abspath(p)): v for p, v in cloc.items() if p not in ("header", "SUM")}
        for path, counts in sorted(theirs.items()):
            if counts["language"] not in CLOC_LANGUAGES:
                continue
            mine = ours.get(path)
            if mine is None and path in skipped:
                notes.append(f"{path}: analyze skipped it ({skipped[path]})")
                continue
            if mine is None:
                failures.append(f"{path}: cloc counts it as {counts['language']}, analyze skipped it")
                continue
            compared += 1
            expected = (counts["blank"], counts["comment"], counts["code"])
            actual = (mine["lines"]["blank"], mine["lines"]["comment"], mine["lines"]["code"])
            row = totals[counts["language"]]
            row[0] += 1
            row[1:4] = [a + b for a, b in zip(row[1:4], expected)]
            row[4] += 1
            row[5:8] = [a + b for a, b in zip(row[5:8], actual)]
            if expected != actual:
                failures.append(f"{path}: cloc blank/comment/code {expected}, analyze {actual}")
        for path in sorted(set(ours) - set(theirs)):
            # cloc ignores empty files and does not know .mts/.cts.
            if ours[path]["lines"]["total"] > 0 and not path.endswith((".mts", ".cts")):
                failures.append(f"{path}: analyze counts it, cloc does not")
    print(f"{'language':14} {'files':>7} {'blank':>9} {'comment':>9} {'code':>9}   (cloc / analyze)")
    for language, row in sorted(totals.items()):
        print(f"{language:14} {row[0]:7} {row[1]:9} {row[2]:9} {row[3]:9}")
        print(f"{'':14} {row[4]:7} {row[5]:9} {row[6]:9} {row[7]:9}")
    for note in notes:
        print("  " + note)
    print(f"{compared} files compared, {len(failures)} disagreements")
    return failures, not failures and compared > 0


def check_radon_cc(mcpkit, tree):
    ours = mcpkit_report(mcpkit, tree)
    radon = json.loads(run(["radon", "cc", "--json", tree]))
    functions = agree = classes = classes_agree = 0
    failures = []
    for path, blocks in sorted(radon.items()):
        mine = ours.get(os.path.normpath(os.path.abspath(path)))
        if isinstance(blocks, dict) or mine is None:  # radon could not parse it
            continue
        by_line = collections.defaultdict(list)
        for function in mine["functions"]:
            by_line[function["startLine"]].append(function["cyclomatic"])
        types_by_line = {t["startLine"]: t.get("cyclomatic") for t in mine["types"]}
        for block in blocks:
            if block["type"] == "class":
                classes += 1
                if types_by_line.get(block["lineno"]) == block["complexity"]:
                    classes_agree += 1
                else:
                    failures.append(f"{path}:{block['lineno']} class {block['name']}: radon {block['complexity']}, "
                                    f"analyze {types_by_line.get(block['lineno'])}")
                continue
            functions += 1
            if block["complexity"] in by_line.get(block["lineno"], []):
                agree += 1
            else:
                failures.append(f"{path}:{block['lineno']} {block['name']}: radon {block['complexity']}, "
                                f"analyze {by_line.get(block['lineno'])}")
    share = agree / functions if functions else 0.0
    print(f"functions: {agree}/{functions} agree ({share:.2%}); classes: {classes_agree}/{classes}")
    return failures, functions > 0 and share >= 0.95


def check_radon_mi(mcpkit, files):
    radon = json.loads(run(["radon", "mi", "--json", "--show"] + files))
    compared = within = 0
    failures = []
    worst = 0.0
    for path, result in sorted(radon.items()):
        if "mi" not in result:
            continue
        mine = mcpkit_report(mcpkit, path)[os.path.abspath(path)]
        compared += 1
        difference = abs(mine["maintainabilityIndex"] - result["mi"])
        worst = max(worst, difference)
        if difference <= 1.0:
            within += 1
        else:
            failures.append(f"{path}: radon mi {result['mi']:.2f}, analyze {mine['maintainabilityIndex']:.2f}")
    print(f"{within}/{compared} files within 1 point (largest difference {worst:.2f})")
    return failures, compared > 0 and within == compared


def check_pmccabe(mcpkit, tree):
    functions = agree = 0
    failures = []
    paths = sorted(os.path.join(d, f) for d, _, names in os.walk(tree) for f in names if f.endswith(".c"))
    for path in paths:
        mine = mcpkit_report(mcpkit, path)[os.path.abspath(path)]
        by_line = collections.defaultdict(list)
        by_name = collections.defaultdict(list)
        for function in mine["functions"]:
            by_line[function["startLine"]].append(function["cyclomatic"])
            by_name[function["name"]].append(function["cyclomatic"])
        # pmccabe: modified, traditional, statements, first line, lines, "file(line): name"
        for line in run(["pmccabe", path]).splitlines():
            fields = line.split("\t")
            if len(fields) < 6:
                continue
            traditional, first_line = int(fields[1]), int(fields[3])
            name = fields[5].rsplit(": ", 1)[-1]
            functions += 1
            # pmccabe's first line can be a comment or prototype above the definition: the name decides then.
            if traditional in by_line.get(first_line, []) or traditional in by_name.get(name, []):
                agree += 1
            else:
                failures.append(f"{path}:{first_line} {name}: pmccabe {traditional}, analyze "
                                f"{by_line.get(first_line) or by_name.get(name)}")
    share = agree / functions if functions else 0.0
    print(f"{agree}/{functions} C functions agree ({share:.2%})")
    return failures, functions > 0 and share >= 0.95


def unpack(targets, scratch):
    """`zip:ARCHIVE:PREFIX` stands for the files under PREFIX in ARCHIVE (the JDK ships its sources
    zipped), extracted into a scratch directory."""
    paths = []
    for target in targets:
        if not target.startswith("zip:"):
            paths.append(target)
            continue
        archive, prefix = target[4:].rsplit(":", 1)
        destination = os.path.join(scratch, str(len(paths)))
        with zipfile.ZipFile(archive) as source:
            source.extractall(destination, [n for n in source.namelist() if n.startswith(prefix)])
        paths.append(destination)
    return paths


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    with tempfile.TemporaryDirectory(prefix="agreement-") as scratch:
        check, mcpkit, targets = sys.argv[1], sys.argv[2], unpack(sys.argv[3:], scratch)
        run_check(check, mcpkit, targets)


def run_check(check, mcpkit, targets):
    if check == "cloc":
        failures, passed = check_cloc(mcpkit, targets)
    elif check == "radon-cc":
        failures, passed = check_radon_cc(mcpkit, targets[0])
    elif check == "radon-mi":
        files = [os.path.join(t, f) for t in targets if os.path.isdir(t) for f in sorted(os.listdir(t)) if f.endswith(".py")]
        failures, passed = check_radon_mi(mcpkit, files + [t for t in targets if not os.path.isdir(t)])
    elif check == "pmccabe":
        failures, passed = check_pmccabe(mcpkit, targets[0])
    else:
        sys.exit(f"unknown check {check!r}: use cloc, radon-cc, radon-mi or pmccabe")
    for failure in failures[:200]:
        print("  " + failure)
    if len(failures) > 200:
        print(f"  … and {len(failures) - 200} more")
    sys.exit(0 if passed else 1)


if __name__ == "__main__":
    main()
