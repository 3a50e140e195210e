#!/usr/bin/env python3
"""Checks bench/stop.py's "before" column against the old binary itself: each trial of a
synthetic stop stream (a librivox sentence, 0.6 s, "stop recording", 1 s, the next
sentence) cut out on its own and recorded with `vsh record --from` of a vsh built before
issue 28 (its keyword spotter); stopped when the recording ends before the next sentence.

    python3 research/recognition/stop/old_record_check.py OLD_VSH STREAM.wav...

STREAM.wav: streams bench/stop.py cached in .build/bench-stop/VERSION/.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../bench"))
from lib.audio import read_wav, write_wav  # noqa: E402
from lib.env import isolated_env  # noqa: E402

RATE = 16000


def main():
    old, streams = sys.argv[1], sys.argv[2:]
    for path in streams:
        x = read_wav(path).astype(float)
        spans = json.load(open(path + ".json"))
        stopped = 0
        for k, (a, b) in enumerate(spans):
            begin = 0 if k == 0 else spans[k - 1][1] + 1.0   # where sentence k starts
            end = min(len(x) / RATE, b + 1.0 + 2.5)            # 2.5 s into the next sentence
            with tempfile.TemporaryDirectory() as tmp:
                trial = os.path.join(tmp, "trial.wav")
                write_wav(trial, x[int(begin * RATE):int(end * RATE)])
                out = subprocess.run([old, "--no-voice", "--store", tmp + "/store", "-c", f"record --from {trial}"],
                                     capture_output=True, text=True, env=isolated_env(tmp)).stdout
                m = re.search(r"Recorded ([\d.]+) s", out)
                if m and float(m.group(1)) < end - begin - 1.5:
                    stopped += 1
        print(f"{os.path.basename(path)}: old record stopped {stopped}/{len(spans)}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
