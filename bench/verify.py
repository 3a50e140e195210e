#!/usr/bin/env python3
"""Is every word of a command heard, or inferred? The weakest word's ratio against a free
phone loop (`vsh listen --json` features `weakest_word_ratio`, issue 35 item 1) on both
sides of the prompt's decision, by speaker fold (research/recognition/VERIFY.md).

    python3 bench/verify.py [--out DIR] [--vsh PATH] [--every N] [--jobs 2] [--analyse-only]

Every clip is said on its own: after 2 s of its own room noise (bench/attention.py `join`),
many clips to a stream, heard by `vsh listen --from STREAM --json` with the prompt's
grammar and decisions (no --grammar), always mode.
  right commands (a home whose command file makes these words commands):
    sc-cmd     Speech Commands' command words (up down left right on off go, and the
               built-in stop) said alone; right when that word's command ran;
    user       four other words real people say (marvin sheila happy house) as a user's
               one-word commands, as bench/attention.py has them;
    digits     fsdd digits, each a command (bench/gate.py's digit command file);
    synthetic  ten of vsh's multi-word commands in five synthetic voices (espeak-ng,
               flite): a regression check, not a target.
    pairs      two fsdd digits of one speaker, 0.12 s apart, as a user's command of two
               words (`say: <digit> <digit>`): real people's multi-word commands, every
               word said (joined from two takes, so not one breath).
  false runs (the shipped commands only, no command file: these words are no command):
    sc-other   every other Speech Commands clip (the _unknown_ words and the command
               classes but stop);
    fsdd       fsdd digits, which the grammar hears as `play N`, `code N`, `show N`.
The utterances go to DIR/utterances-TAG SHARD.jsonl; the tables are worked out from all of
them (again with --analyse-only). Choose on --fold 0 before printing fold 1. For the CPU
table, run a build instrumented to write `cpu FRAMES GRAMMAR_S LOOP_S` to stderr for each
decode (thread CPU of the grammar decode with its features, and of the phone loop; the
patch is described in research/recognition/VERIFY.md): the lines are summed.
"""
import argparse
import collections
import concurrent.futures
import glob
import json
import math
import os
import sys
import zlib

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attention import join  # noqa: E402
from lib.audio import noise, read_audio, write_wav  # noqa: E402
from lib.data import fold_of, fsdd_rows, speech_commands_rows  # noqa: E402
from lib.env import ROOT, VSH, log, snapshot_home  # noqa: E402
from lib.score import markdown_table  # noqa: E402
from lib.vsh import json_lines, phrase, run  # noqa: E402

RATE = 16000
GAP = 2.0
SC_COMMANDS = ["up", "down", "left", "right", "on", "off", "go"]
USER_WORDS = ["marvin", "sheila", "happy", "house"]
PAIR_FILE = "command pair\n    summary: Two digits\n    say: <digit> <digit>\n    exec: true\n"
COMMAND_FILE = "".join(f"command word-{w}\n    say: {w}\n    run: help\n" for w in SC_COMMANDS + USER_WORDS) + \
    "command digit\n    summary: A digit said alone\n    say: <digit>\n    exec: true\n"
CHUNK = 60  # clips per stream


def rows_of(every, sc_every):
    """(set, fold, expected words or "", path, rate) of every clip measured."""
    out = []
    for r in speech_commands_rows():
        if r["cls"] == "_silence_":
            continue
        word = r["id"].split("/")[1].split("_")[0] if r["cls"] == "_unknown_" else r["cls"]
        fold = fold_of(r["speaker"])
        if r["cls"] in SC_COMMANDS + ["stop"] and zlib.crc32(r["id"].encode()) % sc_every == 0:
            out.append(("sc-cmd", fold, word, r["src"], 16000))
        if word in USER_WORDS:
            out.append(("user", fold, word, r["src"], 16000))
        if r["cls"] != "stop":
            out.append(("sc-other", fold, "", r["src"], 16000))
    for i, r in enumerate(fsdd_rows()):
        take = int(r["id"].split("_")[2])
        if take % every == 0:
            out.append(("fsdd", fold_of(r["speaker"]), "", r["src"], 8000))
            if take % (2 * every) == 0:
                out.append(("digits", fold_of(r["speaker"]), r["expected"], r["src"], 8000))
    return out


