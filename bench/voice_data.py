"""The audio bench/voice.py measures on, generated once into a cache directory.

Each set is a directory with manifest.tsv (id, path, condition, expected) and a .stamp
naming the inputs it was made from; a set whose inputs changed is made again.
"""
import collections
import glob
import hashlib
import importlib.machinery
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

BENCH = os.path.dirname(os.path.abspath(__file__))
OOG_SENTENCES = os.path.join(BENCH, "oog-sentences.txt")
OOG_VERSION = "2"  # bump when the OOG recipe below changes, to regenerate the cache


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def load_generator(eval_dir):
    """make-commands-corpus as a module: its synth, pad, mix, write and VOICES."""
    path = os.path.join(eval_dir, "make-commands-corpus")
    loader = importlib.machinery.SourceFileLoader("make_commands_corpus", path)
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
    loader.exec_module(module)
    return module


def fingerprint(files, salt=""):
    """A short hash of the files' contents, and a salt for recipe changes."""
    h = hashlib.sha256(salt.encode())
    for p in files:
        with open(p, "rb") as f:
            h.update(f.read())
    return h.hexdigest()[:16]


def cached(out, stamp):
    """True when OUT holds a complete set made from the same inputs."""
    try:
        return os.path.exists(os.path.join(out, "manifest.tsv")) and \
            open(os.path.join(out, ".stamp")).read().strip() == stamp
    except OSError:
        return False


def read_manifest(out):
    rows = []
    with open(os.path.join(out, "manifest.tsv")) as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            row = dict(zip(header, line.rstrip("\n").split("\t")))
            row.setdefault("expected", "")
            row["path"] = os.path.join(out, row["path"])  # absolute paths stay absolute
            rows.append(row)
    return rows


def ensure_corpus(out, eval_dir):
    generator = os.path.join(eval_dir, "make-commands-corpus")
    stamp = fingerprint([generator])
    if not cached(out, stamp):
        log(f"generating the command corpus in {out} (once)")
        shutil.rmtree(out, ignore_errors=True)
        subprocess.run([sys.executable, generator, out], check=True, stdout=subprocess.DEVNULL)
        open(os.path.join(out, ".stamp"), "w").write(stamp + "\n")
    return read_manifest(out)


def ensure_oog(out, eval_dir):
    """Speech that must run no command: the sentences in several voices, clean and in pink
    noise at 10 dB; the librivox sentences; the cards and goforward recordings."""
    generator = os.path.join(eval_dir, "make-commands-corpus")
    stamp = fingerprint([generator, OOG_SENTENCES], OOG_VERSION)
    if cached(out, stamp):
        return read_manifest(out)
    log(f"generating the out-of-grammar set in {out} (once)")
    shutil.rmtree(out, ignore_errors=True)
    mcc = load_generator(eval_dir)
    sentences = [s.strip() for s in open(OOG_SENTENCES) if s.strip() and not s.startswith("#")]
    rng = np.random.default_rng(7)
    rows = []
    for vi, voice in enumerate(mcc.VOICES):
        for si, text in enumerate(sentences):
            clean = mcc.pad(synth(mcc, text, *voice))
            for cond, x in [("clean", clean), ("pink10db", mcc.mix(clean, "pink", 10, rng))]:
                rel = f"synth-{cond}/v{vi}-s{si:02d}.wav"
                mcc.write(os.path.join(out, rel), x)
                rows.append((f"oog-{cond}-v{vi}-s{si:02d}", rel, f"synth-{cond}", text))
    real = os.path.join(eval_dir, "real")
    for f in sorted(glob.glob(os.path.join(real, "librivox", "*.wav"))):
        rows.append(("libri-" + os.path.basename(f)[-8:-4], f, "librivox", ""))
    for f in sorted(glob.glob(os.path.join(real, "cards", "*.wav"))):
        rows.append(("cards-" + os.path.basename(f)[:-4], f, "cards", ""))
    raw = os.path.join(real, "goforward.raw")
    if os.path.exists(raw):  # headerless: give the baseline a WAV header too
        mcc.write(os.path.join(out, "goforward.wav"), np.fromfile(raw, dtype=np.int16).astype(np.float64))
        rows.append(("goforward", "goforward.wav", "goforward", ""))
    with open(os.path.join(out, "manifest.tsv"), "w") as f:
        f.write("id\tpath\tcondition\texpected\n")
        f.writelines("\t".join(r) + "\n" for r in rows)
    open(os.path.join(out, ".stamp"), "w").write(stamp + "\n")
    return read_manifest(out)


def synth(mcc, text, engine, voice, speed):
    """mcc.synth, but repeatable: sox -R seeds its dither, which otherwise changes the
    resampled espeak-ng audio by a bit or two on every run (and flips borderline files)."""
    with tempfile.NamedTemporaryFile(suffix=".wav") as raw:
        if engine == "flite":
            subprocess.run(["flite", "-voice", voice, "-t", text, "-o", raw.name], check=True)
        else:
            subprocess.run(["espeak-ng", "-v", voice, "-s", str(speed), "-w", raw.name, text], check=True)
        out = subprocess.run(["sox", "-R", raw.name, "-t", "raw", "-r", str(mcc.RATE), "-c", "1",
                              "-b", "16", "-e", "signed-integer", "-"], check=True, capture_output=True).stdout
    return np.frombuffer(out, dtype=np.int16).astype(np.float64)


def librivox(eval_dir):
    """(path, reference text) for each librivox file named in its transcription."""
    d = os.path.join(eval_dir, "real", "librivox")
    out = []
    for line in open(os.path.join(d, "transcription")):
        m = re.match(r"(.*)\((\S+)\)\s*$", line)
        if m and os.path.exists(os.path.join(d, m.group(2) + ".wav")):
            out.append((os.path.join(d, m.group(2) + ".wav"), m.group(1)))
    return out


def subset(rows, per_condition):
    """Up to N rows of each condition, evenly spread (so every voice is represented)."""
    by = collections.defaultdict(list)
    for r in rows:
        by[r["condition"]].append(r)
    picked = []
    for group in by.values():
        idx = sorted(set(np.linspace(0, len(group) - 1, min(per_condition, len(group))).round().astype(int)))
        picked += [group[i] for i in idx]
    return picked
