"""Voiced frames (YIN) in each utterance vsh heard, from real_speech.py's sc-vsh.jsonl.
Prints one TSV row per clip: id cls fold text conf voiced longest_run frames, then the
15 lowest per-frame minima among frames within 25 dB of the loudest.
    python3 yin.py sc-vsh.jsonl [LOWPASS_HZ]"""
import json, sys, wave
import numpy as np

SR = 16000; W = 400; TMIN = 40; TMAX = 230; HOP = 160  # 25 ms window, 70-400 Hz

def read(path):
    with wave.open(path) as w:
        assert w.getframerate() == SR and w.getnchannels() == 1
        return np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16).astype(np.float64)

def frames(x):
    """Per frame: the minimum of YIN's cumulative mean normalised difference over 70-400 Hz,
    the lag (samples) where it lies, and the frame's energy in dB."""
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

def heard(path):
    """Each clip of a real_speech.py JSON-lines file with its first utterance heard: the
    row, the utterance, and the audio of that utterance."""
    for line in open(path):
        r = json.loads(line)
        us = [u for u in r["utterances"] if u.get("features")]
        if us:
            u = us[0]
            yield r, u, read(r["path"])[int(u["start"] * SR): int(u["end"] * SR)]

def cmndf_min(x):
    """Per frame: the minimum difference and the energy (dB)."""
    return [(c, e) for c, _, e in frames(x)]

if __name__ == "__main__":
    thr = 0.25
    lowpass = float(sys.argv[2]) if len(sys.argv) > 2 else 0
    if lowpass:
        from scipy.signal import butter, sosfilt
        sos = butter(4, lowpass, fs=SR, output="sos")
    for r, u, seg in heard(sys.argv[1]):
        if lowpass: seg = sosfilt(sos, seg)
        fr = cmndf_min(seg)
        if not fr: continue
        top = max(e for _, e in fr)
        v = [c < thr and e > top - 25 for c, e in fr]
        run = best = 0
        for b in v:
            run = run + 1 if b else 0; best = max(best, run)
        mins = sorted(c for c, e in fr if e > top - 25)
        print("\t".join(map(str, [r["id"], r["cls"], r["fold"], u["text"], u["confidence"], sum(v), best, len(fr),
                                  " ".join(f"{m:.3f}" for m in mins[:15])])), flush=True)
