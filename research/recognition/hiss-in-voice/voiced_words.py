#!/usr/bin/env python3
"""The person's side of the hiss in words voiced throughout: every Speech Commands "down",
"go", "no" and "on" (words with no voiceless phone, as `reload` and `undo` have none)
through `vsh listen --grammar bench/real/speech-commands.gram`, by speaker fold: how many
ran right, the run of hiss (`features.hiss_in_voice`) of each heard right, and how many the
check stopped (a run of `Gate.hissInVoiceUnder` or more) (research/recognition/HISS_IN_VOICE.md).

    python3 research/recognition/hiss-in-voice/voiced_words.py [--vsh BUILD]
"""
import argparse
import collections
import concurrent.futures
import glob
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "bench"))
from lib.data import fold_of  # noqa: E402
from lib.env import EVAL_DIR, ROOT, VSH, snapshot_home  # noqa: E402
from lib.vsh import listen  # noqa: E402

WORDS = ["down", "go", "no", "on"]
RUN_AT_LEAST = 7  # Gate.hissInVoiceUnder
GRAMMAR = os.path.join(ROOT, "bench", "real", "speech-commands.gram")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vsh", default=VSH)
    args = ap.parse_args()
    _, env = snapshot_home("vsh-voiced-")
    paths = [p for w in WORDS for p in sorted(glob.glob(os.path.join(EVAL_DIR, "real", "speech-commands", w, "*.flac")))]
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        heard = list(pool.map(lambda p: listen(args.vsh, env, p, GRAMMAR)[0] or [], paths))
    for fold in (0, 1):
        counts, runs = collections.Counter(), collections.Counter()
        for path, objs in zip(paths, heard):
            if fold_of(os.path.basename(path).split("_")[0]) != fold:
                continue
            word = os.path.basename(os.path.dirname(path))
            counts["clips"] += 1
            right = [o for o in objs if o.get("text") == word]
            if any(o.get("decision") == "run" for o in right):
                counts["ran"] += 1
            if any(o.get("stopped_by") == "unclear-word" and ((o.get("features") or {}).get("hiss_in_voice") or 0) >= RUN_AT_LEAST
                   for o in right):
                counts["stopped with a hiss"] += 1
            for o in right:
                runs[(o.get("features") or {}).get("hiss_in_voice")] += 1
        print(f"fold {fold}: {dict(counts)}; runs of those heard right: {sorted(runs.items(), key=lambda kv: (kv[0] is None, kv[0] or 0))}")


if __name__ == "__main__":
    main()
