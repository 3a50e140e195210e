#!/usr/bin/env python3
"""The person's side of a hiss before a word that begins with voice: every Speech Commands
word that begins with a vowel or a sonorant ("left", "no", "off", "on", "right", "up",
"yes") through `vsh listen --grammar bench/real/speech-commands.gram`, by speaker fold: how
many ran right, and the run of hiss before each heard right (`features.hiss_before`), with
how many of those a floor of `Gate.hissInVoiceUnder` frames would stop
(research/recognition/HISS_BEFORE.md).

    python3 research/recognition/hiss-before/onset_words.py [--vsh BUILD ...]
"""
import argparse
import collections
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "bench"))
from lib.env import ROOT, VSH, snapshot_home  # noqa: E402
from lib.vsh import speech_commands_heard  # noqa: E402

WORDS = ["left", "no", "off", "on", "right", "up", "yes"]
RUN_AT_LEAST = 7  # Gate.hissInVoiceUnder
GRAMMAR = os.path.join(ROOT, "bench", "real", "speech-commands.gram")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vsh", nargs="+", default=[VSH])
    args = ap.parse_args()
    _, env = snapshot_home("vsh-onset-")
    for vsh in args.vsh:
        heard = speech_commands_heard(vsh, env, WORDS, GRAMMAR)
        print(vsh)
        for fold in (0, 1):
            counts, runs, by_word = collections.Counter(), collections.Counter(), collections.Counter()
            for _, word, right in (row for row in heard if row[0] == fold):
                counts["clips"] += 1
                if any(o.get("decision") == "run" for o in right):
                    counts["ran"] += 1
                run = max([(o.get("features") or {}).get("hiss_before") or 0 for o in right], default=None)
                if run is not None:
                    runs[run] += 1
                    if run >= RUN_AT_LEAST:
                        counts["heard right, a hiss before"] += 1
                        by_word[word] += 1
            print(f"  fold {fold}: {dict(counts)} {dict(by_word)}; hiss before, of those heard right: {sorted(runs.items())}")


if __name__ == "__main__":
    main()
