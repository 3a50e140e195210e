#!/usr/bin/env python3
"""The first look (before any code in vsh): the highest share of a frame's energy in a
band (3.5-8 kHz of all, or 2.5-4 kHz of all under 4 kHz) among the frames before the
vowel of Speech Commands clips, as recorded and brought to 8 kHz and back. Fold 0's
speakers only unless --all. The vowel's onset is the first frame whose 100-1000 Hz energy
is within 12 dB of its most.

    python3 research/recognition/hiss/onsets.py [--all] [WORD...]
"""
import glob
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "bench"))
from lib.data import fold_of  # noqa: E402
from lib.env import EVAL_DIR  # noqa: E402

SC = os.path.join(EVAL_DIR, "real", "speech-commands")
BANDS = {"3.5-8k of all": (3500, 8000, 8000), "2.5-4k of <4k": (2500, 4000, 4000)}


def load(path, narrow=False):
    effects = ["rate", "-v", "8000", "rate", "-v", "16000"] if narrow else []
    raw = subprocess.run(["sox", path, "-t", "raw", "-e", "floating-point", "-b", "32", "-c", "1", "-r", "16000", "-"]
                         + effects, capture_output=True, check=True).stdout
    return np.frombuffer(raw, dtype=np.float32).astype(float)


def onset_share(x, low, high, top, rate=16000):
    n, hop = 400, 160
    frames = np.lib.stride_tricks.sliding_window_view(x, n)[::hop] * np.hanning(n)
    power = np.abs(np.fft.rfft(frames, axis=1)) ** 2
    f = np.fft.rfftfreq(n, 1 / rate)
    total = power[:, (f >= 100) & (f < top)].sum(1) + 1e-12
    vowel = 10 * np.log10(power[:, (f >= 100) & (f < 1000)].sum(1) + 1e-12)
    band = power[:, (f >= low) & (f < high)].sum(1) + 1e-12
    level = 10 * np.log10(total)
    start = np.where(level > level.max() - 35)[0][0]
    nucleus = np.where(vowel > vowel.max() - 12)[0][0]
    before = [i for i in range(max(start - 3, 0), nucleus) if level[i] > level.max() - 45]
    return max((band[i] / total[i] for i in before), default=0.0)


def main():
    everyone = "--all" in sys.argv
    words = [w for w in sys.argv[1:] if not w.startswith("--")] or ["stop", "up", "off", "yes", "go", "no", "on", "left", "right", "down"]
    for word in words:
        paths = [p for p in sorted(glob.glob(f"{SC}/{word}/*.flac")) if everyone or fold_of(os.path.basename(p).split("_")[0]) == 0]
        cells = []
        for name, (low, high, top) in BANDS.items():
            for narrow in (False, True):
                v = np.array([onset_share(load(p, narrow), low, high, top) for p in paths])
                cells.append(f"{name}{' (8 kHz)' if narrow else ''}: {(v > 0.5).mean():.2f}")
        print(f"{word} ({len(paths)}): share over 0.5: " + " | ".join(cells), flush=True)


if __name__ == "__main__":
    main()
