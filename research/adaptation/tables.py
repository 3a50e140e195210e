#!/usr/bin/env python3
"""Prints markdown tables from results/*.tsv (TAG.COND.tsv: spk correct total pct cpu)."""
import os, sys
R = '/tmp/adapt/results'; spk = ['george', 'jackson', 'lucas', 'yweweler']
def load(tag, cond):
    p = f'{R}/{tag}.{cond}.tsv'
    if not os.path.exists(p): return None
    d = {l.split()[0]: l.split() for l in open(p) if l.strip()}
    return d if len(d) == 4 else None
def row(label, tag, cond):
    d = load(tag, cond)
    if not d: return None
    acc = [float(d[s][3]) for s in spk]; cpu = [float(d[s][4]) for s in spk]
    return f'| {label} | ' + ' | '.join(f'{a:.1f}' for a in acc) + f' | **{sum(acc)/4:.1f}** | {min(acc):.1f} | {sum(cpu)/4:.2f} |'
def table(title, rows, cond):
    out = [f'\n**{title}** ({cond})\n', '| config | george | jackson | lucas | yweweler | mean | min | adapt CPU s/spk |', '|---|---|---|---|---|---|---|---|']
    for label, tag in rows:
        r = row(label, tag, cond)
        if r: out.append(r)
    print('\n'.join(out))
main = [('stock', 'stock'), ('MLLR', 'mllr'), ('MAP (bayes means, var+mixw)', 'map'),
        ('MLLR+MAP A: bw again on MLLR means, prior MLLR', 'mllrmap'), ('MLLR+MAP C: bw -mllrmat, prior = stock means', 'mllrmapC'),
        ('MAP, no var (bayes)', 'map_novar'), ('MLLR+MAP, no var (bayes)', 'mllrmap_novar'),
        ('MAP, no var, tau 0.03', 'map_novar_tau0.03'), ('MAP, no var, tau 0.1', 'map_novar_tau0.1'),
        ('MLLR+MAP, no var, tau 0.1', 'mllrmap_novar_tau0.1'), ('**MLLR+MAP, no var, tau 0.03 (recipe)**', 'mllrmap_novar_tau0.03')]
knobs = [('MLLR+MAP all (bayes means, var, mixw)', 'mllrmap'), ('  no var', 'mllrmap_novar'), ('  no mixw', 'mllrmap_nomixw'),
         ('  means only', 'mllrmap_meanonly'), ('  MLLR + MAP mixw only', 'mllr_mapmixwonly'),
         ('no var, fixed tau 100', 'mllrmap_novar_tau100'), ('no var, fixed tau 30', 'mllrmap_novar_tau30'),
         ('no var, fixed tau 10', 'mllrmap_novar_tau10'), ('no var, fixed tau 3', 'mllrmap_novar_tau3'),
         ('no var, fixed tau 1', 'mllrmap_novar_tau1'), ('no var, fixed tau 0.3', 'mllrmap_novar_tau0.3'),
         ('no var, fixed tau 0.1', 'mllrmap_novar_tau0.1'), ('no var, fixed tau 0.03', 'mllrmap_novar_tau0.03'),
         ('no var, fixed tau 0.01', 'mllrmap_novar_tau0.01'),
         ('no var, bayes means + mixw tau 1', 'mllrmap_novar_bayesmean_mixwtau1'),
         ('tau 1, no var, no mixw', 'mllrmap_novar_nomixw_tau1'),
         ('tau 0.1, WITH var', 'mllrmap_var_tau0.1'), ('tau 0.03, WITH var', 'mllrmap_var_tau0.03'),
         ('tau 0.03, no var, no mixw', 'mllrmap_novar_nomixw_tau0.03'), ('tau 0.1, no var, + MAP tmat', 'mllrmap_novar_tau0.1_tmat'),
         ('tau 0.1, no var, 2nd bw+MAP round', 'mllrmap_novar_tau0.1_iter2'), ('tau 0.03, no var, 2nd bw+MAP round', 'mllrmap_novar_tau0.03_iter2'),
         ('tau 0.03, WITH var, 2nd bw+MAP round', 'mllrmap_var_tau0.03_iter2'), ('tau 0.1, no var, bw -topn 8', 'mllrmap_novar_tau0.1_bwtopn8'),
         ('MAP only, no var, tau 0.1', 'map_novar_tau0.1')]
curve = [('stock', 'stock_t10'), ('MLLR+MAP bayes, var+mixw, 5 takes', 'mllrmap_full_adapt5_t10')] + [(f'tau 0.1: {n} take(s)/digit = {10*n} utts', f'curve_tau0.1_takes{n}') for n in (1, 2, 3, 5, 10)] + [(f'tau 0.03: {n} take(s)/digit = {10*n} utts', f'curve_tau0.03_takes{n}') for n in (1, 2, 5, 10)]
for c in ('clean', 'pad'):
    table('Main: adapt on takes 0-4 (50 utts), test takes 5-49 (450/speaker)', main, c)
for c in ('clean', 'pad'):
    table('Knobs (all MLLR then MAP unless said), test takes 5-49', knobs, c)
table('Curve: MLLR+MAP no var, adapt on takes 0..n-1, test takes 10-49 (400/speaker)', curve, 'clean')

def xspk(cond):
    p = f'{R}/xspk.{cond}.tsv'
    if not os.path.exists(p): return
    m = {}
    for l in open(p):
        a, rest = l.split(' test=')
        a = a.split('=')[1]; f = rest.split(); m[(a, f[0])] = f[3]
    st = load('stock', cond); own = load('mllrmap_novar', cond); loo = load('loo', cond)
    print(f'\n**Cross-speaker ({cond})**: rows = speaker adapted on (MLLR+MAP, no var, bayes means, 50 utts), columns = test speaker\n')
    print('| adapted on \\ test | ' + ' | '.join(spk) + ' |'); print('|---' * 5 + '|')
    print('| (stock) | ' + ' | '.join(st[s][3] for s in spk) + ' |')
    for a in spk:
        print(f'| {a} | ' + ' | '.join((f'**{own[b][3]}**' if a == b else m.get((a, b), '')) for b in spk) + ' |')
    if loo: print('| other 3 speakers pooled (150 utts) | ' + ' | '.join(loo[s][3] for s in spk) + ' |')
for c in ('clean', 'pad'): xspk(c)
