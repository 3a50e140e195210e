#!/usr/bin/env python3
"""Real human speech: vsh beside stock PocketSphinx, in one run.

    python3 bench/real_speech.py [--quick] [--jobs N] [--vsh PATH] [--only sc|fsdd|cards]
                                 [--no-kws] [--vsh-args ARGS] [--vsh-config vsh.toml]
                                 [--sc-grammar GRAM] [--fold 0|1]

Data (../shared/eval/real beside the checkout, or $VSH_EVAL/real; see its README):
  sc     Speech Commands, 12-class protocol, 1,815 clips. The ten words (yes no up down
         left right on off stop go) are commands; `_unknown_` (other words) and
         `_silence_` (background noise) must run nothing. vsh runs
         `listen --from F --json --grammar bench/real/speech-commands.gram`, where every
         accepted phrase is its own command (the JSGF route: one command per word, the
         same grammar the baseline gets).
  fsdd   Free Spoken Digit Dataset, 4 speakers, 8 kHz (upsampled to 16 kHz with sox
         for both tools), grammar bench/real/digits.gram.
  cards  cards/001..005.wav and goforward.raw with their own grammars.
  prompt the Speech Commands clips at vsh's prompt: only "stop" is a command there, so
         every other clip (yes, no, up, left, "happy", "marvin", noise, ...) that runs a
         command is a false accept, the "next ran exit" case. vsh runs `listen --from F
         --json` without --grammar (the prompt's own grammar and decisions, as a fresh
         session has them); the baseline gets vsh's commands as bench/commands.gram.

Every clip is padded with 0.4 s of noise before and after, as a microphone would give:
noise with the spectrum and level of the clip's own quietest 100 ms (seeded by the file
name, so the audio is the same in every run). Padded audio is cached in
.build/bench-real/audio/.

Baselines: stock `pocketsphinx_continuous -infile F -jsgf G` (its own defaults, full
dictionary; every printed line is an accepted phrase), and, for sc, stock keyword spotting
(`pocketsphinx_continuous -infile F -kws LIST`). Keyword thresholds are per word, chosen by
2-fold cross-validation by speaker: each word is spotted at 10 thresholds at once (one
dictionary alias per word and threshold, 1e+40 … 1e-40), the thresholds are fitted (coordinate ascent on
12-class top-1) on one speaker fold and scored on the other; the table shows the two
held-out folds together.

Speaker folds: fold = crc32(speaker) % 2 (`_silence_` clips: crc32(file name) % 2).
Anything fitted on this data (kws thresholds here; vsh's other-word weight and confidence
midpoint, chosen on fold 0, see research/recognition/OTHER_WORDS.md) is reported on
held-out speakers only.

Per-file outcomes: .build/bench-real/<set>-<tool>.tsv. CPU seconds are those of the
child processes (one process per file, --jobs at a time).
"""
import argparse
import collections
import json
import os
import re
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib.data import (DIGITS, SC_WORDS, cards_rows, fsdd_rows, prepare, prompt_rows,  # noqa: E402
                      quick_subset, speech_commands_rows)
from lib.env import EVAL_DIR, GRAMMARS, ROOT, VSH, log, require_eval, snapshot_home  # noqa: E402
from lib.results import headline, save  # noqa: E402
from lib.score import pct as percent  # noqa: E402
from lib.vsh import STOCK as BASELINE, Outcome, measured, pronunciations, run, stock_argv, stock_tool, vsh_tool  # noqa: E402

require_eval(EVAL_DIR)
KWS_EXPONENTS = [40, 30, 20, 15, 10, 5, 0, -5, -10, -20, -30, -40]  # thresholds 1eN


# ---------------------------------------------------------------- stock keyword spotting

