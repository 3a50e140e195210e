"""Current vsh rule reproduced; per-variant flips; cohort pass (the 'leave off' rule)."""
import numpy as np, collections
import analyse as A
P = print
P("### Today's rule (all frames, raw score, threshold = P5(held-out takes) - 0.4 nats)\n")
P("| speaker (fold) | P5 held-out takes | threshold | own median as recorded | own median like takes | own kept rec / takes / all variants | others pass rec / takes | cohort (Speech Commands) pass |")
P("|---|---|---|---|---|---|---|---|")
d = A.scored("all", "raw")
for s in A.SPK:
    own, oth = A.split(d, s); p5, sd = A.calib(d, s, "takes"); thr = p5 - 0.4
    r = A.evaluate(own, oth, thr)
    coh = [x for (c, v, m), (x, n, sp) in A.BY["all"].items() if v == "zc" and m == f"{s}/full"]
    P(f"| {s} ({A.fold(s)}) | {p5:.2f} | {thr:.2f} | {np.median(list(own['rec'].values())):.2f} | {np.median(list(own['takes'].values())):.2f} | "
      f"{r['own_rec']:.0f} / {r['own_takes']:.0f} / {r['own_all']:.0f} | {r['oth_rec']:.0f} / {r['oth_takes']:.0f} | {100*np.mean(np.array(coh) >= thr):.0f} |")
P("\n### Per-variant: own kept % / others pass % / flips vs as recorded (own, others), for three candidates at their fold-0 margins (perturbed calibration)\n")
CANDS = [("all", "raw", 0.75), ("all", "z", 0.70), ("e25", "z", 0.55), ("e20", "z", 0.85)]
for sel, norm, k in CANDS:
    d = A.scored(sel, norm)
    P(f"\n**{sel}/{norm}, margin {k} sd**\n")
    P("| speaker | " + " | ".join(A.OWN_VARS) + " |"); P("|---" * (len(A.OWN_VARS) + 1) + "|")
    for s in A.SPK:
        own, oth = A.split(d, s); p5, sd = A.calib(d, s, "perturbed"); thr = p5 - k * sd
        cells = []
        for v in A.OWN_VARS:
            ok = 100 * np.mean([x >= thr for x in own[v].values()]); op = 100 * np.mean([x >= thr for x in oth[v].values()])
            if v == "rec": cells.append(f"{ok:.0f} / {op:.0f}")
            else:
                fo = 100 * np.mean([(own[v][c] >= thr) != (own["rec"][c] >= thr) for c in own[v]])
                ft = 100 * np.mean([(oth[v][c] >= thr) != (oth["rec"][c] >= thr) for c in oth[v]])
                cells.append(f"{ok:.0f} / {op:.0f} ({fo:.0f}, {ft:.0f})")
        coh = [x for (c, vv, m), (x, n, sp) in A.BY[sel].items() if vv == "zc" and m == f"{s}/full"]
        if norm == "z":
            mu, sg = A.znorm_stats(sel, f"{s}/full"); coh = [(x - mu) / sg for x in coh]
        P(f"| {s} ({A.fold(s)}), cohort pass {100*np.mean(np.array(coh) >= thr):.0f}% | " + " | ".join(cells) + " |")
