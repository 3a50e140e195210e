#!/usr/bin/env python3
"""Which runs a floor on the hiss in words voiced throughout (`Gate.hissInVoiceUnder`)
would stop, from one run of bench/attention.py with the check off: each stream's runs and
asks with a measure (`features.hiss_in_voice`), and how many reach each run length. A
command said to vsh heard as another one (an "alexa" as `marvin`) is a wrong run, not one
lost. The run length was chosen this way on fold 0 (research/recognition/HISS_IN_VOICE.md).

    # a build with `Gate.hissInVoiceUnder` set out of reach (10_000), as BUILD
    python3 bench/attention.py --fold 0 --alone --no-stock --no-wake --keep K --vsh BUILD
    python3 research/recognition/hiss-in-voice/sweep.py K.fold0.json
"""
import json
import sys

LENGTHS = [4, 5, 6, 7, 8, 9, 10, 12]
SAID_TO_VSH = {"vsh/stop": "stop", "vsh/user-words": None, "vsh/alexa": "alexa"}
TAKEN = ("run", "confirm", "choose")


def main(path):
    kept = json.load(open(path))
    false, said = [], []
    for stream, decisions in kept.items():
        for u in decisions:
            run = (u.get("features") or {}).get("hiss_in_voice")
            if u["decision"] not in TAKEN or run is None:
                continue
            if stream in SAID_TO_VSH:
                meant = SAID_TO_VSH[stream]
                (said if meant is None or u["text"] == meant else false).append((run, stream, u["text"]))
            else:
                false.append((run, stream, u["text"]))
    for name, rows in (("false runs and asks", false), ("said to vsh", said)):
        print(f"{name} with a measure: " + ", ".join(f"{r} {s[4:]} {t}" for r, s, t in sorted(rows)))
    print("run at least | false stopped | said stopped")
    for n in LENGTHS:
        print(f"{n} | {sum(r >= n for r, _, _ in false)} | {sum(r >= n for r, _, _ in said)}")


if __name__ == "__main__":
    main(sys.argv[1])