def kws_files(cache):
    """A dictionary with one alias per word and threshold (yes_t10 = Y EH S), and the
    keyword list spotting every alias at its threshold: one run gives all thresholds."""
    d = os.path.join(cache, "kws")
    os.makedirs(d, exist_ok=True)
    prons = {w: " ".join(phones) for w, phones in pronunciations().items() if w in SC_WORDS}
    with open(os.path.join(d, "kws.dict"), "w") as dic, open(os.path.join(d, "kws.list"), "w") as kw:
        for w in SC_WORDS:
            for e in KWS_EXPONENTS:
                dic.write(f"{w}_t{tag(e)} {prons[w]}\n")
                kw.write(f"{w}_t{tag(e)} /1e{e:+d}/\n")
    return os.path.join(d, "kws.dict"), os.path.join(d, "kws.list")


def tag(e):
    """A dictionary-safe name for threshold 1eN: p20 for 1e+20, m20 for 1e-20."""
    return ("p" if e >= 0 else "m") + str(abs(e))


def kws_tool(dic, lst):
    def one(row):
        rc, out, err = run(stock_argv(row["path"], "-kws", lst, dictionary=dic))
        spotted = set(re.findall(r"\b([a-z]+_t[pm]\d+)\b", out))
        return Outcome([], " ".join(sorted(spotted)), error=None if rc == 0 else f"exit {rc}")
    return one


# ---------------------------------------------------------------- keyword thresholds

def kws_decide(outcome, thresholds):
    spotted = set(outcome.heard.split())
    return [w for w in SC_WORDS if f"{w}_t{tag(thresholds[w])}" in spotted]


def top1(rows, decisions):
    return sum(d == ([r["expected"]] if r["expected"] else []) for r, d in zip(rows, decisions)) / max(1, len(rows))


def fit_kws(rows, outs):
    """Per-word exponents maximising 12-class top-1 on these rows (coordinate ascent)."""
    th = {w: 0 for w in SC_WORDS}
    for _ in range(3):
        for w in SC_WORDS:
            best = max(KWS_EXPONENTS, key=lambda e: (top1(rows, [kws_decide(o, {**th, w: e}) for o in outs]), -abs(e)))
            th[w] = best
    return th


def kws_cross_validated(rows, outs):
    """Each fold's decisions use thresholds fitted on the other fold."""
    decisions = [None] * len(rows)
    fitted = {}
    for f in (0, 1):
        train = [i for i, r in enumerate(rows) if r["fold"] != f]
        th = fit_kws([rows[i] for i in train], [outs[i] for i in train])
        fitted[f] = th
        for i, r in enumerate(rows):
            if r["fold"] == f:
                decisions[i] = kws_decide(outs[i], th)
    return decisions, fitted


# ---------------------------------------------------------------- report

def pct(n, d):
    return percent(n, d, 5)


def write_tsv(path, rows, decisions, outs):
    with open(path, "w") as f:
        f.write("id\tclass\tspeaker\tfold\texpected\tgot\theard\n")
        for r, d, o in zip(rows, decisions, outs):
            got = f"ERROR {o.error}" if o.error else " | ".join(d)
            f.write("\t".join(str(x).replace("\t", " ") for x in (r["id"], r["cls"], r["speaker"], r["fold"], r["expected"], got, o.heard)) + "\n")


def compare(path, rows, decisions, label, other):
    """Prints how many files' decisions differ from those in an earlier run's TSV."""
    if not os.path.exists(path):
        log(f"nothing to compare with: {path} is missing (run with --label {other} first)")
        return
    with open(path) as f:
        earlier = {line.split("\t")[0]: line.split("\t")[5] for line in list(f)[1:]}
    differ = [(r["id"], " | ".join(d), earlier.get(r["id"], "?")) for r, d in zip(rows, decisions)
              if r["id"] in earlier and " | ".join(d) != earlier[r["id"]]]
    same = sum(r["id"] in earlier for r in rows)
    print(f"\n{label} against {other}: {len(differ)} of {same} files decided differently"
          + "".join(f"\n  {i}: {label} {d or '(nothing)'}, {other} {e or '(nothing)'}" for i, d, e in differ[:20]))


