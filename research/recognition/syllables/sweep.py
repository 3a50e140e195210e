#!/usr/bin/env python3
"""Which runs a floor on the syllables' dip (`Gate.dipAtLeast`) would stop, from one run of
bench/attention.py with the check off: each stream's runs, those with a measure
(`features.syllable_dip`), and how many fall under each floor. The floor was chosen this
way on fold 0 (research/recognition/SYLLABLES.md).

    # a build with `Gate.dipAtLeast` set to 0 (every dip passes), as BUILD
    python3 bench/attention.py --fold 0 --alone --no-stock --no-wake --keep K --vsh BUILD
    python3 research/recognition/syllables/sweep.py K.fold0.json

(Session 34's experiment build logged the dip in a field of its own, `dips`, with the
hiss check off; this script reads what vsh reports.)
"""
import json
import sys

FLOORS = [1, 2, 3, 4, 5, 6, 8, 10]
SAID_TO_VSH = ("vsh/stop", "vsh/user-words", "vsh/alexa")
TAKEN = ("run", "confirm", "choose")

for path in sys.argv[1:]:
    streams = json.load(open(path))
    print(f"== {path}\n{'stream':18s} {'runs':>5s} {'with':>5s} " + " ".join(f"{f:>5}" for f in FLOORS))
    for name, heard in streams.items():
        runs = [u for u in heard if u["decision"] in TAKEN]
        dips = [d for d in ((u.get("features") or {}).get("syllable_dip") for u in runs) if d is not None]
        print(f"{name:18s} {len(runs):5d} {len(dips):5d} " + " ".join(f"{sum(d < f for d in dips):5d}" for f in FLOORS))
    said = sorted(d for name, heard in streams.items() if name in SAID_TO_VSH for u in heard
                  if u["decision"] in TAKEN and (d := (u.get("features") or {}).get("syllable_dip")) is not None)
    print(f"  the least dips of commands said to vsh: {said[:10]}")
