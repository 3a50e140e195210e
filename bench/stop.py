#!/usr/bin/env python3
"""The spoken stop: how often "stop recording" said during a recording ends it, and how
often dictation that is no stop would end it (false stops), vsh now beside vsh before
(its keyword spotter), from one run.

    python3 bench/stop.py [--quick]

Both are measured with `vsh transcribe`, which runs the recording's pipeline (endpointer,
the stop check on short utterances, dictation) over a file and goes on after a stop:
  - now: `transcribe --stop --json`, whose "stop" lines are where `record` would stop;
  - before: the keyword spotter record used until issue 28 (`transcribe --keywords "stop
    recording" --keywords-threshold 1e-30`, the same threshold) with its rule: an
    utterance of at most 2.5 s that the spotted phrase covers 40% of. (The spotter in
    record only ever heard short utterances; here it hears every one, so its running
    noise estimate differs a little: the figures are the spotter's, not record's to the
    utterance.)

Stop said (what must stop), after a librivox sentence and 0.6 s of quiet, a sentence
after it 1 s later:
  - synthetic: espeak-ng voices at 110, 130, 150, 160 and 180 words a minute, flite
    voices at their own pace and 1.4 times slower, "stop recording";
  - real: Speech Commands' "stop" (131 clips, many speakers; the data has no
    "recording"), after the pause of conversation (0.6 to 1.0 s of the clip's room
    noise), by speaker fold (crc32 % 2, as bench/real_speech.py). vsh's threshold
    (voice.threshold) was chosen on fold 0 of Speech Commands for the prompt; nothing
    here was fitted on either fold.
No stop (what must run on): the five librivox sentences (in the streams above), and
bench/attention.py's talk streams of both folds (Speech Commands words, fsdd digits,
background noise, librivox, synthetic everyday talk full of command words; not its
digits): about an hour of speech not meant for vsh, much of it single words said after
a silence. Streams
are cached in .build/bench-stop and .build/bench-attention.
"""
import argparse
import json
import os
import sys
import zlib

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import attention  # noqa: E402
from lib.audio import noise, read_audio, write_wav  # noqa: E402
from lib.data import librivox, load_generator, synth  # noqa: E402
from lib.env import EVAL_DIR, ROOT, VSH, log, require_eval, snapshot_home  # noqa: E402
from lib.results import headline, save  # noqa: E402
from lib.score import markdown_table  # noqa: E402
from lib.vsh import run  # noqa: E402

RATE = 16000
VERSION = "3"  # bump when a stream's recipe changes
PHRASE = "stop recording"
ESPEAK = ["en-us", "en-us+f3", "en-gb-x-rp"]
WPM = [110, 130, 150, 160, 180]
FLITE = [("slt", 1.0), ("slt", 1.4), ("rms", 1.0), ("rms", 1.4)]
OLD_THRESHOLD = "1e-30"   # SystemAudioServices.stopSpotter before issue 28
OLD_LONGEST, OLD_SHARE = 2.5, 0.4
# bench/attention.py's talk streams used, of both folds: about an hour (its digits, 51 min
# more of one speaker's digits after another, are left out).
TALK = ["words", "noise", "read", "synthetic"]


def flite_synth(text, voice, stretch):
    """flite at `stretch` times its own duration, 16 kHz."""
    import subprocess
    import tempfile
    with tempfile.NamedTemporaryFile(suffix=".wav") as raw:
        subprocess.run(["flite", "-voice", voice, "--setf", f"duration_stretch={stretch}", "-t", text, "-o", raw.name],
                       check=True)
        return read_audio(raw.name, RATE)


def quiet(seconds):
    return np.zeros(int(seconds * RATE))


def microphone(audio, seed):
    """The stream as a microphone gives it: one noise (white, -70 dBFS) under everything,
    so no stretch is digital silence (the synthesizers' pauses are; the endpointer's noise
    floor would sink to it and take the next quiet for speech) or quieter than the rest."""
    return audio + noise(len(audio), -70, np.random.default_rng(zlib.crc32(seed.encode())))


def sentences():
    return [read_audio(path, RATE) for path, _ in librivox()]


