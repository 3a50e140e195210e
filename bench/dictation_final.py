#!/usr/bin/env python3
"""Which text a recording keeps: the live decode's last words, or the whole-utterance decode.

    python3 bench/dictation_final.py

Runs `vsh transcribe --json --interim` over the librivox sentences (../shared/eval, or
$VSH_EVAL) and scores both against the transcripts (word error rate): each sentence in a
fresh decoder (a short note: the live decoder has not yet learnt the level), and the five
in a row twice (a long recording). vsh keeps the whole-utterance text; this is the check
that it should. VSH_BIN names the binary (default .build/release/vsh).
"""
import json
import os
import subprocess
import sys
import tempfile
import wave

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib.audio import write_frames  # noqa: E402
from lib.data import librivox_words  # noqa: E402
from lib.env import EVAL_DIR, VSH, isolated_env, require_eval  # noqa: E402
from lib.results import headline, save  # noqa: E402
from lib.score import edit_distance  # noqa: E402


def run(names, librivox, refs, tmp):
    """(live errors, whole errors) over `names` played in one file with 0.5 s pauses."""
    path = os.path.join(tmp, "speech.wav")
    frames = b""
    for name in names:
        with wave.open(os.path.join(librivox, name + ".wav")) as w:
            frames += w.readframes(w.getnframes()) + b"\0\0" * 8000
    write_frames(path, frames)
    out = subprocess.run([VSH, "transcribe", "--json", "--interim", path], capture_output=True, text=True,
                         env=isolated_env(tmp), check=True).stdout
    last, live, whole = "", [], []
    for line in out.splitlines():
        obj = json.loads(line)
        if "partial" in obj:
            last = obj["partial"]
        else:
            live.append(last.split())
            whole.append(obj["text"].split())
            last = ""
    if len(whole) != len(names):
        sys.exit(f"expected {len(names)} utterances, got {len(whole)}")
    return (sum(edit_distance(refs[n], h) for h, n in zip(live, names)),
            sum(edit_distance(refs[n], h) for h, n in zip(whole, names)))


def main():
    librivox = os.path.join(require_eval(EVAL_DIR), "real", "librivox")
    refs = librivox_words()
    names = sorted(refs)
    with tempfile.TemporaryDirectory() as tmp:
        cold = [run([n], librivox, refs, tmp) for n in names]
        warm = run(names + names, librivox, refs, tmp)
    words_cold = sum(len(refs[n]) for n in names)
    words_warm = 2 * words_cold
    print("\n| final text of a recording (librivox WER) | live, last words | whole utterance (kept) |")
    print("|---|---|---|")
    print(f"| each sentence alone ({words_cold} words) | {100 * sum(c[0] for c in cold) / words_cold:.1f}% "
          f"| {100 * sum(c[1] for c in cold) / words_cold:.1f}% |")
    print(f"| five in a row, twice ({words_warm} words) | {100 * warm[0] / words_warm:.1f}% | {100 * warm[1] / words_warm:.1f}% |")
    headline("recording's final text, librivox WER, each sentence alone (baseline: the live, last words)",
             f"{100 * sum(c[1] for c in cold) / words_cold:.1f}%", f"{100 * sum(c[0] for c in cold) / words_cold:.1f}%")
    headline("same, five in a row, twice", f"{100 * warm[1] / words_warm:.1f}%", f"{100 * warm[0] / words_warm:.1f}%")
    save("dictation_final")


if __name__ == "__main__":
    main()
