#!/usr/bin/env python3
"""Voice recognition benchmark: vsh beside stock pocketsphinx_continuous, in one run.

    python3 bench/voice.py [--quick] [--jobs N] [--vsh PATH] [--only commands|oog|dictation]

Measures, each figure beside the baseline's:
  commands   exact-match accuracy per condition on the spoken-command corpus
             (make-commands-corpus), CPU seconds over it, and vsh's latency when its
             JSON carries "latency";
  oog        false accepts on speech that is not a command (synthesized sentences from
             bench/oog-sentences.txt, clean and pink noise; librivox; cards, goforward);
  dictation  word error rate on the librivox sentences (`vsh transcribe`).
vsh runs `listen --from FILE --json --grammar bench/commands.gram` per file; the baseline
runs `pocketsphinx_continuous -infile FILE -jsgf bench/commands.gram`, and every line it
prints counts as an accepted hypothesis. Both run the same way, one process per file, N at
a time; vsh with an isolated HOME and a snapshot of this tree's config/ and commands/ taken
at the start. Audio is generated once into .build/bench-voice/ and reused (bench/lib/data.py);
per-file outcomes go to .build/bench-voice/{results,oog,dictation}-{vsh,baseline}.tsv.
--eval DIR (or VSH_EVAL) names the evaluation data, default ../shared/eval.

Exit status: 0 when both tools ran (missed goals included), 1 when vsh failed on some file,
2 when the benchmark could not run (no binary, no baseline, no corpus).
"""
import argparse
import collections
import os
import shutil
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib.data import ensure_corpus, ensure_oog, librivox, subset  # noqa: E402
from lib.env import COMMANDS_GRAMMAR as GRAMMAR, EVAL_DIR, ROOT, VSH, log, snapshot_home  # noqa: E402
from lib.results import headline, save  # noqa: E402
from lib.score import edit_distance, markdown_table, met, pct, ratio, words  # noqa: E402
from lib.vsh import (MODEL, STOCK as BASELINE, Outcome, first_line, json_lines, measured,  # noqa: E402
                     phrases, run, stock_argv, stock_lines, stock_tool, stock_version, vsh_tool)

CONDITIONS = ["clean", "quiet", "white20db", "pink10db", "brown5db", "session"]


# ---------------------------------------------------------------- running

def vsh_transcribe(vsh, env):
    def one(path):
        rc, out, err = run([vsh, "transcribe", path, "--json"], env)
        objs, error = json_lines(rc, out, err)
        if error:
            return Outcome(error=error, status=rc)
        return Outcome(heard=" ".join(str(o.get("text", "")) for o in objs))
    return one


def baseline_dictation(path):
    rc, hyps, err = stock_lines(stock_argv(path, "-lm", MODEL + "/en-us.lm.bin"))
    return Outcome(heard=" ".join(hyps), status=rc, error=err)


# ---------------------------------------------------------------- scoring

def expected_phrases(expected):
    return phrases(p for p in expected.split("|") if p.strip())


def write_tsv(path, rows, outcomes, got):
    with open(path, "w") as f:
        f.write("id\tcond\texpected\tgot\theard\n")
        for r, o in zip(rows, outcomes):
            g = f"ERROR {o.error}" if o.error and not o.accepted and not o.heard else got(o)
            f.write("\t".join(x.replace("\t", " ") for x in (r["id"], r["condition"], r["expected"], g, o.heard)) + "\n")


# ---------------------------------------------------------------- report

class Table:
    def __init__(self):
        self.rows = []

    def add(self, metric, ours, base, goal="", ok=None, ratio=None):
        self.rows.append((metric, ours, base, ratio or "—", goal or "—", met(ok)))

    def print(self):
        markdown_table(("metric", "vsh", "baseline", "ratio", "goal", "met?"), self.rows)
        # The headline figures: accuracy over all conditions (not each one), the rest.
        for metric, ours, base, *_ in self.rows:
            if not metric.startswith("command accuracy, ") or metric.endswith("ALL"):
                headline(metric, ours, base)


