"""Decisions at several voicing thresholds, from a real_speech.py run's per-utterance JSON
(features.weakest_voicing). Needs a vsh built with Confidence.model.voiced above 1, so
that no utterance was rejected for its voicing yet.
    python3 thresholds.py ../../../.build/bench-real/sc-LABEL.jsonl
Rows: fold 0 (where the threshold is chosen), fold 1 (held out), both."""
import collections, json, sys

rows = [json.loads(l) for l in open(sys.argv[1])]


def decision(r, t):
    return " | ".join(u["command"] for u in r["utterances"]
                      if u.get("command") and u["confidence"] >= 0.5
                      and u.get("features", {}).get("weakest_voicing", 0) < t)


for fold in ((0,), (1,), (0, 1)):
    for t in (1.01, 0.5, 0.45, 0.4, 0.35, 0.3, 0.25):
        c = collections.Counter()
        for r in rows:
            if r["fold"] not in fold:
                continue
            d, e = decision(r, t), r["expected"]
            if e:
                c["words"] += 1; c["right"] += d == e; c["wrong"] += bool(d) and d != e
            else:
                c[r["cls"] + "_n"] += 1; c[r["cls"] + "_fa"] += bool(d)
            c["n"] += 1; c["top"] += d == e
        p = lambda a, b: 100 * a / max(1, b)
        print(f"fold {fold} t<{t}: right {c['right']} ({p(c['right'], c['words']):.1f}) wrong {c['wrong']} "
              f"({p(c['wrong'], c['words']):.1f}) unknown {c['_unknown__fa']}/{c['_unknown__n']} "
              f"noise {c['_silence__fa']}/{c['_silence__n']} top-1 {p(c['top'], c['n']):.1f}")
