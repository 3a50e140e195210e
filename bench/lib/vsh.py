"""Running the two recognisers on a file: `vsh listen` and stock pocketsphinx_continuous,
one process per file, and what a command phrase is compared as."""
import concurrent.futures
import glob
import json
import os
import re
import resource
import subprocess
import time

from .data import fold_of
from .env import EVAL_DIR, log

MODEL = "/usr/share/pocketsphinx/model/en-us"
DICTIONARY = MODEL + "/cmudict-en-us.dict"
STOCK = "pocketsphinx_continuous"
TIMEOUT = 300  # seconds per file; a hung recogniser counts as a failure


def run(argv, env=None, timeout=TIMEOUT):
    """(exit status, stdout, stderr); status -1 when it hung or could not start."""
    try:
        p = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return -1, "", f"timed out after {timeout} s"
    except OSError as e:
        return -1, "", str(e)


def first_line(s):
    return next((l.strip() for l in s.splitlines() if l.strip()), "")


def json_lines(rc, stdout, stderr):
    """vsh's --json output: (the objects, None), or (None, why it failed)."""
    if rc != 0:
        return None, f"exit {rc}: {first_line(stderr)}"
    objs = []
    for line in stdout.splitlines():
        if not line.strip():
            continue
        try:
            o = json.loads(line)
        except ValueError:
            return None, f"not JSON: {line[:80]!r}"
        if not isinstance(o, dict):
            return None, f"not a JSON object: {line[:80]!r}"
        objs.append(o)
    return objs, None


def listen_argv(vsh, path, grammar=None, extra=()):
    return [vsh, "listen", "--from", path, "--json", *(["--grammar", grammar] if grammar else []), *extra]


def listen(vsh, env, path, grammar=None, extra=(), timeout=TIMEOUT):
    """`vsh listen --from PATH --json [--grammar G] EXTRA`: (one JSON object per utterance,
    None), or (None, why it failed)."""
    return json_lines(*run(listen_argv(vsh, path, grammar, extra), env, timeout))


def speech_commands_heard(vsh, env, words, grammar, jobs=2):
    """Every Speech Commands clip of `words` (EVAL_DIR/real/speech-commands/WORD/*.flac)
    through `vsh listen --grammar GRAMMAR`, `jobs` at a time: for each clip, in order, its
    speaker's fold (`fold_of`), its word and the utterances heard as that word."""
    paths = [p for w in words for p in sorted(glob.glob(os.path.join(EVAL_DIR, "real", "speech-commands", w, "*.flac")))]
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        heard = list(pool.map(lambda p: listen(vsh, env, p, grammar)[0] or [], paths))
    rows = []
    for path, objs in zip(paths, heard):
        word = os.path.basename(os.path.dirname(path))
        rows.append((fold_of(os.path.basename(path).split("_")[0]), word, [o for o in objs if o.get("text") == word]))
    return rows


def commands(objs):
    """The commands vsh would run: each utterance it accepted."""
    return [o["command"] for o in objs if o.get("command") is not None]


def heard(objs, places=None):
    """Every utterance as text@confidence, "(rej)" after a rejected one; the confidence as
    vsh wrote it, or with `places` decimals."""
    def confidence(o):
        return f"{o.get('confidence', '')}" if places is None else f"{o.get('confidence', 0):.{places}f}"
    return " ; ".join(f"{o.get('text', '')}@{confidence(o)}" + ("" if o.get("command") is not None else "(rej)")
                      for o in objs)


def pronunciations():
    """{word: its phones} from the model's dictionary, each word's first pronunciation
    (not word(2))."""
    prons = {}
    with open(DICTIONARY) as f:
        for line in f:
            word, *phones = line.split()
            prons.setdefault(word, phones)
    return prons


def stock_argv(infile, *flags, dictionary=DICTIONARY):
    """Stock pocketsphinx_continuous on `infile` with its own defaults (the en-us model,
    the full dictionary) and `flags` such as -jsgf G or -lm LM."""
    return [STOCK, "-infile", infile, *flags, "-hmm", MODEL + "/en-us", "-dict", dictionary, "-logfn", "/dev/null"]


