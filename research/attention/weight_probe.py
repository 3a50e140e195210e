#!/usr/bin/env python3
"""The everyday words' weight against real "stop"s and other people's words, with stock
`pocketsphinx_continuous`: for ATTENTION.md, "Commands in a noisy room" (session 26).

    python3 research/attention/weight_probe.py [--fold 1] [--words 300] WEIGHT...

The grammar is `stop | help` beside the thousand most likely everyday words vsh uses
(Sources/VshVoice/OtherWords+List.swift, less those that sound like "stop" or "help"),
each at WEIGHT against a ballast word of weight 1, as `OpenGrammar` builds it. Each
Speech Commands clip of the fold is padded with `PAD` (0.4 s) of its own room noise
(bench/lib/data.py). Prints, per weight, how many real "stop"s are heard as "stop" and how
many other words (the first N of bench/attention.py's words, in its order) as `stop` or
`help`. No confidence and no checks: the curve the weight moves along, not vsh's figures.
"""
import argparse
import collections
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile
import zlib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "bench"))
import attention  # noqa: E402
from lib.audio import RATE, read_audio, write_wav  # noqa: E402
from lib.data import padded  # noqa: E402
from lib.vsh import DICTIONARY  # noqa: E402


def everyday(count=1000):
    words = re.findall(r'"([a-z\'.]+)"', open(os.path.join(ROOT, "Sources/VshVoice/OtherWords+List.swift")).read())
    prons = collections.defaultdict(set)
    for line in open(DICTIONARY):
        parts = line.split()
        prons[re.sub(r"\(\d+\)$", "", parts[0])].add(" ".join(parts[1:]))
    taken = prons["stop"] | prons["help"]
    return [w for w in words if w not in ("stop", "help") and prons[w] and not prons[w] & taken
            and re.fullmatch(r"[a-z]+", w)][:count]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fold", type=int, default=1)
    ap.add_argument("--words", type=int, default=300)
    ap.add_argument("weights", nargs="+")
    args = ap.parse_args()
    stops = attention.sc_fold(attention.clips("stop"), args.fold)
    words = attention.sc_fold(attention.other_words(), args.fold)
    words = sorted(words, key=lambda p: zlib.crc32(p.encode()))[:args.words]
    work = tempfile.mkdtemp(prefix="weight-probe-")
    others = everyday()
    grammars = {}
    for weight in args.weights:
        grammars[weight] = os.path.join(work, f"w{weight}.gram")
        with open(grammars[weight], "w") as f:
            f.write("#JSGF V1.0;\ngrammar p;\npublic <u> = stop | help | <o>;\n<o> = (/1/ antidisestablishmentarianism | "
                    + " | ".join(f"/{weight}/ {w}" for w in others) + ");\n")

    def audio(path):
        out = os.path.join(work, path.replace("/", "_") + ".wav")
        if not os.path.exists(out):
            write_wav(out, padded(read_audio(path, RATE), RATE, path))
        return out

    def hear(job):
        path, weight = job
        run = subprocess.run(["pocketsphinx_continuous", "-infile", audio(path), "-jsgf", grammars[weight]],
                             capture_output=True, text=True)
        return " ".join(line for line in run.stdout.split("\n") if line.strip())

    for p in stops + words:  # each padded once, before the threads
        audio(p)
    jobs = [(p, w) for p in stops + words for w in args.weights]
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        heard = dict(zip(jobs, pool.map(hear, jobs)))
    for w in args.weights:
        right = sum(heard[(p, w)] == "stop" for p in stops)
        false = collections.Counter(heard[(p, w)] for p in words if heard[(p, w)] in ("stop", "help"))
        print(f"weight {w}: real \"stop\" heard as stop {right}/{len(stops)}; other words heard as stop or help "
              f"{sum(false.values())}/{len(words)} {dict(false)}")


if __name__ == "__main__":
    main()
