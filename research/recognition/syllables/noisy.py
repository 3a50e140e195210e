#!/usr/bin/env python3
"""How a room's noise moves the dip between syllables said (`features.syllable_dip`) of
real two-syllable words said to vsh: the same clips after 2 to 3 s of quiet, clean and
with a steady noise laid over the whole stream at a speech-to-noise ratio, heard by
`vsh listen --json` as the prompt hears them (bench/attention.py's user file: "alexa",
"marvin", "happy", "sheila" and "house" are commands). For the floor `Gate.dipAtLeast`
(research/recognition/SYLLABLES.md, session 36).

    python3 research/recognition/syllables/noisy.py [--every N] [--snr 20,10]

The clips: every Nth "alexa" (no speaker ids) and the user words of Speech Commands'
_unknown_ folder. The noises: pink and white (made), and Speech Commands' background-noise
clips (`_silence_`) one after another in a shuffled order ("recorded"). The speech level is the mean power of the clips' frames within
20 dB of each clip's loudest.
"""
import argparse
import os
import sys
import zlib

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "bench"))
import attention  # noqa: E402
from lib.audio import read_audio, write_wav  # noqa: E402
from lib.env import EVAL_DIR, ROOT, VSH  # noqa: E402
from lib.vsh import listen  # noqa: E402

RATE = 16000


def speech_power(x):
    frame = RATE // 100
    n = len(x) // frame
    e = x[: n * frame].reshape(n, frame).var(axis=1) + 1e-3
    return float(e[10 * np.log10(e) > 10 * np.log10(e.max()) - 20].mean())


def noise(kind, n, seed):
    rng = np.random.default_rng(seed)
    if kind == "white":
        return rng.standard_normal(n)
    if kind == "pink":
        spec = np.fft.rfft(rng.standard_normal(n))
        f = np.arange(len(spec))
        spec[1:] /= np.sqrt(f[1:])
        return np.fft.irfft(spec, n)
    d = os.path.join(EVAL_DIR, "real", "speech-commands", "_silence_")  # kind "recorded"
    clips = sorted(os.listdir(d))
    rng.shuffle(clips)
    rec = np.concatenate([read_audio(os.path.join(d, f), RATE) for f in clips if f.endswith(".flac")])
    return np.resize(rec - rec.mean(), n)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--every", type=int, default=3)
    ap.add_argument("--snr", default="20,10")
    ap.add_argument("--noises", default="pink,white,recorded")
    ap.add_argument("--vsh", default=VSH)
    ap.add_argument("--out", default=os.path.join(ROOT, ".build", "syllables-noisy"))
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    alexa_dir = os.path.join(EVAL_DIR, "real", "alexa")
    paths = sorted(os.path.join(alexa_dir, f) for f in os.listdir(alexa_dir) if f.endswith(".flac"))[::args.every]
    paths += attention.clips("_unknown_", lambda f: f.split("_")[0] in attention.USER_WORDS)
    words = ["alexa" if "/alexa/" in p else os.path.basename(p).split("_")[0] for p in paths]
    pieces = [read_audio(p, RATE) for p in paths]
    level = np.mean([speech_power(x) for x in pieces])
    audio, spans = attention.join(pieces, "noisy", gap=lambda rng: float(rng.uniform(2.0, 3.0)))
    _, env = attention.user_home(None)
    conditions = [("clean", None, None)] + [(f"{k} {s} dB", k, float(s)) for k in args.noises.split(",")
                                             for s in args.snr.split(",")]
    print(f"{len(paths)} clips ({sum(w == 'alexa' for w in words)} alexa): how many ran their command, the least "
          "dips of those, and how many of them each floor would stop")
    print("| condition | ran | least dips | under 5 | under 8 | under 10 | under 12 |")
    print("|---|---|---|---|---|---|---|")
    for label, kind, snr in conditions:
        x = audio
        if kind:
            nz = noise(kind, len(audio), zlib.crc32(label.encode()))
            x = audio + nz * np.sqrt(level / np.mean(nz ** 2) / 10 ** (snr / 10))
        path = os.path.join(args.out, label.replace(" ", "_") + ".wav")
        write_wav(path, x)
        objs, err = listen(args.vsh, env, path, timeout=3600)
        if err:
            sys.exit(f"vsh listen failed on {path}: {err}")
        dips, ran = [], 0
        for (a, b), want in zip(spans, words):
            over = [o for o in objs if o["start"] < b + 0.3 and o["end"] > a - 0.3 and o.get("text") == want
                    and o.get("command")]
            ran += bool(over)
            dips += [d for o in over[:1] if (d := (o.get("features") or {}).get("syllable_dip")) is not None]
        dips.sort()
        print(f"| {label} | {ran} | {', '.join(f'{d:.1f}' for d in dips[:5])} | "
              + " | ".join(str(sum(d < f for d in dips)) for f in (5, 8, 10, 12)) + " |", flush=True)
        os.remove(path)


if __name__ == "__main__":
    main()
