#!/usr/bin/env python3
"""fsdd 8 kHz -> 16 kHz mono s16 WAVs, level-normalised like vsh (RMS 3000, peak 32000, <= +40 dB).
   data/clean/DIGIT_SPK_TAKE.wav : the clip alone
   data/pad/DIGIT_SPK_TAKE.wav   : 0.3 s of low white noise (-40 dB re the clip's RMS) before and after
Then MFCC (.mfc) for bw with sphinx_fe using the model's front-end (feat.params) and the
pocketsphinx defaults (remove_noise yes, remove_silence yes, dither no), so bw sees what the decoder sees."""
import os, subprocess, wave, glob, sys
import numpy as np

SRC = '/work/shared/eval/real/fsdd'
OUT = '/tmp/adapt/data'
rng = np.random.default_rng(1234)


def rd(path):
    with wave.open(path) as w:
        return np.frombuffer(w.readframes(w.getnframes()), dtype='<i2').astype(np.float64), w.getframerate()


def wr(path, x):
    with wave.open(path, 'wb') as w:
        w.setnchannels(1); w.setsampwidth(2); w.setframerate(16000)
        w.writeframes(np.clip(np.round(x), -32768, 32767).astype('<i2').tobytes())


def normalise(x):
    rms = np.sqrt(np.mean(x * x)) + 1e-9
    peak = max(1.0, np.abs(x).max())
    return x * min(3000 / rms, 32000 / peak, 100)


for cond in ('clean', 'pad'):
    os.makedirs(f'{OUT}/{cond}', exist_ok=True)
tmp = '/tmp/adapt/data/_up.wav'
files = sorted(glob.glob(f'{SRC}/*_*_*.wav'))
for f in files:
    name = os.path.basename(f)
    subprocess.run(['sox', '-D', f, '-r', '16000', '-b', '16', '-c', '1', tmp], check=True)  # sox rate (HQ) upsampling
    x, sr = rd(tmp)
    assert sr == 16000
    wr(f'{OUT}/clean/{name}', normalise(x))
    rms = np.sqrt(np.mean(x * x))
    n = int(0.3 * 16000)
    pre, post = rng.normal(0, rms / 100, n), rng.normal(0, rms / 100, n)
    wr(f'{OUT}/pad/{name}', normalise(np.concatenate([pre, x, post])))
os.remove(tmp)

fe = ['-lowerf', '130', '-upperf', '6800', '-nfilt', '25', '-transform', 'dct', '-lifter', '22',
      '-samprate', '16000']
for cond in ('clean', 'pad'):
    ctl = f'{OUT}/{cond}.all.ctl'
    with open(ctl, 'w') as c:
        for f in files:
            c.write(os.path.basename(f)[:-4] + '\n')
    subprocess.run(['sphinx_fe', *fe, '-c', ctl, '-di', f'{OUT}/{cond}', '-do', f'{OUT}/{cond}',
                    '-ei', 'wav', '-eo', 'mfc', '-mswav', 'yes'], check=True,
                   stdout=subprocess.DEVNULL, stderr=open(f'{OUT}/{cond}.fe.log', 'w'))
print('done', len(files))
