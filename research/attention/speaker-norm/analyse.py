"""Tables for RESULTS.md from results/*.tsv (plain numpy)."""
import sys, glob, collections, zlib
import numpy as np
SPK = ["george", "lucas", "yweweler", "jackson"]; FOLD0 = SPK[:3]
fold = lambda s: zlib.crc32(s.encode()) % 2
OWN_VARS = ["rec", "takes", "lvl025", "lvl4", "sox", "lead01", "lead1", "takes_lvl025"]
INV = ["takes", "lvl025", "lvl4", "sox", "lead01", "lead1"]
SELS = ["all", "e30", "e25", "e20", "e15"]
R = []  # (clip, speaker, variant, model, sel, frames, score)
for f in glob.glob("results/*.tsv"):
    for line in open(f):
        c = line.rstrip("\n").split("\t")
        R.append((c[0], c[1], c[4], c[5], c[6], int(c[7]), float(c[8])))
BY = collections.defaultdict(dict)   # (sel) -> {(clip, variant, model): (score, frames, speaker)}
for clip, spk, var, model, sel, n, s in R: BY[sel][clip, var, model] = (s, n, spk)

def znorm_stats(sel, model):
    z = [s for (clip, var, m), (s, n, spk) in BY[sel].items() if var == "zc" and m == model]
    return np.mean(z), np.std(z)

def scored(sel, norm):
    """{(clip, variant, model): (normalised score, speaker)} for the person's models."""
    out = {}; st = {}; tc = collections.defaultdict(list)
    if norm == "t":
        for (clip, var, m), (s, n, spk) in BY[sel].items():
            if m.endswith("/cohort"): tc[clip, var].append(s)
    for (clip, var, m), (s, n, spk) in BY[sel].items():
        if m.endswith("/cohort") or var == "zc": continue
        if norm in ("z", "zdur"):
            if m not in st: st[m] = znorm_stats(sel, m)
            s = (s - st[m][0]) / st[m][1]
            if norm == "zdur": s *= np.sqrt(n / 50)
        elif norm == "t":
            c = tc[clip, var]; s = (s - np.mean(c)) / np.std(c)
        out[clip, var, m] = (s, spk)
    return out

def calib(d, spk, rule):
    v = [s for (clip, var, m), (s, sp) in d.items() if sp == spk and m.startswith(spk + "/ho") and var.startswith("T")
         and (rule == "perturbed" or var == "Ttakes")]
    return np.percentile(v, 5), np.std(v)

def split(d, spk):
    own = collections.defaultdict(dict); oth = collections.defaultdict(dict)
    for (clip, var, m), (s, sp) in d.items():
        if m != f"{spk}/full" or var.startswith("T"): continue
        if sp == spk: own[var][clip] = s
        elif sp in SPK: oth[var][clip] = s
    return own, oth

def evaluate(own, oth, thr):
    pct = lambda xs: 100 * np.mean([x >= thr for x in xs]) if len(xs) else float("nan")
    r = {f"own_{v}": pct(list(own[v].values())) for v in OWN_VARS}
    r["own_all"] = pct([x for v in OWN_VARS for x in own[v].values()])
    r["oth_rec"] = pct(list(oth["rec"].values())); r["oth_takes"] = pct(list(oth["takes"].values()))
    r["oth_all"] = pct([x for v in OWN_VARS for x in oth[v].values()])
    for who, x in (("own", own), ("oth", oth)):
        fl = [(x[v][c] >= thr) != (x["rec"][c] >= thr) for v in INV for c in x[v] if c in x["rec"]]
        r["flip_" + who] = 100 * np.mean(fl)
    return r

def eer(own, oth, var="rec"):
    a = np.array(list(own[var].values())); b = np.array(list(oth[var].values())); best = 1
    for t in np.sort(np.concatenate([a, b])):
        best = min(best, max((a < t).mean(), (b >= t).mean()))
    return 100 * best

if __name__ == "__main__":
    norms = ["raw", "z", "zdur", "t"]
    P = lambda *a: print(*a, flush=True)
    cache = {}
    P("### Separation without calibration: equal error rate own vs other fsdd speakers, % (as recorded / like the takes)\n")
    P("| score | " + " | ".join(f"{s} (fold {fold(s)})" for s in SPK) + " |"); P("|---" * 5 + "|")
    for sel in SELS:
        for norm in norms:
            d = scored(sel, norm); cache[sel, norm] = d
            sp = {s: split(d, s) for s in SPK}
            P(f"| {sel}/{norm} | " + " | ".join(f"{eer(*sp[s]):.0f} / {eer(*sp[s], 'takes'):.0f}" for s in SPK) + " |")
    P("\n### Calibrated: threshold = P5(held-out take scores) - margin; margin the smallest (step 0.05 x sd of the take scores) with which every fold-0 speaker keeps >= 95% of all own variants pooled\n")
    P("Cells: own kept all variants / as recorded / like takes ; others pass as recorded / like takes ; decision flips vs as-recorded, own / others (all %)\n")
    P("| score | calibration data | margin | " + " | ".join(f"{s} (fold {fold(s)})" for s in SPK) + " |"); P("|---" * 7 + "|")
    best = []
    for sel in SELS:
        for norm in norms:
            d = cache[sel, norm]; sp = {s: split(d, s) for s in SPK}
            for rule in ["takes", "perturbed"]:
                base = {s: calib(d, s, rule) for s in SPK}
                for k in np.arange(0, 6.01, 0.05):
                    res = {s: evaluate(*sp[s], base[s][0] - k * base[s][1]) for s in SPK}
                    if all(res[s]["own_all"] >= 95 for s in FOLD0): break
                P(f"| {sel}/{norm} | {rule} | {k:.2f} sd | " + " | ".join(
                    f"{r['own_all']:.0f}/{r['own_rec']:.0f}/{r['own_takes']:.0f}; {r['oth_rec']:.0f}/{r['oth_takes']:.0f}; {r['flip_own']:.0f}/{r['flip_oth']:.0f}"
                    for r in (res[s] for s in SPK)) + " |")
                best.append((np.mean([res[s]["oth_rec"] for s in FOLD0]), sel, norm, rule, k, res))
    best.sort(key=lambda b: b[0])
    P("\n### Best 8 by fold-0 mean others-pass (as recorded)\n")
    for b in best[:8]:
        j = b[5]["jackson"]
        P(f"- {b[1]}/{b[2]}, {b[3]}, margin {b[4]:.2f} sd: fold-0 others pass {b[0]:.1f}%; jackson (fold 1): own all {j['own_all']:.0f}%, as recorded {j['own_rec']:.0f}%, others pass as recorded {j['oth_rec']:.0f}%, like takes {j['oth_takes']:.0f}%")
