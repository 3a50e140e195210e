#!/usr/bin/env python3
"""vsh alone over bench/voice.py's whole synthetic command corpus (no stock run), for
LONE_WORDS.md: exact matches by condition, and the files whose command differs from an
earlier run's.

    VSH_LONE_WEIGHT=off python3 research/recognition/lone-words/commands.py OUT.tsv [EARLIER.tsv]
"""
import collections
import csv
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "bench"))
from lib.env import COMMANDS_GRAMMAR, ROOT, VSH, snapshot_home  # noqa: E402
from lib.vsh import measured, phrases, vsh_tool  # noqa: E402

corpus = os.path.join(ROOT, ".build/bench-voice/corpus")
rows = list(csv.DictReader(open(os.path.join(corpus, "manifest.tsv")), delimiter="\t"))
for r in rows:
    r["path"] = os.path.join(corpus, r["path"])
_, env = snapshot_home("vsh-lone-")
outcomes, cpu, wall = measured("vsh", vsh_tool(VSH, env, COMMANDS_GRAMMAR), rows, 1)
right, total = collections.Counter(), collections.Counter()
with open(sys.argv[1], "w") as f:
    for r, o in zip(rows, outcomes):
        got, want = phrases(o.accepted), phrases(p for p in r["expected"].split("|") if p.strip())
        total[r["condition"]] += 1
        right[r["condition"]] += got == want
        f.write(f"{r['id']}\t{want}\t{got}\t{o.heard}\n")
for c in total:
    print(f"{c}: {right[c]}/{total[c]}")
print(f"ALL: {sum(right.values())}/{sum(total.values())} = {100 * sum(right.values()) / sum(total.values()):.1f}%; CPU {cpu:.0f} s")
slots = [r for r in rows if any(ch in r["expected"] for ch in ("play ", "delete ", "show ", "code ", "count "))]
ok = lambda r, o: phrases(o.accepted) == phrases(p for p in r["expected"].split("|") if p.strip())
print(f"with a slot: {sum(ok(r, o) for r, o in zip(rows, outcomes) if r in slots)}/{len(slots)}")
if len(sys.argv) > 2:
    before = {l.split("\t")[0]: l.rstrip("\n").split("\t") for l in open(sys.argv[2])}
    for r, o in zip(rows, outcomes):
        b = before.get(r["id"])
        if b and b[2] != phrases(o.accepted):
            print(f"changed {r['id']}: want {b[1]!r}: {b[2]!r} ({b[3]}) -> {phrases(o.accepted)!r} ({o.heard})")
