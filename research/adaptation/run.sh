#!/bin/bash
# run.sh TAG COND CTLSUFFIX   (env passed through to adapt.sh; TAG=stock decodes the base model)
# -> results/TAG.COND.tsv : spk correct total pct adapt_cpu_s
TAG=$1; COND=$2; CS=${3:-adapt5}
cd /tmp/adapt; mkdir -p results
one() {
  s=$1
  if [ $TAG = stock ]; then M=base; cpu=0; else
    M=models/$TAG.$COND.$s
    st=$( { /usr/bin/time -f "%U %S" ./adapt.sh $M $COND ctl/$s.$CS >/dev/null; } 2>&1 | tail -1)
    cpu=$(echo $st | awk '{printf "%.2f", $1+$2}')
  fi
  r=$(./decode.sh $M $COND $s out/$TAG.$COND)
  echo "$r $cpu"
  [ $TAG != stock ] && rm -rf $M/work/acc1 $M/work/acc2
  true
}
export -f one; export TAG COND CS
printf "george\njackson\nlucas\nyweweler\n" | xargs -P2 -I{} bash -c 'one {}' | sort > results/$TAG.$COND.tsv
awk -v t=$TAG.$COND '{p+=$4; c+=$5; printf "%s=%s ", $1, $4} END {printf "| mean %.1f | cpu/spk %.2f  %s\n", p/NR, c/NR, t}' results/$TAG.$COND.tsv