def commands_section(table, rows, ours, base, cpu, notes, out_dir):
    right = lambda o, r: phrases(o.accepted) == expected_phrases(r["expected"])
    conds = [c for c in CONDITIONS if any(r["condition"] == c for r in rows)]
    conds += sorted({r["condition"] for r in rows} - set(conds))
    for cond in conds + ["ALL"]:
        sel = [i for i, r in enumerate(rows) if cond in ("ALL", r["condition"])]
        a = sum(right(ours[i], rows[i]) for i in sel)
        b = sum(right(base[i], rows[i]) for i in sel)
        table.add(f"command accuracy, {cond}", pct(a, len(sel)), pct(b, len(sel)), "≥ 98%",
                  100 * a >= 98 * len(sel), ratio(a, b))
    table.add(f"CPU s, command corpus ({len(rows)} files)", f"{cpu[0]:.1f}", f"{cpu[1]:.1f}", "≤ baseline",
              cpu[0] <= cpu[1], ratio(*cpu))
    lat = [x for o in ours for x in o.latencies]
    if lat:
        med, p95 = np.median(lat) * 1000, np.percentile(lat, 95) * 1000
        table.add(f"latency median, ms ({len(lat)} utt.)", f"{med:.0f}", "—", "≤ 250 ms", med <= 250)
        table.add("latency 95th percentile, ms", f"{p95:.0f}", "—", "≤ 250 ms", p95 <= 250)
    else:
        table.add("latency, ms", "n/a", "—", "≤ 250 ms")
    write_tsv(os.path.join(out_dir, "results-vsh.tsv"), rows, ours, lambda o: phrases(o.accepted))
    write_tsv(os.path.join(out_dir, "results-baseline.tsv"), rows, base, lambda o: phrases(o.accepted))
    confusions = collections.Counter(
        (expected_phrases(r["expected"]), phrases(o.accepted) or ("(error)" if o.error else "(nothing)"))
        for r, o in zip(rows, ours) if not right(o, r))
    if confusions:
        notes.append("Top vsh confusions (count: expected → got):\n" + "\n".join(
            f"  {n:3d}: {e} → {g}" for (e, g), n in confusions.most_common(10)))


def oog_section(table, rows, ours, base, cpu, out_dir):
    groups = [("synthesized sentences", lambda c: c.startswith("synth")),
              ("librivox", lambda c: c == "librivox"),
              ("cards + goforward", lambda c: c in ("cards", "goforward")),
              ("all OOG", lambda c: True)]
    for name, member in groups:
        sel = [i for i, r in enumerate(rows) if member(r["condition"])]
        if not sel:
            continue
        a = sum(bool(ours[i].accepted) for i in sel)
        b = sum(bool(base[i].accepted) for i in sel)
        table.add(f"false accepts, {name}", pct(a, len(sel)), pct(b, len(sel)), "≤ 2%",
                  100 * a <= 2 * len(sel), ratio(a, b))
    table.add(f"CPU s, OOG set ({len(rows)} files)", f"{cpu[0]:.1f}", f"{cpu[1]:.1f}", ratio=ratio(*cpu))
    write_tsv(os.path.join(out_dir, "oog-vsh.tsv"), rows, ours, lambda o: phrases(o.accepted))
    write_tsv(os.path.join(out_dir, "oog-baseline.tsv"), rows, base, lambda o: phrases(o.accepted))


def dictation_section(table, files, ours, base, cpu, out_dir):
    n_ref = sum(len(ref) for _, ref in files)
    label = f"dictation WER, librivox ({len(files)} files, {n_ref} words)"
    b = sum(edit_distance(ref, words(o.heard)) for (_, ref), o in zip(files, base)) / n_ref
    if ours is None:
        table.add(label, "vsh transcribe: not available", f"{100 * b:.1f}%", "≤ baseline")
    else:
        a = sum(edit_distance(ref, words(o.heard)) for (_, ref), o in zip(files, ours)) / n_ref
        table.add(label, f"{100 * a:.1f}%", f"{100 * b:.1f}%", "≤ baseline", a <= b, ratio(a, b))
        table.add("CPU s, dictation", f"{cpu[0]:.1f}", f"{cpu[1]:.1f}", ratio=ratio(*cpu))
    rows = [{"id": os.path.basename(p)[:-4], "condition": "librivox", "expected": " ".join(ref)} for p, ref in files]
    if ours is not None:
        write_tsv(os.path.join(out_dir, "dictation-vsh.tsv"), rows, ours, lambda o: " ".join(words(o.heard)))
    elif os.path.exists(os.path.join(out_dir, "dictation-vsh.tsv")):
        os.remove(os.path.join(out_dir, "dictation-vsh.tsv"))  # stale: from a vsh that had transcribe
    write_tsv(os.path.join(out_dir, "dictation-baseline.tsv"), rows, base, lambda o: " ".join(words(o.heard)))


# ---------------------------------------------------------------- main

