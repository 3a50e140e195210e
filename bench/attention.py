#!/usr/bin/env python3
"""Attention: how often vsh runs a command on speech not meant for it (false runs per hour
of talk) beside how often it runs the right one when spoken to, from one run, with stock
pocketsphinx_continuous on the same audio and grammar as the baseline.

    python3 bench/attention.py [--fold 0|1] [--quick] [--vsh-config FILE]

The grammar is the prompt's: vsh's shipped commands plus a user's command file of five
one-word commands that real people say in the evaluation data (marvin, sheila, happy,
house from Speech Commands' other words; alexa) and two two-word ones. `vsh listen`
decides each utterance exactly as the prompt does, from a fresh session's state.

Talk (what must run nothing), each a long stream of one fold's speakers, the pieces joined
over their own room noise by the pauses of conversation (log-normal, median 0.35 s, 0.12 to
2.5 s) or, three times in ten, by a silence of 1.5 to 4 s (a word said on its own):
  - words: Speech Commands clips of every word that is no vsh command (yes, no, up,
    down, left, right, on, off, go, and the other words but the user's), cut to the speech;
  - digits: fsdd's spoken digits (four speakers, accents), cut to the speech, over a faint
    noise 70 dB under full scale (their own quietest 100 ms is part of the word);
  - noise: Speech Commands' background-noise clips;
  - read: the librivox sentences (one reader, in both folds);
  - synthetic: espeak-ng and flite voices reading bench/data/talk.txt, everyday talk full
    of command words ("save me a seat", "play it again"): a regression check, not real.
Of all talk, the pieces said alone (2 s or more of quiet before them) are also counted on
their own: false runs per hour of those pieces and the quiet before each (issue 35: a
lone digit ran `play 5`). With --alone, the words and digits are also joined by 2 to 3 s
of quiet every time (words-alone, digits-alone), reported apart from the talk.
Near misses (what must run nothing), reported apart too: the clips of every word that is
one sound from a word of a command (one phone changed, added or dropped in the model's
dictionary, against the words of the grammar both recognisers are given: "down" from
"done", "go" and "no" from "show", "tree" from "three"), each after 2 to 3 s of quiet.
The words are chosen by that rule from the dictionary, not by what vsh hears.
Spoken to vsh (what must run): each clip after 2 to 3 s of quiet, as a person speaks to
vsh: "stop" (Speech Commands), the user's words (Speech Commands), "alexa" (no speaker
ids: measured in every fold, fitted on never).

Folds are crc32(speaker) % 2 as in bench/real_speech.py; choose settings on fold 0 and
report fold 1. Streams are cached in .build/bench-attention.
"""
import argparse
import collections
import concurrent.futures
import json
import os
import re
import sys
import time
import zlib

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib.audio import channel_gain, equalise, long_term_spectrum, noise, read_audio, read_wav, write_wav  # noqa: E402
from lib.data import DIGITS, fold_of, librivox, room_noise, synth, load_generator  # noqa: E402
from lib.env import BENCH, EVAL_DIR, ROOT, VSH, log, require_eval, snapshot_home  # noqa: E402
from lib.results import headline, save  # noqa: E402
from lib.score import edit_distance, markdown_table  # noqa: E402
from lib.vsh import listen, pronunciations, run, stock_argv  # noqa: E402

RATE = 16000
VERSION = "3"  # bump when the streams' recipe changes (2: talk's room noise from the recording, not the cut;
# 3: the digits' room a faint noise, not their own quietest 100 ms)
FAINT_DB = -70  # fsdd's room: a faint noise this far under full scale, as in bench/verify.py and bench/gate.py
USER_WORDS = ["marvin", "sheila", "happy", "house"]
USER_FILE = """# A user's own commands, for bench/attention.py: words real people say in the data.
command marvin
    say: marvin
    run: help
command sheila
    say: sheila
    run: help
command happy
    say: happy
    run: help
command house
    say: house
    run: help
command alexa
    say: alexa
    run: help
command lights
    say: lights (on | off)
    run: help
command song
    say: next song
    run: help
"""
# The same phrases for the stock recogniser: vsh's commands (bench/commands.gram) and these.
USER_PHRASES = "marvin | sheila | happy | house | alexa | lights (on | off) | next song"
SYNTH_VOICES = [("espeak-ng", "en-us", 160), ("espeak-ng", "en+f3", 150), ("flite", "slt", 0), ("flite", "rms", 0)]


