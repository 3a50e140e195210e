#!/bin/sh
name=$1; shift
nice -n 10 ./vshrec corpus/manifest.tsv corpus results/${name}_corpus.tsv "$@" 2> results/${name}_corpus.log
echo "== $name: $*"; python3 score.py results/${name}_corpus.tsv
