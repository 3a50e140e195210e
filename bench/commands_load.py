#!/usr/bin/env python3
"""Custom voice commands: what command files cost, measured against vsh without them.

    python3 bench/commands_load.py [--vsh PATH] [--runs N] [--voice [--quick] [--jobs N]]

load   `vsh -c help` wall time (median of N runs) with 200 generated command files in
       the user's commands directory, against the same vsh with no command file at all
       (the baseline: no shipped files either). "warm" is the usual start (the word
       cache in $XDG_STATE_HOME/vsh/command-words is filled); "cold" deletes the cache
       before every run, so vsh reads the pronunciation dictionary and checks every
       pattern against every other for sounding alike. Goal: at most 100 ms added.
voice  (--voice) command accuracy and false accepts of `vsh listen --from FILE --json`
       with vsh's own grammar (built-ins, the shipped keyword commands, and corpus.commands
       for the one corpus phrase no built-in says), on the public command corpus and the
       out-of-grammar set of bench/voice.py, without and with 50 more custom commands.
       Goal: both within 1 point of the figures without them. An utterance counts as
       accepted when vsh maps it to a command; it is right when the words heard are the
       words said.
"""
import argparse
import concurrent.futures
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib.data import ensure_corpus, ensure_oog, subset  # noqa: E402
from lib.env import EVAL_DIR, ROOT, VSH, isolated_env, require_eval  # noqa: E402
from lib.results import headline, save  # noqa: E402
from lib.vsh import DICTIONARY, listen, phrase  # noqa: E402


# ---------------------------------------------------------------- generated files

def dictionary_words(count, seed):
    """Plain dictionary words (letters only, 4 to 8 long), a seeded sample."""
    words = []
    with open(DICTIONARY, encoding="utf-8", errors="replace") as f:
        for line in f:
            word = line.split(" ", 1)[0]
            if word.isalpha() and word.islower() and 4 <= len(word) <= 8:
                words.append(word)
    return random.Random(seed).sample(words, count)


def generated_file(i, words):
    """A command file as a person might write one: a list, two commands with slots,
    optional words and alternatives, a program and a vsh line."""
    w = words[i * 8:(i + 1) * 8]
    return f"""# generated command file {i}
list thing{i}: {w[0]} | {w[1]} | {w[2]} {w[3]} = item{i}

command gen{i}-a
    summary: Generated command {i}, first
    say: {w[4]} [the] <thing{i}> <digit>
    say: ({w[5]} | {w[6]}) <thing{i}> <digit> please
    exec: /bin/true {{thing{i}}} {{digit}}

command gen{i}-b
    say: {w[7]} {w[4]} <number 1-20>
    run: quality
"""


def write_files(directory, count, seed=6):
    os.makedirs(directory, exist_ok=True)
    words = dictionary_words(count * 8, seed)
    for i in range(count):
        with open(os.path.join(directory, f"gen{i:03d}.commands"), "w") as f:
            f.write(generated_file(i, words))


# ---------------------------------------------------------------- load time