def speech_only(x, rate):
    """The clip cut to its speech: from the first to the last 10 ms frame within 35 dB of
    its loudest, with 30 ms on each side."""
    frame = rate // 100
    n = len(x) // frame
    if n < 3:
        return x
    e = 10 * np.log10(x[: n * frame].reshape(n, frame).var(axis=1) + 1e-3)
    loud = np.flatnonzero(e > e.max() - 35)
    a, b = max(0, (loud[0] - 3) * frame), min(len(x), (loud[-1] + 4) * frame)
    return x[a:b]


def pause(rng):
    """The quiet before a piece of talk: seven times in ten a pause inside conversation
    (log-normal, median 0.35 s, 0.12 to 2.5 s), else a word said after a silence (1.5 to
    4 s), as "yes" answered to someone across the room: no check on the pause before an
    utterance alone can tell that from a command."""
    if rng.random() < 0.3:
        return float(rng.uniform(1.5, 4.0))
    return float(np.clip(rng.lognormal(np.log(0.35), 0.6), 0.12, 2.5))


def join(pieces, seed, gap=pause, lead=1.0, rooms=None):
    """The pieces (float arrays at 16 kHz) one after another, each after a pause of its own
    room noise. The noise is shaped like the quietest 100 ms of `rooms[i]` (the recording
    the piece was cut from), else of the piece: a piece cut to its speech has no room left
    in it, and its quietest 100 ms is the word's own tail, 14 dB over the room at the median
    (Speech Commands words; up to 30 dB and more). Returns (audio, [(start, end) of each
    piece in seconds])."""
    rooms = rooms or pieces
    rng = np.random.default_rng(zlib.crc32(seed.encode()))
    out, spans, t = [], [], 0
    for i, x in enumerate(pieces):
        quiet = room_noise(rooms[i], RATE, int((lead if i == 0 else gap(rng)) * RATE), f"{seed}/{i}")
        out += [quiet, x]
        t += len(quiet)
        spans.append((t / RATE, (t + len(x)) / RATE))
        t += len(x)
    out.append(room_noise(rooms[-1], RATE, int(1.5 * RATE), seed + "/end"))
    return np.concatenate(out), spans


def clips(folder, pattern=None):
    d = os.path.join(EVAL_DIR, "real", "speech-commands", folder)
    return [os.path.join(d, f) for f in sorted(os.listdir(d)) if f.endswith(".flac") and (pattern is None or pattern(f))]


def other_words():
    """Every speaker's Speech Commands clips of the words that are no vsh command (the
    user's words left out): the talk of the words streams."""
    not_commands = ["yes", "no", "up", "down", "left", "right", "on", "off", "go"]
    return ([p for w in not_commands for p in clips(w)]
            + clips("_unknown_", lambda f: f.split("_")[0] not in USER_WORDS))


def sc_speaker(path):
    stem = os.path.basename(path).rsplit(".", 1)[0]
    return stem.split("_")[1] if "/_unknown_/" in path else stem.split("_")[0]


def sc_fold(paths, fold):
    """The Speech Commands clips of `paths` whose speaker is in `fold`."""
    return [p for p in paths if fold_of(sc_speaker(p)) == fold]


def sc_word(path):
    """The word a Speech Commands clip says: its folder, or in _unknown_ its name's first part."""
    folder = os.path.basename(os.path.dirname(path))
    return os.path.basename(path).split("_")[0] if folder == "_unknown_" else folder


def near_misses(candidates):
    """Of `candidates`, the words no command says that are one phone from a word of one
    (bench/commands.gram and the user's phrases), by the model's dictionary."""
    pronounce = pronunciations()
    grammar = open(os.path.join(BENCH, "commands.gram")).read().split("public <command> =", 1)[1]
    commands = set(re.findall(r"[a-z']+", grammar + " " + USER_PHRASES)) & pronounce.keys()
    return {w for w in candidates if w in pronounce and w not in commands
            and any(edit_distance(pronounce[w], pronounce[c]) == 1 for c in commands)}


