#!/usr/bin/env python3
"""vsh benchmarks: each figure beside its baseline, measured in the same run.

Run with `make bench` (builds release first). VSH_BIN names the binary.
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

VSH = os.environ.get("VSH_BIN", os.path.join(os.path.dirname(__file__), "..", ".build/release/vsh"))
# The evaluation data (../shared/eval beside the checkout, or $VSH_EVAL): real and
# synthetic speech the voice benchmarks measure on. Tests never need it.
EVAL_DIR = os.environ.get("VSH_EVAL") or os.path.normpath(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "eval"))


def require_eval(path):
    """Stops the benchmark with status 2 and a clear message when the data is missing."""
    if not os.path.exists(os.path.join(path, "make-commands-corpus")):
        sys.stderr.write(f"no evaluation data in {path}: put shared/eval beside the checkout, "
                         "pass --eval DIR or set VSH_EVAL\n")
        sys.exit(2)
    return path


def isolated_env(home):
    env = dict(os.environ)
    for k in ("VSH_STORE", "VSH_CONFIG", "VSH_SHARE"):
        env.pop(k, None)
    env.update(HOME=home, XDG_CONFIG_HOME=home + "/config", XDG_STATE_HOME=home + "/state",
               XDG_DATA_HOME=home + "/data", TERM="xterm")
    return env


def voice_config(home, name, settings):
    """A configuration directory home/name (for --config or VSH_CONFIG) whose vsh.toml
    has `settings` (lines such as "early_end_ms = 0") in its [voice] section."""
    directory = os.path.join(home, name)
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "vsh.toml"), "w") as f:
        f.write(f"[voice]\n{settings}\n")
    return directory


def snapshot_home(prefix, vsh_config=None):
    """A new isolated home whose vsh reads a snapshot of this tree's shipped config/ and
    commands/ (taken now, so a run stays consistent while someone edits them), and
    `vsh_config` as the user's vsh.toml. Returns (home, env)."""
    home = tempfile.mkdtemp(prefix=prefix)
    env = isolated_env(home)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for d in ("config", "commands"):
        if os.path.isdir(os.path.join(root, d)):
            shutil.copytree(os.path.join(root, d), os.path.join(home, "share", d))
    env["VSH_SHARE"] = os.path.join(home, "share")
    if vsh_config:
        os.makedirs(os.path.join(home, "config", "vsh"))
        shutil.copy(vsh_config, os.path.join(home, "config", "vsh", "vsh.toml"))
    return home, env


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


def row(name, ours, base, unit, goal, better="lower"):
    ratio = ours / base if base else float("inf")
    ok = (ours <= goal) if better == "lower" else (ours >= goal)
    print(f"{name:<34} {ours:>12.1f} {base:>12.1f} {unit:<8} {ratio:>7.2f}x   goal {'≤' if better == 'lower' else '≥'} {goal:g} {unit}: {'met' if ok else 'NOT MET'}")


def main():
    if not os.access(VSH, os.X_OK):
        sys.exit(f"{VSH} not built: run `make bench`")
    home = tempfile.mkdtemp(prefix="vsh-bench-")
    try:
        env = isolated_env(home)
        print(f"{'benchmark':<34} {'vsh':>12} {'baseline':>12} {'unit':<8} {'vsh/base':>8}")
        print("-" * 100)

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
    finally:
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
