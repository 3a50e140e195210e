#!/usr/bin/env python3
"""Which runs a floor on the hiss (`Gate.hissAtLeast`) would stop, from one run of
bench/attention.py with the check off: each stream's runs, those with a measure
(`features.weakest_hiss`), and how many of them fall under each floor. The floor was
chosen this way on fold 0 (research/recognition/HISS.md).

    VSH_HISS=0 python3 bench/attention.py --fold 0 --alone --no-stock --no-wake --keep K --vsh BUILD
    python3 research/recognition/hiss/sweep.py K.fold0.json

(VSH_HISS was an experiment build's knob for the floor, not a setting of vsh.)
"""
import json
import sys

FLOORS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]
SAID_TO_VSH = ("vsh/stop", "vsh/user-words", "vsh/alexa")

for path in sys.argv[1:]:
    streams = json.load(open(path))
    print(f"== {path}\n{'stream':18s} {'runs':>5s} {'with':>5s} " + " ".join(f"{f:>5}" for f in FLOORS))
    for name, heard in streams.items():
        runs = [u for u in heard if u["decision"] in ("run", "confirm", "choose")]
        hiss = [h for h in ((u.get("features") or {}).get("weakest_hiss") for u in runs) if h is not None]
        print(f"{name:18s} {len(runs):5d} {len(hiss):5d} " + " ".join(f"{sum(h < f for h in hiss):5d}" for f in FLOORS))
    for name, heard in streams.items():
        for u in heard:
            h = (u.get("features") or {}).get("weakest_hiss")
            if u["decision"] in ("run", "confirm", "choose") and h is not None and h < max(FLOORS):
                side = "said to vsh" if name in SAID_TO_VSH else "false run"
                print(f"  {side}: {name} {u['text']!r} -> {u['line']} hiss {h}")