def synthetic_stream(phrase):
    """The five sentences, each followed by the phrase: (audio, spans of the phrase)."""
    parts, spans, t = [], [], 0
    for i, sentence in enumerate(sentences()):
        for x in (sentence, quiet(0.6), phrase, quiet(1.0)):
            if x is phrase:
                spans.append((t / RATE, (t + len(x)) / RATE))
            parts.append(x)
            t += len(x)
    return microphone(np.concatenate(parts + [quiet(1.5)]), "mic"), spans


def build(cache):
    """{name: (path, kind, spans)}: kind "synthetic" or "real" (spans: where the stop is
    said), or "talk" (no stop)."""
    out = os.path.join(cache, VERSION)
    os.makedirs(out, exist_ok=True)
    streams = {}

    def stream(name, kind, make):
        path = os.path.join(out, name + ".wav")
        if not os.path.exists(path + ".json"):
            log(f"stop: building {name}")
            audio, spans = make()
            write_wav(path, audio)
            json.dump(spans, open(path + ".json", "w"))
        streams[name] = (path, kind, json.load(open(path + ".json")))

    mcc = load_generator()
    for voice in ESPEAK:
        for wpm in WPM:
            stream(f"espeak-{voice}-{wpm}", "synthetic",
                   lambda: synthetic_stream(synth(mcc, PHRASE, "espeak-ng", voice, wpm)))
    for voice, stretch in FLITE:
        stream(f"flite-{voice}-x{stretch}", "synthetic", lambda: synthetic_stream(flite_synth(PHRASE, voice, stretch)))
    stops = attention.clips("stop")
    for fold in (0, 1):
        mine = attention.sc_fold(stops, fold)

        def real():
            said = sentences()
            pieces = []
            for i, clip in enumerate(mine):
                pieces += [said[i % len(said)], read_audio(clip, RATE)]
            audio, spans = attention.join(pieces, f"stop{fold}", gap=lambda rng: float(rng.uniform(0.6, 1.0)))
            return microphone(audio, f"mic{fold}"), spans[1::2]
        stream(f"real-stop-fold{fold}", "real", real)
    return streams


def new_stops(vsh, env, path):
    """vsh now: [(start, end, text)] where record would stop, or raises."""
    rc, out, err = run([vsh, "--no-voice", "transcribe", "--stop", "--json", path], env, timeout=3600)
    if rc != 0:
        raise RuntimeError(f"vsh transcribe --stop {path}: exit {rc}: {err.strip()[:200]}")
    objs = [json.loads(line) for line in out.splitlines() if line.strip()]
    return [(o["start"], o["end"], o["text"]) for o in objs if o.get("stop")]


def old_stops(vsh, env, path):
    """vsh before: the keyword spotter and its rule."""
    rc, out, err = run([vsh, "--no-voice", "transcribe", "--keywords", PHRASE, "--keywords-threshold", OLD_THRESHOLD,
                        "--json", path], env, timeout=3600)
    if rc != 0:
        raise RuntimeError(f"vsh transcribe --keywords {path}: exit {rc}: {err.strip()[:200]}")
    found = []
    for line in out.splitlines():
        if not line.strip():
            continue
        o = json.loads(line)
        length = o["end"] - o["start"]
        if length <= OLD_LONGEST and any(w["end"] - w["start"] >= OLD_SHARE * length for w in o["words"]):
            found.append((o["start"], o["end"], PHRASE))
    return found


