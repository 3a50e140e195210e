"""Per-frame YIN (minimum of the cumulative mean normalised difference over 70-400 Hz, and
its lag) over each utterance vsh heard, for frames within 25 dB of the loudest.
    python3 track.py sc-vsh.jsonl > frames.jsonl
One JSON line per clip: id, cls, fold, text, confidence, frames [[cmndf, lag], ...]
(quiet frames as null)."""
import json, sys
import numpy as np
from yin import read, SR, W, TMIN, TMAX, HOP

def frames(x):
    n = (len(x) - W - TMAX) // HOP
    out = []
    for i in range(max(0, n)):
        s = x[i * HOP: i * HOP + W + TMAX]
        a = s[:W]
        d = np.array([np.sum((a - s[t:t + W]) ** 2) for t in range(1, TMAX + 1)])
        cm = d * np.arange(1, TMAX + 1) / np.maximum(np.cumsum(d), 1e-9)
        k = int(np.argmin(cm[TMIN - 1:])) + TMIN - 1
        out.append((float(cm[k]), k + 1, 10 * np.log10(np.mean(a * a) + 1e-9)))
    return out

for line in open(sys.argv[1]):
    r = json.loads(line)
    us = [u for u in r["utterances"] if u.get("features")]
    if not us: continue
    u = us[0]
    x = read(r["path"])
    fr = frames(x[int(u["start"] * SR): int(u["end"] * SR)])
    if not fr: continue
    top = max(e for _, _, e in fr)
    print(json.dumps({"id": r["id"], "cls": r["cls"], "fold": r["fold"], "text": u["text"], "confidence": u["confidence"],
                      "frames": [[round(c, 3), k] if e > top - 25 else None for c, k, e in fr]}), flush=True)
