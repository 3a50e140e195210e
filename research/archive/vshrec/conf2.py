#!/usr/bin/env python3
"""conf2.py RUN: logistic-regression confidence on segment features, leave-one-voice-out CV."""
import re, sys, collections, numpy as np
run = sys.argv[1]
FEATS = ['m', 'am', 'lmm', 'fpp', 'cov', 'lognfr', 'snr']
def segs(dbg):
    out = []
    for s in dbg.split(' ;; '):
        g = re.search(r'snr=(\d+)(?:\(dn\))? wfr=(\d+) nph=(\d+) \[(.*?)\] m=(-?[\d.]+) am=(-?[\d.]+) garb=\[.*?\] lmm=(-?[\d.]+) post=(-?\d+) nfr=(\d+)', s)
        if not g: continue
        snr, wfr, nph, hyp, m, am, lmm, post, nfr = g.groups()
        wfr, nph, nfr = int(wfr), int(nph), int(nfr)
        out.append(dict(hyp=hyp, m=float(m), am=float(am), lmm=float(lmm), fpp=wfr / max(nph, 1),
                        cov=wfr / max(nfr, 1), lognfr=np.log(max(nfr, 1)), snr=float(snr)))
    return out
def load(f):
    return [(c[0], c[1], c[2], segs(c[6] if len(c) > 6 else '')) for c in
            (l.rstrip('\n').split('\t') for l in open(f))]
C = load(f'results/{run}_corpus.tsv'); O = load(f'results/{run}_oog.tsv')
def voice(id):
    m = re.search(r'-v(\d)-', id); return int(m.group(1)) if m else -1
def X(s): return np.array([s[f] for f in FEATS])
def train(pos, neg):
    x = np.array([X(s) for s in pos + neg]); y = np.array([1] * len(pos) + [0] * len(neg))
    mu, sd = x.mean(0), x.std(0) + 1e-9; z = (x - mu) / sd
    w = np.zeros(z.shape[1]); b = 0.0
    wt = np.where(y == 1, len(neg) / len(pos), 1.0)
    for _ in range(3000):
        p = 1 / (1 + np.exp(-(z @ w + b))); g = (p - y) * wt
        w -= 0.05 * (z.T @ g / len(y) + 1e-3 * w); b -= 0.05 * g.mean()
    return lambda s: 1 / (1 + np.exp(-(((X(s) - mu) / sd) @ w + b))), (mu, sd, w, b)
def positives(rows):  # segments whose hyp is the correct single command
    return [ss[0] for id, cond, exp, ss in rows if len(ss) == 1 and ss[0]['hyp'] == exp]
def negatives(rows): return [s for r in rows for s in r[3] if s['hyp']]
# leave-one-voice-out: score each file with a model trained on the other voices
scores = {}
sessions_and_real = [r for r in O if voice(r[0]) < 0] + [r for r in C if voice(r[0]) < 0]
for v in range(4):
    trC = [r for r in C if voice(r[0]) not in (v, -1)]; trO = [r for r in O if voice(r[0]) not in (v, -1)]
    f, _ = train(positives(trC), negatives(trO))
    for r in C + O:
        if voice(r[0]) == v: scores[r[0]] = [f(s) for s in r[3]]
f_all, params = train(positives([r for r in C if voice(r[0]) >= 0]), negatives([r for r in O if voice(r[0]) >= 0]))
for r in sessions_and_real: scores[r[0]] = [f_all(s) for s in r[3]]  # (sessions/real not in training)
print('features', FEATS); print('full-data model w', np.round(params[2], 2), 'b', round(params[3], 2))
print('mu', np.round(params[0], 2), 'sd', np.round(params[1], 2))
for T in [0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95]:
    t = collections.Counter(); ok = collections.Counter(); to = collections.Counter(); fa = collections.Counter()
    for id, cond, exp, ss in C:
        hyp = ' | '.join(s['hyp'] for s, p in zip(ss, scores[id]) if s['hyp'] and p >= T)
        t[cond] += 1; t['ALL'] += 1; ok[cond] += hyp == exp; ok['ALL'] += hyp == exp
    for id, cond, exp, ss in O:
        a = any(s['hyp'] and p >= T for s, p in zip(ss, scores[id]))
        to[cond] += 1; to['ALL'] += 1; fa[cond] += a; fa['ALL'] += a
    print(f"T={T:.2f} acc " + ' '.join(f"{k[:5]}={100*ok[k]/t[k]:.1f}" for k in t) + " | FA " + ' '.join(f"{k[:9]}={100*fa[k]/to[k]:.1f}" for k in to))