def score(stops, spans):
    """(stops said that were heard, stops heard where none was said)."""
    def said(s):
        return any(s[0] < b and s[1] > a for a, b in spans)
    hit = sum(1 for a, b in spans if any(s[0] < b and s[1] > a for s in stops))
    return hit, sum(1 for s in stops if not said(s))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="without the hour of talk (the librivox sentences only)")
    args = ap.parse_args()
    require_eval(EVAL_DIR)
    streams = build(os.path.join(ROOT, ".build/bench-stop"))
    talk = {}
    if not args.quick:
        for fold in (0, 1):
            for name, (path, seconds, kind, _, _) in attention.build(os.path.join(ROOT, ".build/bench-attention"),
                                                                     fold, False).items():
                if kind == "talk" and name in TALK:
                    talk[f"{name}-fold{fold}"] = (path, seconds)
    _, env = snapshot_home("vsh-bench-stop-")
    tools = {"before": old_stops, "now": new_stops}
    results = {}
    for name, (path, kind, spans) in list(streams.items()) + [(n, (p, "talk", [])) for n, (p, _) in talk.items()]:
        for tool, fn in tools.items():
            results[name, tool] = fn(VSH, env, path)
        log(f"stop: {name}: " + ", ".join(f"{t} {score(results[name, t], spans)}" for t in tools))

    def cell(names, tool, text=None):
        hit = total = 0
        for n in names:
            stops = [s for s in results[n, tool] if text is None or s[2] == text]
            hit += score(stops, streams[n][2])[0]
            total += len(streams[n][2])
        return f"{hit}/{total} ({100 * hit / max(total, 1):.0f}%)"

    print("\n### Stop said during a recording: stopped (vsh before | vsh now)\n")
    rows = []
    for wpm in WPM:
        names = [f"espeak-{v}-{wpm}" for v in ESPEAK]
        rows.append([f"espeak-ng {', '.join(ESPEAK)} at {wpm} wpm", "\"stop recording\"", cell(names, "before"),
                     cell(names, "now")])
    for stretch in sorted({s for _, s in FLITE}):
        names = [f"flite-{v}-x{s}" for v, s in FLITE if s == stretch]
        rows.append([f"flite {', '.join(v for v, s in FLITE if s == stretch)}, duration x{stretch}", "\"stop recording\"",
                     cell(names, "before"), cell(names, "now")])
    synthetic = [n for n, s in streams.items() if s[1] == "synthetic"]
    rows.append(["all synthetic", "\"stop recording\"", cell(synthetic, "before"), cell(synthetic, "now")])
    for fold in (0, 1):
        n = f"real-stop-fold{fold}"
        rows.append([f"Speech Commands speakers, fold {fold}", "\"stop\" alone", cell([n], "before"), cell([n], "now")])
    markdown_table(["voices", "said", "before", "now"], rows)
    for said in rows:
        if said[0] == "all synthetic" or said[0].startswith("Speech Commands speakers"):
            headline(f"stop said in a recording, {said[0]}: stopped (baseline: vsh before)", said[3], said[2])
    print("\nThe real rows: how often a lone \"stop\" (Speech Commands has no \"recording\") ended the recording; "
          "vsh stops on the whole phrase only (research/recognition/STOP.md).")

    print("\n### No stop said: false stops (vsh before | vsh now)\n")
    rows = []
    libri = sum(len(streams[n][2]) for n in synthetic)
    rows.append([f"librivox sentences, in the {len(synthetic)} synthetic streams", f"{libri} sentences",
                 sum(score(results[n, "before"], streams[n][2])[1] for n in synthetic),
                 sum(score(results[n, "now"], streams[n][2])[1] for n in synthetic)])
    real = [n for n, s in streams.items() if s[1] == "real"]
    rows.append(["librivox sentences, in the real streams", f"{sum(len(streams[n][2]) for n in real)} sentences",
                 sum(score(results[n, "before"], streams[n][2])[1] for n in real),
                 sum(score(results[n, "now"], streams[n][2])[1] for n in real)])
    hours = sum(s for _, s in talk.values()) / 3600
    for name, (path, seconds) in talk.items():
        rows.append([f"talk: {name}", f"{seconds / 60:.1f} min", len(results[name, "before"]), len(results[name, "now"])])
    if talk:
        rows.append([f"talk, all", f"{hours:.2f} h", sum(len(results[n, "before"]) for n in talk),
                     sum(len(results[n, "now"]) for n in talk)])
    markdown_table(["speech", "length", "before", "now"], rows)
    for said in rows:
        if not said[0].startswith("talk: "):
            headline(f"no stop said, {said[0]} ({said[1]}): false stops (baseline: vsh before)", said[3], said[2])
    save("stop")
    for name in talk:
        for s in results[name, "now"]:
            log(f"false stop now: {name} {s[0]:.2f}-{s[1]:.2f} {s[2]!r}")


if __name__ == "__main__":
    sys.exit(main())
