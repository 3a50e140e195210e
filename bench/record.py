#!/usr/bin/env python3
"""record's cost: CPU seconds per second of audio for `vsh record --from FILE` (writing
the WAV, SpeexDSP, endpointing, the stop check, dictation, the store) beside `vsh
transcribe FILE` (the same dictation, nothing written) and stock pocketsphinx_continuous
transcribing the same file with the same language model. record should cost what
transcribe does (issue 28: it decoded each utterance twice, 2.1 times transcribe's CPU).

VSH_BIN names the release binary (default .build/release/vsh).
"""
import os
import resource
import subprocess
import sys
import tempfile
import wave

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib.audio import write_frames  # noqa: E402
from lib.env import EVAL_DIR as EVAL, VSH, isolated_env  # noqa: E402
from lib.results import headline, save  # noqa: E402
from lib.vsh import MODEL, stock_argv  # noqa: E402


def cpu_of(argv, env=None):
    """CPU seconds (user + system) the command used."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        # One minute of read speech: the five librivox sentences, repeated, with pauses.
        librivox = os.path.join(EVAL, "real", "librivox")
        parts = sorted(f for f in os.listdir(librivox) if f.endswith(".wav"))
        audio = os.path.join(tmp, "speech.wav")
        frames = b""
        silence = b"\0\0" * 8000
        while len(frames) < 60 * 32000:
            for name in parts:
                with wave.open(os.path.join(librivox, name)) as w:
                    frames += w.readframes(w.getnframes()) + silence
        write_frames(audio, frames)
        seconds = len(frames) / 32000
        vsh = cpu_of([VSH, "--store", tmp + "/store", "-c", f"record --from {audio} --title bench"], isolated_env(tmp))
        plain = cpu_of([VSH, "--no-voice", "transcribe", audio], isolated_env(tmp))
        base = cpu_of(stock_argv(audio, "-lm", MODEL + "/en-us.lm.bin"))
        print(f"\n| {seconds:.0f} s of speech | vsh record --from | vsh transcribe | pocketsphinx_continuous -lm "
              "| record / transcribe | record / stock |")
        print("|---|---|---|---|---|---|")
        print(f"| CPU s per s of audio | {vsh / seconds:.3f} | {plain / seconds:.3f} | {base / seconds:.3f} "
              f"| {vsh / plain:.2f} | {vsh / base:.2f} |")
        print(f"| share of one core in real time | {100 * vsh / seconds:.1f}% | {100 * plain / seconds:.1f}% "
              f"| {100 * base / seconds:.1f}% | | |")
        headline("record --from, CPU s per s of audio (baseline: pocketsphinx_continuous -lm)", f"{vsh / seconds:.3f}", f"{base / seconds:.3f}")
        headline("transcribe, CPU s per s of audio (baseline: pocketsphinx_continuous -lm)", f"{plain / seconds:.3f}", f"{base / seconds:.3f}")
        save("record")


if __name__ == "__main__":
    sys.exit(main())
