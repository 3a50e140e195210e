#!/usr/bin/env python3
"""score_conf.py RUN [T...]: apply the C prototype's own confidence column (5th) at thresholds."""
import sys, collections, re
run = sys.argv[1]; Ts = [float(t) for t in sys.argv[2:]] or [0.3, 0.5, 0.7, 0.9]
def rows(f):
    for l in open(f):
        c = l.rstrip('\n').split('\t') + [''] * 5
        hyps = [h.strip() for h in c[3].split(' | ')] if c[3] else []
        confs = [float(x) for x in c[4].split('|')] if c[4] else []
        yield c[0], c[1], c[2], list(zip(hyps, confs))
for T in Ts:
    t = collections.Counter(); ok = collections.Counter(); to = collections.Counter(); fa = collections.Counter()
    for id, cond, exp, hc in rows(f'results/{run}_corpus.tsv'):
        hyp = ' | '.join(re.sub(r'\(\d+\)', '', h) for h, c in hc if c >= T)
        t[cond] += 1; t['ALL'] += 1; ok[cond] += hyp == exp; ok['ALL'] += hyp == exp
    for id, cond, exp, hc in rows(f'results/{run}_oog.tsv'):
        a = any(c >= T for h, c in hc); to[cond] += 1; to['ALL'] += 1; fa[cond] += a; fa['ALL'] += a
    print(f"T={T:.2f} acc " + ' '.join(f"{k[:5]}={100*ok[k]/t[k]:.1f}" for k in t) + " | FA " + ' '.join(f"{k[:9]}={100*fa[k]/to[k]:.1f}" for k in to))
