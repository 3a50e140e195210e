#!/usr/bin/env python3
"""The person's side of the burst before a voiceless stop (research/recognition/BURST.md;
needs a build with burst/burst.patch applied, which adds `features.burst`): real words that begin with P, T or K said on their own, through `vsh listen --grammar`
with a grammar of every word the clips say, by speaker fold: how many were heard as
themselves, the burst (`features.burst`) of each heard so, and how many a floor on it
would stop.

- Speech Commands' "cat", "tree" and "two" (16 kHz, many speakers), against a grammar of
  all its words;
- fsdd's "two" (8 kHz, four speakers), against a grammar of the ten digits.

    python3 research/recognition/burst/said.py [--vsh BUILD]
"""
import argparse
import collections
import concurrent.futures
import glob
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "bench"))
from lib.data import fold_of  # noqa: E402
from lib.env import EVAL_DIR, VSH, snapshot_home  # noqa: E402
from lib.audio import noise, read_audio, write_wav  # noqa: E402
from lib.vsh import listen  # noqa: E402
import numpy as np  # noqa: E402

SC = os.path.join(EVAL_DIR, "real", "speech-commands")
SC_WORDS = ["yes", "no", "up", "down", "left", "right", "on", "off", "stop", "go", "backward", "bed", "bird", "cat",
            "dog", "follow", "forward", "happy", "house", "learn", "marvin", "sheila", "tree", "visual", "wow",
            "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
DIGITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
FLOORS = [1, 2, 3, 4]


def grammar(words):
    f = tempfile.NamedTemporaryFile("w", suffix=".gram", delete=False)
    f.write("#JSGF V1.0;\ngrammar said;\npublic <word> = " + " | ".join(words) + ";\n")
    f.close()
    return f.name


def padded(path, scratch):
    """The clip with half a second of a faint room (-70 dBFS) either side, as
    bench/attention.py lays fsdd's digits: the clips are cut tight, and `vsh listen --from`
    on a file that begins with the word loses its first frames to the endpointer's start."""
    x = read_audio(path, 16000)
    room = noise(8000, -70, np.random.default_rng(1))
    out = os.path.join(scratch, os.path.basename(path).rsplit(".", 1)[0] + ".wav")
    write_wav(out, np.concatenate([room, x, room]))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vsh", default=VSH)
    args = ap.parse_args()
    _, env = snapshot_home("vsh-burst-")
    sets = []  # (word, speaker, path, grammar)
    sc_gram, digit_gram = grammar(SC_WORDS), grammar(DIGITS)
    for word in ["cat", "tree", "two"]:
        for p in sorted(glob.glob(os.path.join(SC, "_unknown_", word + "_*.flac"))):
            sets.append(("sc " + word, os.path.basename(p).split("_")[1], p, sc_gram))
    fsdd = os.path.join(EVAL_DIR, "real", "fsdd")
    for p in sorted(glob.glob(os.path.join(fsdd, "2_*.wav"))):
        sets.append(("fsdd two", os.path.basename(p).split("_")[1], p, digit_gram))
    scratch = tempfile.mkdtemp(prefix="vsh-burst-clips-")
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        heard = list(pool.map(lambda s: listen(args.vsh, env, padded(s[2], scratch), s[3])[0] or [], sets))
    for fold in (0, 1):
        for name in ["sc cat", "sc tree", "sc two", "fsdd two"]:
            counts, bursts = collections.Counter(), []
            for (set_name, speaker, path, _), objs in zip(sets, heard):
                if set_name != name or fold_of(speaker) != fold:
                    continue
                word = name.split()[1]
                counts["clips"] += 1
                right = [o for o in objs if o.get("text") == word]
                if right:
                    counts["heard"] += 1
                    b = (right[0].get("features") or {}).get("burst")
                    bursts.append(b)
                if any(o.get("decision") == "run" for o in right):
                    counts["ran"] += 1
            measured = [b for b in bursts if b is not None]
            stopped = {f: sum(b < f for b in measured) for f in FLOORS}
            by_speaker = collections.defaultdict(list)
            for (set_name, speaker, path, _), objs in zip(sets, heard):
                if set_name == name and fold_of(speaker) == fold:
                    right = [o for o in objs if o.get("text") == name.split()[1]]
                    if right:
                        by_speaker[speaker].append((right[0].get("features") or {}).get("burst"))
            if name.startswith("fsdd"):
                for speaker, bursts in sorted(by_speaker.items()):
                    print(f"   {speaker}: {sorted(bursts, key=lambda b: (b is None, b or 0))}")
            print(f"fold {fold} {name}: {dict(counts)}; burst of those heard as the word "
                  f"{sorted(bursts, key=lambda b: (b is None, b or 0))}; stopped at a floor of {stopped}")


if __name__ == "__main__":
    main()
