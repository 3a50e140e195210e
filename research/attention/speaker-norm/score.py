"""Features as vsh_speech_features computes them (sphinx_fe with the model's feat.params front-end
settings, -dither no, remove_noise/remove_silence defaults; then CMN batch and 1s_c_d_dd deltas with
edge frames repeated), and the GMM-UBM score of SpeakerScorer.swift (8 best stock Gaussians per stream,
all codebooks pooled with equal weights), in numpy."""
import os, subprocess, tempfile, shutil
import numpy as np
import vshaudio as v
STOCK = "/usr/share/pocketsphinx/model/en-us/en-us"
FE = ["-lowerf", "130", "-upperf", "6800", "-nfilt", "25", "-transform", "dct", "-lifter", "22",
      "-samprate", "16000", "-dither", "no"]

def cepstra(clips, vad=True):
    """clips: {id: int16 16 kHz samples} -> {id: (T,13) raw cepstra, frames the front end keeps}"""
    tmp = tempfile.mkdtemp()
    ids = list(clips)
    for i, k in enumerate(ids):
        v.write_wav(f"{tmp}/{i}.wav", clips[k])
    with open(f"{tmp}/ctl", "w") as f:
        f.write("".join(f"{i}\n" for i in range(len(ids))))
    subprocess.run(["sphinx_fe", *FE, *([] if vad else ["-remove_silence", "no"]), "-c", f"{tmp}/ctl", "-di", tmp, "-ei", "wav", "-mswav", "yes", "-do", tmp,
                    "-eo", "txt", "-ofmt", "text"], check=True, capture_output=True)
    out = {}
    for i, k in enumerate(ids):
        p = f"{tmp}/{i}.txt"
        a = np.loadtxt(p, ndmin=2) if os.path.getsize(p) > 0 else np.zeros((0, 13))
        out[k] = a.reshape(-1, 13)
    shutil.rmtree(tmp)
    return out

def deltas(c):
    """1s_c_d_dd on CMN'd cepstra c (T,13); utterance edges padded by repeating the end frames."""
    T = len(c)
    p = np.concatenate([np.repeat(c[:1], 3, 0), c, np.repeat(c[-1:], 3, 0)])
    at = lambda k: p[3 + k: 3 + k + T]
    d = at(2) - at(-2)
    dd = (at(3) - at(-1)) - (at(1) - at(-3))
    return np.concatenate([c, d, dd], 1)

def read_s3(path):
    b = open(path, "rb").read()
    o = b.index(b"endhdr\n") + 7
    i = lambda k: int(np.frombuffer(b, "<i4", 1, o + 4 * k)[0])
    assert i(0) == 0x11223344
    cb, st, de = i(1), i(2), i(3); L = [i(4 + s) for s in range(st)]; n = i(4 + st)
    vals = np.frombuffer(b, "<f4", n, o + 4 * (5 + st))
    return vals.reshape(cb, st, de, L[0])

class Gaussians:
    def __init__(self, d):
        m = read_s3(d + "/means"); va = np.maximum(read_s3(d + "/variances"), 1e-4)
        cb, st, de, L = m.shape
        self.streams = st
        self.M = [m[:, s].reshape(-1, L).astype(np.float64) for s in range(st)]
        self.P = [1 / va[:, s].reshape(-1, L).astype(np.float64) for s in range(st)]
        self.C = [-0.5 * np.log(2 * np.pi / P).sum(1) for P in self.P]
        self.MP = [M * P for M, P in zip(self.M, self.P)]
        self.MMP = [(M * M * P).sum(1) for M, P in zip(self.M, self.P)]
    def logdens(self, x, s):  # x (T,13) -> (T,G)
        return self.C[s] - 0.5 * ((x * x) @ self.P[s].T - 2 * x @ self.MP[s].T + self.MMP[s])

STOCK_G = None
def stock():
    global STOCK_G
    if STOCK_G is None: STOCK_G = Gaussians(STOCK)
    return STOCK_G

def lse(a):
    m = a.max(1, keepdims=True); return (m + np.log(np.exp(a - m).sum(1, keepdims=True)))[:, 0]

def frame_llr(feat, adapted, best=8):
    """Per-frame LLR (nats, summed over streams) of 39-dim features."""
    S = stock(); tot = np.zeros(len(feat))
    for s in range(3):
        x = feat[:, 13 * s: 13 * s + 13]
        ls = S.logdens(x, s)
        top = np.argpartition(-ls, best, axis=1)[:, :best]
        gs = np.take_along_axis(ls, top, 1)
        # adapted log densities only at the top indices
        M = adapted.M[s][top]; P = adapted.P[s][top]; C = adapted.C[s][top]
        la = C - 0.5 * (((x[:, None, :] - M) ** 2) * P).sum(2)
        tot += lse(la) - lse(gs)
    return tot

def speech_mask(cep, db):
    """Frames whose c0 is within `db` dB of the utterance's loudest frame (c0 of the dct front end:
    1 dB on every filter = 0.1 ln10 * sqrt(25) ~ 1.151 in c0)."""
    if db is None: return np.ones(len(cep), bool)
    c0 = cep[:, 0]
    return c0 >= c0.max() - db * 0.1 * np.log(10) * 5

def features(cep, mask):
    c = cep - cep[mask].mean(0)
    return deltas(c)
