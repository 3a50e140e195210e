#!/usr/bin/env python3
"""Lets `make bench` resume: a full run takes hours, and one stopped part way (a closed
laptop, a killed session) should not have to measure again what it already measured.

    python3 bench/step.py begin          # starts a run, or resumes the one of this commit
    python3 bench/step.py run NAME CMD…  # runs one benchmark, unless this run already did
    python3 bench/step.py end            # after the table is written: the next run starts over

A run resumes only when it measures the same code: the same commit, with no changes in the
tree. Anything else (another commit, changed files, `make bench FRESH=1`) starts a new run
and forgets the figures of the old one, so the table never mixes two versions of vsh.
Each benchmark's wall time is kept beside its stamp and printed when it ends.
"""
import json
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib.env import ROOT  # noqa: E402
from lib.results import RESULTS_DIR, RUN_RECORD as RUN  # noqa: E402

STEPS = os.path.join(RESULTS_DIR, "steps")


def measured_code():
    """The commit, or None when the tree has changes (such a run cannot be resumed)."""
    def git(*args):
        return subprocess.run(["git", "-C", ROOT, *args], capture_output=True, text=True).stdout.strip()
    if git("status", "--porcelain", "--untracked-files=no"):
        return None
    return git("rev-parse", "HEAD") or None


def current_run():
    try:
        with open(RUN) as f:
            return json.load(f)
    except (FileNotFoundError, json.JSONDecodeError):
        return None


def begin():
    code = measured_code()
    run = current_run()
    if code and run and run.get("commit") == code and not os.environ.get("FRESH"):
        done = sorted(os.listdir(STEPS)) if os.path.isdir(STEPS) else []
        print(f"bench: resuming the run of {code[:12]} begun {run['begun']}: "
              f"{len(done)} benchmark(s) done ({', '.join(done) or 'none'}); `make bench FRESH=1` starts over")
        return
    shutil.rmtree(RESULTS_DIR, ignore_errors=True)
    os.makedirs(STEPS)
    with open(RUN, "w") as f:
        json.dump({"commit": code, "begun": time.strftime("%Y-%m-%d %H:%M")}, f)
    if code is None:
        print("bench: the tree has changes, so this run cannot be resumed if it stops")


def run(name, command):
    stamp = os.path.join(STEPS, name)
    if os.path.exists(stamp):
        with open(stamp) as f:
            print(f"bench: {name} was measured earlier in this run ({f.read().strip()}); skipped")
        return 0
    start = time.monotonic()
    code = subprocess.call(command)
    if code != 0:
        return code
    took = f"{(time.monotonic() - start) / 60:.1f} min"
    print(f"bench: {name} took {took}")
    if (current_run() or {}).get("commit"):
        with open(stamp, "w") as f:
            f.write(f"{time.strftime('%Y-%m-%d %H:%M')}, {took}\n")
    return 0


def end():
    shutil.rmtree(STEPS, ignore_errors=True)
    try:
        os.remove(RUN)
    except FileNotFoundError:
        pass


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "begin":
        begin()
    elif len(sys.argv) >= 4 and sys.argv[1] == "run":
        sys.exit(run(sys.argv[2], sys.argv[3:]))
    elif len(sys.argv) >= 2 and sys.argv[1] == "end":
        end()
    else:
        sys.exit(__doc__.split("\n\n")[1])


if __name__ == "__main__":
    main()
