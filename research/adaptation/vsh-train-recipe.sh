#!/bin/bash
# vsh-train-recipe.sh WAVDIR TRANSCRIPTS OUTDIR
#   WAVDIR       directory of NAME.wav, 16 kHz mono s16 (RIFF header), already level-normalised like vsh
#   TRANSCRIPTS  lines "NAME<TAB>word word ..." (lowercase, words of cmudict-en-us.dict)
#   OUTDIR       adapted model, loadable with `-hmm OUTDIR` (same file set as the stock en-us model)
# MLLR (one global transform per stream) then MAP (means + mixture weights, fixed tau 0.03;
# variances and transition matrices kept from the stock model).  env TAU overrides tau.
set -euo pipefail
WAV=$1; TR=$2; OUT=$3
STOCK=/usr/share/pocketsphinx/model/en-us/en-us
DICT=/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict
T=/usr/lib/sphinxtrain
HERE=$(cd "$(dirname "$0")" && pwd)
W=$OUT/.work; rm -rf "$W"; mkdir -p "$W" "$OUT"

# 0. Things the stock model lacks (can be made once per installation and cached)
pocketsphinx_mdef_convert -text $STOCK/mdef $W/mdef.txt 2>/dev/null        # bw/map_adapt need text mdef
python3 $HERE/s3mixw.py fromsendump $STOCK/sendump $W/mixture_weights 2>/dev/null  # float mixw from sendump

# 1. control file, transcription, dictionary
cut -f1 "$TR" > $W/adapt.ctl
awk -F'\t' '{printf "<s> %s </s> (%s)\n", $2, $1}' "$TR" > $W/adapt.transcription
cut -f2 "$TR" | tr ' ' '\n' | sed '/^$/d' | sort -u > $W/words
: > $W/adapt.dict; missing=""
while read w; do
  if ! grep -E "^$w(\([0-9]+\))? " $DICT >> $W/adapt.dict; then missing="$missing $w"; fi
done < $W/words
[ -z "$missing" ] || { echo "words not in dictionary:$missing" >&2; exit 1; }

# 2. features: the model's front end (feat.params) + pocketsphinx defaults (remove_noise, remove_silence)
mkdir -p $W/mfc
sphinx_fe -lowerf 130 -upperf 6800 -nfilt 25 -transform dct -lifter 22 -samprate 16000 \
  -c $W/adapt.ctl -di "$WAV" -ei wav -mswav yes -do $W/mfc -eo mfc > $W/fe.log 2>&1

FEAT="-feat 1s_c_d_dd -svspec 0-12/13-25/26-38 -cmn batch -agc none -varnorm no -ceplen 13"
bw_pass() { # $1 accumdir, rest: extra args
  local acc=$1; shift; mkdir -p $acc
  $T/bw -moddeffn $W/mdef.txt -ts2cbfn .ptm. -meanfn $STOCK/means -varfn $STOCK/variances \
    -mixwfn $W/mixture_weights -tmatfn $STOCK/transition_matrices \
    -dictfn $W/adapt.dict -fdictfn $STOCK/noisedict \
    -ctlfn $W/adapt.ctl -lsnfn $W/adapt.transcription -cepdir $W/mfc -cepext mfc \
    $FEAT -accumdir $acc "$@" > $acc.log 2>&1
  # bw exits 0 even when it skipped every utterance: check the frame count it reports
  local frames; frames=$(awk '/^overall> stats/ {print $3}' $acc.log)
  [ "${frames:-0}" -gt 0 ] || { echo "bw aligned no frames, see $acc.log" >&2; exit 1; }
  grep -E "Skipped utterance|Failed to align|ignored" $acc.log >&2 || true
}

# 3. MLLR: statistics with the stock model, one global transform, applied to the means
bw_pass $W/acc1
$T/mllr_solve -meanfn $STOCK/means -varfn $STOCK/variances -accumdir $W/acc1 \
  -outmllrfn $W/mllr_matrix > $W/mllr_solve.log 2>&1
$T/mllr_transform -inmeanfn $STOCK/means -mllrmat $W/mllr_matrix \
  -outmeanfn $W/mllr_means > $W/mllr_transform.log 2>&1

# 4. MAP on top of MLLR: statistics again, now aligned with the MLLR'd means (bw -mllrmat
#    gives byte-identical results to running bw with -meanfn mllr_means), prior = MLLR'd means
bw_pass $W/acc2 -mllrmat $W/mllr_matrix
$T/map_adapt -moddeffn $W/mdef.txt -ts2cbfn .ptm. -meanfn $W/mllr_means -varfn $STOCK/variances \
  -mixwfn $W/mixture_weights -tmatfn $STOCK/transition_matrices -accumdir $W/acc2 \
  -bayesmean no -fixedtau yes -tau ${TAU:-0.03} \
  -mapmeanfn $W/map_means -mapvarfn $W/map_variances -mapmixwfn $W/map_mixture_weights \
  -maptmatfn $W/map_tmat > $W/map_adapt.log 2>&1

# 5. assemble: stock files + MAP means + MAP mixture weights as a PocketSphinx sendump
cp $STOCK/feat.params $STOCK/mdef $STOCK/noisedict $STOCK/transition_matrices $STOCK/variances $OUT/
cp $W/map_means $OUT/means
$T/mk_s2sendump -pocketsphinx yes -moddeffn $W/mdef.txt -mixwfn $W/map_mixture_weights \
  -mwfloor 1e-20 -sendumpfn $OUT/sendump > $W/mk_s2sendump.log 2>&1
rm -f $OUT/mixture_weights     # if both exist, pocketsphinx reads sendump and ignores mixture_weights
echo "adapted model in $OUT"
