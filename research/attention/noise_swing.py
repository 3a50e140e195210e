#!/usr/bin/env python3
"""How much the room noise between the pieces of bench/attention.py's streams swings, as
the endpointer sees it (10 ms frames, pre-emphasis 0.97, dB), against speech: for
ATTENTION.md, "Commands in a noisy room" (session 26). The endpointer takes a second of
"speech" whose frames stay within `Endpointer.Settings.steadyDeviation` (1 dB, standard
deviation) for a rise of the background; noise that swings more keeps it hearing speech.

    python3 research/attention/noise_swing.py [FOLD_DIR] STREAM...

FOLD_DIR: a fold's streams (default .build/bench-attention/1/fold0); STREAM: stop,
alexa-asleep, digits-alone, words-alone… Prints, for the pauses (from 0.3 s after a piece
to 0.1 s before the next), the percentiles of each second's standard deviation and the
share above 1, 2 and 3 dB; and for the first second of each piece of 0.6 s or more, the
low percentiles of the same.
"""
import json
import os
import sys

import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "bench"))
from lib.audio import read_wav  # noqa: E402


def levels(path):
    a = read_wav(path).astype(float)
    d = a.copy()
    d[1:] = a[1:] - 0.97 * a[:-1]
    n = len(d) // 160
    return 10 * np.log10((d[: n * 160].reshape(n, 160) ** 2).mean(1) + 1)


def main():
    args = sys.argv[1:]
    folder = args.pop(0) if args and os.path.isdir(args[0]) else os.path.join(ROOT, ".build/bench-attention/1/fold0")
    for name in args:
        path = os.path.join(folder, name + ".wav")
        spans = json.load(open(path + ".json"))["spans"]
        e = levels(path)
        pauses, before = [], 0.0
        for start, end in spans:
            pauses.append((before + 0.3, start - 0.1))
            before = end
        noise = np.array([e[w:w + 100].std() for a, b in pauses
                          for w in range(int(a * 100), int(b * 100) - 100, 50)])
        speech = np.array([e[int(s * 100):int(s * 100) + 100].std() for s, t in spans if t - s >= 0.6])
        print(f"{name}: pauses, {len(noise)} one-second windows (every half second): std p10/p50/p90/p99 {np.percentile(noise, [10, 50, 90, 99]).round(2)},"
              f" above 1 dB {(noise > 1).mean():.0%}, 2 dB {(noise > 2).mean():.0%}, 3 dB {(noise > 3).mean():.0%}")
        print(f"   speech, first second of {len(speech)} pieces: std p1/p5/p10/p50 {np.percentile(speech, [1, 5, 10, 50]).round(2)}")


if __name__ == "__main__":
    main()
