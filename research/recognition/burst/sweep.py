#!/usr/bin/env python3
"""The burst's floor on one fold's `bench/attention.py --keep` file, run with the check
out of reach (research/recognition/BURST.md; needs a build with
burst/burst.patch applied, which adds `features.burst`): for each floor, the false runs and asks it
stops (in talk, near misses, words and digits alone) and the commands said to vsh it stops.
In always mode a stopped utterance changes nothing after it, so one run gives every floor.

    python3 research/recognition/burst/sweep.py PREFIX.fold0.json
"""
import json
import sys

FALSE = ["words", "digits", "noise", "read", "synthetic", "near-miss", "words-alone", "digits-alone"]
SAID = ["stop", "user-words", "alexa"]
FLOORS = [1, 2, 3, 4, 5]


def main():
    d = json.load(open(sys.argv[1]))
    false = [u for k in FALSE for u in d.get("vsh/" + k, []) if u["decision"] in ("run", "choose")]
    said = [u for k in SAID for u in d.get("vsh/" + k, []) if u["decision"] in ("run", "choose")]
    def burst(u):
        return (u.get("features") or {}).get("burst")
    print(f"false runs and asks: {len(false)}, measured: {sorted((burst(u), u['line'] or u['text']) for u in false if burst(u) is not None)}")
    print(f"said to vsh and taken: {len(said)}, measured: {sorted((burst(u), u['line'] or u['text']) for u in said if burst(u) is not None)}")
    for floor in FLOORS:
        f = sum(burst(u) is not None and burst(u) < floor for u in false)
        s = sum(burst(u) is not None and burst(u) < floor for u in said)
        print(f"floor {floor}: false stopped {f}, said stopped {s}")


if __name__ == "__main__":
    main()
