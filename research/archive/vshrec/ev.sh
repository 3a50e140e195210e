#!/bin/sh
# ev.sh NAME [vshrec args...]  -> results/NAME_{corpus,oog}.tsv + score
name=$1; shift
nice -n 10 ${VSHREC:-./vshrec} corpus/manifest.tsv corpus results/${name}_corpus.tsv "$@" 2> results/${name}_corpus.log
nice -n 10 ${VSHREC:-./vshrec} oog/manifest.tsv oog results/${name}_oog.tsv "$@" 2> results/${name}_oog.log
echo "== $name: $*"; python3 score.py results/${name}_corpus.tsv results/${name}_oog.tsv; cat results/${name}_corpus.log