def failures(side, rows, outcomes):
    bad = [(r["id"], o.error) for r, o in zip(rows, outcomes) if o.error]
    if not bad:
        return None
    return f"{side} failed on {len(bad)} file(s): " + "; ".join(f"{i} ({e})" for i, e in bad[:5]) + \
        (" …" if len(bad) > 5 else "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="a small subset (10 files per condition) for a fast check")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="files decoded at a time (default: CPUs)")
    ap.add_argument("--vsh", default=VSH,
                    help="the vsh binary (default $VSH_BIN, else .build/release/vsh)")
    ap.add_argument("--only", action="append", choices=["commands", "oog", "dictation"],
                    help="run only this part (repeatable)")
    ap.add_argument("--eval", default=EVAL_DIR,
                    help="the evaluation data directory (default $VSH_EVAL, else ../shared/eval)")
    ap.add_argument("--vsh-config", default=None,
                    help="a vsh.toml for vsh to read as the user's (e.g. voice.early_end_ms = 0 for the full hangover)")
    ap.add_argument("--cache", default=os.path.join(ROOT, ".build/bench-voice"),
                    help="generated audio and per-file results (default .build/bench-voice)")
    args = ap.parse_args()
    parts = args.only or ["commands", "oog", "dictation"]
    vsh = os.path.abspath(args.vsh)
    if not os.access(vsh, os.X_OK):
        return fail(f"{vsh} is not an executable vsh: build it (`swift build -c release`) or pass --vsh")
    if not shutil.which(BASELINE):
        return fail(f"{BASELINE} not found: install Debian's pocketsphinx (`make bench-deps`)")
    if not os.path.isdir(MODEL):
        return fail(f"no speech model at {MODEL}: install pocketsphinx-en-us (`make deps`)")
    if not os.path.exists(os.path.join(args.eval, "make-commands-corpus")):
        return fail(f"no evaluation data in {args.eval}: pass --eval DIR or set VSH_EVAL")
    os.makedirs(args.cache, exist_ok=True)
    start = time.perf_counter()
    home, env = snapshot_home("vsh-bench-voice-", args.vsh_config)
    table, notes, status = Table(), [], 0
    try:
        version = first_line(run([vsh, "--version"], env)[1]) or "?"
        print(f"vsh: {vsh} ({version}); baseline: {BASELINE} {stock_version()}; "
              f"{'; with ' + args.vsh_config if args.vsh_config else ''}; jobs {args.jobs}{'; QUICK subset: numbers are noisy' if args.quick else ''}")
        try:
            if "commands" in parts:
                rows = ensure_corpus(os.path.join(args.cache, "corpus"), args.eval)
                rows = subset(rows, 10) if args.quick else rows
                ours, c0, _ = measured("vsh listen, commands", vsh_tool(vsh, env, GRAMMAR), rows, args.jobs)
                base, c1, _ = measured("baseline, commands", stock_tool(GRAMMAR), rows, args.jobs)
                commands_section(table, rows, ours, base, (c0, c1), notes, args.cache)
                status = max(status, report_failures(notes, rows, ours, base))
            if "oog" in parts:
                rows = ensure_oog(os.path.join(args.cache, "oog"), args.eval)
                rows = subset(rows, 10) if args.quick else rows
                ours, c0, _ = measured("vsh listen, OOG", vsh_tool(vsh, env, GRAMMAR), rows, args.jobs)
                base, c1, _ = measured("baseline, OOG", stock_tool(GRAMMAR), rows, args.jobs)
                oog_section(table, rows, ours, base, (c0, c1), args.cache)
                status = max(status, report_failures(notes, rows, ours, base))
            if "dictation" in parts:
                files = [(p, words(text)) for p, text in librivox(args.eval)]
                paths = [p for p, _ in files]
                ours, c0, _ = measured("vsh transcribe", vsh_transcribe(vsh, env), paths, args.jobs)
                if ours and ours[0].status == 64:  # EX_USAGE: no such subcommand (yet)
                    notes.append(f"vsh transcribe: not available ({ours[0].error})")
                    ours = None
                base, c1, _ = measured("baseline, dictation", baseline_dictation, paths, args.jobs)
                dictation_section(table, files, ours, base, (c0, c1), args.cache)
                rows = [{"id": os.path.basename(p)} for p in paths]
                status = max(status, report_failures(notes, rows, ours or [], base))
        except (OSError, subprocess.CalledProcessError) as e:
            notes.append(f"voice.py: stopped: could not prepare the audio: {e}")
            status = 2
    finally:
        shutil.rmtree(home, ignore_errors=True)
    print()
    table.print()
    for n in notes:
        print()
        print(n)
    print(f"\nper-file results: {args.cache}/*-vsh.tsv, *-baseline.tsv; "
          f"total wall time {time.perf_counter() - start:.0f} s")
    save("voice" + ("" if parts == ["commands", "oog", "dictation"] else "-" + "-".join(parts)))
    return status


def fail(msg):
    log(f"voice.py: {msg}")
    return 2


def report_failures(notes, rows, ours, base):
    """Notes each side's failures; 1 when vsh failed (a tool failure), 0 otherwise: the
    baseline's failures are its results."""
    mine, theirs = failures("vsh", rows, ours), failures("baseline", rows, base)
    notes += [n for n in (mine, theirs) if n]
    return 1 if mine else 0


if __name__ == "__main__":
    sys.exit(main())
