#!/usr/bin/env python3
"""Confidence features of the synthetic command corpus and out-of-grammar set.

    python3 bench/synth_features.py VSH LABEL

Runs `VSH listen --json --grammar bench/commands.gram` over .build/bench-voice/corpus and
.build/bench-voice/oog (made by bench/voice.py) and writes .build/bench-real/synth-LABEL.jsonl
for bench/fit_confidence.py --synth LABEL. Fold = voice number % 2 (v0, v2: fold 0).
"""
import concurrent.futures
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import real_speech as R  # noqa: E402
from run import isolated_env  # noqa: E402


def main():
    vsh, label = os.path.abspath(sys.argv[1]), sys.argv[2]
    rows = []
    for part in ("corpus", "oog"):
        d = os.path.join(R.ROOT, ".build/bench-voice", part)
        for line in open(os.path.join(d, "manifest.tsv")).read().splitlines()[1:]:
            c = line.split("\t")
            voice = next((t for t in c[0].split("-") if t.startswith("v") and t[1:].isdigit()), "v1")
            rows.append(dict(id=c[0], path=c[1] if c[1].startswith("/") else os.path.join(d, c[1]),
                             cls="oog" if part == "oog" else "command", speaker=voice, fold=int(voice[1:]) % 2,
                             expected=c[3] if part == "corpus" else "",
                             grammar=os.path.join(R.ROOT, "bench", "commands.gram")))
    home = tempfile.mkdtemp(prefix="vsh-synth-features-")
    env = isolated_env(home)
    for d in ("config", "commands"):
        shutil.copytree(os.path.join(R.ROOT, d), os.path.join(home, "share", d))
    env["VSH_SHARE"] = os.path.join(home, "share")
    try:
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            outs = list(pool.map(R.vsh_tool(vsh, env, []), rows))
    finally:
        shutil.rmtree(home, ignore_errors=True)
    with open(os.path.join(R.ROOT, ".build/bench-real", f"synth-{label}.jsonl"), "w") as f:
        for r, o in zip(rows, outs):
            f.write(json.dumps(dict(id=r["id"], cls=r["cls"], speaker=r["speaker"], fold=r["fold"],
                                    expected=r["expected"], utterances=o.utterances)) + "\n")
    print(f"{len(rows)} files, {sum(bool(o.error) for o in outs)} errors")


if __name__ == "__main__":
    sys.exit(main())
