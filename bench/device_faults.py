#!/usr/bin/env python3
"""Recording through faults, long version (the short one is DeviceFaultTests): vsh and
arecord, the stock ALSA recorder, record the same `file` PCM "microphone" while
libVshAlsaFaults.so (built beside vsh) makes it fail, and each is then judged on what
its WAV holds:

- kill -9 at a random moment: samples kept against samples the device had delivered
  (VSH_ALSA_FRAMES); goal: at most the last 0.5 s lost, and a WAV any reader opens;
- the device vanishes, stalls, or overruns once, and the disk fills (a file-size limit):
  whether the recorder ended by itself, said what happened, and kept the audio.

Counts: cases, crashes (died by a signal we did not send), recordings lost (no readable
WAV, or samples that are not the input's), worst and 95th-percentile loss.

VSH_BIN names the release binary; VSH_RECORD_KILLS the number of kills per recorder (default 100).
"""
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import wave

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib.env import EVAL_DIR as EVAL, VSH, isolated_env  # noqa: E402
from lib.results import headline, save  # noqa: E402

FAULTS = os.path.join(os.path.dirname(VSH), "libVshAlsaFaults.so")
KILLS = int(os.environ.get("VSH_RECORD_KILLS", "100"))
RATE = 16000
HALF_SECOND = RATE // 2


def input_samples(tmp):
    """A minute of read speech as raw 16 kHz samples: the microphone's input."""
    librivox = os.path.join(EVAL, "real", "librivox")
    frames = b""
    for name in sorted(f for f in os.listdir(librivox) if f.endswith(".wav")) * 3:
        with wave.open(os.path.join(librivox, name)) as w:
            frames += w.readframes(w.getnframes())
    path = os.path.join(tmp, "mic.raw")
    with open(path, "wb") as f:
        f.write(frames)
    with open(os.path.join(tmp, "asound.conf"), "w") as f:
        f.write(f'pcm.vshin {{ type file slave.pcm {{ type null }} file "/dev/null" infile "{path}" format "raw" }}\n')
    return frames


def environment(tmp, fault=None):
    env = dict(isolated_env(tmp), ALSA_CONFIG_PATH=tmp + "/asound.conf", LD_PRELOAD=FAULTS,
               VSH_ALSA_FRAMES=tmp + "/frames")
    env.pop("VSH_ALSA_FAULT", None)
    if fault:
        env["VSH_ALSA_FAULT"] = fault
    return env


def delivered(tmp):
    try:
        with open(tmp + "/frames") as f:
            return int(f.read().strip() or "0")
    except (OSError, ValueError):
        return 0


