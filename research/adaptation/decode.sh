#!/bin/bash
# decode.sh MODELDIR COND SPK OUTDIR  -> prints "SPK correct total pct"
# Decodes each test WAV whole (pocketsphinx_batch, -cmn batch from the model's feat.params),
# digit JSGF, -topn 8 as vsh. Front-end defaults as in libpocketsphinx (remove_noise/remove_silence yes).
set -e
M=$1; C=$2; S=$3; O=$4
A=/tmp/adapt
mkdir -p $O
pocketsphinx_batch -hmm $M -dict $A/digits.dict -jsgf $A/digits.gram -topn 8 \
  -adcin yes -cepdir $A/data/$C -cepext .wav -adchdr 44 -ctl $A/ctl/$S.test -hyp $O/$S.hyp \
  > $O/$S.log 2>&1
python3 - $O/$S.hyp $S <<'P'
import sys
names=['zero','one','two','three','four','five','six','seven','eight','nine']
ok=n=0
for line in open(sys.argv[1]):
    parts=line.split(); uid=parts[-2] if len(parts)>=2 and parts[-1].lstrip('-').isdigit() else parts[-1]
    # format: words (uttid score)
    i=line.rfind('(');  uid=line[i+1:].split()[0]; words=line[:i].split()
    d=int(uid.split('_')[0]); n+=1; ok+= (words==[names[d]])
print(sys.argv[2], ok, n, '%.1f'%(100*ok/n))
P