def time_help(vsh, env, runs, before=None):
    """Median wall seconds and median CPU seconds (user + system) of `vsh -c help`.
    CPU time is the steadier figure on a busy machine."""
    walls, cpus = [], []
    for _ in range(runs):
        if before:
            before()
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        p = subprocess.run([vsh, "-c", "help"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        walls.append(time.perf_counter() - start)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append((r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime))
        if p.returncode != 0:
            sys.exit(f"vsh -c help failed: {p.stderr.decode()[:300]}")
    return statistics.median(walls), statistics.median(cpus)


def problems(vsh, env):
    p = subprocess.run([vsh, "-c", "reload"], capture_output=True, text=True, env=env)
    lines = [l for l in p.stderr.splitlines() if l.startswith(("error:", "warning:"))]
    return [l for l in lines if l.startswith("error:")], [l for l in lines if l.startswith("warning:")]


def load_bench(vsh, home, runs):
    share = os.path.join(home, "share")            # a shipped directory without commands/
    os.makedirs(os.path.join(share, "config"))
    shutil.copy(os.path.join(ROOT, "config", "vsh.toml"), os.path.join(share, "config"))
    env = isolated_env(home)
    bare = dict(env, VSH_SHARE=share)
    user_commands = os.path.join(home, "config", "vsh", "commands")
    cache = os.path.join(home, "state", "vsh", "command-words")

    def drop_cache():
        if os.path.exists(cache):
            os.remove(cache)

    base = time_help(vsh, bare, runs)
    shipped = time_help(vsh, env, runs)
    write_files(user_commands, 200)
    errors, warnings = problems(vsh, bare)
    if errors:
        sys.exit("the generated files do not load cleanly:\n" + "\n".join(errors[:5]))
    cold = time_help(vsh, bare, max(3, runs // 4), before=drop_cache)
    time_help(vsh, bare, 1)                          # fills the cache
    warm = time_help(vsh, bare, runs)
    files = len(os.listdir(user_commands))

    print(f"{'vsh -c help (median of runs)':<46} {'wall':>9} {'added':>9} {'CPU':>9} {'added':>9}")
    print("-" * 100)

    def row(name, t, note=""):
        print(f"{name:<46} {t[0] * 1000:>7.1f}ms {(t[0] - base[0]) * 1000:>7.1f}ms "
              f"{t[1] * 1000:>7.1f}ms {(t[1] - base[1]) * 1000:>7.1f}ms  {note}")
    row("no command files (baseline)", base)
    row("the shipped keywords.commands", shipped)
    row(f"{files} command files (400 commands), warm", warm,
        f"goal ≤ 100 ms added: {'met' if warm[0] - base[0] <= 0.1 else 'NOT MET'}")
    row(f"{files} command files, cold (no word cache)", cold, "first start after a change")
    headline(f"vsh -c help, {files} command files, warm, ms", f"{warm[0] * 1000:.1f}", f"{base[0] * 1000:.1f} (no command files)")
    headline(f"vsh -c help, {files} command files, cold, ms", f"{cold[0] * 1000:.1f}", f"{base[0] * 1000:.1f} (no command files)")
    print(f"{len(warnings)} sound-alike warning(s) among the generated commands")


# ---------------------------------------------------------------- recognition

# The corpus phrase no built-in command says; loaded in both conditions.
CORPUS_COMMANDS = """
command save-transcript
    say: save transcript
    run: save
"""

# Fifty commands a person might add: apps, media, windows, timers, lists and numbers.
EXTRA_COMMANDS = [
    ("open", "open <app>", "start: /bin/true {app}"),
    ("close-window", "close [the] window", None),
    ("next-window", "next window", None),
    ("previous-window", "previous window", None),
    ("maximize", "maximize [the] window", None),
    ("minimize", "minimize [the] window", None),
    ("lock", "lock [the] screen", None),
    ("volume", "volume <number 0-99>", "exec: /bin/true {number}"),
    ("louder", "(louder | volume up)", None),
    ("quieter", "(quieter | volume down)", None),
    ("mute", "mute [the] sound", None),
    ("sound-on", "turn [the] sound on", None),
    ("next-track", "next (track | song)", None),
    ("previous-track", "previous (track | song)", None),
    ("pause", "pause [the] music", None),
    ("resume", "resume [the] music", None),
    ("shuffle", "shuffle [the] songs", None),
    ("screenshot", "take a screenshot", None),
    ("mail", "check [my] email", None),
    ("calendar", "check [my] calendar", None),
    ("weather", "what is the weather", None),
    ("clock", "what time is it", None),
    ("new-tab", "new tab", None),
    ("close-tab", "close [the] tab", None),
    ("go-back", "go back", None),
    ("go-forward", "go forward", None),
    ("scroll", "scroll <direction>", "exec: /bin/true {direction}"),
    ("page", "page <direction>", "exec: /bin/true {direction}"),
    ("zoom-in", "zoom in", None),
    ("zoom-out", "zoom out", None),
    ("copy", "copy that", None),
    ("paste", "paste that", None),
    ("select-all", "select everything", None),
    ("save-file", "save [the] file", None),
    ("find", "find [the] text", None),
    ("brighter", "brightness up", None),
    ("dimmer", "brightness down", None),
    ("bluetooth", "bluetooth <switch2>", "exec: /bin/true {switch2}"),
    ("timer", "start a timer for <number 1-60> minutes", "exec: /bin/true {number}"),
    ("alarm", "set an alarm for <number 1-12> o'clock", "exec: /bin/true {number}"),
    ("call", "call <person>", "exec: /bin/true {person}"),
    ("message", "send a message to <person>", "exec: /bin/true {person}"),
    ("news", "read [the] news", None),
    ("downloads", "open [my] downloads", None),
    ("keyboard", "switch [the] keyboard", None),
    ("dark", "dark mode", None),
    ("light", "light mode", None),
    ("sleep", "go to sleep", None),
    ("wake", "wake up", None),
    ("note", "take a note", None),
]
EXTRA_LISTS = """
list app: browser = firefox | terminal = xterm | text editor = gedit | music player = rhythmbox
list direction: up | down
list switch2: on | off
list person: mom | dad | alice | bob
"""


def extra_file():
    text = EXTRA_LISTS
    for name, say, action in EXTRA_COMMANDS:
        text += f"\ncommand {name}\n    say: {say}\n    {action or 'exec: /bin/true'}\n"
    return text


def listen_one(vsh, env):
    def one(path):
        objs, err = listen(vsh, env, path)
        if err:
            return None
        return [(o["text"], o.get("command") is not None, o.get("confidence", 0)) for o in objs]
    return one


def accepted(outcome):
    return None if outcome is None else [text for text, ok, _ in outcome if ok]


def voice_bench(vsh, home, quick, jobs):
    cache = os.path.join(ROOT, ".build", "bench-voice")
    eval_dir = require_eval(EVAL_DIR)
    corpus = ensure_corpus(os.path.join(cache, "corpus"), eval_dir)
    oog = ensure_oog(os.path.join(cache, "oog"), eval_dir)
    if quick:
        corpus, oog = subset(corpus, 10), subset(oog, 10)
    results, outcomes = {}, {}
    expected = lambda r: " | ".join(phrase(e) for e in r["expected"].split("|"))
    for label, extra in [("without", False), ("with 50 more", True)]:
        h = os.path.join(home, label.replace(" ", "-"))
        commands = os.path.join(h, "config", "vsh", "commands")
        os.makedirs(commands)
        with open(os.path.join(commands, "corpus.commands"), "w") as f:
            f.write(CORPUS_COMMANDS)
        if extra:
            with open(os.path.join(commands, "extra.commands"), "w") as f:
                f.write(extra_file())
        env = isolated_env(h)
        errors, warnings = problems(vsh, env)
        if errors:
            sys.exit(f"{label}: the command files do not load cleanly:\n" + "\n".join(errors))
        one = listen_one(vsh, env)
        with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
            heard = list(pool.map(one, [r["path"] for r in corpus]))
            false = list(pool.map(one, [r["path"] for r in oog]))
        ok = [accepted(h) is not None and " | ".join(map(phrase, accepted(h))) == expected(r) for h, r in zip(heard, corpus)]
        right = sum(ok)
        accepts = sum(bool(accepted(h)) for h in false)
        failed = sum(h is None for h in heard + false)
        results[label] = (right, len(corpus), accepts, len(oog), failed, len(warnings))
        outcomes[label] = (heard, ok)
        with open(os.path.join(cache, f"commands-{label.replace(' ', '-')}.tsv"), "w") as f:
            f.write("id\texpected\tright\theard\n")
            for r, h, good in zip(corpus, heard, ok):
                said = " ; ".join(f"{t}@{c}{'' if a else '(rej)'}" for t, a, c in h or [])
                f.write(f"{r['id']}\t{r['expected']}\t{int(good)}\t{said}\n")
    print()
    print(f"{'recognition (vsh grammar)':<34} {'accuracy':>18} {'false accepts':>18}  notes")
    print("-" * 100)
    for label, (right, n, acc, m, failed, warned) in results.items():
        print(f"{label + ' custom commands':<34} {100 * right / n:>9.1f}% ({right}/{n}) {100 * acc / m:>9.1f}% ({acc}/{m})"
              f"  {failed} failed run(s), {warned} sound-alike warning(s)")
    # Files right without the extra commands and wrong with them: misheard, or heard
    # right and then rejected (a lower confidence).
    (h0, ok0), (h1, ok1) = outcomes.values()
    lost = [i for i in range(len(corpus)) if ok0[i] and not ok1[i]]
    rejected = [i for i in lost if h1[i] is not None and " | ".join(phrase(t) for t, _, _ in h1[i]) == expected(corpus[i])]
    gained = sum(1 for i in range(len(corpus)) if ok1[i] and not ok0[i])
    print(f"with the extra commands: {len(lost)} file(s) lost ({len(rejected)} heard right but rejected, "
          f"{len(lost) - len(rejected)} misheard), {gained} gained; per file: {cache}/commands-*.tsv")
    for i in [i for i in lost if i not in rejected][:8]:
        print(f"  {corpus[i]['id']}: {corpus[i]['expected']} → {' ; '.join(t for t, _, _ in h1[i] or [])}")
    (r0, n0, a0, m0, *_), (r1, n1, a1, m1, *_) = results.values()
    da, df = 100 * (r1 / n1 - r0 / n0), 100 * (a1 / m1 - a0 / m0)
    met = abs(da) <= 1 and df <= 1
    print(f"change: accuracy {da:+.1f} points, false accepts {df:+.1f} points; goal within 1 point: {'met' if met else 'NOT MET'}")
    headline("command accuracy with 50 more commands (baseline: without)", f"{100 * r1 / n1:.1f}%", f"{100 * r0 / n0:.1f}%")
    headline("false accepts with 50 more commands (baseline: without)", f"{100 * a1 / m1:.1f}%", f"{100 * a0 / m0:.1f}%")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--vsh", default=VSH)
    ap.add_argument("--runs", type=int, default=20, help="runs per load-time figure (median)")
    ap.add_argument("--voice", action="store_true", help="also measure recognition with 50 more commands")
    ap.add_argument("--quick", action="store_true", help="with --voice: 10 files per condition")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()
    vsh = os.path.abspath(args.vsh)
    if not os.access(vsh, os.X_OK):
        sys.exit(f"{vsh} not built: run `make bench` or pass --vsh")
    home = tempfile.mkdtemp(prefix="vsh-bench-commands-")
    try:
        load_bench(vsh, os.path.join(home, "load"), args.runs)
        if args.voice:
            voice_bench(vsh, os.path.join(home, "voice"), args.quick, args.jobs)
        save("commands_load")
    finally:
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
