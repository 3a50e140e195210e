"""The evaluation sets, made or padded once into a cache under .build/.

The spoken-command corpus and the out-of-grammar set are directories with manifest.tsv
(id, path, condition, expected) and a .stamp naming the inputs they were made from; a set
whose inputs changed is made again. The real recordings (Speech Commands, fsdd, cards)
are rows (dicts: set, id, cls, speaker, expected, src, rate, and after `prepare` path and
fold), each clip padded with noise like its own, as a microphone would give.
"""
import collections
import concurrent.futures
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
import zlib

import numpy as np

from .audio import read_audio, write_wav
from .env import BENCH, COMMANDS_GRAMMAR, EVAL_DIR, log

OOG_SENTENCES = os.path.join(BENCH, "oog-sentences.txt")
OOG_VERSION = "2"  # bump when the OOG recipe below changes, to regenerate the cache
SC_WORDS = ["yes", "no", "up", "down", "left", "right", "on", "off", "stop", "go"]
DIGITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
PAD = 0.4            # seconds of noise each side of a real clip
PREP_VERSION = "1"   # bump when the padding recipe changes


# ---------------------------------------------------------------- the synthesized sets

def load_generator(eval_dir=EVAL_DIR):
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
    """The spoken-command corpus (make-commands-corpus), made once into OUT; its rows."""
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


# ---------------------------------------------------------------- librivox

def librivox(eval_dir=EVAL_DIR):
    """(path, reference text as transcribed, with <s> and </s>) for each librivox file
    named in its transcription."""
    d = os.path.join(eval_dir, "real", "librivox")
    out = []
    for line in open(os.path.join(d, "transcription")):
        m = re.match(r"(.*)\((\S+)\)\s*$", line)
        if m and os.path.exists(os.path.join(d, m.group(2) + ".wav")):
            out.append((os.path.join(d, m.group(2) + ".wav"), m.group(1)))
    return out


def librivox_words(eval_dir=EVAL_DIR):
    """{file name without .wav: the reference's words}, for the librivox files."""
    return {os.path.basename(path)[:-4]: text.replace("<s>", "").replace("</s>", "").split()
            for path, text in librivox(eval_dir)}


# ---------------------------------------------------------------- the real recordings

def fold_of(key):
    """The speaker fold: crc32(speaker) % 2."""
    return zlib.crc32(key.encode()) % 2


def speech_commands_rows(eval_dir=EVAL_DIR):
    base = os.path.join(eval_dir, "real", "speech-commands")
    rows = []
    for cls in sorted(os.listdir(base)):
        d = os.path.join(base, cls)
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            if not f.endswith((".flac", ".wav")):
                continue
            stem = f.rsplit(".", 1)[0]
            if cls == "_silence_":
                speaker, expected = "silence-" + stem, ""
            elif cls == "_unknown_":
                speaker, expected = stem.split("_")[1], ""
            else:
                speaker, expected = stem.split("_")[0], cls
            rows.append(dict(set="sc", id=f"{cls}/{stem}", cls=cls, speaker=speaker, expected=expected,
                             src=os.path.join(d, f), rate=16000))
    return rows


def prompt_rows(eval_dir=EVAL_DIR):
    """The Speech Commands clips at vsh's prompt, where only "stop" is a command: vsh hears
    them with the prompt's own grammar and decisions (`listen` without --grammar,
    "vsh_grammar" None), the baseline with the same commands as a file (bench/commands.gram)."""
    rows = speech_commands_rows(eval_dir)
    for r in rows:
        r["set"], r["audio"] = "prompt", "sc"  # the same padded audio as sc
        r["expected"] = "stop" if r["cls"] == "stop" else ""
        r["grammar"], r["vsh_grammar"] = COMMANDS_GRAMMAR, None
    return rows


def fsdd_rows(eval_dir=EVAL_DIR):
    d = os.path.join(eval_dir, "real", "fsdd")
    rows = []
    for f in sorted(os.listdir(d)):
        if not f.endswith(".wav"):
            continue
        digit, speaker, take = f[:-4].split("_")
        rows.append(dict(set="fsdd", id=f[:-4], cls=DIGITS[int(digit)], speaker=speaker,
                         expected=DIGITS[int(digit)], src=os.path.join(d, f), rate=8000))
    return rows


