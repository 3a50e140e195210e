#!/usr/bin/env python3
"""Soak: an hour of spoken commands through the voice path, as fast as it decodes. Memory
must stay flat (RSS growth under 5 MB) and no utterance may be dropped.

    python3 bench/soak.py [--minutes N] [--vsh PATH] [--skip prompt|baseline]

The audio (made once into .build/bench-soak/, never into git): the command corpus's
single-command files (make-commands-corpus: four voices, clean, quiet at -30 dB, white
20 dB, pink 10 dB and brown 5 dB SNR), shuffled, cycled and laid one after another with
1.0-2.5 s of the noise bed between files (the files carry 0.4 s of silence before the
speech and 0.6 s after, so neighbouring speech is at least 2 s apart), all over a microphone's noise bed
whose level drifts slowly between -88 and -76 dBFS (a 7-minute cycle): never digital
silence, and low enough that the corpus's softest quiet speech (-58 dBFS RMS) stays
detectable. (At -68 dBFS six of its 92 quiet files sink into the noise: that would
measure the microphone, not the soak.) Where each
utterance's speech lies is known to the sample: the span where its clean file rises above
-60 dBFS.

Runs, each sampled for RSS (/proc/PID/status VmRSS) every second:
  listen    `vsh listen --from soak.wav --json --grammar bench/commands.gram`;
  prompt    `vsh --verbose --fast --audio-in soak-prompt.wav` at a pseudo-terminal: the
            prompt's listener thread and VoicePrompt. With voice.threshold and
            voice.reject_below at 1.0 nothing it hears runs (a misheard "exit" would end
            the soak, a misheard "record" would take the input); --verbose shows each
            utterance as "(ignored …)". Its audio is built the same way from the phrases
            that are harmless at a prompt, in case one is heard with confidence 1.0;
  baseline  stock `pocketsphinx_continuous -infile soak.wav -jsgf bench/commands.gram
            -time yes` (its own endpointer; a segment is one hypothesis and its word times).

Dropped: an utterance no segment overlaps. A segment overlaps an utterance when it shares
any time with the utterance's speech span widened by 0.1 s each side. The tolerance only
absorbs frame rounding (10 ms) and the synthesizer's soft edges below -60 dBFS: vsh's
segments carry 0.4 s of audio before the speech and 0.3-0.4 s after, so a segment that
found the words always overlaps them, and at least 2 s separate neighbouring utterances,
so no segment can be credited to the wrong one. Also counted: segments that overlap no
utterance (spurious) and segments that overlap two (merged). The prompt's output has no
times for ignored speech, so there an utterance counts by what the prompt showed for it:
a command run, a question, or "(ignored …)".

RSS growth: RSS at the end minus RSS when the first minute of audio had been decoded
(model loaded, buffers at their working size).
"""
import argparse
import hashlib
import json
import os
import pty
import re
import select
import shutil
import subprocess
import sys
import threading
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib.audio import RATE, read_wav, write_wav  # noqa: E402
from lib.data import ensure_corpus  # noqa: E402
from lib.env import COMMANDS_GRAMMAR as GRAMMAR, EVAL_DIR, ROOT, VSH, log, snapshot_home  # noqa: E402
from lib.results import headline, save  # noqa: E402
from lib.score import markdown_table, met  # noqa: E402
from lib.terminal import ANSI  # noqa: E402
from lib.vsh import STOCK, listen_argv, stock_argv  # noqa: E402

RECIPE = "3"  # bump when the audio recipe changes, to regenerate the cache
CONDITIONS = ["clean", "quiet", "white20db", "pink10db", "brown5db"]
# Run at the prompt, these change nothing that matters to the next utterance.
HARMLESS = {"list", "list transcripts", "show one", "play two", "quality low", "quality medium", "quality high",
            "set quality high", "help", "code seven", "count one two three", "back", "reset", "done", "stop",
            "save", "save transcript", "stop recording"}
TOLERANCE = 0.1
GOAL_MB = 5.0
STARTED = re.compile(r'voice: ".*?" [\d.]+ → .*?; utterance ended at ([\d.]+) s')
PROMPT_RESULT = re.compile(r'voice: ".*?" [\d.]+ → |\(ignored "|did you mean |there is no question to answer')