def pair_rows(out_dir, every):
    """Two digits of one speaker, 0.12 s apart: every 2Nth take of a digit, then the same
    take of the next digit (fsdd's 8 kHz)."""
    import subprocess
    rows, by = [], {(r["speaker"], r["id"]): r for r in fsdd_rows()}
    os.makedirs(os.path.join(out_dir, "pairs"), exist_ok=True)
    gap = os.path.join(out_dir, "pairs", "gap.wav")
    subprocess.run(["sox", "-n", "-r", "8000", "-c", "1", "-b", "16", gap, "trim", "0", "0.12"], check=True)
    for (speaker, name), r in sorted(by.items()):
        digit, _, take = name.split("_")
        nxt = by.get((speaker, f"{(int(digit) + 1) % 10}_{speaker}_{take}"))
        if int(take) % (2 * every) != 1 or nxt is None:
            continue
        path = os.path.join(out_dir, "pairs", f"{name}+{nxt['id']}.wav")
        if not os.path.exists(path):
            subprocess.run(["sox", r["src"], gap, nxt["src"], path], check=True)
        rows.append(("pairs", fold_of(speaker), f"{r['expected']} {nxt['expected']}", path, 8000))
    return rows


SYNTHETIC = ["play three", "show five", "quality high", "listen off", "code seven", "count four five",
             "list transcripts", "start recording", "set quality low", "play twelve"]
VOICES = [("espeak-ng", "en-us", 175), ("espeak-ng", "en-us", 130), ("espeak-ng", "en-gb-x-rp", 175),
          ("flite", "slt", 0), ("flite", "kal", 0)]


def synthetic_rows(out_dir):
    """vsh's multi-word commands in five synthetic voices (fold: crc32 of the id % 2)."""
    import subprocess
    rows = []
    os.makedirs(os.path.join(out_dir, "synthetic"), exist_ok=True)
    for engine, voice, speed in VOICES:
        for text in SYNTHETIC:
            key = f"{engine}-{voice}-{speed}-{text.replace(' ', '-')}"
            path = os.path.join(out_dir, "synthetic", key + ".wav")
            if not os.path.exists(path):
                if engine == "flite":
                    subprocess.run(["flite", "-voice", voice, "-t", text, "-o", path], check=True)
                else:
                    subprocess.run(["espeak-ng", "-v", voice, "-s", str(speed), "-w", path, text], check=True)
            rows.append(("synthetic", zlib.crc32(key.encode()) % 2, text, path, 16000))
    return rows


def homes(out):
    """The shipped commands only; with the command file of words as commands; with the
    command of two digits."""
    _, plain = snapshot_home(os.path.join(out, "plain-"))
    envs = [plain]
    for name, text in (("user-", COMMAND_FILE), ("pairs-", PAIR_FILE)):
        home, env = snapshot_home(os.path.join(out, name))
        os.makedirs(os.path.join(home, "config", "vsh", "commands"), exist_ok=True)
        open(os.path.join(home, "config", "vsh", "commands", "words.commands"), "w").write(text)
        envs.append(env)
    return envs


def hear(vsh, env, clips, path, seed):
    """One stream of `clips` (set, fold, expected, src, rate): its utterances, each with the
    clip it overlaps, and the CPU lines."""
    pieces = [read_audio(c[3], RATE) for c in clips]  # sox resamples fsdd's 8 kHz
    if clips[0][4] == RATE:
        audio, spans = join(pieces, seed, gap=lambda rng: GAP, lead=GAP)
    else:
        # fsdd's clips are cut tight: the quietest tenth of a second `join` takes for the
        # room is part of the word. Their room is a faint noise, 70 dB under full scale,
        # as in bench/gate.py.
        rng = np.random.default_rng(zlib.crc32(seed.encode()))
        parts, spans, t = [], [], 0.0
        for x in pieces:
            parts += [noise(int(GAP * RATE), -70, rng), x]
            t += GAP
            spans.append((t, t + len(x) / RATE))
            t += len(x) / RATE
        parts.append(noise(int(GAP * RATE), -70, rng))
        audio = np.concatenate(parts)
    write_wav(path, audio, RATE)
    rc, stdout, stderr = run([vsh, "listen", "--from", path, "--json"], env, timeout=7200)
    objs, err = json_lines(rc, stdout, "")
    if err:
        sys.exit(f"vsh listen --from {path} failed: {err} {stderr[:300]}")
    cpu = [tuple(float(v) for v in line.split()[1:]) for line in stderr.splitlines() if line.startswith("cpu ")]
    found = []
    for o in objs:
        for i, (a, b) in enumerate(spans):
            if o["start"] < b + 0.3 and o["end"] > a - 0.3:
                f = o.get("features") or {}
                found.append(dict(clip=i, text=o.get("text", ""), decision=o.get("decision"), stopped_by=o.get("stopped_by"),
                                  ratio=f.get("weakest_word_ratio"), word=f.get("weakest_word"),
                                  strongest=f.get("strongest_word_ratio"),
                                  shortest=f.get("shortest_word"), dip=f.get("syllable_dip"),
                                  confidence=o.get("confidence")))
                break
    return found, cpu, len(audio) / RATE


