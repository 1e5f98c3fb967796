#!/usr/bin/env python3
"""Prints the numbers of one benchmark run side by side: mcpkit's full report against the outputs
cloc, radon cc and radon raw wrote for the same tree (run-analyze.sh saves them).

    compare-analyze.py OURS.json CLOC.json [RADON_CC.json [RADON_RAW.json]]
"""
import json
import os
import sys

CLOC_LANGUAGES = {"C", "C++", "C/C++ Header", "Python", "JavaScript", "JSX", "TypeScript", "Go", "Rust", "Java"}


def load(path):
    with open(path) as file:
        return json.load(file)


ours_report = load(sys.argv[1])
root = ours_report["root"]
ours = {os.path.normpath(os.path.join(root, f["path"])): f for f in ours_report["files"]}

cloc = load(sys.argv[2])
files = {os.path.normpath(os.path.abspath(p)): v for p, v in cloc.items()
         if p not in ("header", "SUM") and v["language"] in CLOC_LANGUAGES}
theirs = [sum(v[k] for v in files.values()) for k in ("blank", "comment", "code")]
mine = [sum(ours[p]["lines"][k] for p in files if p in ours) for k in ("blank", "comment", "code")]
same = sum(1 for p, v in files.items() if p in ours and
           (v["blank"], v["comment"], v["code"]) == tuple(ours[p]["lines"][k] for k in ("blank", "comment", "code")))
counted = sum(1 for p in files if p in ours)
print(f"  lines      cloc:    {len(files):6} files, blank {theirs[0]}, comment {theirs[1]}, code {theirs[2]}")
print(f"             mcpkit:  {counted:6} files, blank {mine[0]}, comment {mine[1]}, code {mine[2]}"
      f"  ({same}/{counted} files identical)")
for entry in ours_report["skipped"]:
    print(f"             mcpkit skipped {entry['path']}: {entry['reason']}")

if len(sys.argv) > 3 and os.path.getsize(sys.argv[3]) > 0:
    radon = load(sys.argv[3])
    total = agree = 0
    for path, blocks in radon.items():
        report = ours.get(os.path.normpath(os.path.abspath(path)))
        if report is None or isinstance(blocks, dict):
            continue
        by_line = {}
        for function in report["functions"]:
            by_line.setdefault(function["startLine"], []).append(function["cyclomatic"])
        for block in blocks:
            if block["type"] in ("function", "method"):
                total += 1
                agree += block["complexity"] in by_line.get(block["lineno"], [])
    print(f"  complexity radon cc: {total} functions; mcpkit agrees on {agree} ({agree / max(total, 1):.2%})")

if len(sys.argv) > 4 and os.path.getsize(sys.argv[4]) > 0:
    raw = load(sys.argv[4])
    paths = [os.path.normpath(os.path.abspath(p)) for p, v in raw.items() if "lloc" in v]
    lloc = sum(v["lloc"] for v in raw.values() if "lloc" in v)
    comments = sum(v["comments"] + v["multi"] for v in raw.values() if "lloc" in v)
    my_lloc = sum(ours[p]["logicalLines"] for p in paths if p in ours)
    my_comments = sum(ours[p]["commentLinesForMaintainability"] for p in paths if p in ours)
    print(f"  raw        radon raw: lloc {lloc}, comments+multi {comments} over {len(paths)} files")
    print(f"             mcpkit:    lloc {my_lloc}, comments+multi {my_comments}")
