#!/usr/bin/env python3
"""The speaker check's score on fsdd: for each speaker's adapted model (made by
bench/train.py in .build/bench-train/SPEAKER), `speaker_score` of the speaker's own test
takes beside the three other speakers' test takes, as recorded and with their channel
equalised to the speaker's (the long-term spectrum of each other speaker's audio shaped
to the speaker's own: in a room, other people speak into the same microphone).

    python3 research/attention/speaker_probe.py [--vsh PATH] [--every N]

Each take (padded with 0.4 s of its room noise at both ends, as bench/train.py has them) is
decoded by `vsh listen --grammar digits.gram --json`; a take heard as an everyday word
has no score (it could run nothing).
Prints per speaker the score quantiles of each set, and writes every score to
.build/speaker-probe/scores.tsv.
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys
import zlib

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))
from lib.audio import channel_gain, equalise, long_term_spectrum, read_wav, write_wav  # noqa: E402
from lib.data import fsdd_rows, prepare  # noqa: E402
from lib.env import GRAMMARS, ROOT, VSH, isolated_env  # noqa: E402
from lib.vsh import json_lines, run  # noqa: E402

OUT = os.path.join(ROOT, ".build", "speaker-probe")
TRAIN = os.path.join(ROOT, ".build", "bench-train")
GRAMMAR = os.path.join(GRAMMARS, "digits.gram")


def take_of(row):
    return int(row["id"].split("_")[2])


def scores(vsh, env, directory, clips):
    """The best speaker score of each clip's utterances (None: no command candidate)."""
    os.makedirs(directory, exist_ok=True)

    def one(i):
        path = os.path.join(directory, f"{i}.wav")
        write_wav(path, clips[i])
        objs, err = json_lines(*run([vsh, "listen", "--from", path, "--json", "--grammar", GRAMMAR], env, 600))
        if err:
            sys.exit(f"listen {path}: {err}")
        got = [s for o in objs if (s := (o.get("features") or {}).get("speaker_score")) is not None]
        return max(got) if got else None
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        return list(pool.map(one, range(len(clips))))


def report(path, margins=(0.3, 0.4, 0.5, 0.6, 0.7, 0.8)):
    """For each margin, the threshold each model gets in `train` (its takes' 5th percentile
    less the margin, as SpeakerCalibration) and what it keeps: the share of the speaker's
    own new digits that pass (of those that could run a command at all), and the share of
    other speakers' that pass, as recorded and on the speaker's microphone."""
    import csv
    rows = list(csv.DictReader(open(path), delimiter="\t"))

    def scores(model, name):
        return np.array([float(r["score"]) for r in rows if r["model"] == model and r["set"] == name and r["score"]])
    models = sorted({r["model"] for r in rows})
    print("\nmargin | " + " | ".join(f"{m} (fold {zlib.crc32(m.encode()) % 2}): own kept, others-eq passed, others passed"
                                     for m in models))
    for margin in margins:
        cells = []
        for m in models:
            t = np.percentile(scores(m, "takes"), 5) - margin
            cells.append(" ".join(f"{100 * (scores(m, n) >= t).mean():5.1f}%" for n in ("own", "others-eq", "others")))
        print(f"{margin:.1f} | " + " | ".join(cells))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vsh", default=VSH)
    ap.add_argument("--every", type=int, default=5, help="every Nth test take")
    ap.add_argument("--sets", default="takes,own,others,others-eq", help="which sets to score")
    ap.add_argument("--report", action="store_true", help="only the table, from the scores written last")
    args = ap.parse_args()
    if args.report:
        return report(os.path.join(OUT, "scores.tsv"))
    rows = prepare(fsdd_rows(), os.path.join(ROOT, ".build", "bench-real"))
    speakers = sorted(s for s in {r["speaker"] for r in rows} if os.path.isdir(os.path.join(TRAIN, s)))
    audio = {r["id"]: read_wav(r["path"]) for r in rows if r["speaker"] in speakers}
    test = {s: [r for r in rows if r["speaker"] == s and take_of(r) >= 5 and take_of(r) % args.every == 0] for s in speakers}
    adapt = {s: [r for r in rows if r["speaker"] == s and take_of(r) < 5] for s in speakers}
    lts = {s: long_term_spectrum([audio[r["id"]] for r in adapt[s]]) for s in speakers}
    os.makedirs(OUT, exist_ok=True)
    table = open(os.path.join(OUT, "scores.tsv"), "w")
    table.write("model\tset\tspeaker\tid\tscore\n")
    for s in speakers:
        env = isolated_env(os.path.join(TRAIN, s))
        sets = {"takes": [(r, audio[r["id"]]) for r in adapt[s]], "own": [(r, audio[r["id"]]) for r in test[s]]}
        others = [r for o in speakers if o != s for r in test[o]]
        sets["others"] = [(r, audio[r["id"]]) for r in others]
        sets["others-eq"] = [(r, equalise(audio[r["id"]], channel_gain(lts[s], lts[r["speaker"]]))) for r in others]
        print(f"model adapted on {s}:")
        for name, items in sets.items():
            if name not in args.sets.split(","):
                continue
            got = scores(args.vsh, env, os.path.join(OUT, f"{s}-{name}"), [x for _, x in items])
            for (r, _), v in zip(items, got):
                table.write(f"{s}\t{name}\t{r['speaker']}\t{r['id']}\t{'' if v is None else v}\n")
            vals = np.array([v for v in got if v is not None])
            q = np.percentile(vals, [5, 25, 50, 75, 95]) if len(vals) else []
            print(f"  {name:<10} n={len(vals):3d}/{len(items):3d}  p5/p25/p50/p75/p95 = " + " ".join(f"{v:6.3f}" for v in q))
        table.flush()
    table.close()
    report(os.path.join(OUT, "scores.tsv"))


if __name__ == "__main__":
    main()
