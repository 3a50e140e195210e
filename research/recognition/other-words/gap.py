import json, collections, sys
LO, HI = float(sys.argv[3]) if len(sys.argv) > 3 else 0, float(sys.argv[4]) if len(sys.argv) > 4 else 1e9
lab = sys.argv[1]; fold = int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2] != '-' else None
cmds = {"yes","no","up","down","left","right","on","off","stop","go"}
rows = [json.loads(l) for l in open(lab + ".jsonl")]
if fold is not None: rows = [r for r in rows if r["fold"] == fold]
p = lambda a, b: 100.0 * a / max(1, b)
for th in [0, 50, 100, 150, 200, 300, 400]:
    c = collections.Counter()
    for r in rows:
        o = r["out"][0] if r["out"] else None
        d = ""
        if o and o["text"] in cmds:
            gap = o["features"].get("runner_up_gap"); gap = 1e9 if gap is None else gap
            f = o["features"]; fpp = f["word_frames"] / max(1, f["phones"])
            if gap >= th and LO <= fpp <= HI: d = o["text"]
        k = "cmd" if r["expected"] else r["cls"]
        c[k + "_n"] += 1; c["n"] += 1
        if r["expected"]:
            c["right"] += d == r["expected"]; c["wrong"] += bool(d) and d != r["expected"]
        else: c[k + "_fa"] += bool(d)
        c["top1"] += d == r["expected"]
    print(f"{lab} gap>={th:4}: right {p(c['right'],c['cmd_n']):5.1f} wrong {p(c['wrong'],c['cmd_n']):4.1f} unkFA {p(c['_unknown__fa'],c['_unknown__n']):5.1f} silFA {p(c['_silence__fa'],c['_silence__n']):5.1f} top1 {p(c['top1'],c['n']):5.1f} n={c['n']} unk={c['_unknown__n']} sil={c['_silence__n']}")
