#!/usr/bin/env python3
"""What voice.quiet_before_ms would do at other values, from one bench/attention.py run
with the check off (`--vsh-config` with quiet_before_ms = 0, `--keep PREFIX`): a command
run, asked or confirmed whose quiet_before is under the value would have run nothing. (The
prompt's state can differ after a question that then is not asked; the chosen value is
checked by a real run.)

    python3 research/attention/quiet_sweep.py PREFIX.fold0.json
"""
import json
import sys

TALK = ("words", "digits", "noise", "read", "synthetic")


def main(path):
    runs = json.load(open(path))
    hours = None
    for ms in (0, 300, 400, 500, 600, 700, 800, 1000, 1500):
        q = ms / 1000
        talk_runs = talk_asks = 0
        for key, us in runs.items():
            tool, stream = key.split("/", 1)
            if tool != "vsh" or stream not in TALK:
                continue
            for u in us:
                gap = u.get("quiet_before")
                stands = gap is None or gap >= q
                if u["decision"] == "run" and stands:
                    talk_runs += 1
                elif u["decision"] in ("confirm", "choose") and stands:
                    talk_asks += 1
        print(f"quiet_before_ms {ms:5d}: {talk_runs} false runs, {talk_asks} questions in talk")


if __name__ == "__main__":
    main(sys.argv[1])