# ---------------------------------------------------------------- audio

def speech_span(path, floor_db=-60):
    """(first, last + 1) sample of the clean file above `floor_db` dBFS."""
    x = np.abs(read_wav(path).astype(np.int32))
    loud = np.flatnonzero(x > 32768 * 10 ** (floor_db / 20))
    return int(loud[0]), int(loud[-1]) + 1


def build(path, rows, seconds, seed):
    """Writes the soak WAV and PATH.tsv (id, condition, text, speech start, speech end)."""
    rng = np.random.default_rng(seed)
    n = int(seconds * RATE)
    t = np.arange(n, dtype=np.float32) / RATE
    level = -82 + 6 * np.sin(2 * np.pi * t / 420)  # dBFS, drifting slowly
    x = rng.standard_normal(n, dtype=np.float32) * (32768 * 10 ** (level / 20)).astype(np.float32)
    del t, level
    spans = {}
    placed = []
    at = int(1.0 * RATE)
    while True:
        order = rng.permutation(len(rows))
        for i in order:
            r = rows[i]
            clean = r["path"].replace(f"/{r['condition']}/", "/clean/")
            if clean not in spans:
                spans[clean] = speech_span(clean)
            y = read_wav(r["path"]).astype(np.float32)
            if at + len(y) > n - RATE:
                break
            x[at:at + len(y)] += y
            a, b = spans[clean]
            placed.append((r["id"], r["condition"], r["expected"], (at + a) / RATE, (at + b) / RATE))
            at += len(y) + int(rng.uniform(1.0, 2.5) * RATE)
        else:
            continue
        break
    write_wav(path + ".part", x, RATE)
    with open(path + ".tsv", "w") as f:
        f.write("id\tcondition\ttext\tstart\tend\n")
        f.writelines(f"{i}\t{c}\t{e}\t{s:.4f}\t{t:.4f}\n" for i, c, e, s, t in placed)
    os.replace(path + ".part", path)


def ensure_soak(cache, name, rows, minutes, seed):
    """The soak file and its utterances [(id, condition, text, start, end)], made once."""
    stamp = hashlib.sha256(f"{RECIPE} {minutes} {seed} {[r['id'] for r in rows]}".encode()).hexdigest()[:16]
    path = os.path.join(cache, f"{name}-{minutes:g}min.wav")
    stamp_file = path + ".stamp"
    if not (os.path.exists(path) and os.path.exists(stamp_file) and open(stamp_file).read().strip() == stamp):
        log(f"building {path} ({minutes:g} min of audio, once)")
        build(path, rows, minutes * 60, seed)
        open(stamp_file, "w").write(stamp + "\n")
    expected = []
    with open(path + ".tsv") as f:
        next(f)
        for line in f:
            i, c, e, s, t = line.rstrip("\n").split("\t")
            expected.append((i, c, e, float(s), float(t)))
    return path, expected


# ---------------------------------------------------------------- running

class RSS:
    """Samples a process's VmRSS every `interval` seconds until it exits."""

    def __init__(self, pid, interval=1.0):
        self.pid, self.interval, self.samples, self.peak = pid, interval, [], 0
        self.start = time.monotonic()
        self.thread = threading.Thread(target=self.loop, daemon=True)
        self.thread.start()

    def read(self):
        try:
            with open(f"/proc/{self.pid}/status") as f:
                fields = dict(line.split(":", 1) for line in f if ":" in line)
            return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])
        except (OSError, KeyError, ValueError):
            return None

    def loop(self):
        while True:
            got = self.read()
            if got is None:
                return
            self.samples.append((time.monotonic() - self.start, got[0]))
            self.peak = max(self.peak, got[1])
            time.sleep(self.interval)