def cpu_ticks(pid):
    """The process's user and system time so far, in clock ticks (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])
    except (OSError, IndexError, ValueError):
        return 0


def recorders(tmp):
    """Each recorder: the command that records the microphone, and where its WAV ends up."""
    store = tmp + "/store"
    return {
        "vsh": ([VSH, "--store", store, "--audio-in", "vshin", "-c", "record"],
                lambda: next((os.path.join(store, "drafts", n) for n in sorted(os.listdir(store + "/drafts"))
                              if n.endswith(".wav")), None) if os.path.isdir(store + "/drafts") else None),
        "arecord": (["arecord", "-q", "-D", "vshin", "-f", "S16_LE", "-r", str(RATE), "-c", "1", tmp + "/arecord.wav"],
                    lambda: tmp + "/arecord.wav" if os.path.exists(tmp + "/arecord.wav") else None),
    }


def kept(path, reference):
    """(samples a WAV reader gets from `path`, whether they are the input's: the input
    from its start, or with one overrun's 100 ms missing); None if unreadable."""
    try:
        with wave.open(path) as w:
            data = w.readframes(w.getnframes())
    except (OSError, EOFError, wave.Error):
        return None
    if reference.startswith(data):
        return len(data) // 2, True
    gap = next(i for i in range(0, len(data), 2) if data[i:i + 2] != reference[i:i + 2])
    lost = 2 * RATE // 10
    return len(data) // 2, reference[gap + lost:gap + lost + len(data) - gap] == data[gap:]


def clean(tmp):
    for name in ("store", "arecord.wav", "frames"):
        subprocess.run(["rm", "-rf", os.path.join(tmp, name)])


def kill_runs(tmp, reference, name, rng):
    losses, lost, crashes = [], 0, 0
    for _ in range(KILLS):
        clean(tmp)
        argv, wav = recorders(tmp)[name]
        target = rng.randrange(RATE // 2, 40 * RATE)
        process = subprocess.Popen(argv, env=environment(tmp), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 30
        while delivered(tmp) < target and process.poll() is None and time.time() < deadline:
            time.sleep(0.001)
        if process.poll() is not None:
            crashes += 1
            continue
        process.send_signal(signal.SIGKILL)
        process.wait()
        given = delivered(tmp)
        path = wav()
        result = kept(path, reference) if path else None
        if result is None or not result[1]:
            lost += 1
            continue
        losses.append(max(0, given - result[0]))
    losses.sort()
    return losses, lost, crashes


def fault_run(tmp, reference, name, fault, file_blocks=None):
    """(ended by itself, said why, kept samples or None, crashed)."""
    clean(tmp)
    argv, wav = recorders(tmp)[name]
    if file_blocks:
        argv = ["sh", "-c", f'ulimit -f {file_blocks} && exec "$0" "$@"'] + argv
    errors = open(tmp + "/stderr", "w+")
    process = subprocess.Popen(argv, env=environment(tmp, fault), stdout=subprocess.DEVNULL, stderr=errors)
    # Hung: still running 8 s after the device last delivered anything and after the
    # recorder last used the CPU (a stalled device delivers nothing more; a working one is
    # read far faster than real time; a recorder still decoding what it was given before
    # the stall is busy, not hung: on a loaded machine that took vsh past 8 s), or 60 s
    # after the last audio whatever it does.
    last, changed, ended = (-1, -1), time.time(), True
    since_audio = time.time()
    while process.poll() is None:
        audio = delivered(tmp)
        now = (audio, cpu_ticks(process.pid))
        if audio != last[0]:
            since_audio = time.time()
        if now != last:
            last, changed = now, time.time()
        if time.time() - changed > 8 or time.time() - since_audio > 60:
            process.kill()
            process.wait()
            ended = False
            break
        time.sleep(0.05)
    errors.seek(0)
    err = errors.read()
    errors.close()
    crashed = ended and process.returncode < 0
    path = wav()
    result = kept(path, reference) if path else None
    samples = result[0] if result and result[1] else None
    return ended, bool(err.strip()) and ended, samples, crashed, delivered(tmp)


def main():
    if not os.path.exists(FAULTS):
        sys.exit(f"{FAULTS} is missing: build with `swift build -c release` first")
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        raw = input_samples(tmp)
        start = time.time()
        print(f"\n| kill -9 while recording, {KILLS} random moments each | vsh | arecord |")
        print("|---|---|---|")
        results = {name: kill_runs(tmp, raw, name, rng) for name in ("vsh", "arecord")}
        def ms(samples):
            return 1000 * samples / RATE
        def row(label, f):
            print(f"| {label} | {f(results['vsh'])} | {f(results['arecord'])} |")
            headline(f"kill -9 while recording: {label} (baseline: arecord)", f(results["vsh"]), f(results["arecord"]))
        row("recordings lost (no readable WAV, or wrong samples)", lambda r: r[1])
        row("crashes (died before the kill)", lambda r: r[2])
        row("audio lost, median", lambda r: f"{ms(r[0][len(r[0]) // 2]):.0f} ms" if r[0] else "-")
        row("audio lost, 95th percentile", lambda r: f"{ms(r[0][int(len(r[0]) * 0.95)]):.0f} ms" if r[0] else "-")
        row("audio lost, worst (goal ≤ 500 ms)", lambda r: f"{ms(r[0][-1]):.0f} ms" if r[0] else "-")
        row("cases losing more than 0.5 s", lambda r: sum(1 for x in r[0] if x > HALF_SECOND) + r[1])

        print("\n| device and disk faults, 10 runs each | vsh | arecord |")
        print("|---|---|---|")
        cases = [("device unplugged (vanish)", "vanish@{at}", None), ("device stalled", "stall@{at}", None),
                 ("one overrun, then unplugged", "overrun@{at},vanish@{end}", None),
                 ("disk full (file-size limit)", None, 400)]
        totals = {"vsh": [0, 0], "arecord": [0, 0]}
        for label, spec, blocks in cases:
            cells = []
            for name in ("vsh", "arecord"):
                good, notes = 0, []
                for _ in range(10):
                    at = rng.randrange(RATE, 20 * RATE)
                    fault = spec.format(at=at, end=at + 3 * RATE) if spec else None
                    ended, said, samples, crashed, given = fault_run(tmp, raw, name, fault, blocks)
                    totals[name][0] += 1
                    if crashed:
                        totals[name][1] += 1
                    limit = (blocks * 512 - 44) // 2 if blocks else given
                    ok = ended and said and samples is not None and samples >= limit - HALF_SECOND - (RATE // 10 if "overrun" in label else 0)
                    good += ok
                    if not ended:
                        notes.append("hung")
                    elif samples is None:
                        notes.append("lost")
                    elif not said:
                        notes.append("silent")
                cells.append(f"{good}/10 ended, said why, kept all but ≤ 0.5 s" + (f" ({', '.join(sorted(set(notes)))})" if notes else ""))
            print(f"| {label} | {cells[0]} | {cells[1]} |")
            headline(f"{label}, 10 runs (baseline: arecord)", cells[0], cells[1])
        for name in ("vsh", "arecord"):
            print(f"{name}: {totals[name][0] + KILLS} fault cases, {totals[name][1] + results[name][2]} crashes")
        print(f"({time.time() - start:.0f} s)")
        save("device_faults")


if __name__ == "__main__":
    sys.exit(main())