def measure(args):
    clips = rows_of(args.every, args.sc_every) + pair_rows(args.out, args.every)
    if not args.no_synthetic:
        clips += synthetic_rows(args.out)
    plain, user, pairs = homes(args.out)
    jobs = []
    by = collections.defaultdict(list)
    for c in clips:
        by[c[0], c[1]].append(c)
    for (name, fold), cs in sorted(by.items()):
        for k in range(0, len(cs), CHUNK):
            jobs.append((name, fold, k // CHUNK, cs[k:k + CHUNK]))
    log(f"{len(clips)} clips in {len(jobs)} streams")
    shard, shards = (int(v) for v in args.shard.split("/"))
    jobs = [j for j in jobs if not args.sets or j[0] in args.sets.split(",")][shard::shards]
    env_of = {"sc-cmd": user, "user": user, "digits": user, "pairs": pairs, "synthetic": plain, "sc-other": plain,
              "fsdd": plain}

    def one(job):
        name, fold, k, cs = job
        env = dict(env_of[name], VSH_WORD_RATIOS="1")
        path = os.path.join(args.out, f"{name}-{fold}-{k}.wav")
        found, cpu, seconds = hear(args.vsh, env, cs, path, f"{name}/{fold}/{k}")
        os.remove(path)
        return dict(set=name, fold=fold, part=k, seconds=seconds, expected=[c[2] for c in cs],
                    utterances=found, cpu=cpu)

    with open(os.path.join(args.out, f"utterances-{args.tag}{shard}.jsonl"), "w") as f, \
            concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for i, result in enumerate(pool.map(one, jobs)):
            f.write(json.dumps(result) + "\n")
            f.flush()
            log(f"  {i + 1}/{len(jobs)} {result['set']} fold {result['fold']}")


def load(out):
    return [json.loads(line) for f in sorted(glob.glob(os.path.join(out, "utterances-*.jsonl"))) for line in open(f)]


POSITIVE = ("sc-cmd", "user", "digits", "pairs", "synthetic")


def kept(ratio, threshold):
    return threshold is None or ratio is None or ratio >= threshold


def of_several(u, key):
    """The utterance's `key` when it has two words or more (a carrier and its slot), else
    None (kept whatever the threshold)."""
    return u.get(key) if len(u["text"].split()) >= 2 else None


def inferred_by(floor):
    """A word inferred, not said, by both sides: its ratio below `floor` against the loop,
    and below the utterance's best word by more than the threshold (commands of 2+ words).
    As a value for `curve`: the gap when the weakest is below `floor`, else None (kept)."""
    def value(u, key):
        if len(u["text"].split()) < 2 or u.get("ratio") is None or u.get("strongest") is None or u["ratio"] >= floor:
            return None
        return u["ratio"] - u["strongest"]
    return value


def curve(parts, fold, thresholds, key="ratio", name="weakest word ratio", value=None):
    """Per threshold on the utterance's `key` (or `value(u, key)`): right commands kept
    (share of clips, per set) and false runs an hour (per set and all)."""
    value = value or (lambda u, k: u.get(k))
    pos = collections.defaultdict(lambda: [0, []])   # set -> [clips, ratios of right runs]
    neg = collections.defaultdict(lambda: [0.0, []])  # set -> [hours, ratios of runs]
    for p in parts:
        if p["fold"] != fold:
            continue
        if p["set"] in ("sc-other", "fsdd"):
            neg[p["set"]][0] += p["seconds"] / 3600
            neg[p["set"]][1] += [value(u, key) for u in p["utterances"] if u["decision"] == "run"]
        else:
            pos[p["set"]][0] += len(p["expected"])
            for i, words in enumerate(p["expected"]):
                r = [u for u in p["utterances"] if u["clip"] == i and u["decision"] == "run" and phrase(u["text"]) == words]
                if r:
                    pos[p["set"]][1].append(min((value(u, key) for u in r), key=lambda v: -math.inf if v is None else v))
    rows = []
    for t in thresholds:
        row = ["today's gate" if t is None else f"≥ {t:g}"]
        for s in POSITIVE:
            n, rs = pos[s]
            row.append(f"{100 * sum(kept(r, t) for r in rs) / n:.1f}%" if n else "—")
        hours = sum(h for h, _ in neg.values())
        for s in ("sc-other", "fsdd"):
            h, rs = neg[s]
            row.append(f"{sum(kept(r, t) for r in rs) / h:.1f}" if h else "—")
        row.append(f"{sum(kept(r, t) for _, rs in neg.values() for r in rs) / hours:.1f}" if hours else "—")
        rows.append(row)
    head = [name, *(f"{s} right (n={pos[s][0]})" for s in POSITIVE),
            *(f"{s} false/h ({neg[s][0]:.2f} h)" for s in ("sc-other", "fsdd")), "false runs/h, all"]
    return head, rows


def distributions(parts, fold):
    """Percentiles of the weakest ratio: right runs vs false runs; and the weakest words."""
    right, false, words = [], [], collections.Counter()
    for p in parts:
        if p["fold"] != fold:
            continue
        for u in p["utterances"]:
            if u["decision"] != "run" or u["ratio"] is None:
                continue
            if p["set"] in ("sc-other", "fsdd"):
                false.append(u["ratio"])
                words[phrase(u["text"]) + " ← " + str(u["word"])] += 1
            elif phrase(u["text"]) == p["expected"][u["clip"]]:
                right.append(u["ratio"])
    q = [1, 5, 10, 25, 50, 75, 90]
    head = ["runs", "n", *(f"p{k}" for k in q)]
    rows = [[name, len(v), *(f"{np.percentile(v, k):.0f}" if v else "—" for k in q)] for name, v in
            (("right commands", right), ("false runs", false))]
    return head, rows, words


def cpu(parts):
    g, v, frames, n, m = 0.0, 0.0, 0, 0, 0
    for p in parts:
        for c in p["cpu"]:
            frames += c[0]
            g += c[1]
            v += c[2]
            n += 1
            m += c[2] > 0.002  # the loop ran (else only the bookkeeping around it)
    return n, m, frames, g, v


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(ROOT, ".build", "bench-verify"))
    ap.add_argument("--vsh", default=VSH)
    ap.add_argument("--every", type=int, default=5, help="every Nth fsdd take as a false run, every 2Nth as a command (default 5)")
    ap.add_argument("--sc-every", type=int, default=3, help="about every Nth Speech Commands command word (by crc32 of the clip)")
    ap.add_argument("--sets", help="only these sets (comma-separated)")
    ap.add_argument("--tag", default="", help="a name for this run's file of utterances")
    ap.add_argument("--shard", default="0/1", help="I/N: run every Nth stream from the Ith (to run N processes)")
    ap.add_argument("--no-synthetic", action="store_true")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--analyse-only", action="store_true")
    ap.add_argument("--fold", type=int, choices=(0, 1), help="print this fold only (choose on 0 before looking at 1)")
    ap.add_argument("--thresholds", default="-150,-120,-100,-90,-80,-70,-60,-50,-45,-40,-35,-30")
    ap.add_argument("--shortest", default="4,5,6,7,8", help="thresholds on shortest_word, for comparison")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if not args.analyse_only:
        measure(args)
    parts = load(args.out)
    thresholds = [None] + [float(t) for t in args.thresholds.split(",")]
    for fold in (0, 1) if args.fold is None else (args.fold,):
        print(f"\n### Fold {fold}{' (choosing)' if fold == 0 else ' (held out)'}\n")
        markdown_table(*curve(parts, fold, thresholds))
        print()
        markdown_table(*curve(parts, fold, thresholds, name="ratio, commands of 2+ words only", value=of_several))
        print()
        for floor in (-40, -45, -50):
            markdown_table(*curve(parts, fold, [None, -10.0, -15.0, -20.0, -25.0, -30.0, -35.0],
                                  name=f"gap to the best word, when the weakest < {floor} (2+ words)",
                                  value=inferred_by(floor)))
            print()
        markdown_table(*curve(parts, fold, [None] + [float(t) for t in args.shortest.split(",")], "shortest",
                              "shortest word (frames/phone)"))
        print()
        head, rows, words = distributions(parts, fold)
        markdown_table(head, rows)
        print("\nFalse runs by command ← weakest word (lowest ratio):", ", ".join(f"{k} {v}" for k, v in words.most_common(12)))
    n, m, frames, g, v = cpu(parts)
    if n:
        print(f"\nCPU: {n} decodes ({m} with the phone loop), {frames / max(1, n):.0f} frames each on average: "
              f"grammar decode and features {1000 * g / n:.1f} ms, phone loop {1000 * v / max(1, m):.1f} ms "
              f"per decode that ran it ({100 * v / g:.0f}% more CPU overall)")


if __name__ == "__main__":
    main()
