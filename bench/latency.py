#!/usr/bin/env python3
"""End of speech to decision, played in real time: vsh with its early end (issue 16),
vsh with the full hangover (voice.early_end_ms = 0), and stock pocketsphinx_continuous,
each fed the same audio at the same pace.

    python3 bench/latency.py [--vsh PATH] [--clips N]

Inputs (made once into .build/bench-latency/):
  session   the spoken-command corpus's session files (make-commands-corpus: several
            commands in a row, three voices), with a quiet room's microphone noise
            (-65 dBFS) under them; vsh's own commands, the baseline bench/commands.gram.
  sc        real speech: Speech Commands clips of the ten command words, N per word (the
            first by file name), one after another in a session; grammar
            bench/real/speech-commands.gram for both.
  fsdd      real speech: spoken digits, the first take of each digit by each of the four
            speakers; bench/real/digits.gram.
  cards     real speech: the five cards recordings ("ten of clubs", ...), whose phrases can
            grow (a card may follow a card), so vsh waits for the full hangover.
The real clips are those bench/real_speech.py pads with 0.4 s of their own room noise
(run it first; its cache is .build/bench-real/audio), each followed by another 0.4 s of
it so that every word ends before the next begins.

vsh runs `vsh listen --from F --real-time --json`, which says when it decided each
utterance ("decided_at", seconds into the file, from the clock that paces the file); the
baseline's time is when its hypothesis line reaches the pipe (Paced in bench/lib/terminal.py, as in bench/prompt.py).
End of speech: for the synthesized sessions the last sample above -50 dBFS before 0.3 s of
silence (exact: they sit in digital silence); for real clips, the end of the last 10 ms
frame more than 10 dB over the clip's padding noise. Latency is measured to each accepted
command (vsh) or printed hypothesis (baseline) from the last end of speech before it.

Also counted: where vsh's accepted commands with the early end differ from those with the
full hangover on the same file.
"""
import argparse
import os
import shutil
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib.audio import RATE, noise, read_wav as read, speech_ends, write_wav as write  # noqa: E402
from lib.data import PREP_VERSION, SC_WORDS, ensure_corpus  # noqa: E402
from lib.env import (COMMANDS_GRAMMAR, EVAL_DIR, GRAMMARS as REAL_GRAMMARS, ROOT, VSH, isolated_env, log,  # noqa: E402
                     require_eval, voice_config)
from lib.results import headline, save  # noqa: E402
from lib.score import latency_pairs, median, p95  # noqa: E402
from lib.terminal import Paced  # noqa: E402
from lib.vsh import STOCK, listen, stock_argv  # noqa: E402

OUT = os.path.join(ROOT, ".build", "bench-latency")
REAL_CACHE = os.path.join(ROOT, ".build", "bench-real", "audio", PREP_VERSION)
GRAMMARS = {
    "session": COMMANDS_GRAMMAR,
    "sc": os.path.join(REAL_GRAMMARS, "speech-commands.gram"),
    "fsdd": os.path.join(REAL_GRAMMARS, "digits.gram"),
    "cards": os.path.join(require_eval(EVAL_DIR), "real", "cards", "cards.gram"),
}


def frame_db(x):
    n = len(x) // 160 * 160
    return 10 * np.log10(np.mean(x[:n].astype(np.float64).reshape(-1, 160) ** 2, axis=1) + 1)


def real_end(clip):
    """Seconds: end of the last frame more than 10 dB over the padding noise (first 0.4 s)."""
    db = frame_db(clip)
    floor = np.median(db[:40])
    loud = np.flatnonzero(db[40:] > floor + 10)
    return (40 + (loud[-1] if len(loud) else 0) + 1) / 100


def real_session(name, paths):
    """The clips one after another (each with 0.4 s more of its own noise); their ends."""
    wav = os.path.join(OUT, name + ".wav")
    parts, ends, t = [], [], 0.0
    for p in paths:
        clip = read(p)
        x = np.concatenate([clip, clip[-int(0.4 * RATE):]])
        ends.append(t + real_end(clip))
        parts.append(x)
        t += len(x) / RATE
    write(wav, np.concatenate(parts).astype(np.float64))
    return wav, ends


def inputs(clips):
    os.makedirs(OUT, exist_ok=True)
    sets = []
    rng = np.random.default_rng(16)
    corpus = ensure_corpus(os.path.join(ROOT, ".build", "bench-voice", "corpus"), EVAL_DIR)
    for row in (r for r in corpus if r["condition"] == "session"):
        clean = read(row["path"]).astype(np.float64)
        wav = os.path.join(OUT, f"{row['id']}.wav")
        write(wav, clean + noise(len(clean), -65, rng))
        sets.append(("session", row["id"], wav, speech_ends(clean)))
    if not os.path.isdir(REAL_CACHE):
        sys.exit(f"no padded real clips in {REAL_CACHE}: run bench/real_speech.py first")
    sc = os.path.join(REAL_CACHE, "sc")
    names = sorted(os.listdir(sc))
    chosen = [os.path.join(sc, f) for w in SC_WORDS for f in [n for n in names if n.startswith(w + "__")][:clips]]
    sets.append(("sc", "sc", *real_session("sc", chosen)))
    fsdd = os.path.join(REAL_CACHE, "fsdd")
    names = sorted(os.listdir(fsdd))
    chosen = [os.path.join(fsdd, f) for f in names if f.endswith("_0.wav")]  # take 0 of each digit and speaker
    sets.append(("fsdd", "fsdd", *real_session("fsdd", chosen)))
    cards = os.path.join(REAL_CACHE, "cards")
    chosen = [os.path.join(cards, f"{i:03d}.wav") for i in range(1, 6)]
    sets.append(("cards", "cards", *real_session("cards", chosen)))
    return sets


