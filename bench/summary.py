#!/usr/bin/env python3
"""The table `make bench` ends with: each benchmark's headline figures (bench/lib/results.py
wrote them to .build/bench-results/), vsh beside its baseline. Prints it, and appends it
to bench/RESULTS.md under the date, the commit and the machine's cores, so that a person
can diff the figures over time and tell which are current.

    python3 bench/summary.py [--results DIR] [--append FILE | --no-append]
"""
import argparse
import contextlib
import glob
import io
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib.env import ROOT  # noqa: E402
from lib.results import RESULTS_DIR, RUN_RECORD  # noqa: E402
from lib.score import markdown_table  # noqa: E402


def load(directory):
    """The benchmarks' results, in the order they finished."""
    results = []
    for path in glob.glob(os.path.join(directory, "*.json")):
        with open(path) as f:
            try:
                results.append(json.load(f))
            except json.JSONDecodeError as e:
                sys.exit(f"{path} is not a benchmark's results ({e}); run `make bench` again")
    return sorted(results, key=lambda r: (r["finished"], r["benchmark"]))


def table_rows(results):
    """One row per headline figure: benchmark (on its first figure only), figure, vsh, baseline."""
    rows = []
    for result in results:
        for i, r in enumerate(result["rows"]):
            rows.append((result["benchmark"] if i == 0 else "", r["figure"], r["vsh"],
                         "—" if r["baseline"] is None else r["baseline"]))
    return rows


def commit():
    """The commit measured, with "+ changes" when the tree differs from it."""
    def git(*args):
        return subprocess.run(["git", "-C", ROOT, *args], capture_output=True, text=True).stdout.strip()
    head = git("rev-parse", "--short=12", "HEAD") or "unknown"
    return head + (" + changes" if git("status", "--porcelain", "--untracked-files=no") else "")


def heading():
    """When the run ended (and began, when bench/step.py recorded it: a resumed run may span
    days), the commit and the cores."""
    try:
        with open(RUN_RECORD) as f:
            begun = json.load(f).get("begun")
    except (FileNotFoundError, json.JSONDecodeError):
        begun = None
    when = (f"{begun} to " if begun else "") + time.strftime("%Y-%m-%d %H:%M %Z")
    return f"## {when} · commit {commit()} · {os.cpu_count()} cores"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", default=RESULTS_DIR, help="where the benchmarks wrote their headline figures")
    parser.add_argument("--append", default=os.path.join(ROOT, "bench", "RESULTS.md"), help="the file the table is appended to")
    parser.add_argument("--no-append", action="store_true", help="print the table only")
    args = parser.parse_args()
    results = load(args.results)
    if not results:
        sys.exit(f"no benchmark results in {args.results}: run `make bench`")
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        print("\n" + heading() + "\n")
        markdown_table(("benchmark", "figure", "vsh", "baseline"), table_rows(results))
    print(text.getvalue(), end="")
    if not args.no_append:
        with open(args.append, "a") as f:
            f.write(text.getvalue())
        print(f"\nappended to {args.append}")


if __name__ == "__main__":
    main()
