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
import pty
import re
import select
import subprocess
import sys
import threading
import time
import wave

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import EVAL_DIR, isolated_env, row, voice_config  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VSH = os.environ.get("VSH_BIN", os.path.join(ROOT, ".build/release/vsh"))
EVAL = EVAL_DIR
OUT = os.path.join(ROOT, ".build", "bench-prompt")
MODEL = "/usr/share/pocketsphinx/model/en-us"
BASELINE = ["pocketsphinx_continuous", "-infile", "/dev/stdin", "-jsgf", os.path.join(ROOT, "bench", "commands.gram"),
            "-hmm", MODEL + "/en-us", "-dict", MODEL + "/cmudict-en-us.dict", "-logfn", "/dev/null"]
RATE = 16000
COMMANDS = ["code seven", "back", "quality high", "help", "reset", "quality medium", "list", "code three",
            "done", "history"]
SHORT_HANGOVER = 150
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\r")
STARTED = re.compile(r'voice: "(.*?)" [\d.]+ → (.*?); utterance ended at ([\d.]+) s, command started at ([\d.]+) s')


def log(message):
    print(message, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- audio

def corpus_module():
    import importlib.machinery
    import importlib.util
    loader = importlib.machinery.SourceFileLoader("corpus", os.path.join(EVAL, "make-commands-corpus"))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader("corpus", loader))
    loader.exec_module(module)
    return module


def write(path, x):
    y = np.clip(np.round(x), -32768, 32767).astype(np.int16)
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(y.tobytes())


def read(path):
    with wave.open(path) as w:
        return np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16)


def make_audio(seconds):
    """The spoken session and the idle inputs, made once into .build/bench-prompt/."""
    os.makedirs(OUT, exist_ok=True)
    files = {name: os.path.join(OUT, name + ".wav") for name in ("commands", "quiet", "noise", "talk")}
    rng = np.random.default_rng(5)
    if not os.path.exists(files["commands"]) or not os.path.exists(files["commands"] + ".ends"):
        corpus = corpus_module()
        voice = corpus.VOICES[2]  # flite kal16, the voice of the corpus's session s2
        clean = np.concatenate([corpus.pad(corpus.synth(t, *voice), 0.5, 0.9) for t in COMMANDS])
        with open(files["commands"] + ".ends", "w") as f:
            f.write(" ".join(f"{e:.4f}" for e in speech_ends(clean)) + "\n")
        # A microphone's own noise under it, as in a quiet room.
        write(files["commands"], clean + rng.standard_normal(len(clean)) * 32768 * 10 ** (-65 / 20))
    length = seconds + 15  # start-up and warm-up before the measured window, and a margin
    n = length * RATE
    if not os.path.exists(files["quiet"]) or len(read(files["quiet"])) < n:
        write(files["quiet"], rng.standard_normal(n) * 32768 * 10 ** (-65 / 20))
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
        write(files["talk"], speech / level * 32768 * 10 ** (-25 / 20) + rng.standard_normal(n) * 32768 * 10 ** (-65 / 20))
    return files


def speech_ends(clean, floor_db=-50):
    """Where each phrase's speech ends (seconds) in the clean synthesized session: the last
    sample above `floor_db` dBFS before at least 0.3 s of silence. (The synthesizer's
    tails fade on below -50 dBFS for up to 0.1 s more: 40 dB under the speech, inaudible.)"""
    x = np.abs(clean)
    loud = np.flatnonzero(x > 32768 * 10 ** (floor_db / 20))
    ends = [loud[i] for i in range(len(loud)) if i + 1 == len(loud) or loud[i + 1] - loud[i] > 0.3 * RATE]
    return [(e + 1) / RATE for e in ends]


# ---------------------------------------------------------------- running