def stock_lines(argv):
    """(exit status, the lines it printed, why it failed or None)."""
    rc, out, err = run(argv)
    return rc, [l.strip() for l in out.splitlines() if l.strip()], None if rc == 0 else f"exit {rc}: {first_line(err)}"


class Outcome:
    """What one recogniser made of one file."""
    def __init__(self, accepted=(), heard="", latencies=(), error=None, status=0, utterances=()):
        self.accepted = [phrase(a) for a in accepted]  # accepted command phrases, in order
        self.heard = heard                # everything heard, for the TSV
        self.latencies = list(latencies)  # seconds, vsh only
        self.error = error                # why the tool failed on this file, or None
        self.status = status
        self.utterances = list(utterances)  # vsh: the JSON objects


def vsh_tool(vsh, env, grammar=None, extra=(), places=None):
    """A function of a row (a dict with path, and grammar when `grammar` is None) to vsh's
    Outcome on it. A row's "vsh_grammar", when it has one, is vsh's instead of its
    "grammar" (None: the prompt's own)."""
    def one(row):
        objs, err = listen(vsh, env, row["path"], grammar or row.get("vsh_grammar", row["grammar"]), extra)
        if err:
            return Outcome(error=err)
        return Outcome(commands(objs), heard(objs, places),
                       [float(o["latency"]) for o in objs if isinstance(o.get("latency"), (int, float))],
                       utterances=objs)
    return one


def stock_tool(grammar=None):
    """A function of a row to stock continuous's Outcome with the row's (or this) JSGF:
    every line it prints is an accepted phrase."""
    def one(row):
        rc, hyps, err = stock_lines(stock_argv(row["path"], "-jsgf", grammar or row["grammar"]))
        return Outcome(hyps, " ; ".join(hyps), status=rc, error=err)
    return one


def measured(what, fn, items, jobs):
    """fn over items, `jobs` at a time; (outcomes, CPU seconds of the children, wall seconds)."""
    r0, t0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        outcomes = list(pool.map(fn, items))
    r1, wall = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter() - t0
    cpu = (r1.ru_utime + r1.ru_stime) - (r0.ru_utime + r0.ru_stime)
    log(f"{what}: {len(items)} files, {cpu:.1f} s CPU, {wall:.1f} s wall")
    return outcomes, cpu, wall


def phrase(s):
    """A command phrase compared as words: case, spacing and '(2)' variants ignored."""
    return " ".join(re.sub(r"\(\d+\)", "", str(s)).lower().split())


def phrases(items):
    return " | ".join(phrase(p) for p in items)


def stock_version():
    """The Debian version of the pocketsphinx package, or ""."""
    try:
        return subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "pocketsphinx"],
                              capture_output=True, text=True).stdout.strip()
    except OSError:
        return ""


def why_nothing_ran(objs):
    """Why a file with one expected command ran nothing, from `vsh listen --json`: no
    utterance; several (none kept); the check that stopped its one utterance; or, for a
    confidence of 0, which of `Confidence`'s gates gave it (Sources/VshVoice/Confidence.swift:
    an everyday word, a length per phone outside 6-45 frames, over 200 frames of speech
    the words leave unexplained, an unvoiced word); else a confidence under the threshold."""
    if not objs:
        return "no utterance"
    if len(objs) > 1:
        return "several utterances"
    o = objs[0]
    if o.get("stopped_by") not in (None, "confidence"):
        return o["stopped_by"]
    f = o.get("features") or {}
    if o.get("confidence", 0) > 0:
        return "low confidence"
    if f.get("other_word"):
        return "other word"
    if not f.get("words") or not f.get("phones"):
        return "no words"
    if not 6 <= f.get("word_frames", 0) / f["phones"] <= 45:
        return "implausible length"
    if f.get("speech_outside_words", 0) > 200:
        return "unexplained speech"
    if f.get("weakest_voicing", 0) >= 0.4:
        return "unvoiced word"
    return "confidence 0, other"
