"""Per-frame YIN (minimum of the cumulative mean normalised difference over 70-400 Hz, and
its lag) over each utterance vsh heard, for frames within 25 dB of the loudest.
    python3 track.py sc-vsh.jsonl > frames.jsonl
One JSON line per clip: id, cls, fold, text, confidence, frames [[cmndf, lag], ...]
(quiet frames as null)."""
import json, sys
from yin import heard, frames

for r, u, audio in heard(sys.argv[1]):
    fr = frames(audio)
    if not fr: continue
    top = max(e for _, _, e in fr)
    print(json.dumps({"id": r["id"], "cls": r["cls"], "fold": r["fold"], "text": u["text"], "confidence": u["confidence"],
                      "frames": [[round(c, 3), k] if e > top - 25 else None for c, k, e in fr]}), flush=True)
