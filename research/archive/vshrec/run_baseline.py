#!/usr/bin/env python3
import subprocess, sys, os, resource, csv
M = '/usr/share/pocketsphinx/model/en-us'
def run(manifest, base, outtsv, extra=()):
    rows = list(csv.DictReader(open(manifest), delimiter='\t'))
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(outtsv, 'w') as out:
        for r in rows:
            p = r['path'] if r['path'].startswith('/') else os.path.join(base, r['path'])
            res = subprocess.run(['pocketsphinx_continuous', '-infile', p, '-jsgf', 'vsh.gram',
                  '-hmm', M + '/en-us', '-dict', M + '/cmudict-en-us.dict', *extra],
                  capture_output=True, text=True)
            hyps = [l.strip() for l in res.stdout.splitlines() if l.strip()]
            out.write(f"{r['id']}\t{r['condition']}\t{r['expected']}\t{' | '.join(hyps)}\n")
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(outtsv, 'cpu', round((r1.ru_utime + r1.ru_stime) - (r0.ru_utime + r0.ru_stime), 2))
run('corpus/manifest.tsv', 'corpus', 'results/baseline_corpus.tsv')
run('oog/manifest.tsv', 'oog', 'results/baseline_oog.tsv')