def vsh_listen(vsh, env, wav, grammar):
    """(decided_at, command) of each accepted utterance, and whether it ended early."""
    objs, err = listen(vsh, env, wav, grammar, ["--real-time"], timeout=None)
    if err:
        sys.exit(f"vsh listen --from {wav} --real-time failed: {err}")
    return [(o["decided_at"], o["command"], o.get("early", False)) for o in objs if o.get("command") is not None]


def stock(wav, grammar):
    """(seconds into the file, hypothesis) of each line the baseline printed."""
    paced = Paced(wav, stock_argv("/dev/stdin", "-jsgf", grammar))
    paced.wait()
    return [(t, line) for t, line in paced.lines if line]


def latencies(ends, times):
    return [t - e for e, t in latency_pairs(ends, times)]


def stats(values):
    if not values:
        return "none"
    return median(values) * 1000, p95(values) * 1000


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vsh", default=VSH)
    parser.add_argument("--clips", type=int, default=3, help="Speech Commands clips per word")
    args = parser.parse_args()
    if not shutil.which(STOCK):
        sys.exit(f"{STOCK} not found: `make bench-deps`")
    sets = inputs(args.clips)
    home = tempfile.mkdtemp(prefix="vsh-bench-latency-")
    # vsh's defaults (the early end on), and the full hangover.
    env = isolated_env(home)
    full_env = dict(env, VSH_CONFIG=voice_config(home, "full", "early_end_ms = 0"))
    results = {}
    differ = []
    try:
        for kind, name, wav, ends in sets:
            grammar = None if kind == "session" else GRAMMARS[kind]
            early = vsh_listen(args.vsh, env, wav, grammar)
            full = vsh_listen(args.vsh, full_env, wav, grammar)
            base = stock(wav, GRAMMARS[kind])
            if [c for _, c, _ in early] != [c for _, c, _ in full]:
                differ.append(f"{name}: early {[c for _, c, _ in early]} vs full hangover {[c for _, c, _ in full]}")
            r = results.setdefault(kind, dict(early=[], full=[], stock=[], n=0, ended_early=0, commands=0))
            r["early"] += latencies(ends, [t for t, _, _ in early])
            r["full"] += latencies(ends, [t for t, _, _ in full])
            r["stock"] += latencies(ends, [t for t, _ in base])
            r["n"] += len(ends)
            r["ended_early"] += sum(e for _, _, e in early)
            r["commands"] += len(early)
            log(f"{name}: {len(ends)} spoken; vsh ran {len(early)} ({sum(e for _, _, e in early)} early), "
                f"full hangover {len(full)}, stock heard {len(base)}")
    finally:
        shutil.rmtree(home, ignore_errors=True)

    print("\nEnd of speech to decision, real time (ms; median / 95th percentile over the decisions)")
    print(f"{'input':<10} {'spoken':>6} {'vsh early':>16} {'vsh full hangover':>18} {'stock continuous':>18} {'ended early':>12}")
    print("-" * 86)
    everything = dict(early=[], full=[], stock=[])
    for kind, r in results.items():
        cells = []
        for tool in ("early", "full", "stock"):
            everything[tool] += r[tool]
            s = stats(r[tool])
            cells.append("none" if s == "none" else f"{s[0]:.0f} / {s[1]:.0f} ({len(r[tool])})")
        print(f"{kind:<10} {r['n']:>6} {cells[0]:>16} {cells[1]:>18} {cells[2]:>18} {r['ended_early']:>5} of {r['commands']:<4}")
    cells = []
    for tool in ("early", "full", "stock"):
        s = stats(everything[tool])
        cells.append(f"{s[0]:.0f} / {s[1]:.0f}")
    print(f"{'all':<10} {'':>6} {cells[0]:>16} {cells[1]:>18} {cells[2]:>18}")
    s = stats(everything["early"])
    print(f"goal: median ≤ 250 ms ({'met' if s[0] <= 250 else 'NOT MET'}), "
          f"95th percentile ≤ 300 ms ({'met' if s[1] <= 300 else 'NOT MET'})")
    print(f"decisions that differ between the early end and the full hangover: {len(differ)} of {len(sets)} files"
          + "".join("\n  " + d for d in differ))
    headline("end of speech to decision, all inputs, median / p95 ms (baseline: stock continuous)", cells[0], cells[2])
    headline("same, vsh with the full hangover", cells[1], cells[2])
    save("latency")


if __name__ == "__main__":
    main()
