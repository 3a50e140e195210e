#!/bin/bash
# adapt.sh OUTDIR COND ADAPTCTL   (env: MODE=mllr|map|mllrmap|mllrmapB|mllrmapC  MEAN/VAR/MIXW=1|0  TAU=bayes|<number>)
#  COND: data/<COND>/*.mfc ; ADAPTCTL: file with uttids (DIGIT_SPK_TAKE), one per line.
set -e
OUT=$1; COND=$2; CTL=$3
MODE=${MODE:-mllrmap}; VAR=${VAR:-1}; MIXW=${MIXW:-1}; TAU=${TAU:-bayes}
A=/tmp/adapt; B=$A/base; T=/usr/lib/sphinxtrain
mkdir -p $OUT; W=$OUT/work; rm -rf $W; mkdir -p $W
names=(zero one two three four five six seven eight nine)
cp $CTL $W/adapt.ctl
# transcript: one line per ctl line, "<s> WORDS </s> (uttid)"
while read u; do echo "<s> ${names[${u%%_*}]} </s> ($u)"; done < $CTL > $W/adapt.transcription
FEAT="-feat 1s_c_d_dd -svspec 0-12/13-25/26-38 -cmn batch -agc none -varnorm no -ceplen 13"
bw_run() { # $1 = means file, $2 = accumdir, extra args after
  local mean=$1 acc=$2; shift 2; mkdir -p $acc
  $T/bw -hmmdir $B -moddeffn $B/mdef.txt -ts2cbfn .ptm. -meanfn $mean -varfn $B/variances \
     -mixwfn $B/mixture_weights -tmatfn $B/transition_matrices \
     -dictfn $A/digits.dict -fdictfn $B/noisedict -ctlfn $W/adapt.ctl -lsnfn $W/adapt.transcription \
     -cepdir $A/data/$COND -cepext mfc $FEAT -accumdir $acc "$@" > $acc.log 2>&1
}
cp $B/feat.params $B/mdef $B/noisedict $B/transition_matrices $B/means $B/variances $B/sendump $OUT/
case $MODE in
  mllr|mllrmap|mllrmapB|mllrmapC)
    bw_run $B/means $W/acc1
    $T/mllr_solve -meanfn $B/means -varfn $B/variances -outmllrfn $W/mllr_matrix -accumdir $W/acc1 > $W/mllr_solve.log 2>&1
    $T/mllr_transform -inmeanfn $B/means -outmeanfn $W/mllr_means -mllrmat $W/mllr_matrix > $W/mllr_transform.log 2>&1
    cp $W/mllr_means $OUT/means ;;
esac
PRIOR=$B/means
case $MODE in
  map)      bw_run $B/means $W/acc2 ;;
  mllrmap)  bw_run $W/mllr_means $W/acc2; PRIOR=$W/mllr_means ;;        # A: re-run bw on MLLR'd means, prior = MLLR'd means
  mllrmapB) bw_run $B/means $W/acc2 -mllrmat $W/mllr_matrix; PRIOR=$W/mllr_means ;;  # B: bw -mllrmat, prior = MLLR'd means
  mllrmapC) bw_run $B/means $W/acc2 -mllrmat $W/mllr_matrix ;;           # C: bw -mllrmat, prior = original means
esac
if [ $MODE != mllr ]; then
  if [ "$TAU" = bayes ]; then TA="-bayesmean yes"; else TA="-bayesmean no -fixedtau yes -tau $TAU"; fi
  $T/map_adapt -moddeffn $B/mdef.txt -ts2cbfn .ptm. -meanfn $PRIOR -varfn $B/variances \
     -mixwfn $B/mixture_weights -tmatfn $B/transition_matrices -accumdir $W/acc2 $TA \
     -mapmeanfn $W/map_means -mapvarfn $W/map_variances -mapmixwfn $W/map_mixture_weights \
     -maptmatfn $W/map_transition_matrices > $W/map_adapt.log 2>&1
  [ ${MEAN:-1} = 1 ] && cp $W/map_means $OUT/means
  [ $VAR = 1 ] && cp $W/map_variances $OUT/variances
  if [ $MIXW = 1 ]; then
    $T/mk_s2sendump -pocketsphinx yes -moddeffn $B/mdef.txt -mixwfn $W/map_mixture_weights \
       -mwfloor 1e-20 -sendumpfn $OUT/sendump > $W/mk_s2sendump.log 2>&1
  fi
fi
