#!/usr/bin/env python3
"""The shell itself beside bash: start to the first prompt, and lines of a script per second.

    python3 bench/shell.py

`make bench` runs it with the other benchmarks (building release first); VSH_BIN names
the binary.
"""
import os
import pty
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib.env import VSH, isolated_env  # noqa: E402
from lib.results import save  # noqa: E402
from lib.score import row, row_head  # noqa: E402


def time_to_prompt(argv, env, prompt=b"vsh> ", runs=30):
    """Median seconds from exec to the prompt appearing on a pseudo-terminal."""
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        pid, fd = pty.fork()
        if pid == 0:
            os.execvpe(argv[0], argv, env)
        seen = b""
        deadline = start + 10
        while prompt not in seen and time.perf_counter() < deadline:
            r, _, _ = select.select([fd], [], [], 0.5)
            if r:
                try:
                    seen += os.read(fd, 4096)
                except OSError:
                    break
        elapsed = time.perf_counter() - start
        if prompt not in seen:
            sys.exit(f"no prompt from {argv}: {seen!r}")
        samples.append(elapsed)
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        os.close(fd)
    return statistics.median(samples)


def time_script(argv, script, env, runs=5):
    """Best wall time of running `script` on stdin (best of N: least disturbed by noise)."""
    best = None
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, input=script, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       env=env, check=True)
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return best


def main():
    if not os.access(VSH, os.X_OK):
        sys.exit(f"{VSH} not built: run `make bench`")
    home = tempfile.mkdtemp(prefix="vsh-bench-")
    try:
        env = isolated_env(home)
        row_head()

        # Start-up: exec to the first prompt on a terminal. Baseline: bash with no rc files.
        ours = time_to_prompt([VSH], env) * 1000
        bash_env = dict(env, PS1="vsh> ")
        base = time_to_prompt(["bash", "--norc", "--noprofile", "-i"], bash_env) * 1000
        row("start to first prompt (bash)", ours, base, "ms", 100)

        # Script throughput: 10,000 cheap lines piped in. Baseline: bash running the
        # equivalent 10,000 builtin lines.
        lines = 10_000
        script = ("quality\n" * (lines // 2) + "help quality\n" * (lines // 2)).encode()
        bash_script = ("echo medium\n" * (lines // 2) + "echo quality\n" * (lines // 2)).encode()
        ours = lines / time_script([VSH], script, env)
        base = lines / time_script(["bash", "--norc", "--noprofile"], bash_script, env)
        row("10,000-line script (bash)", ours, base, "lines/s", 20_000, better="higher")
        save("shell")
    finally:
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