class Run:
    """One process over the soak file: its output lines with when they came, its RSS."""

    def __init__(self, argv, env=None, terminal=False):
        self.lines = []  # (wall seconds, line)
        self.start = time.monotonic()
        if terminal:
            self.pid, self.fd = pty.fork()
            if self.pid == 0:
                os.execvpe(argv[0], argv, env)
            self.process = None
        else:
            self.process = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                            text=True, bufsize=1)
            self.pid = self.process.pid
        self.rss = RSS(self.pid)

    def collect(self, until=None, timeout=7200):
        """Reads the output to the end (or until a line matches `until`)."""
        if self.process:
            for line in self.process.stdout:
                self.lines.append((time.monotonic() - self.start, line.rstrip("\n")))
            self.stderr = self.process.stderr.read()
            self.status = self.process.wait()
        else:
            text, deadline = "", time.monotonic() + timeout
            while time.monotonic() < deadline:
                r, _, _ = select.select([self.fd], [], [], 1)
                if not r:
                    continue
                try:
                    chunk = os.read(self.fd, 65536).decode("utf-8", "replace")
                except OSError:
                    break
                text += chunk
                while "\n" in text:
                    line, text = text.split("\n", 1)
                    self.lines.append((time.monotonic() - self.start, ANSI.sub("", line)))
                    if until and until in line:
                        deadline = 0
            last = self.rss.read()
            if last:
                self.rss.samples.append((time.monotonic() - self.start, last[0]))
            os.kill(self.pid, 9)
            os.waitpid(self.pid, 0)
            os.close(self.fd)
            self.stderr, self.status = "", 0
        self.wall = time.monotonic() - self.start
        self.rss.thread.join()


def vsh_listen(vsh, path, env):
    run = Run(listen_argv(vsh, path, GRAMMAR), env)
    run.collect()
    if run.status != 0:
        sys.exit(f"vsh listen failed (exit {run.status}): {run.stderr.strip()[:500]}")
    segments, progress = [], []
    for wall, line in run.lines:
        o = json.loads(line)
        segments.append((float(o["start"]), float(o["end"])))
        progress.append((wall, float(o["end"])))
    return run, segments, progress


def vsh_prompt(vsh, path, env):
    # Nothing it hears may run (a misheard "exit" would end the soak, a misheard "record"
    # would take the input): every utterance is shown as "(ignored …)" instead.
    config = os.path.join(env["XDG_CONFIG_HOME"], "vsh")
    os.makedirs(config, exist_ok=True)
    with open(os.path.join(config, "vsh.toml"), "w") as f:
        f.write("[voice]\nthreshold = 1.0\nreject_below = 1.0\n")
    run = Run([vsh, "--verbose", "--fast", "--audio-in", path], env, terminal=True)
    run.collect(until=os.path.basename(path) + " ended")
    results = sum(len(PROMPT_RESULT.findall(line)) for _, line in run.lines)
    progress = [(wall, float(m.group(1))) for wall, line in run.lines for m in [STARTED.search(line)] if m]
    return run, results, progress


def baseline(path):
    run = Run(stock_argv(path, "-jsgf", GRAMMAR, "-time", "yes"))
    run.collect()
    segments, current = [], None
    for _, line in run.lines:
        f = line.split()
        timed = len(f) == 4 and all(re.fullmatch(r"-?[\d.]+", v) for v in f[1:])
        if timed:
            s, e = float(f[1]), float(f[2])
            current = (s, e) if current is None else (min(current[0], s), max(current[1], e))
        else:  # a hypothesis line starts a new segment
            if current:
                segments.append(current)
            current = None
    if current:
        segments.append(current)
    return run, segments


# ---------------------------------------------------------------- scoring

def match(expected, segments, tolerance=TOLERANCE):
    """(dropped utterances, merged segments, spurious segments)."""
    utterances = sorted(expected, key=lambda u: u[3])
    starts = np.array([u[3] - tolerance for u in utterances])
    ends = np.array([u[4] + tolerance for u in utterances])
    hits = np.zeros(len(utterances), dtype=int)
    merged = spurious = 0
    for s, e in segments:
        # Utterances starting before the segment ends and ending after it starts.
        last = int(np.searchsorted(starts, e))
        over = [i for i in range(max(0, last - 64), last) if ends[i] > s]
        hits[over] += 1
        merged += len(over) > 1
        spurious += not over
    return [u for u, h in zip(utterances, hits) if h == 0], merged, spurious