def build(cache, fold, quick, alone=False, only=None):
    """The streams of `fold` (`only` those named): {name: (path, seconds, kind, spans,
    expected)} where kind is talk, alone or spoken, and expected the command each span of a
    spoken stream should run."""
    out = os.path.join(cache, VERSION, f"fold{fold}" + ("-quick" if quick else ""))
    os.makedirs(out, exist_ok=True)
    keep = (lambda key: (zlib.crc32(key.encode()) >> 4) % 4 == 0) if quick else (lambda key: True)
    streams = {}

    def stream(name, kind, make):
        if only and name not in only:
            return
        path = os.path.join(out, name + ".wav")
        meta = path + ".json"
        if not os.path.exists(meta):
            log(f"attention: building {name} (fold {fold})")
            audio, spans, expected = make()
            write_wav(path, audio)
            json.dump(dict(seconds=len(audio) / RATE, spans=spans, expected=expected), open(meta, "w"))
        m = json.load(open(meta))
        streams[name] = (path, m["seconds"], kind, m["spans"], m["expected"])

    def mine(paths, speaker):
        return [p for p in paths if fold_of(speaker(p)) == fold and keep(speaker(p))]

    def talk(paths, cut=True, gap=pause, faint=False):
        recorded = [read_audio(p, RATE) for p in paths]  # sox converts fsdd's 8 kHz
        pieces = [speech_only(x, RATE) if cut else x for x in recorded]
        seed = os.path.basename(paths[0]) + str(len(paths))
        if faint:
            # fsdd's clips are cut tight: their quietest 100 ms is part of the word, and a
            # room shaped like it is speech-shaped noise 20 dB over the real room, which no
            # endpointer ends (163 of 693 utterances of 8 s and more on fold 0, session 35).
            rng = np.random.default_rng(zlib.crc32(seed.encode()))
            recorded = [noise(RATE, FAINT_DB, rng)] * len(pieces)
        audio, spans = join(pieces, seed, gap=gap, rooms=recorded)
        return audio, spans, []

    def quiet(rng):
        return float(rng.uniform(2.0, 3.0))

    words = mine(other_words(), sc_speaker)
    words.sort(key=lambda p: zlib.crc32(p.encode()))  # speakers and words interleaved, the same every run
    stream("words", "talk", lambda: talk(words))
    fsdd = os.path.join(EVAL_DIR, "real", "fsdd")
    digits = mine([os.path.join(fsdd, f) for f in sorted(os.listdir(fsdd)) if f.endswith(".wav")],
                  lambda p: os.path.basename(p).split("_")[1])
    if quick:
        digits = [p for p in digits if int(os.path.basename(p)[:-4].split("_")[2]) % 5 == 0]
    digits.sort(key=lambda p: zlib.crc32(p.encode()))
    if digits:
        stream("digits", "talk", lambda: talk(digits, faint=True))
    near_words = near_misses(set(map(sc_word, words)))
    near = [p for p in words if sc_word(p) in near_words]
    if near:
        stream("near-miss", "alone", lambda: talk(near, gap=quiet))
    if alone:
        stream("words-alone", "alone", lambda: talk(words, gap=quiet))
        if digits:
            stream("digits-alone", "alone", lambda: talk(digits, gap=quiet, faint=True))
    background = mine(clips("_silence_"), lambda p: "silence-" + os.path.basename(p))
    stream("noise", "talk", lambda: talk(background, cut=False))
    stream("read", "talk", lambda: talk([p for p, _ in librivox()], cut=False))
    if not quick:
        stream("synthetic", "talk", lambda: synthetic_talk(fold))

    def spoken(paths, expected, seed):
        pieces = [read_audio(p, RATE) for p in paths]
        audio, spans = join(pieces, seed, gap=lambda rng: float(rng.uniform(2.0, 3.0)))
        return audio, spans, expected

    stop = mine(clips("stop"), sc_speaker)
    users = mine(clips("_unknown_", lambda f: f.split("_")[0] in USER_WORDS), sc_speaker)
    stream("stop", "spoken", lambda: spoken(stop, ["stop"] * len(stop), "stop"))
    stream("user-words", "spoken",
           lambda: spoken(users, [os.path.basename(p).split("_")[0] for p in users], "user"))
    alexa_dir = os.path.join(EVAL_DIR, "real", "alexa")
    alexa = sorted(os.path.join(alexa_dir, f) for f in os.listdir(alexa_dir) if f.endswith(".flac"))
    if quick:
        alexa = alexa[::4]
    stream("alexa", "spoken", lambda: spoken(alexa, ["alexa"] * len(alexa), "alexa"))
    if only and "alexa-asleep" in only:
        # Each after 7 to 8 s of quiet, longer than a wake keeps vsh awake (6 s): every
        # clip is heard asleep, as a person calls vsh (bench/wake.py). In "alexa", a clip
        # after one that woke vsh is heard awake.
        stream("alexa-asleep", "spoken", lambda: (*join([read_audio(p, RATE) for p in alexa], "alexa-asleep",
                                                         gap=lambda rng: float(rng.uniform(7.0, 8.0))),
                                                  ["alexa"] * len(alexa)))
    if only and "alexa-then" in only:
        stream("alexa-then", "spoken", lambda: phrase_then_command(alexa))
    return streams


