#!/usr/bin/env python3
"""Fits vsh's confidence model on real speech, cross-validated by speaker.

    python3 bench/fit_confidence.py [--label feat] [--set NAME]...

Reads what `bench/real_speech.py --label L` left in .build/bench-real/sc-L.jsonl (and
fsdd-L.jsonl when present): every utterance's confidence features, from `vsh listen
--json` (run that vsh with `--vsh-args "--threshold 0"` or any threshold: the features do
not depend on it).

An utterance is a positive when it is the clip's word, a negative otherwise (another
word, an `_unknown_` word, background noise). The model is a logistic regression over
z-normalised features (Sources/VshCore/Confidence.swift computes the same vector).
Figures are 2-fold by speaker (fold = crc32(speaker) % 2): fitted on one fold, scored on
the other. fsdd is never fitted on: its figures use the fold-0 model. The model printed
for Swift is the fold-0 fit, so that Speech Commands fold 1 stays held out for the
binary too.
"""
import argparse
import json
import math
import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CACHE = os.path.join(ROOT, ".build/bench-real")

# name -> function of the JSON "features" object; Confidence.Features.vector must match.
FEATURES = {
    "margin": lambda f: (f["grammar_score"] - f["phone_loop_score"]) / max(1, f["frames"]),
    "acoustic_margin": lambda f: (f["grammar_acoustic"] - f["phone_loop_acoustic"]) / max(1, f["frames"]),
    "word_margin": lambda f: (f["grammar_score"] - f["phone_loop_score"]) / max(1, f["word_frames"]),
    "frames_per_phone": lambda f: f["word_frames"] / max(1, f["phones"]),
    "coverage": lambda f: f["word_frames"] / max(1, f["frames"]),
    "log_frames": lambda f: math.log(max(1, f["frames"])),
    "log_phones": lambda f: math.log(max(1, f["phones"])),
    "grammar_per_frame": lambda f: f["grammar_score"] / max(1, f["frames"]),  # the old, channel-bound one
    "word_acoustic_margin": lambda f: (f.get("word_acoustic", 0) - f.get("phone_loop_word_acoustic", 0)) / max(1, f["word_frames"]),
    "phone_distance": lambda f: f.get("phone_distance", 0) / max(1, f["phones"]),
}
SETS = {
    "old": ["margin", "acoustic_margin", "grammar_per_frame", "frames_per_phone", "coverage", "log_frames"],
    "no-absolute": ["margin", "acoustic_margin", "frames_per_phone", "coverage", "log_frames"],
    "word-margin": ["margin", "acoustic_margin", "word_margin", "frames_per_phone", "coverage", "log_frames"],
    "phones": ["margin", "acoustic_margin", "frames_per_phone", "coverage", "log_frames", "log_phones"],
    "word-margin+phones": ["margin", "acoustic_margin", "word_margin", "frames_per_phone", "coverage", "log_frames",
                           "log_phones"],
    "local": ["margin", "acoustic_margin", "word_acoustic_margin", "frames_per_phone", "coverage", "log_frames"],
    "local+distance": ["margin", "acoustic_margin", "word_acoustic_margin", "phone_distance", "frames_per_phone",
                       "coverage", "log_frames"],
}


def load(label, name):
    path = os.path.join(CACHE, f"{name}-{label}.jsonl")
    if not os.path.exists(path):
        return []
    return [json.loads(l) for l in open(path)]


def samples(clips, names):
    """(X, y, clip index) over utterances that have features and words."""
    X, y, idx = [], [], []
    for i, c in enumerate(clips):
        for u in c["utterances"]:
            f = u.get("features")
            if not f or not u.get("text"):
                continue
            X.append([FEATURES[n](f) for n in names])
            y.append(1.0 if c["expected"] and u["text"] == c["expected"] else 0.0)
            idx.append(i)
    return np.array(X, dtype=float).reshape(-1, len(names)), np.array(y), np.array(idx, dtype=int)


def fit(X, y, l2=1.0, iters=50):
    mean, dev = X.mean(axis=0), X.std(axis=0) + 1e-9
    Z = np.hstack([(X - mean) / dev, np.ones((len(X), 1))])
    w = np.zeros(Z.shape[1])
    reg = np.eye(Z.shape[1]) * l2
    reg[-1, -1] = 0
    for _ in range(iters):  # Newton / IRLS with an L2 penalty
        p = 1 / (1 + np.exp(-Z @ w))
        g = Z.T @ (p - y) + reg @ w
        H = (Z * (p * (1 - p))[:, None]).T @ Z + reg
        step = np.linalg.solve(H, g)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return dict(mean=mean, deviation=dev, weights=w[:-1], bias=w[-1])


def prob(model, X, one_word=None):
    z = ((X - model["mean"]) / model["deviation"]) @ model["weights"] + model["bias"]
    if one_word is not None:
        z = z + model.get("one_word_bias", 0.0) * one_word
    return 1 / (1 + np.exp(-z))