def cards_rows(eval_dir=EVAL_DIR):
    real = os.path.join(eval_dir, "real")
    rows = []
    with open(os.path.join(real, "cards", "cards.transcription")) as f:
        for line in f:
            m = re.match(r"\s*<s>(.*)</s>\s*\((\w+)\)", line)
            if m:
                rows.append(dict(set="cards", id=m.group(2), cls="cards", speaker="cards", expected=" ".join(m.group(1).split()),
                                 src=os.path.join(real, "cards", m.group(2) + ".wav"), rate=16000,
                                 grammar=os.path.join(real, "cards", "cards.gram")))
    rows.append(dict(set="cards", id="goforward", cls="goforward", speaker="goforward", expected="go forward ten meters",
                     src=os.path.join(real, "goforward.raw"), rate=16000, grammar=os.path.join(real, "goforward.gram")))
    return rows


def room_noise(x, rate, n, seed):
    """n samples of noise shaped like the clip's quietest 100 ms, at its level."""
    frame = rate // 100
    win = 10 * frame
    if len(x) < win + frame:
        quiet = x
    else:
        e = np.convolve(x[: len(x) // frame * frame].reshape(-1, frame).var(axis=1) + 1e-3, np.ones(10), "valid")
        a = int(np.argmin(e)) * frame
        quiet = x[a:a + win]
    quiet = quiet - quiet.mean()
    level = max(np.sqrt(np.mean(quiet ** 2)), 0.5)
    rng = np.random.default_rng(zlib.crc32(seed.encode()))
    spec = np.abs(np.fft.rfft(quiet * np.hanning(len(quiet)))) + 1e-9
    white = rng.standard_normal(n)
    shaped = np.fft.irfft(np.fft.rfft(white) * np.interp(np.linspace(0, 1, n // 2 + 1),
                                                          np.linspace(0, 1, len(spec)), spec), n)
    return shaped / (np.sqrt(np.mean(shaped ** 2)) + 1e-12) * level


def padded(x, rate, seed):
    """PAD seconds of the clip's own room noise before and after it (seeded by name)."""
    n = int(PAD * rate)
    return np.concatenate([room_noise(x, rate, n, seed + "<"), x, room_noise(x, rate, n, seed + ">")])


def prepare(rows, cache):
    """Pads each clip (cached); fills row['path'] (16 kHz WAV) and row['fold']."""
    todo = []
    for r in rows:
        r["fold"] = fold_of(r["speaker"])
        r["path"] = os.path.join(cache, "audio", PREP_VERSION, r.get("audio", r["set"]), r["id"].replace("/", "__") + ".wav")
        if not os.path.exists(r["path"]):
            todo.append(r)
    if todo:
        log(f"padding {len(todo)} clips into {os.path.join(cache, 'audio')}")

    def one(r):
        os.makedirs(os.path.dirname(r["path"]), exist_ok=True)
        src = r["src"]
        if src.endswith(".raw"):
            x = np.fromfile(src, dtype="<i2").astype(np.float64)
        else:
            x = read_audio(src, r["rate"])
        y = padded(x, r["rate"], r.get("audio", r["set"]) + "/" + r["id"])
        tmp = r["path"] + ".tmp.wav"
        if r["rate"] == 16000:
            write_wav(tmp, y, 16000)
        else:
            low = r["path"] + ".low.wav"
            write_wav(low, y, r["rate"])
            subprocess.run(["sox", low, "-r", "16000", tmp], check=True)
            os.remove(low)
        os.replace(tmp, r["path"])

    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        list(pool.map(one, todo))
    return rows


def quick_subset(rows, keep=4):
    """Speaker-stratified: only speakers with crc32(speaker) % 16 < keep (both folds keep
    the same share); fsdd, which has 4 speakers, keeps every 5th take instead."""
    out = []
    for r in rows:
        if r["set"] == "fsdd":
            if int(r["id"].split("_")[2]) % 5 == 0:
                out.append(r)
        elif r["set"] == "cards" or (zlib.crc32(r["speaker"].encode()) >> 4) % 16 < keep:
            out.append(r)
    return out