def rss_figures(run, progress, audio_seconds):
    """(RSS at the first minute of audio, at the end, max), in MB."""
    samples = run.rss.samples
    at_minute = None
    if progress:
        wall_minute = next((w for w, pos in progress if pos >= 60), progress[0][0])
        at_minute = next((r for w, r in samples if w >= wall_minute), None)
    if at_minute is None:  # no progress marks: assume an even pace
        wall_minute = run.wall * 60 / audio_seconds
        at_minute = next((r for w, r in samples if w >= wall_minute), samples[-1][1])
    end = samples[-1][1]
    peak = max(run.rss.peak, max(r for _, r in samples))
    return at_minute / 1024, end / 1024, peak / 1024


# ---------------------------------------------------------------- report

def table(rows):
    markdown_table(("metric", "vsh listen", "vsh prompt", "baseline", "listen/baseline", "goal", "met?"), rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=60, help="minutes of audio (default 60)")
    ap.add_argument("--vsh", default=VSH,
                    help="the vsh binary (default $VSH_BIN, else .build/release/vsh)")
    ap.add_argument("--skip", action="append", choices=["prompt", "baseline"], default=[], help="leave a run out")
    ap.add_argument("--eval", default=EVAL_DIR,
                    help="the evaluation data directory (default $VSH_EVAL, else ../shared/eval)")
    ap.add_argument("--cache", default=os.path.join(ROOT, ".build/bench-soak"), help="generated audio")
    args = ap.parse_args()
    vsh = os.path.abspath(args.vsh)
    if not os.access(vsh, os.X_OK):
        sys.exit(f"{vsh} is not an executable vsh: build it (`swift build -c release`) or pass --vsh")
    if "baseline" not in args.skip and not shutil.which(STOCK):
        sys.exit(f"{STOCK} not found: install Debian's pocketsphinx (`make bench-deps`)")
    os.makedirs(args.cache, exist_ok=True)
    corpus = [r for r in ensure_corpus(os.path.join(ROOT, ".build/bench-voice/corpus"), args.eval)
              if r["condition"] in CONDITIONS]
    path, expected = ensure_soak(args.cache, "soak", corpus, args.minutes, 1)
    seconds = args.minutes * 60
    home, env = snapshot_home("vsh-bench-soak-")  # a snapshot of this tree's shipped files, as voice.py
    env["LANG"] = "C.UTF-8"
    try:
        log(f"vsh listen over {path} ({len(expected)} utterances)")
        listen, segments, progress = vsh_listen(vsh, path, env)
        prompt = None
        if "prompt" not in args.skip:
            harmless = [r for r in corpus if r["expected"] in HARMLESS]
            prompt_path, prompt_expected = ensure_soak(args.cache, "soak-prompt", harmless, args.minutes, 2)
            log(f"vsh at the prompt over {prompt_path} ({len(prompt_expected)} utterances)")
            prompt = (*vsh_prompt(vsh, prompt_path, env), prompt_expected)
        base = None
        if "baseline" not in args.skip:
            log(f"{STOCK} over {path}")
            base = baseline(path)
    finally:
        shutil.rmtree(home, ignore_errors=True)

    dropped, merged, spurious = match(expected, segments)
    first, end, peak = rss_figures(listen, progress, seconds)
    rows = []
    cols = lambda ours, p="—", b="—", ratio="—", goal="—", ok=None: \
        rows.append((ours[0], ours[1], p, b, ratio, goal, met(ok)))
    if prompt:
        prun, presults, pprogress, pexpected = prompt
        pfirst, pend, ppeak = rss_figures(prun, pprogress, seconds)
    if base:
        brun, bsegments = base
        bdropped, bmerged, bspurious = match(expected, bsegments)
        bfirst, bend, bpeak = rss_figures(brun, [], seconds)
    P = lambda f: f(prompt) if prompt else "—"
    B = lambda f: f(base) if base else "—"
    ratio = lambda a, b: f"{a / b:.2f}" if b else "—"
    cols(("audio minutes", f"{seconds / 60:.1f}"), P(lambda _: f"{seconds / 60:.1f}"), B(lambda _: f"{seconds / 60:.1f}"))
    cols(("wall time, s", f"{listen.wall:.0f}"), P(lambda _: f"{prun.wall:.0f}"), B(lambda _: f"{brun.wall:.0f}"),
         ratio(listen.wall, brun.wall) if base else "—")
    cols(("speed-up vs real time", f"{seconds / listen.wall:.1f}x"), P(lambda _: f"{seconds / prun.wall:.1f}x"),
         B(lambda _: f"{seconds / brun.wall:.1f}x"), ratio(brun.wall, listen.wall) if base else "—")
    cols(("utterances expected", f"{len(expected)}"), P(lambda _: f"{len(pexpected)}"), B(lambda _: f"{len(expected)}"))
    cols(("segments reported", f"{len(segments)}"), P(lambda _: f"{presults}"), B(lambda _: f"{len(bsegments)}"),
         ratio(len(segments), len(bsegments)) if base else "—")
    cols(("utterances dropped", f"{len(dropped)}"), P(lambda _: f"{max(0, len(pexpected) - presults)}"),
         B(lambda _: f"{len(bdropped)}"), "—", "0",
         len(dropped) == 0 and (not prompt or presults >= len(pexpected)))
    cols(("segments merging 2+ utterances", f"{merged}"), "—", B(lambda _: f"{bmerged}"))
    cols(("segments over no utterance", f"{spurious}"), "—", B(lambda _: f"{bspurious}"))
    cols(("RSS at 1st minute of audio, MB", f"{first:.1f}"), P(lambda _: f"{pfirst:.1f}"), B(lambda _: f"{bfirst:.1f}"),
         ratio(first, bfirst) if base else "—")
    cols(("RSS at end, MB", f"{end:.1f}"), P(lambda _: f"{pend:.1f}"), B(lambda _: f"{bend:.1f}"),
         ratio(end, bend) if base else "—")
    cols(("RSS max, MB", f"{peak:.1f}"), P(lambda _: f"{ppeak:.1f}"), B(lambda _: f"{bpeak:.1f}"),
         ratio(peak, bpeak) if base else "—")
    half = lambda run: (run.rss.samples[-1][1] - next(r for w, r in run.rss.samples if w >= run.wall / 2)) / 1024
    cols(("RSS growth, 2nd half of the run, MB", f"{half(listen):+.2f}"), P(lambda _: f"{half(prun):+.2f}"),
         B(lambda _: f"{half(brun):+.2f}"))
    ok = end - first < GOAL_MB and (not prompt or pend - pfirst < GOAL_MB)
    cols(("RSS growth (end − 1st minute), MB", f"{end - first:+.2f}"), P(lambda _: f"{pend - pfirst:+.2f}"),
         B(lambda _: f"{bend - bfirst:+.2f}"), "—", f"< {GOAL_MB:g} MB", ok)
    print(f"\nSoak: {seconds / 60:g} min of spoken commands ({path}); vsh {vsh}")
    table(rows)
    for metric, ours, at_prompt, theirs, *_ in rows:
        if metric in ("speed-up vs real time", "utterances dropped", "RSS max, MB", "RSS growth (end − 1st minute), MB"):
            headline(f"{seconds / 60:g} min of commands, {metric} (vsh listen; at the prompt {at_prompt})", ours,
                     None if theirs == "—" else theirs)
    save("soak")
    if dropped:
        print("\nDropped by vsh listen (id, condition, words, speech start–end s):")
        for i, c, e, s, t in dropped[:20]:
            print(f"  {i}  {c}  {e!r}  {s:.2f}–{t:.2f}")
    if prompt and presults != len(pexpected):
        print(f"\nAt the prompt: {presults} results for {len(pexpected)} utterances "
              "(fewer: dropped or merged; more: speech split in two or noise heard as speech).")
    if base and bdropped:
        print(f"\nThe baseline dropped {len(bdropped)} (first: "
              + ", ".join(f"{i} at {s:.1f} s" for i, _, _, s, _ in bdropped[:5]) + ")")
    return 0 if ok and not dropped else 1


if __name__ == "__main__":
    sys.exit(main())
