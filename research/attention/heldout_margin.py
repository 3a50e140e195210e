#!/usr/bin/env python3
"""The speaker check's margin for held-out calibration (issue 29): for each fsdd speaker,
`vsh train --from` on takes 0-4 (the model's `held-out.tsv` has every take's score from a
model not adapted on it), then `speaker_score` of every 5th of takes 25-49 (own) and of
the other speakers' same takes (as recorded), each through `vsh listen --grammar
digits.gram`. Prints, per margin, the share of own digits kept and of others' passing at
the held-out 5th percentile less the margin.

    python3 research/attention/heldout_margin.py [--vsh PATH]
"""
import argparse
import concurrent.futures
import os
import shutil
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))
from lib.data import fold_of, fsdd_rows, prepare  # noqa: E402
from lib.env import GRAMMARS, ROOT, VSH, isolated_env  # noqa: E402
from lib.vsh import listen  # noqa: E402

OUT = os.path.join(ROOT, ".build", "heldout-margin")


def take_of(row):
    return int(row["id"].split("_")[2])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vsh", default=VSH)
    args = ap.parse_args()
    rows = prepare(fsdd_rows(), os.path.join(ROOT, ".build", "bench-real"))
    test = [r for r in rows if take_of(r) >= 25 and take_of(r) % 5 == 0]
    for s in sorted({r["speaker"] for r in rows}):
        home, takes = os.path.join(OUT, s), os.path.join(OUT, s + "-takes")
        shutil.rmtree(home, ignore_errors=True)
        shutil.rmtree(takes, ignore_errors=True)
        os.makedirs(takes)
        for r in rows:
            if r["speaker"] == s and take_of(r) < 5:
                os.symlink(r["path"], os.path.join(takes, r["id"] + ".wav"))
                with open(os.path.join(takes, r["id"] + ".txt"), "w") as f:
                    f.write(r["expected"] + "\n")
        env = isolated_env(home)
        subprocess.run([args.vsh, "train", "--from", takes], env=env, capture_output=True, check=True)
        with open(os.path.join(env["XDG_DATA_HOME"], "vsh", "model", "held-out.tsv")) as f:
            held = [float(line.split("\t")[6]) for line in f.read().splitlines()[1:] if line.split("\t")[6]]

        def one(r):
            objs, err = listen(args.vsh, env, r["path"], os.path.join(GRAMMARS, "digits.gram"))
            if err:
                sys.exit(err)
            got = [o["features"]["speaker_score"] for o in objs if (o.get("features") or {}).get("speaker_score") is not None]
            return r["speaker"], max(got) if got else None
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            scored = list(pool.map(one, test))
        own = np.array([x for who, x in scored if who == s and x is not None])
        others = np.array([x for who, x in scored if who != s and x is not None])
        fifth = np.percentile(held, 5)
        cells = [f"{m}: {100 * (own >= fifth - m).mean():.0f} / {100 * (others >= fifth - m).mean():.0f}"
                 for m in (0.1, 0.2, 0.3, 0.4, 0.5)]
        print(f"{s:<9} fold {fold_of(s)}  held-out 5th pct {fifth:.2f}  own kept / others passing, %:  " + " | ".join(cells),
              flush=True)


if __name__ == "__main__":
    main()
