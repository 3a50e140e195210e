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
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "bench"))
from lib.env import ROOT, VSH, snapshot_home  # noqa: E402
from lib.vsh import speech_commands_heard  # noqa: E402

WORDS = ["down", "go", "no", "on"]
RUN_AT_LEAST = 7  # Gate.hissInVoiceUnder
GRAMMAR = os.path.join(ROOT, "bench", "real", "speech-commands.gram")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vsh", default=VSH)
    args = ap.parse_args()
    _, env = snapshot_home("vsh-voiced-")
    heard = speech_commands_heard(args.vsh, env, WORDS, GRAMMAR)
    for fold in (0, 1):
        counts, runs = collections.Counter(), collections.Counter()
        for _, word, right in (row for row in heard if row[0] == fold):
            counts["clips"] += 1
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
