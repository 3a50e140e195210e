#!/usr/bin/env python3
"""proto.py GRAMMAR LABEL [--fold F] [--all] : SC rows through vsh listen --threshold 0 with GRAMMAR."""
import sys, os, json, collections, concurrent.futures, time, resource
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "../../.."))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import real_speech as rs
gram, label = sys.argv[1], sys.argv[2]
fold = int(sys.argv[sys.argv.index("--fold")+1]) if "--fold" in sys.argv else None
rows = rs.speech_commands_rows()
if "--all" not in sys.argv: rows = rs.quick_subset(rows)
rows = rs.prepare(rows, os.path.join(ROOT, ".build/bench-real"))
if fold is not None: rows = [r for r in rows if r["fold"] == fold]
vsh = os.environ.get("VSH", os.path.join(ROOT, ".build/release/vsh"))
cmds = set(rs.SC_WORDS)
def one(r):
    rc, out, err = rs.run([vsh, "listen", "--from", r["path"], "--json", "--grammar", gram, "--threshold", "0"])
    objs = [json.loads(l) for l in out.splitlines() if l.strip()]
    return objs
t0 = time.time()
with concurrent.futures.ThreadPoolExecutor(2) as p: outs = list(p.map(one, rows))
cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
with open(f"{label}.jsonl", "w") as f:
    for r, o in zip(rows, outs):
        f.write(json.dumps(dict(id=r["id"], cls=r["cls"], fold=r["fold"], expected=r["expected"], out=o)) + "\n")
print(label, len(rows), "rows", f"{time.time()-t0:.0f}s wall {cpu.ru_utime+cpu.ru_stime:.0f}s cpu")
