#!/usr/bin/env python3
"""Is each phone of a one-word command there? Each phone against a free phone loop, with
stock `pocketsphinx_batch`: for VERIFY.md, "Session 27: each phone".

    python3 research/recognition/phone_probe.py FOLD [WORDS]

A Speech Commands fold's real "stop"s and the first WORDS (600) of its other words (in
bench/attention.py's order by crc32), each padded with bench's 0.4 s of its own room noise,
are decoded three ways, batch CMN, no silence dropped (so frame numbers line up):
1. `stop | help` beside the thousand everyday words at 1e-24 (as `OpenGrammar`);
2. a forced alignment of the word heard, its phones as words (`ph_s ph_t ph_aa ph_p`);
3. the CI phone loop (`-allphone`, `-allphone_ci yes`).
For the clips heard as `stop` or `help`, each phone's ratio is its acoustic score minus the
loop's over its frames, per frame. Prints the weakest word's and weakest phone's ratios
(right and false), the curve of a rule on the word's first phone, and every false run's
phones. No confidence and no checks: not vsh's figures.
"""
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile
import zlib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "bench"))
sys.path.insert(0, os.path.join(ROOT, "research", "attention"))
import attention  # noqa: E402
from lib.audio import RATE, read_audio, write_wav  # noqa: E402
from lib.data import padded  # noqa: E402
from lib.vsh import DICTIONARY  # noqa: E402
from weight_probe import everyday  # noqa: E402

MODEL = os.path.dirname(DICTIONARY)
PHONES = "AA AE AH AO AW AY B CH D DH EH ER EY F G HH IH IY JH K L M N NG OW OY P R S SH T TH UH UW V W Y Z ZH".split()
SPELLED = {"stop": "ph_s ph_t ph_aa ph_p", "help": "ph_hh ph_eh ph_l ph_p"}


def segments(path):
    """pocketsphinx_batch's -hypseg: per utterance, (word, first frame, last frame, ascr)."""
    out = {}
    for line in open(path):
        t = line.split()
        rest = t[9:]  # uttid S s T t A a L l, then (frame ascr lscr word)*, then the end frame
        ss = [(rest[i + 3], int(rest[i]), int(rest[i + 1])) for i in range(0, len(rest) - 1, 4)]
        out[t[0]] = [(w, f, (ss[j + 1][1] - 1 if j + 1 < len(ss) else int(rest[-1])), a) for j, (w, f, a) in enumerate(ss)]
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    fold = int(sys.argv[1])
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 600
    stops = attention.sc_fold(attention.clips("stop"), fold)
    words = sorted(attention.sc_fold(attention.other_words(), fold), key=lambda p: zlib.crc32(p.encode()))[:count]
    work = tempfile.mkdtemp(prefix="phone-probe-")
    os.makedirs(work + "/wav")
    clips = {}
    for p in stops + words:
        utt = re.sub(r"\W", "_", os.path.relpath(p, attention.EVAL_DIR))
        write_wav(f"{work}/wav/{utt}.wav", padded(read_audio(p, RATE), RATE, p))
        clips[utt] = p
    with open(work + "/dict", "w") as f:
        f.write(open(DICTIONARY).read() + "".join(f"ph_{p.lower()} {p}\n" for p in PHONES))
    open(work + "/ctl", "w").write("\n".join(clips) + "\n")
    grammars = {"open": "stop | help | (/1/ antidisestablishmentarianism | "
                + " | ".join(f"/1e-24/ {w}" for w in everyday()) + ")", **SPELLED}
    runs = {name: ["-jsgf", f"{work}/{name}.gram"] for name in grammars}
    for name, body in grammars.items():
        open(f"{work}/{name}.gram", "w").write(f"#JSGF V1.0;\ngrammar p;\npublic <u> = {body};\n")
    runs["loop"] = ["-allphone", MODEL + "/en-us-phone.lm.bin", "-allphone_ci", "yes"]

    def batch(name):
        subprocess.run(["pocketsphinx_batch", "-hmm", MODEL + "/en-us", "-dict", work + "/dict", "-ctl", work + "/ctl",
                        "-cepdir", work + "/wav", "-cepext", ".wav", "-adcin", "yes", "-adchdr", "44", "-cmn", "batch",
                        "-remove_silence", "no", "-hypseg", f"{work}/{name}.seg", *runs[name]], capture_output=True, check=True)
        return segments(f"{work}/{name}.seg")

    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        heard = dict(zip(runs, pool.map(batch, runs)))

    def loop(utt, first, last):
        total = 0.0
        for _, f, l, score in heard["loop"][utt]:
            overlap = min(last, l) - max(first, f) + 1
            if overlap > 0 and l >= f:
                total += score * overlap / (l - f + 1)
        return total

    right, false = [], []
    for utt, path in clips.items():
        said = [re.sub(r"\(\d+\)$", "", w) for w, *_ in heard["open"].get(utt, []) if not w.startswith(("<", "["))]
        if said not in (["stop"], ["help"]):
            continue
        word = said[0]
        _, f, l, a = next(s for s in heard["open"][utt] if re.sub(r"\(\d+\)$", "", s[0]) == word)
        phones = [(w[3:], (a2 - loop(utt, f2, l2)) / (l2 - f2 + 1), l2 - f2 + 1)
                  for w, f2, l2, a2 in heard[word][utt] if w.startswith("ph_")]
        row = (os.path.relpath(path, attention.EVAL_DIR), word, (a - loop(utt, f, l)) / (l - f + 1), phones)
        if path in stops and word == "stop":
            right.append(row)
        elif path not in stops:
            false.append(row)
    print(f"fold {fold}: {len(stops)} real \"stop\"s, {len(right)} heard as stop; "
          f"{len(words)} other words, {len(false)} heard as stop or help")
    for name, rows in (("right", right), ("false", false)):
        for what, value in (("word", lambda r: r[2]), ("weakest phone", lambda r: min(x for _, x, _ in r[3]))):
            v = sorted(value(r) for r in rows)
            q = lambda x: v[min(len(v) - 1, int(x * len(v)))]
            print(f"{name} {what}: n={len(v)} p10 {q(.1):.0f} p25 {q(.25):.0f} p50 {q(.5):.0f} p75 {q(.75):.0f}")
    for floor in (-30, -40, -50):
        stopped = lambda r: r[3][0][2] <= 3 and r[3][0][1] < floor
        print(f"first phone in 3 frames and below {floor}: right kept {sum(not stopped(r) for r in right)}/{len(right)}, "
              f"false kept {sum(not stopped(r) for r in false)}/{len(false)}")
    for r in false:
        print("false", r[0], r[1], f"word {r[2]:.0f}", " ".join(f"{p}:{x:.0f}/{n}" for p, x, n in r[3]))


if __name__ == "__main__":
    main()
