#!/usr/bin/env python3
"""Listening at the prompt: how soon a spoken command starts, and what listening costs
while nothing is said. vsh runs at a real pseudo-terminal with `--audio-in FILE`, which
plays the file in real time as if it were the microphone; each figure is beside stock
pocketsphinx_continuous fed the same audio at the same pace through its standard input,
with vsh's command grammar (bench/commands.gram).

    python3 bench/prompt.py [--seconds N] [--vsh PATH]

Latency: from the end of speech to the command starting. The end of speech is measured
in the audio itself (the synthesized commands sit in digital silence, so the last sample
of each phrase is known to the sample), not taken from vsh's endpointer. vsh says when
each spoken command started (`--verbose`: "command started at T s" of the input, from the
same clock that paces the file); the baseline's time is when its hypothesis line reaches
the pipe. The session is ten commands in the corpus's flite voice, built with
make-commands-corpus's own synthesis and padding (0.5 s before, 0.9 s after).

The session has a quiet room's microphone noise (-65 dBFS) under it, as real input would.

CPU: percent of one core over N seconds (default 20) of /proc/PID/stat user+system time,
after start-up, while the input is quiet (white noise at -65 dBFS, a quiet room's
microphone), steady background noise (pink noise at -30 dBFS, a fan), and background
talk (audiobook speech at -25 dBFS from another room: speech, but not commands).
"""
import argparse
import os
import re
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib.audio import noise, read_wav as read, speech_ends, write_wav as write  # noqa: E402
from lib.data import load_generator  # noqa: E402
from lib.env import COMMANDS_GRAMMAR, EVAL_DIR as EVAL, ROOT, VSH, isolated_env, log, voice_config  # noqa: E402
from lib.results import save  # noqa: E402
from lib.score import latency_pairs, median, p95, row, row_head  # noqa: E402
from lib.terminal import Paced, Terminal, cpu_percent  # noqa: E402
from lib.vsh import stock_argv  # noqa: E402

OUT = os.path.join(ROOT, ".build", "bench-prompt")
BASELINE = stock_argv("/dev/stdin", "-jsgf", COMMANDS_GRAMMAR)
RATE = 16000
COMMANDS = ["code seven", "back", "quality high", "help", "reset", "quality medium", "list", "code three",
            "done", "history"]
SHORT_HANGOVER = 150
STARTED = re.compile(r'voice: "(.*?)" [\d.]+ → (.*?); utterance ended at ([\d.]+) s, command started at ([\d.]+) s')


# ---------------------------------------------------------------- audio

