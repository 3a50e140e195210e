#!/usr/bin/env python3
"""score.py corpus_results.tsv [oog_results.tsv]  -- rows: id cond expected hyp [conf...]"""
import sys, re, collections
def norm(s):
    return ' | '.join(re.sub(r'\(\d+\)', '', p).split() and ' '.join(re.sub(r'\(\d+\)', '', p).split()) for p in s.split('|') if p.strip())
def load(f):
    out = []
    for l in open(f):
        c = l.rstrip('\n').split('\t')
        while len(c) < 4: c.append('')
        out.append(c)
    return out
rows = load(sys.argv[1])
tot = collections.Counter(); ok = collections.Counter()
for c in rows:
    tot[c[1]] += 1; tot['ALL'] += 1
    if norm(c[3]) == norm(c[2]): ok[c[1]] += 1; ok['ALL'] += 1
order = ['clean', 'quiet', 'white20db', 'pink10db', 'brown5db', 'session', 'ALL']
print(' '.join(f"{k}={100*ok[k]/tot[k]:.1f}%({ok[k]}/{tot[k]})" for k in order if tot[k]))
if len(sys.argv) > 2:
    o = load(sys.argv[2]); t = collections.Counter(); fa = collections.Counter()
    for c in o:
        t[c[1]] += 1; t['ALL'] += 1
        if norm(c[3]): fa[c[1]] += 1; fa['ALL'] += 1
    print('false accepts: ' + ' '.join(f"{k}={100*fa[k]/t[k]:.1f}%({fa[k]}/{t[k]})" for k in t))
