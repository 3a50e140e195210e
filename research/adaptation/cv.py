#!/usr/bin/env python3
"""cv.py COND TAG... : leave-one-speaker-out choice among configs: for each speaker, pick the tag with
the best mean over the other 3 speakers, report that speaker's accuracy with it."""
import sys
cond, tags = sys.argv[1], sys.argv[2:]
res = {}
for t in tags:
    try:
        res[t] = {l.split()[0]: float(l.split()[3]) for l in open(f'/tmp/adapt/results/{t}.{cond}.tsv')}
    except FileNotFoundError:
        pass
spk = ['george', 'jackson', 'lucas', 'yweweler']
out = []
for s in spk:
    best = max(res, key=lambda t: sum(res[t][o] for o in spk if o != s))
    out.append(res[best][s]); print(f'{s}: picked {best} on others -> {res[best][s]:.1f}')
print(f'cross-validated mean {sum(out)/4:.1f}  min {min(out):.1f}')
