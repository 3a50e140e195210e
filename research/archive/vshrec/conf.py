#!/usr/bin/env python3
"""conf.py RUN : sweep rejection thresholds on per-segment features from vshrec debug column."""
import re, sys, collections
run = sys.argv[1]
def segs(dbg):
    out = []
    for s in dbg.split(' ;; '):
        m = re.search(r'\[(.*?)\] m=(-?[\d.]+) am=(-?[\d.]+) garb=\[.*?\] lmm=(-?[\d.]+) post=(-?\d+) nfr=(\d+) lm=\[(.*?)\] iv=(\d+)/(\d+)', s)
        if m:
            out.append(dict(hyp=m.group(1), m=float(m.group(2)), am=float(m.group(3)), lmm=float(m.group(4)), post=int(m.group(5)),
                            nfr=int(m.group(6)), lm=m.group(7), iv=int(m.group(8)), nw=int(m.group(9))))
    return out
def load(f):
    rows = []
    for l in open(f):
        c = l.rstrip('\n').split('\t')
        rows.append((c[0], c[1], c[2], segs(c[6] if len(c) > 6 else '')))
    return rows
C = load(f'results/{run}_corpus.tsv'); O = load(f'results/{run}_oog.tsv')
def evaluate(accept):
    t = collections.Counter(); ok = collections.Counter()
    for id, cond, exp, ss in C:
        hyp = ' | '.join(s['hyp'] for s in ss if s['hyp'] and accept(s))
        t[cond] += 1; t['ALL'] += 1
        if hyp == exp: ok[cond] += 1; ok['ALL'] += 1
    fa = collections.Counter(); to = collections.Counter()
    for id, cond, exp, ss in O:
        to[cond] += 1; to['ALL'] += 1
        if any(s['hyp'] and accept(s) for s in ss): fa[cond] += 1; fa['ALL'] += 1
    return ({k: 100 * ok[k] / t[k] for k in t}, {k: 100 * fa[k] / to[k] for k in to})
def show(name, accept):
    a, f = evaluate(accept)
    print(f"{name:28s} acc " + ' '.join(f"{k[:5]}={v:.1f}" for k, v in a.items()) + " | FA " + ' '.join(f"{k[:9]}={v:.1f}" for k, v in f.items()))
show('none', lambda s: True)
feat = sys.argv[2] if len(sys.argv) > 2 else 'm'
vals = sorted({round(s[feat]) for r in C + O for s in r[3]})
import numpy as np
for q in np.percentile(vals, np.arange(0, 100, 5)):
    show(f'{feat}>={q:.0f}', lambda s, q=q: s[feat] >= q)
