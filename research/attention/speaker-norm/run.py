"""Scores every clip variant under the models, for every frame selection.
Output: results/<part>.tsv: clip, speaker, word, take, variant, model, sel, frames, score."""
import os, sys, zlib, collections
import numpy as np
import vshaudio as v, score as S, sc
HERE = os.path.dirname(os.path.abspath(__file__)); FSDD = os.path.join(HERE, "..", "..", "..", "..", "shared", "eval", "real", "fsdd")
SPK = ["george", "lucas", "yweweler", "jackson"]
DIG = "zero one two three four five six seven eight nine".split()
SELS = {"all": None, "e30": 30, "e25": 25, "e20": 20, "e15": 15}
DB_UNIT = 1.71   # c0 per dB, measured (x10 amplitude moved c0 by 34.2)
def mask(cep, db):
    if db is None: return np.ones(len(cep), bool)
    return cep[:, 0] >= cep[:, 0].max() - db * DB_UNIT

def energy_mask(audio, T, db):
    """Frames (10 ms shift, 410-sample window as the front end's) whose energy is within db of the loudest."""
    a = np.asarray(audio, np.float64)
    e = np.array([np.mean(a[i * 160: i * 160 + 410] ** 2) if i * 160 < len(a) else 0 for i in range(T)])
    e = 10 * np.log10(e + 1)
    return e >= e.max() - db

def fsdd_variants(n, x, full):
    """n: clip name, x: 8 kHz float samples. Each variant's 16 kHz audio as the check hears it."""
    V = {"rec": v.decoding_audio(v.speex(x, 8000)),
         "takes": v.decoding_audio(v.sox_resample(v.pad(x, 8000, 0.3, 0.3, "take/" + n), 8000))}
    if full:
        V["lvl025"] = v.decoding_audio(v.speex(x * 0.25, 8000))
        V["lvl4"] = v.decoding_audio(v.speex(np.clip(x * 4, -32768, 32767), 8000))
        V["sox"] = v.decoding_audio(v.sox_resample(x, 8000))
        V["lead01"] = v.decoding_audio(v.speex(v.pad(x, 8000, 0.1, 0.1, "lead/" + n), 8000))
        V["lead1"] = v.decoding_audio(v.speex(v.pad(x, 8000, 1.0, 0.3, "lead/" + n), 8000))
        V["takes_lvl025"] = v.decoding_audio(v.sox_resample(v.pad(x * 0.25, 8000, 0.3, 0.3, "take/" + n), 8000))
    return V

class Models:
    def __init__(self): self.c = {}
    def __call__(self, name):
        if name not in self.c: self.c[name] = S.Gaussians(f"{HERE}/models/{name}")
        return self.c[name]
M = Models()

def score_clips(clips, models_for, out):
    """clips: list of (meta dict, variant, int16 audio); models_for(meta) -> model names."""
    ceps = S.cepstra({i: a for i, (_, _, a) in enumerate(clips)})
    cepn = S.cepstra({i: a for i, (_, _, a) in enumerate(clips)}, vad=False)
    for i, (meta, var, audio) in enumerate(clips):
        names = models_for(meta)
        for sel, db in SELS.items():
            cep = ceps[i] if db is None else cepn[i]
            if len(cep) == 0: continue
            m = np.ones(len(cep), bool) if db is None else energy_mask(audio, len(cep), db)
            feat = S.deltas(cep - cep[m].mean(0))[m]
            # stock part once
            St = S.stock(); tops = []; gsum = np.zeros(len(feat))
            for s in range(3):
                x = feat[:, 13 * s:13 * s + 13]; ls = St.logdens(x, s)
                top = np.argpartition(-ls, 8, axis=1)[:, :8]; tops.append(top)
                gsum += S.lse(np.take_along_axis(ls, top, 1))
            for name in names:
                A = M(name); tot = -gsum.copy()
                for s in range(3):
                    x = feat[:, 13 * s:13 * s + 13]; top = tops[s]
                    la = A.C[s][top] - 0.5 * (((x[:, None, :] - A.M[s][top]) ** 2) * A.P[s][top]).sum(2)
                    tot += S.lse(la)
                out.write("\t".join(map(str, [meta["clip"], meta["speaker"], meta["word"], meta.get("take", ""), var, name,
                                              sel, len(feat), f"{tot.mean():.4f}", f"{tot.std():.4f}"])) + "\n")
    out.flush()

def cohort_models():
    return [f"sc_{s}/cohort" for s in ["4c6167ca", "692a88e6", "1b4c9b89", "0cb74144", "1acc97de", "4fd1443e"]]

def part_fsdd(spk, out, tnorm):
    full = [f"{s}/full" for s in SPK] + (cohort_models() if tnorm else [])
    batch = []
    # test clips: takes 25-49
    for d in range(10):
        for t in range(25, 50, 2):
            n = f"{d}_{spk}_{t}"; x = v.read_audio(f"{FSDD}/{n}.wav", 8000)
            meta = dict(clip=n, speaker=spk, word=DIG[d], take=t)
            for var, a in fsdd_variants(n, x, t % 5 == 0 or t in (27, 33, 39, 47)).items(): batch.append((meta, var, a))
        score_clips(batch, lambda m: full, out); batch = []
    # the takes 0-4, scored by the held-out model that did not hear them (and perturbed copies)
    import train
    names = train.takes(spk)
    for i, n in enumerate(names):
        x = v.read_audio(f"{FSDD}/{n}.wav", 8000)
        meta = dict(clip=n, speaker=spk, word=DIG[int(n[0])], take=int(n.split("_")[2]), ho=f"{spk}/ho{i % 3}")
        for var, a in fsdd_variants(n, x, True).items(): batch.append((meta, "T" + var, a))
    score_clips(batch, lambda m: [m["ho"], f"{spk}/full"] + (cohort_models() if tnorm else []), out)

def part_cohort(out):
    """Z-norm cohort: up to 2 clips from each Speech Commands speaker not used for models."""
    import train_sc
    used = set(train_sc.COHORT) | set(train_sc.TEST)
    g = sc.by_speaker(); batch = []
    for s in sorted(g):
        if s in used: continue
        for r in g[s][:2]:
            x = v.read_audio(r["src"], 16000)
            batch.append((dict(clip=r["id"], speaker=s, word=r["word"]), "zc", v.decoding_audio(v.pad(x, 16000, 0.4, 0.4, "pad/" + r["id"]).astype(np.int16))))
    fs = [f"{s}/full" for s in SPK] + [f"{s}/ho{k}" for s in SPK for k in range(3)]
    for i in range(0, len(batch), 50): score_clips(batch[i:i + 50], lambda m: fs, out)

if __name__ == "__main__":
    os.makedirs(f"{HERE}/results", exist_ok=True)
    what = sys.argv[1]
    with open(f"{HERE}/results/{what}.tsv", "w") as out:
        if what == "cohort": part_cohort(out)
        else: part_fsdd(what, out, tnorm="tnorm" in sys.argv)