def one_word_flags(clips):
    return np.array([float(len(u["text"].split()) == 1) for c in clips for u in c["utterances"]
                     if u.get("features") and u.get("text")])


def fit_one_word_bias(model, clips, names, target, threshold=0.5):
    """The smallest logit penalty for one-word utterances that keeps false accepts of
    `_unknown_` words at or below `target` on these (training) clips at `threshold`."""
    for shift in np.arange(0.0, 4.01, 0.05):
        m = dict(model, one_word_bias=-shift)
        if score(clips, decisions(clips, names, m, threshold))["fa_unknown"] <= 100 * target:
            return -round(float(shift), 2)
    return -4.0


def decisions(clips, names, model, threshold):
    X, _, idx = samples(clips, names)
    p = prob(model, X, one_word_flags(clips)) if len(X) else np.array([])
    texts = [u["text"] for c in clips for u in c["utterances"] if u.get("features") and u.get("text")]
    out = [[] for _ in clips]
    for i, t, q in zip(idx, texts, p):
        if q >= threshold:
            out[i].append(t)
    return out


def score(clips, dec):
    words = [i for i, c in enumerate(clips) if c["expected"]]
    unk = [i for i, c in enumerate(clips) if c["cls"] == "_unknown_"]
    sil = [i for i, c in enumerate(clips) if c["cls"] == "_silence_"]
    right = sum(dec[i] == [clips[i]["expected"]] for i in words)
    wrong = sum(bool(dec[i]) and dec[i] != [clips[i]["expected"]] for i in words)
    top1 = sum(dec[i] == ([c["expected"]] if c["expected"] else []) for i, c in enumerate(clips))
    r = lambda n, d: 100 * n / d if d else float("nan")
    return dict(accept=r(right, len(words)), wrong=r(wrong, len(words)), fa_unknown=r(sum(bool(dec[i]) for i in unk), len(unk)),
                fa_silence=r(sum(bool(dec[i]) for i in sil), len(sil)), top1=r(top1, len(clips)), n=len(clips))


def fmt(s):
    return (f"right {s['accept']:5.1f}%  wrong {s['wrong']:4.1f}%  FA unknown {s['fa_unknown']:5.1f}%  "
            f"FA silence {s['fa_silence']:4.1f}%  top-1 {s['top1']:5.1f}%  (n={s['n']})")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--label", default="feat")
    ap.add_argument("--set", action="append", choices=list(SETS))
    ap.add_argument("--threshold", type=float, action="append")
    ap.add_argument("--l2", type=float, default=1.0)
    ap.add_argument("--swift", default="no-absolute", help="feature set whose fold-0 fit is printed for Swift")
    ap.add_argument("--one-word-fa", type=float, default=None,
                    help="fit a one-word penalty: false accepts of _unknown_ at most this (e.g. 0.2) at 0.5 on the training fold")
    args = ap.parse_args()
    sc, fsdd = load(args.label, "sc"), load(args.label, "fsdd")
    if not sc:
        sys.exit(f"no {CACHE}/sc-{args.label}.jsonl: run bench/real_speech.py --label {args.label} first")
    thresholds = args.threshold or [0.3, 0.5, 0.7]
    for name in args.set or list(SETS):
        names = SETS[name]
        print(f"\n== {name}: {', '.join(names)}")
        models = {}
        for f in (0, 1):  # models[f]: fitted on fold f only
            train = [c for c in sc if c["fold"] == f]
            X, y, _ = samples(train, names)
            models[f] = fit(X, y, args.l2)
            if args.one_word_fa is not None:
                models[f]["one_word_bias"] = fit_one_word_bias(models[f], train, names, args.one_word_fa)
                print(f"  one-word bias fitted on fold {f}: {models[f]['one_word_bias']}")
        for t in thresholds:
            held = [None] * len(sc)
            for f in (0, 1):
                part = [i for i, c in enumerate(sc) if c["fold"] == f]
                dec = decisions([sc[i] for i in part], names, models[1 - f], t)
                for i, d in zip(part, dec):
                    held[i] = d
            print(f"  T={t}: SC 2-fold CV by speaker (held-out folds): {fmt(score(sc, held))}")
            f1 = [c for c in sc if c["fold"] == 1]
            print(f"         SC fold 1 held out, fold-0 model:     {fmt(score(f1, decisions(f1, names, models[0], t)))}")
            if fsdd:
                print(f"         fsdd (never fitted), fold-0 model:  {fmt(score(fsdd, decisions(fsdd, names, models[0], t)))}")
        if name == args.swift:
            m = models[0]
            r = lambda v: ", ".join(f"{x:.4g}" for x in v)
            print(f"  Swift (fit on SC fold 0): mean: [{r(m['mean'])}], deviation: [{r(m['deviation'])}], "
                  f"weights: [{r(m['weights'])}], bias: {m['bias']:.4g}, oneWordBias: {m.get('one_word_bias', 0)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