def phrase_then_command(alexa):
    """Each "alexa" clip cut 50 ms after its speech, then 0.2 to 0.9 s of its own room noise,
    then a command said by someone of Speech Commands ("stop", or one of the user's words),
    brought to the phrase's loudness and cut 50 ms before its speech: the wake phrase and a
    command with a short pause between, which the endpointer keeps as one utterance. Each
    after 7 to 8 s of quiet, so that every one is heard asleep (bench/wake.py). Returns
    (audio, spans, the command each should run)."""
    def frame_levels(x):
        frames = x[: len(x) // 160 * 160].reshape(-1, 160)
        return 10 * np.log10((frames ** 2).mean(1) + 1)

    def speech(x):  # first and last sample within 30 dB of the loudest 10 ms, and that level
        e = frame_levels(x)
        loud = np.where(e > e.max() - 30)[0]
        return loud[0] * 160, (loud[-1] + 1) * 160, e.max()

    commands = clips("stop") + clips("_unknown_", lambda f: f.split("_")[0] in ("happy", "sheila", "marvin", "house"))
    rng = np.random.default_rng(7)
    pieces, expected = [], []
    for i, path in enumerate(alexa):
        a = read_audio(path, RATE)
        _, a_end, a_level = speech(a)
        command = commands[zlib.crc32(os.path.basename(path).encode()) % len(commands)]
        c = read_audio(command, RATE)
        c_start, _, c_level = speech(c)
        pause = float(rng.uniform(0.2, 0.9))
        pieces.append(np.concatenate([a[:a_end + 800], room_noise(a, RATE, int(pause * RATE), f"then/{i}"),
                                      c[max(0, c_start - 800):] * 10 ** ((a_level - c_level) / 20)]))
        expected.append(sc_word(command))
    audio, spans = join(pieces, "alexa-then", gap=lambda rng: float(rng.uniform(7.0, 8.0)))
    return audio, spans, expected


def same_microphone(streams, takes, cache):
    """The streams with each piece of speech (and the pause before it) shaped to the long-term
    spectrum of the takes in `takes`: in a room, other people speak into the person's
    microphone, so a speaker check must not lean on the channel. Cached beside the streams."""
    target = long_term_spectrum([read_audio(os.path.join(takes, f), RATE) for f in sorted(os.listdir(takes))
                                 if f.endswith((".wav", ".flac"))])
    tag = f"{zlib.crc32(target.tobytes()):08x}"
    out = {}
    for name, (path, seconds, kind, spans, expected) in streams.items():
        eq = path[:-4] + f".same-mic-{tag}.wav"
        if not os.path.exists(eq):
            x = read_wav(path).astype(np.float64)
            cuts = [0] + [int((spans[i][1] + spans[i + 1][0]) / 2 * RATE) for i in range(len(spans) - 1)] + [len(x)]
            parts = []
            for i, (a, b) in enumerate(zip(cuts, cuts[1:])):
                piece = x[int(spans[i][0] * RATE):int(spans[i][1] * RATE)]
                parts.append(equalise(x[a:b], channel_gain(target, long_term_spectrum([piece]))))
            write_wav(eq + ".tmp.wav", np.concatenate(parts))
            os.replace(eq + ".tmp.wav", eq)
        out[name] = (eq, seconds, kind, spans, expected)
    return out


def synthetic_talk(fold):
    """Each fold's voices read every line of bench/data/talk.txt (fold 0: the first two
    voices, fold 1: the other two), line after line."""
    mcc = load_generator()
    lines = [l.strip() for l in open(os.path.join(BENCH, "data", "talk.txt")) if l.strip() and not l.startswith("#")]
    pieces = []
    for engine, voice, speed in SYNTH_VOICES[2 * fold: 2 * fold + 2]:
        pieces += [synth(mcc, line, engine, voice, speed) * 0.5 for line in lines]
    audio, spans = join(pieces, f"synthetic{fold}")
    return audio + np.random.default_rng(fold).standard_normal(len(audio)) * 3, spans, []


def user_home(vsh_config, wake=False):
    """An isolated home with the user's command file; `wake`: attention "wake" with the
    wake phrase "alexa" (then no command of that name), after `vsh_config`'s settings."""
    home, env = snapshot_home("vsh-attention-", vsh_config)
    os.makedirs(os.path.join(home, "config", "vsh", "commands"), exist_ok=True)
    text = USER_FILE
    if wake:
        text = text.replace("command alexa\n    say: alexa\n    run: help\n", "")
        toml = os.path.join(home, "config", "vsh", "vsh.toml")
        given = open(toml).read() if os.path.exists(toml) else ""
        given = given if "[voice]" in given else given + "\n[voice]\n"
        open(toml, "w").write(given.replace("[voice]", '[voice]\nattention = "wake"\nwake_phrase = "alexa"', 1))
    open(os.path.join(home, "config", "vsh", "commands", "user.commands"), "w").write(text)
    return home, env


def stock_grammar(home):
    text = open(os.path.join(BENCH, "commands.gram")).read()
    text = text.replace("public <command> = ", f"public <command> = {USER_PHRASES} | ", 1)
    path = os.path.join(home, "attention.gram")
    open(path, "w").write(text)
    return path


def run_vsh(vsh, env, path, timeout=3600):
    objs, err = listen(vsh, env, path, timeout=timeout)
    if err:
        sys.exit(f"vsh listen failed on {path}: {err}")
    return [dict(start=o["start"], end=o["end"], text=o["text"], decision=o.get("decision", "run" if o.get("command") else "ignore"),
                 line=o.get("command"), stopped_by=o.get("stopped_by"), quiet_before=o.get("quiet_before"),
                 confidence=o.get("confidence"), features=o.get("features"), alternatives=o.get("alternatives"),
                 phrase_alone=o.get("phrase_alone"), after_phrase=o.get("after_phrase")) for o in objs]


def run_stock(grammar, path):
    rc, out, err = run(stock_argv(path, "-jsgf", grammar, "-time", "yes"), timeout=3600)
    if rc != 0:
        sys.exit(f"pocketsphinx_continuous failed on {path}: {err.strip()[:200]}")
    utterances, current = [], None
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4 and re.match(r"^[\d.]+$", parts[1]):
            if current is not None and not parts[0].startswith(("<", "[")):
                current["start"] = min(current["start"], float(parts[1]))
                current["end"] = max(current["end"], float(parts[2]))
        elif line.strip():
            current = dict(text=line.strip(), line=line.strip(), decision="run", start=1e9, end=0, stopped_by=None)
            utterances.append(current)
    for u in utterances:
        if u["start"] > u["end"]:
            u["start"] = u["end"] = 0
    return utterances


def run_kws(path, threshold):
    """Stock keyword spotting of "alexa" (PocketSphinx's own wake-word method): every
    spotted phrase, with its time."""
    rc, out, err = run(stock_argv(path, "-keyphrase", "alexa", "-kws_threshold", threshold, "-time", "yes"), timeout=3600)
    if rc != 0:
        sys.exit(f"pocketsphinx_continuous -keyphrase failed on {path}: {err.strip()[:200]}")
    spotted = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[0] == "alexa" and re.match(r"^[\d.]+$", parts[1]):
            spotted.append(dict(start=float(parts[1]), end=float(parts[2]), decision="wake"))
    return spotted


def command_of(line):
    """The command a line runs: its first word (`play 94` → play)."""
    return (line or "").split(" ")[0]


def score_spoken(utterances, spans, expected):
    """(right, asked, wrong, missed) over the spans: right when an utterance overlapping the
    span ran the expected command."""
    right = asked = wrong = 0
    for (a, b), want in zip(spans, expected):
        over = [u for u in utterances if overlaps(u, a, b)]
        ran = [u for u in over if u["decision"] == "run"]
        if any(command_of(u["line"]) == want or (u["line"] or "") == want for u in ran):
            right += 1
        elif ran:
            wrong += 1
        elif any(u["decision"] in ("confirm", "choose") for u in over):
            asked += 1
    return right, asked, wrong, len(spans) - right - asked - wrong


def overlaps(u, a, b):
    """Whether utterance `u` overlaps the piece from `a` to `b` seconds (0.3 s either side)."""
    return u["start"] < b + 0.3 and u["end"] > a - 0.3


def why_missed(utterances, spans, expected):
    """Why each command said to vsh that ran nothing was missed, counted: "joined" when the
    utterance over it also spans another piece (the endpointer heard no end in the 2 to 3 s
    of room between them), "stopped by X" when it was heard as the command and the check X
    stopped it, "asked" when vsh asked about it, "heard as other words" when it was heard
    as something else or nothing (hearing, not the gate)."""
    why = collections.Counter()
    for (a, b), want in zip(spans, expected):
        over = [u for u in utterances if overlaps(u, a, b)]
        if any(u["decision"] == "run" for u in over):
            continue
        if any(sum(overlaps(u, p, q) for p, q in spans) > 1 for u in over):
            why["joined"] += 1
        elif heard := [u for u in over if command_of(u["text"]) == want or u["text"] == want]:
            why[f"stopped by {heard[0]['stopped_by']}" if heard[0]["stopped_by"] else "asked"] += 1
        else:
            why["heard as other words"] += 1
    return why


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fold", type=int, choices=[0, 1], action="append", help="only this fold (default both)")
    ap.add_argument("--quick", action="store_true", help="a quarter of the speakers, no synthetic talk")
    ap.add_argument("--vsh", default=VSH)
    ap.add_argument("--vsh-config", default=None, help="a vsh.toml for vsh (settings to try)")
    ap.add_argument("--no-stock", action="store_true", help="skip the stock baselines")
    ap.add_argument("--no-wake", action="store_true", help="skip attention \"wake\" (the wake phrase \"alexa\")")
    ap.add_argument("--alone", action="store_true", help="also the words and digits each after 2 to 3 s of quiet")
    ap.add_argument("--streams", default=None, metavar="A,B", help="only these streams (e.g. near-miss,stop)")
    ap.add_argument("--kws-threshold", default="1e-20", help="stock keyword spotting's threshold for \"alexa\"")
    ap.add_argument("--cache", default=os.path.join(ROOT, ".build/bench-attention"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--keep", default=None, metavar="PREFIX", help="also write every decision to PREFIX.foldN.json")
    ap.add_argument("--trained", default=None, metavar="DIR",
                    help="first adapt vsh's model to the takes in DIR (`vsh train --from DIR`, e.g. one fsdd speaker's "
                         "from bench/train.py): every voice in the streams is then someone else's, and the speaker "
                         "check applies; each piece of the streams is shaped to the takes' microphone "
                         "(same_microphone). Measure a fold the speaker is not in.")
    args = ap.parse_args()
    require_eval(EVAL_DIR)
    home, env = user_home(args.vsh_config)
    if args.trained:
        rc, out, err = run([args.vsh, "train", "--from", args.trained], env, 600)
        if rc != 0:
            sys.exit(f"vsh train --from {args.trained} failed: {err.strip()}")
        log(out.strip().splitlines()[-1] if out.strip() else "trained")
    gram = stock_grammar(home)
    started = time.perf_counter()
    tools = [("vsh", lambda p: run_vsh(args.vsh, env, p))] + ([] if args.no_stock else [("stock", lambda p: run_stock(gram, p))])
    if not args.no_wake:
        _, wake_env = user_home(args.vsh_config, wake=True)
        tools.append(("vsh wake", lambda p: run_vsh(args.vsh, wake_env, p)))
        if not args.no_stock:
            tools.append(("stock kws", lambda p: run_kws(p, args.kws_threshold)))
    for fold in args.fold or [0, 1]:
        streams = build(args.cache, fold, args.quick, args.alone, args.streams and args.streams.split(","))
        if args.trained:
            streams = same_microphone(streams, args.trained, args.cache)
        jobs = [(tool, name) for tool, _ in tools for name in streams]
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            results = dict(zip(jobs, pool.map(lambda j: dict(tools)[j[0]](streams[j[1]][0]), jobs)))
        report(fold, streams, results, [t for t, _ in tools], args.quick, trained=bool(args.trained))
        if args.keep:
            json.dump({f"{t}/{n}": results[(t, n)] for t, n in results}, open(args.keep + f".fold{fold}.json", "w"))
    print(f"\ntotal wall {time.perf_counter() - started:.0f} s; streams in {args.cache}")
    save("attention" + (f"-trained-{os.path.basename(os.path.normpath(args.trained))}" if args.trained else ""))


ALONE = 2.0  # seconds of quiet before a piece said alone


def said_alone(spans):
    """{index: seconds} of the pieces after ALONE s of quiet or more, each counting its
    piece and the quiet before it."""
    out = {}
    for i, (a, b) in enumerate(spans):
        before = a - (spans[i - 1][1] if i else 0.0)
        if before >= ALONE:
            out[i] = b - a + before
    return out


def piece_of(u, spans):
    """The index of the first piece the utterance overlaps (0.3 s either side), or None."""
    for i, (a, b) in enumerate(spans):
        if u["start"] < b + 0.3 and u["end"] > a - 0.3:
            return i
    return None


def alone_runs(us, spans):
    """(runs on pieces said alone, hours of those pieces with their quiet)."""
    alone = said_alone(spans)
    runs = sum(u["decision"] == "run" and piece_of(u, spans) in alone for u in us)
    return runs, sum(alone.values()) / 3600, len(alone)


def report(fold, streams, results, tools, quick, trained=False):
    wake = [t for t in tools if t in ("vsh wake", "stock kws")]
    tools = [t for t in tools if t not in wake]
    talk = [n for n, s in streams.items() if s[2] == "talk"]
    hours = sum(streams[n][1] for n in talk) / 3600
    print(f"\n## Fold {fold}{' (quick)' if quick else ''}: {hours * 60:.1f} min of talk, "
          f"{sum(len(streams[n][3]) for n in talk)} pieces")
    head = ["", *[f"{t}" for t in tools]]
    rows = []
    for n in talk:
        mins = streams[n][1] / 60
        cells = []
        for t in tools:
            us = results[(t, n)]
            runs = sum(u["decision"] == "run" for u in us)
            asks = sum(u["decision"] in ("confirm", "choose") for u in us)
            cells.append(f"{runs / mins * 60:.0f}/h ({runs} runs, {asks} asks)")
        rows.append([f"talk: {n} ({mins:.1f} min)", *cells])
    if talk:  # (--streams may leave none)
        cells = []
        for t in tools:
            runs = sum(u["decision"] == "run" for n in talk for u in results[(t, n)])
            asks = sum(u["decision"] in ("confirm", "choose") for n in talk for u in results[(t, n)])
            cells.append(f"**{runs / hours:.1f}/h** ({runs} runs, {asks / hours:.1f} asks/h)")
        rows.append(["false runs per hour of talk", *cells])
        cells, pieces = [], 0
        for t in tools:
            got = [alone_runs(results[(t, n)], streams[n][3]) for n in talk]
            runs, h, pieces = sum(g[0] for g in got), sum(g[1] for g in got), sum(g[2] for g in got)
            cells.append(f"**{runs / max(h, 1e-9):.1f}/h** ({runs} runs in {h * 60:.1f} min)")
        rows.append([f"of it said alone (≥ {ALONE:.0f} s quiet before; {pieces} pieces)", *cells])
    for n in [n for n, s in streams.items() if s[2] == "alone"]:
        mins = streams[n][1] / 60
        cells = []
        for t in tools:
            runs = sum(u["decision"] == "run" for u in results[(t, n)])
            cells.append(f"**{runs / mins * 60:.1f}/h** ({runs} runs in {mins:.1f} min)")
        rows.append([f"alone: {n}, every piece after 2-3 s ({len(streams[n][3])} pieces)", *cells])
    for n, s in streams.items():
        if s[2] != "spoken":
            continue
        cells = []
        for t in tools:
            right, asked, wrong, missed = score_spoken(results[(t, n)], s[3], s[4])
            total = max(1, len(s[3]))
            cells.append(f"{100 * right / total:.1f}% right, {100 * (missed + asked) / total:.1f}% missed "
                         f"({asked} of them asked), {wrong} wrong")
        note = " (no speaker ids: not a held-out figure)" if n == "alexa" else ""
        rows.append([f"spoken: {n} ({len(s[3])}){note}", *cells])
        why = why_missed(results[("vsh", n)], s[3], s[4])
        print(f"vsh missed on {n}: " + (", ".join(f"{k} {c}" for k, c in why.most_common()) or "none"))
    markdown_table(head, rows)
    for r in rows:
        if not r[0].startswith("talk: "):
            headline(f"fold {fold}, {r[0]} (baseline: stock)", r[1].replace("**", ""),
                     r[2].replace("**", "") if len(r) > 2 else None)
    if trained:
        # After train every voice is someone else's: their commands said to vsh are false
        # runs too (the speaker check's goal: at most 0.1 an hour of all of it).
        spoken = [n for n, s in streams.items() if s[2] == "spoken"]
        all_hours = hours + sum(streams[n][1] for n in spoken) / 3600
        for t in tools:
            runs = sum(u["decision"] == "run" for n in talk + spoken for u in results[(t, n)])
            print(f"{t}, trained on someone else: {runs} runs in {all_hours * 60:.1f} min of other people's speech "
                  f"(talk and their commands) = **{runs / all_hours:.1f}/h**")
            if t == "vsh":
                headline(f"fold {fold}, trained on someone else: runs per hour of other people's speech", f"{runs / all_hours:.1f}/h")
    for t in tools:
        alone = [n for n, s in streams.items() if s[2] == "alone"]
        for n in alone:
            by = collections.Counter(command_of(u["line"]) for u in results[(t, n)] if u["decision"] == "run")
            print(f"{t} false runs on {n} by command: " + (", ".join(f"{c} {k}" for c, k in by.most_common()) or "none"))
            if t == "vsh":
                ran = [f"@{u['start']:.1f}s \"{u['text']}\"→{u['line']} ({u['confidence']:.2f})"
                       for u in results[(t, n)] if u["decision"] == "run"]
                print(f"vsh false runs on {n}: " + ("; ".join(ran[:20]) + (" …" if len(ran) > 20 else "") or "none"))
        by = collections.Counter(command_of(u["line"]) for n in talk for u in results[(t, n)] if u["decision"] == "run")
        print(f"{t} false runs by command: " + (", ".join(f"{c} {k}" for c, k in by.most_common()) or "none"))
        stopped = collections.Counter(u["stopped_by"] for n in talk for u in results[(t, n)] if u["decision"] == "ignore")
        if t == "vsh":
            print("vsh talk stopped by: " + ", ".join(f"{c} {k}" for c, k in stopped.most_common()))
            ran = [f"{n}@{u['start']:.1f}s \"{u['text']}\"→{u['line']}" for n in talk for u in results[(t, n)]
                   if u["decision"] == "run"]
            print("vsh false runs: " + "; ".join(ran[:40]) + (" …" if len(ran) > 40 else ""))
    if wake:
        rows = report_wake(streams, results, wake, talk, hours)
        ours, stock = rows.get("vsh wake"), rows.get("stock kws")
        if ours:
            headline(f"fold {fold}, wake phrase: false wakes per hour of talk (baseline: stock kws)", ours[1], stock and stock[1])
            headline(f"fold {fold}, wake phrase: \"alexa\" missed (baseline: stock kws)", ours[3], stock and stock[3])


def report_wake(streams, results, tools, talk, hours):
    """Attention "wake" with the wake phrase "alexa": how often talk wakes vsh (false
    alarms per hour) beside how often "alexa" said to it does, and stock keyword spotting."""
    print("\nAttention \"wake\", wake phrase \"alexa\":")
    rows = []
    for t in tools:
        wakes = sum(u["decision"] == "wake" or (t == "vsh wake" and u["decision"] in ("run", "confirm", "choose"))
                    for n in talk for u in results[(t, n)])
        runs = sum(u["decision"] == "run" for n in talk for u in results[(t, n)]) if t == "vsh wake" else 0
        s = streams["alexa"]
        hit = 0
        for a, b in s[3]:
            if any(u["decision"] in ("wake", "run") and u["start"] < b + 0.3 and u["end"] > a - 0.3 for u in results[(t, "alexa")]):
                hit += 1
        rows.append([t, f"{wakes / hours:.2f}/h ({wakes})", f"{runs / hours:.2f}/h ({runs})",
                     f"{100 * (len(s[3]) - hit) / len(s[3]):.1f}% ({len(s[3]) - hit}/{len(s[3])})"])
    markdown_table(["", "false wakes per hour of talk", "false runs per hour", "\"alexa\" missed (no speaker ids)"], rows)
    return {r[0]: r for r in rows}


if __name__ == "__main__":
    main()