def make_audio(seconds):
    """The spoken session and the idle inputs, made once into .build/bench-prompt/."""
    os.makedirs(OUT, exist_ok=True)
    files = {name: os.path.join(OUT, name + ".wav") for name in ("commands", "quiet", "noise", "talk")}
    rng = np.random.default_rng(5)
    if not os.path.exists(files["commands"]) or not os.path.exists(files["commands"] + ".ends"):
        corpus = load_generator(EVAL)
        voice = corpus.VOICES[2]  # flite kal16, the voice of the corpus's session s2
        clean = np.concatenate([corpus.pad(corpus.synth(t, *voice), 0.5, 0.9) for t in COMMANDS])
        with open(files["commands"] + ".ends", "w") as f:
            f.write(" ".join(f"{e:.4f}" for e in speech_ends(clean)) + "\n")
        # A microphone's own noise under it, as in a quiet room.
        write(files["commands"], clean + noise(len(clean), -65, rng))
    length = seconds + 15  # start-up and warm-up before the measured window, and a margin
    n = length * RATE
    if not os.path.exists(files["quiet"]) or len(read(files["quiet"])) < n:
        write(files["quiet"], noise(n, -65, rng))
    if not os.path.exists(files["noise"]) or len(read(files["noise"])) < n:
        spec = np.fft.rfft(rng.standard_normal(n))
        spec /= np.sqrt(np.arange(len(spec)) + 1.0)
        pink = np.fft.irfft(spec, n)
        write(files["noise"], pink / np.sqrt(np.mean(pink ** 2)) * 32768 * 10 ** (-30 / 20))
    if not os.path.exists(files["talk"]) or len(read(files["talk"])) < n:
        folder = os.path.join(EVAL, "real", "librivox")
        speech = np.concatenate([read(os.path.join(folder, f)).astype(np.float64)
                                 for f in sorted(os.listdir(folder)) if f.endswith(".wav")])
        speech = np.tile(speech, n // len(speech) + 1)[:n]
        level = np.sqrt(np.mean(speech[np.abs(speech) > 100] ** 2))
        write(files["talk"], speech / level * 32768 * 10 ** (-25 / 20) + noise(n, -65, rng))
    return files


def vsh_terminal(path, env, extra=()):
    term = Terminal([VSH, "--verbose", *extra, "--audio-in", path], env)
    term.wait_for("* vsh> ", 30)  # the listener is ready: the model is loaded
    return term


def ms(values):
    values = sorted(values)
    if not values:
        return "none"
    return f"median {median(values) * 1000:.0f} ms, max {values[-1] * 1000:.0f} ms over {len(values)}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=int, default=20, help="CPU measuring window per input")
    parser.add_argument("--vsh", default=None, help="the vsh binary (default: $VSH_BIN, else .build/release/vsh)")
    args = parser.parse_args()
    global VSH
    VSH = args.vsh or VSH
    if not os.access(VSH, os.X_OK):
        sys.exit(f"{VSH} not built: run `make bench`")
    files = make_audio(args.seconds)
    home = os.path.join(OUT, "home")
    subprocess.run(["rm", "-rf", home])
    env = dict(isolated_env(home), LANG="C", LC_ALL="C")

    print()
    print("Listening at the prompt (vsh --audio-in FILE, real time; baseline: pocketsphinx_continuous, same audio and pace)")
    row_head()

    # Latency.
    with open(files["commands"] + ".ends") as f:
        ends = [float(e) for e in f.read().split()]
    # vsh's defaults, with the early end (voice.early_end_ms): issue 16's measure.
    term = vsh_terminal(files["commands"], env)
    term.wait_for("(commands.wav ended", 60)
    term.close()
    started = [(m.group(2), float(m.group(3)), float(m.group(4))) for m in STARTED.finditer(term.text)]
    ours = latency_pairs(ends, [s for _, _, s in started])
    log(f"vsh ran {len(started)} of {len(COMMANDS)} spoken commands: {', '.join(c for c, _, _ in started)}")
    log("vsh, end of speech to the command starting: " + ms([t - e for e, t in ours]))
    log("  by command: " + ", ".join(f"{c} {(t - e) * 1000:.0f}" for (c, _, _), (e, t) in zip(started, ours)))
    # The utterance's audio ends where the endpointer cut it: after 50 ms of quiet for an
    # early end, whose decode begins there while the pause is waited out, and for a command
    # that could grow when nothing more came (it waits out the hangover, then runs on that
    # decode); after the hangover otherwise.
    log("  of which the quiet heard after the speech: " + ms([u - e for (e, _), (_, u, _) in zip(ours, started)]))
    log("  and from there, the rest of the wait, decoding and dispatch: " + ms([s - u for _, u, s in started]))
    base = Paced(files["commands"], BASELINE)
    base.wait()
    theirs = latency_pairs(ends, [t for t, line in base.lines if line])
    log(f"baseline heard {len(base.lines)}: {', '.join(line for _, line in base.lines)}")
    log("baseline, end of speech to its hypothesis: " + ms([t - e for e, t in theirs]))
    row("end of speech to command (median)", median([t - e for e, t in ours]) * 1000,
        median([t - e for e, t in theirs]) * 1000, "ms", 250)
    row("end of speech to command (p95)", p95([t - e for e, t in ours]) * 1000,
        p95([t - e for e, t in theirs]) * 1000, "ms", 300)
    # The same with the full hangover (no early end: what vsh did before issue 16) and
    # with a shorter wait for silence (voice.hangover_ms), to show what each buys.
    for label, setting in (("full hangover", "early_end_ms = 0"),
                           (f"hangover_ms = {SHORT_HANGOVER}", f"hangover_ms = {SHORT_HANGOVER}\nearly_end_ms = 0")):
        other = voice_config(home, setting.split()[0], setting)
        term = vsh_terminal(files["commands"], env, ["--config", other])
        term.wait_for("(commands.wav ended", 60)
        term.close()
        ran = [(m.group(2), float(m.group(4))) for m in STARTED.finditer(term.text)]
        quick = latency_pairs(ends, [t for _, t in ran])
        log(f"vsh with {label}: " + ms([t - e for e, t in quick]) + "; ran " + ", ".join(c for c, _ in ran))
        if [c for c, _ in ran] != [c for c, _, _ in started]:
            log(f"  the commands run differ from the early end's: {[c for c, _, _ in started]}")
        row(f"  same, {label} (median)", median([t - e for e, t in quick]) * 1000,
            median([t - e for e, t in theirs]) * 1000, "ms", 250)
        row(f"  same, {label} (p95)", p95([t - e for e, t in quick]) * 1000,
            p95([t - e for e, t in theirs]) * 1000, "ms", 300)

    # CPU while nothing is said to vsh.
    for name, label in (("quiet", "quiet room"), ("noise", "steady noise"), ("talk", "background talk*")):
        term = vsh_terminal(files[name], env)
        term.pump(3)
        ours = cpu_percent(term.pid, args.seconds, term.pump)
        ran = STARTED.findall(term.text)
        term.close()
        base = Paced(files[name], BASELINE)
        time.sleep(5)
        theirs = cpu_percent(base.pid, args.seconds)
        base.close()
        if ran:
            log(f"{label}: vsh ran {len(ran)} command(s) it thought it heard: {', '.join(r[1] for r in ran)}")
        row(f"CPU listening, {label}", ours, theirs, "% core", 5)
    print("* not idle: every stretch of talk is decoded (against the grammar and a phone loop) and rejected;")
    print("  the goal applies to the quiet room and steady noise.")
    save("prompt")


if __name__ == "__main__":
    main()