def class_table(title, rows, tools, split_note):
    """tools: [(name, decisions, cpu)]; one-word sets."""
    print(f"\n## {title}\n{split_note}")
    names = [t[0] for t in tools]
    print("| class | n | " + " | ".join(names) + " |")
    print("|---|---|" + "---|" * len(names))
    classes = [c for c in SC_WORDS + DIGITS if any(r["cls"] == c for r in rows)]
    special = [c for c in ("_unknown_", "_silence_") if any(r["cls"] == c for r in rows)]
    summary = collections.OrderedDict()
    for c in classes + special:
        idx = [i for i, r in enumerate(rows) if r["cls"] == c]
        cells = []
        for _, dec, _ in tools:
            if c in special:
                fa = sum(bool(dec[i]) for i in idx)
                cells.append(f"FA {pct(fa, len(idx))}")
            else:
                ok = sum(dec[i] == [c] for i in idx)
                wrong = sum(bool(dec[i]) and dec[i] != [c] for i in idx)
                cells.append(f"{pct(ok, len(idx))}, wrong {100 * wrong / len(idx):.1f}%")
        print(f"| {c} | {len(idx)} | " + " | ".join(cells) + " |")
    words = [i for i, r in enumerate(rows) if r["expected"]]
    lines = []
    for name, dec, cpu in tools:
        ok = sum(dec[i] == [rows[i]["expected"]] for i in words)
        wrong = sum(bool(dec[i]) and dec[i] != [rows[i]["expected"]] for i in words)
        fa = {c: sum(bool(dec[i]) for i, r in enumerate(rows) if r["cls"] == c) for c in special}
        n = {c: sum(r["cls"] == c for r in rows) for c in special}
        t1 = top1(rows, dec)
        summary[name] = dict(accept=ok / max(1, len(words)), top1=t1)
        lines.append((name, pct(ok, len(words)), f"{100 * wrong / max(1, len(words)):.1f}%",
                      *(pct(fa[c], n[c]) for c in special), f"{100 * t1:.1f}%", f"{cpu:.1f}"))
    head = ["tool", "right command (of words)", "wrong command"] + [f"FA {c}" for c in special] + ["top-1 (all classes)", "CPU s"]
    print("\n| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for l in lines:
        print("| " + " | ".join(l) + " |")
    # The headline figures: vsh's line (the first tool) beside stock continuous's.
    base = next((l for l in lines if l[0] == "stock continuous"), None)
    if lines and lines[0][0] != "stock continuous":
        for column in range(1, len(head)):
            if head[column] != "top-1 (all classes)":
                headline(f"{title}: {head[column]}", lines[0][column], base[column] if base else None)
    if any(r["fold"] == 1 for r in rows) and any(r["fold"] == 0 for r in rows):
        print("\nFold 1 only (speakers never used to fit vsh's confidence model, which was fitted on fold 0):")
        print("| tool | right | wrong | " + " | ".join(f"FA {c}" for c in special) + " | top-1 |")
        print("|" + "---|" * (4 + len(special)))
        held = [i for i, r in enumerate(rows) if r["fold"] == 1]
        sub = [rows[i] for i in held]
        w1 = [j for j, r in enumerate(sub) if r["expected"]]
        for name, dec, _ in tools:
            d = [dec[i] for i in held]
            ok = sum(d[j] == [sub[j]["expected"]] for j in w1)
            wrong = sum(bool(d[j]) and d[j] != [sub[j]["expected"]] for j in w1)
            fa = [pct(sum(bool(d[j]) for j, r in enumerate(sub) if r["cls"] == c), sum(r["cls"] == c for r in sub))
                  for c in special]
            print(f"| {name} | {pct(ok, len(w1))} | {100 * wrong / max(1, len(w1)):.1f}% | " + " | ".join(fa) +
                  f" | {100 * top1(sub, d):.1f}% |")
    return summary


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fold", type=int, choices=[0, 1], default=None,
                    help="only the clips of this speaker fold: tune on 0 without running (or seeing) the held-out 1")
    ap.add_argument("--quick", action="store_true", help="speaker-stratified subset (1/4 of the speakers, 1/5 of fsdd)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--vsh", default=VSH)
    ap.add_argument("--vsh-args", default="", help="extra arguments for vsh listen (e.g. '--threshold 0')")
    ap.add_argument("--vsh-config", default=None,
                    help="a vsh.toml for vsh to read as the user's (e.g. voice.early_end_ms = 0 for the full hangover)")
    ap.add_argument("--compare", default=None, metavar="LABEL",
                    help="count the files whose decision differs from an earlier run's (its --label), e.g. the full hangover")
    ap.add_argument("--label", default="vsh", help="name of the vsh column and its TSV files")
    ap.add_argument("--only", action="append", choices=["sc", "fsdd", "cards", "prompt"])
    ap.add_argument("--sc-grammar", default=None, metavar="GRAM",
                    help="the Speech Commands grammar instead of the ten words (e.g. bench/real/speech-commands-50.gram)")
    ap.add_argument("--tools", default="vsh,continuous,kws", help="which to run (default vsh,continuous,kws)")
    ap.add_argument("--cache", default=os.path.join(ROOT, ".build/bench-real"))
    args = ap.parse_args()
    sets = args.only or ["sc", "fsdd", "cards", "prompt"]
    vsh = os.path.abspath(args.vsh)
    if "vsh" in args.tools.split(",") and not os.access(vsh, os.X_OK):
        log(f"{vsh} is not executable: build it or pass --vsh")
        return 2
    run_tools = set(args.tools.split(","))
    if args.fold is not None and "kws" in run_tools:
        log("--fold leaves nothing to fit stock kws's thresholds on (they are cross-validated across the folds): "
            "add --tools vsh,continuous")
        return 2
    if run_tools - {"vsh"} and not shutil.which(BASELINE):
        log(f"{BASELINE} not found: `make bench-deps`")
        return 2
    os.makedirs(args.cache, exist_ok=True)
    start = time.perf_counter()
    home, env = snapshot_home("vsh-bench-real-", args.vsh_config)
    vsh_fn = vsh_tool(vsh, env, extra=args.vsh_args.split(), places=3)
    print(f"vsh: {vsh} {args.vsh_args}{' with ' + args.vsh_config if args.vsh_config else ''}; baseline: {BASELINE}; jobs {args.jobs}"
          f"{'; QUICK subset (speaker-stratified): numbers are noisy' if args.quick else ''}")
    results = {}
    try:
        for s in sets:
            rows = {"sc": speech_commands_rows, "fsdd": fsdd_rows, "cards": cards_rows, "prompt": prompt_rows}[s]()
            for r in rows:
                r.setdefault("grammar", os.path.abspath(args.sc_grammar) if s == "sc" and args.sc_grammar
                             else os.path.join(GRAMMARS, "speech-commands.gram" if s == "sc" else "digits.gram"))
            rows = prepare(rows, args.cache)
            if args.quick:
                rows = quick_subset(rows)
            if args.fold is not None:
                rows = [r for r in rows if r["fold"] == args.fold]
            tools = []
            if "vsh" in run_tools:
                outs, cpu, _ = measured(f"{args.label}, {s}", vsh_fn, rows, args.jobs)
                dec = [o.accepted for o in outs]
                tools.append((args.label, dec, cpu))
                write_tsv(os.path.join(args.cache, f"{s}-{args.label}.tsv"), rows, dec, outs)
                if args.compare:
                    compare(os.path.join(args.cache, f"{s}-{args.compare}.tsv"), rows, dec, args.label, args.compare)
                with open(os.path.join(args.cache, f"{s}-{args.label}.jsonl"), "w") as f:
                    for r, o in zip(rows, outs):
                        f.write(json.dumps(dict(id=r["id"], cls=r["cls"], speaker=r["speaker"], fold=r["fold"],
                                                expected=r["expected"], path=r["path"], utterances=o.utterances)) + "\n")
                bad = [(r["id"], o.error) for r, o in zip(rows, outs) if o.error]
                if bad:
                    log(f"vsh failed on {len(bad)} files, e.g. {bad[:3]}")
            if True:
                if "continuous" in run_tools:
                    bouts, bcpu, _ = measured(f"stock continuous, {s}", stock_tool(), rows, args.jobs)
                    bdec = [o.accepted for o in bouts]
                    tools.append(("stock continuous", bdec, bcpu))
                    write_tsv(os.path.join(args.cache, f"{s}-continuous.tsv"), rows, bdec, bouts)
                if s == "sc" and "kws" in run_tools:
                    dic, lst = kws_files(args.cache)
                    kouts, kcpu, _ = measured(f"stock kws, {s}", kws_tool(dic, lst), rows, args.jobs)
                    kdec, fitted = kws_cross_validated(rows, kouts)
                    tools.append(("stock kws (CV)", kdec, kcpu))
                    write_tsv(os.path.join(args.cache, f"{s}-kws.tsv"), rows, kdec, kouts)
                    print("kws thresholds (exponent N of 1eN) fitted per fold: " +
                          "; ".join(f"fit on fold {1 - f}, used on fold {f}: " +
                                    " ".join(f"{w}={th[w]}" for w in SC_WORDS) for f, th in fitted.items()))
            if s == "prompt":
                print("\n## the prompt (baseline: bench/commands.gram) on Speech Commands clips")
                print("Split: nothing fitted on it except vsh's confidence model, whose fit used Speech Commands "
                      "fold 0 (research/recognition/OTHER_WORDS.md): see the fold-1 rows.")
                print("| tool | clips | FA all but stop | FA fold 1 | stop right | CPU s |")
                print("|---|---|---|---|---|---|")
                figures = {}
                for name, dec, cpu in tools:
                    other = [i for i, r in enumerate(rows) if r["cls"] != "stop"]
                    other1 = [i for i in other if rows[i]["fold"] == 1]
                    stop = [i for i, r in enumerate(rows) if r["cls"] == "stop"]
                    figures[name] = (pct(sum(bool(dec[i]) for i in other), len(other)),
                                     pct(sum(dec[i] == ['stop'] for i in stop), len(stop)))
                    print(f"| {name} | {len(rows)} | {figures[name][0]} | "
                          f"{pct(sum(bool(dec[i]) for i in other1), len(other1))} | "
                          f"{figures[name][1]} | {cpu:.1f} |")
                if args.label in figures:
                    base = figures.get("stock continuous", (None, None))
                    headline("prompt grammar on Speech Commands: FA all but stop", figures[args.label][0], base[0])
                    headline("prompt grammar on Speech Commands: stop right", figures[args.label][1], base[1])
                heard = collections.Counter(" | ".join(d) for d, r in zip(tools[0][1], rows) if d and r["cls"] != "stop")
                print(f"{tools[0][0]} ran, on clips that are not 'stop': " + ", ".join(f"{k} ×{n}" for k, n in heard.most_common(12)))
            elif s == "cards":
                print("\n## cards + goforward (exact phrase sequence)")
                exact = {}
                for name, dec, cpu in tools:
                    ok = sum(" | ".join(d) == r["expected"] for r, d in zip(rows, dec))
                    exact[name] = f"{ok}/{len(rows)}"
                    print(f"{name}: {ok}/{len(rows)} exact, CPU {cpu:.1f} s; " +
                          "; ".join(f"{r['id']}: {' | '.join(d) or '(nothing)'}" for r, d in zip(rows, dec)))
                if args.label in exact:
                    headline("cards + goforward: exact phrase sequence", exact[args.label], exact.get("stock continuous"))
            else:
                note = ("Split: all clips; stock continuous is not fitted; stock kws thresholds are 2-fold "
                        "cross-validated by speaker (held-out folds). vsh's confidence model was fitted on Speech "
                        "Commands fold 0, so for sc only the fold-1 rows are held out; fsdd was never fitted on.")
                results[s] = class_table({"sc": "Speech Commands, 12-class", "fsdd": "fsdd digits"}[s], rows, tools, note)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    print(f"\nper-file results: {args.cache}/<set>-<tool>.tsv; total wall {time.perf_counter() - start:.0f} s")
    save("real_speech" + ("" if args.label == "vsh" else "-" + args.label))
    return 0


if __name__ == "__main__":
    sys.exit(main())