class Terminal:
    """vsh at a pseudo-terminal; its output is read as it comes (so it never blocks)."""

    def __init__(self, argv, env):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execvpe(argv[0], argv, env)
        self.text = ""

    def pump(self, seconds):
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return
            r, _, _ = select.select([self.fd], [], [], left)
            if r:
                try:
                    self.text += ANSI.sub("", os.read(self.fd, 65536).decode("utf-8", "replace"))
                except OSError:
                    return

    def wait_for(self, needle, timeout):
        deadline = time.monotonic() + timeout
        while needle not in self.text and time.monotonic() < deadline:
            self.pump(0.05)
        if needle not in self.text:
            sys.exit(f"vsh did not show {needle!r} within {timeout} s; it showed:\n{self.text[-2000:]}")

    def close(self):
        try:
            os.kill(self.pid, 9)
            os.waitpid(self.pid, 0)
        except OSError:
            pass
        os.close(self.fd)


class Paced:
    """pocketsphinx_continuous fed `path` at real-time pace through its standard input;
    `lines` collects (seconds since the audio started, line) as it prints them."""

    def __init__(self, path, argv=BASELINE):
        self.samples = read(path).tobytes()
        self.process = subprocess.Popen(["stdbuf", "-oL"] + argv, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.pid = self.process.pid
        self.lines = []
        self.start = time.monotonic()
        self.threads = [threading.Thread(target=self.feed, daemon=True), threading.Thread(target=self.read, daemon=True)]
        for t in self.threads:
            t.start()

    def feed(self):
        block = 3200  # 100 ms
        try:
            for i in range(0, len(self.samples), block):
                self.process.stdin.write(self.samples[i:i + block])
                self.process.stdin.flush()
                delay = self.start + (i + block) / (2 * RATE) - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
            self.process.stdin.close()
        except (BrokenPipeError, ValueError):
            pass

    def read(self):
        for line in self.process.stdout:
            self.lines.append((time.monotonic() - self.start, line.decode().strip()))

    def wait(self):
        self.threads[0].join()
        self.process.wait()
        self.threads[1].join()

    def close(self):
        self.process.kill()
        self.process.wait()


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_percent(pid, seconds, pump=None):
    before, t0 = cpu_seconds(pid), time.monotonic()
    if pump:
        pump(seconds)
    else:
        time.sleep(seconds)
    return (cpu_seconds(pid) - before) / (time.monotonic() - t0) * 100


def vsh_terminal(path, env, extra=()):
    term = Terminal([VSH, "--verbose", *extra, "--audio-in", path], env)
    term.wait_for("* vsh> ", 30)  # the listener is ready: the model is loaded
    return term


def latency_pairs(ends, times):
    """Each time matched with the last end of speech before it."""
    pairs = []
    for t in times:
        before = [e for e in ends if e <= t]
        if before:
            pairs.append((before[-1], t))
    return pairs


def ms(values):
    values = sorted(values)
    if not values:
        return "none"
    median = values[len(values) // 2] if len(values) % 2 else (values[len(values) // 2 - 1] + values[len(values) // 2]) / 2
    return f"median {median * 1000:.0f} ms, max {values[-1] * 1000:.0f} ms over {len(values)}"


def median(values):
    values = sorted(values)
    return 0.0 if not values else (values[(len(values) - 1) // 2] + values[len(values) // 2]) / 2


def p95(values):
    """The 95th percentile (nearest rank)."""
    values = sorted(values)
    return 0.0 if not values else values[max(0, -(-95 * len(values) // 100) - 1)]


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
    print(f"{'benchmark':<34} {'vsh':>12} {'baseline':>12} {'unit':<8} {'vsh/base':>8}")
    print("-" * 100)

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
    log("  of which the endpointer's wait for silence: " + ms([u - e for (e, _), (_, u, _) in zip(ours, started)]))
    log("  and decoding and dispatch: " + ms([s - u for _, u, s in started]))
    base = Paced(files["commands"])
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
        base = Paced(files[name])
        time.sleep(5)
        theirs = cpu_percent(base.pid, args.seconds)
        base.close()
        if ran:
            log(f"{label}: vsh ran {len(ran)} command(s) it thought it heard: {', '.join(r[1] for r in ran)}")
        row(f"CPU listening, {label}", ours, theirs, "% core", 5)
    print("* not idle: every stretch of talk is decoded (against the grammar and a phone loop) and rejected;")
    print("  the goal applies to the quiet room and steady noise.")


if __name__ == "__main__":
    main()
