#!/usr/bin/env python3
"""Speaker adaptation (`vsh train --from`) per speaker, by the protocol of issue 29: the
stock model beside the model trained on the speaker's takes, right, wrong and nothing run
side by side, and how the trained models fail.

    python3 bench/train.py [--quick] [--jobs N] [--vsh PATH] [--other-people]
    python3 bench/train.py --enrolment [--takes 10,20,30,50] [--quick] [--jobs N]

Data: the Free Spoken Digit Dataset in ../shared/eval/real/fsdd (4 speakers with
different accents, 50 takes of each digit, 8 kHz), each clip padded with 0.4 s of room
noise and upsampled to 16 kHz exactly as bench/real_speech.py does (its cache is shared).

Split, per speaker, by take number (the same for every digit):
  takes 0-4    adapt: 50 clips (about 25 s of speech: what a person says in `train`),
               given to `vsh train --from DIR` with NAME.txt beside each clip;
  takes 5-24   use: the commands a person says after training (200 clips), for the model
               that also learns from use ("learned": see `learned_model`);
  takes 25-49  test: 250 clips (--quick: takes 25, 30, 35, 40, 45: 50 clips), never seen by
               any adaptation. Nothing here is tuned on them: the recipe and its settings were
               chosen before (research/adaptation) on other splits.

Each model is a column (MODELS): stock, trained on the adapt takes, and learned: trained,
then 200 commands of use and `train learn` (the takes kept and rounds are printed after
the table). Per speaker and its
fold (bench/lib/data.py `fold_of`), on the test takes:
  `vsh listen --from CLIP --json --grammar bench/real/digits.gram`: right (the one right
  digit ran: accepted-right), wrong (another digit ran: accepted-wrong), nothing (nothing
  ran) and top-1 (the recogniser's best digit, rejection ignored);
  own FA: the same clips as speech at the prompt (`listen` without --grammar, vsh's own
  commands, where a lone digit is no command; the threshold `train` calibrated on the
  adapt takes applies): the share that ran or asked to confirm a command, a false accept.
  CPU: the `vsh train --from` process and the tools it runs (goal <= 10 s).
Then, for the trained models, what vsh heard in each test clip that ran nothing (the
`text`, `confidence` and `stopped_by` of listen --json; bench/lib/vsh.py `why_nothing_ran`).

--enrolment: the curve against the number of takes. For N in --takes, the model trained on
N/10 takes of each digit (takes 0 .. N/10-1), tested on the same test takes; right and
wrong per N per speaker beside stock, and the mix of what ran nothing per N. Its models are
kept in .build/bench-train/enrolment/, apart from the main run's.

--other-people: also the model trained on the first speaker against people it was not
made for: the Speech Commands clips (bench/real_speech.py's speaker-stratified quick
subset) as speech at the prompt, accept rate of "stop" and false-accept rate of every
other clip, and dictation word error over the librivox sentences (`vsh transcribe`).

The main run keeps each speaker's store in .build/bench-train/SPEAKER and its takes in
SPEAKER-takes (bench/attention.py --trained and research/attention read them), and every
outcome in outcomes.jsonl.
"""
import argparse
import collections
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib.data import fold_of, fsdd_rows, librivox_words, prepare, prompt_rows, quick_subset  # noqa: E402
from lib.env import EVAL_DIR, GRAMMARS, ROOT, VSH, isolated_env, log, require_eval  # noqa: E402
from lib.results import headline, save  # noqa: E402
from lib.score import edit_distance  # noqa: E402
from lib.vsh import commands, json_lines, listen as vsh_listen, phrase, run, why_nothing_ran  # noqa: E402

GRAMMAR = os.path.join(GRAMMARS, "digits.gram")
OUT = os.path.join(ROOT, ".build", "bench-train")
REAL_CACHE = os.path.join(ROOT, ".build", "bench-real")
ADAPT_TAKES = range(0, 5)
USE_TAKES = range(5, 25)  # reserved: "trained + learned from use" feeds these
TEST_TAKES = range(25, 50)
QUICK_TEST_TAKES = range(25, 50, 5)


def take_of(row):
    return int(row["id"].split("_")[2])


class Split:
    """Each speaker's clips by role: adapt, use and test (lists of rows)."""
    def __init__(self, rows, adapt_takes, quick):
        test_takes = QUICK_TEST_TAKES if quick else TEST_TAKES
        self.speakers = sorted({r["speaker"] for r in rows})
        pick = lambda s, takes: [r for r in rows if r["speaker"] == s and take_of(r) in takes]  # noqa: E731
        self.adapt = {s: pick(s, adapt_takes) for s in self.speakers}
        self.use = {s: pick(s, USE_TAKES) for s in self.speakers}
        self.test = {s: pick(s, test_takes) for s in self.speakers}


# ---------------------------------------------------------------- the models

def write_takes(rows, directory):
    """Links each clip into DIRECTORY as ID.wav with ID.txt holding its words."""
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(directory)
    for r in rows:
        os.symlink(r["path"], os.path.join(directory, r["id"] + ".wav"))
        with open(os.path.join(directory, r["id"] + ".txt"), "w") as f:
            f.write(r["expected"] + "\n")


def train(vsh, env, takes):
    """`vsh train --from TAKES`; CPU seconds of the process and the tools it ran."""
    with open(takes + ".log", "w") as log_file:
        p = subprocess.Popen([vsh, "train", "--from", takes], env=env, stdout=log_file, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit(f"vsh train --from {takes} failed ({p.returncode}): see {takes}.log")
    return usage.ru_utime + usage.ru_stime


def stock_model(vsh, split, speaker, home):
    """The stock model: an empty store. (env, no CPU)"""
    return isolated_env(os.path.join(os.path.dirname(home), "stock")), None


def trained_model(vsh, split, speaker, home):
    """Trained on the speaker's adapt takes: (env, CPU seconds of training)."""
    shutil.rmtree(home, ignore_errors=True)
    env = isolated_env(home)
    write_takes(split.adapt[speaker], home + "-takes")
    return env, train(vsh, env, home + "-takes")


DIGIT_COMMANDS = "command digit\n    summary: A digit said alone\n    say: <digit>\n    exec: true\n"
CLEAR = 0.9  # UseLearning.clearConfidence: a command heard at least this surely is kept
LEARNING = {}  # speaker -> what learning from use did, for the report


def learned_model(vsh, split, speaker, home):
    """The trained model (a copy of its home), then 200 commands of use: each of the
    speaker's use takes (5-24) is said at the prompt, where a command file makes a lone
    digit a command. `vsh listen` (no --grammar) decides it exactly as the prompt does,
    with every attention check and the speaker check; one that runs, heard at >= CLEAR, is
    kept as a take with the words heard, as `UseLearning` keeps it from the history (this
    bench says no `undo`), and `vsh train learn` runs whenever the commands not yet learnt
    reach a multiple of 20, as vsh runs it in the background. The command file is removed
    before testing, so the test hears the digits as the other columns do.
    (env, None); the CPU of the rounds is in LEARNING."""
    learned = home + "-learned"
    shutil.rmtree(learned, ignore_errors=True)
    shutil.copytree(home, learned, symlinks=True)
    env = isolated_env(learned)
    commands_dir = os.path.join(env["XDG_CONFIG_HOME"], "vsh", "commands")
    os.makedirs(commands_dir, exist_ok=True)
    command_file = os.path.join(commands_dir, "digits.commands")
    with open(command_file, "w") as f:
        f.write(DIGIT_COMMANDS)
    training = os.path.join(env["XDG_DATA_HOME"], "vsh", "training")
    kept = wrong_words = 0
    rounds = []

    def unlearned():
        objs, err = json_lines(*run([vsh, "train", "status", "--json"], env))
        if err:
            sys.exit(f"vsh train status --json failed: {err}")
        return objs[0].get("unlearned", 0)

    def learn():
        with open(learned + "-learn.log", "a") as log_file:
            p = subprocess.Popen([vsh, "train", "learn"], env=env, stdout=log_file, stderr=subprocess.STDOUT)
            _, status, usage = os.wait4(p.pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit(f"vsh train learn failed: see {learned}-learn.log")
        with open(learned + "-learn.log") as f:
            last = f.read().strip().splitlines()[-1]
        if "learning needs" not in last:
            rounds.append((usage.ru_utime + usage.ru_stime, "stays" not in last))

    for i, r in enumerate(split.use[speaker]):
        objs, err = vsh_listen(vsh, env, r["path"])
        if err:
            sys.exit(f"vsh listen --from {r['path']} failed: {err}")
        ran = [o for o in objs if o.get("command") is not None and o.get("confidence", 0) >= CLEAR]
        if len(ran) != 1:
            continue
        kept += 1
        wrong_words += phrase(ran[0]["text"]) != r["expected"]
        name = f"use-bench{i:04d}"
        shutil.copy(r["path"], os.path.join(training, name + ".wav"))
        with open(os.path.join(training, name + ".txt"), "w") as f:
            f.write(ran[0]["text"] + "\n")
        # As the prompt starts a round (UseLearning): at each 20 commands not yet learnt.
        waiting = unlearned()
        if waiting >= 20 and waiting % 20 == 0:
            learn()
    os.remove(command_file)
    LEARNING[speaker] = dict(used=len(split.use[speaker]), kept=kept, wrong_words=wrong_words,
                             rounds=len(rounds), replaced=sum(r for _, r in rounds),
                             cpu=max((c for c, _ in rounds), default=0.0))
    return env, None


def print_learning(split):
    """What learning from use kept and did, per speaker."""
    print("\nlearning from use (the speaker's takes 5-24 said as commands, then `train learn` to the end):")
    for s in split.speakers:
        if s in LEARNING:
            d = LEARNING[s]
            print(f"  {s:<10} kept {d['kept']} of {d['used']} commands ({d['wrong_words']} with other words than said); "
                  f"{d['rounds']} rounds, {d['replaced']} put the new model in use; the longest round {d['cpu']:.1f} s CPU")


# The columns, in order: a name and a function (vsh, split, speaker, home) -> (env, CPU
# seconds or None) that makes the model in the isolated home HOME ("learned" starts from
# "trained"'s home, so it comes after it).
MODELS = [("stock", stock_model), ("trained", trained_model), ("learned", learned_model)]


# ---------------------------------------------------------------- measuring

def hear(vsh, env, rows, jobs, prompt=True):
    """{row id: {"digits": listen --json objects against the digit grammar, "prompt": the
    same without --grammar (when `prompt`)}}; a failed run stops the benchmark."""
    def one(row):
        out = {}
        for key, grammar in [("digits", GRAMMAR)] + ([("prompt", None)] if prompt else []):
            objs, err = vsh_listen(vsh, env, row["path"], grammar)
            if err:
                sys.exit(f"vsh listen --from {row['path']} failed: {err}")
            out[key] = objs
        return row["id"], out
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        return dict(pool.map(one, rows))


def outcome(row, heard):
    """right, wrong or nothing: what ran of the digit grammar for this clip."""
    ran = [phrase(c) for c in commands(heard["digits"])]
    return "nothing" if not ran else "right" if ran == [row["expected"]] else "wrong"


def tally(rows, heard):
    """Percentages of rows: right, wrong, nothing, top-1, own FA (None without prompt runs)."""
    n = len(rows)
    kinds = collections.Counter(outcome(r, heard[r["id"]]) for r in rows)
    top = sum(next((phrase(o["text"]) for o in heard[r["id"]]["digits"] if o.get("text")), "") == r["expected"]
              for r in rows)
    has_prompt = all("prompt" in heard[r["id"]] for r in rows)
    fa = sum(bool(commands(heard[r["id"]]["prompt"])) for r in rows) if has_prompt else None
    pc = lambda k: 100 * k / n  # noqa: E731
    return dict(right=pc(kinds["right"]), wrong=pc(kinds["wrong"]), nothing=pc(kinds["nothing"]), top=pc(top),
                fa=None if fa is None else pc(fa), n=n)


def failures(rows, heard):
    """(Counter of why nothing ran, Counter of the words heard in those clips)."""
    why, words = collections.Counter(), collections.Counter()
    for r in rows:
        h = heard[r["id"]]
        if outcome(r, h) == "nothing":
            reason = why_nothing_ran(h["digits"])
            if len(h["digits"]) == 1:
                said = phrase(h["digits"][0].get("text", "")).split()
                reason += ": the right digit" if said == [r["expected"]] else \
                    ": the right digit among others" if r["expected"] in said else ": not the right digit"
            why[reason] += 1
            words[" ; ".join(phrase(o.get("text", "")) for o in h["digits"]) or "-"] += 1
    return why, words


# ---------------------------------------------------------------- printing

def fmt(t):
    fa = "" if t["fa"] is None else f" {t['fa']:5.1f}"
    return f"{t['right']:5.1f} {t['wrong']:4.1f} {t['nothing']:4.1f} {t['top']:5.1f}{fa}"


def print_table(split, results, cpu, names):
    """One line per speaker, the models side by side; a mean per fold and overall."""
    head = "right wrong none top-1 ownFA"
    print(f"{'speaker':<10} {'fold':>4}  " + "  ".join(f"{n + ':':<29}" for n in names) + "  train CPU")
    print(f"{'':<10} {'':>4}  " + "  ".join(f"{head:<29}" for _ in names))
    for s in split.speakers:
        cells = "  ".join(f"{fmt(results[n][s]):<29}" for n in names)
        print(f"{s:<10} {fold_of(s):>4}  {cells}  {cpu[s]:6.1f} s")
    groups = [(f"fold {f}", [s for s in split.speakers if fold_of(s) == f]) for f in (0, 1)] + [("mean", split.speakers)]
    for label, members in groups:
        if not members:
            continue
        mean = {n: {k: sum(results[n][s][k] for s in members) / len(members) for k in ("right", "wrong", "nothing", "top", "fa")}
                for n in names}
        cells = "  ".join(f"{fmt(mean[n]):<29}" for n in names)
        print(f"{label:<10} {'':>4}  {cells}  {sum(cpu[s] for s in members) / len(members):6.1f} s")


def print_failures(title, split, fails):
    """Why nothing ran, per speaker and in all; the commonest things heard."""
    reasons = sorted({k for why, _ in fails.values() for k in why}, key=lambda k: -sum(fails[s][0][k] for s in fails))
    print(f"\n{title}: test clips that ran nothing, by why (bench/lib/vsh.py why_nothing_ran)")
    print(f"{'':<50}" + "".join(f"{s:>10}" for s in split.speakers) + f"{'all':>8}")
    for k in reasons:
        counts = [fails[s][0][k] for s in split.speakers]
        print(f"  {k:<48}" + "".join(f"{c:>10}" for c in counts) + f"{sum(counts):>8}")
    heard = collections.Counter()
    for _, words in fails.values():
        heard.update(words)
    print("  heard most often in them: " + ", ".join(f"'{w}' {c}" for w, c in heard.most_common(12)))


# ---------------------------------------------------------------- the runs

def main_table(args, rows):
    split = Split(rows, ADAPT_TAKES, args.quick)
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    names = [n for n, _ in MODELS]
    results, heard, cpu, started = {n: {} for n in names}, {n: {} for n in names}, {}, time.time()
    for s in split.speakers:
        for name, make in MODELS:
            t0 = time.time()
            env, seconds = make(args.vsh, split, s, os.path.join(OUT, s))
            if seconds is not None:
                cpu[s] = seconds
                log(f"{s}: {name} on {len(split.adapt[s])} takes in {time.time() - t0:.1f} s ({seconds:.1f} s CPU)")
            heard[name][s] = hear(args.vsh, env, split.test[s], args.jobs)
            results[name][s] = tally(split.test[s], heard[name][s])
            log(f"{s}: {name} heard {len(split.test[s])} test clips ({time.time() - started:.0f} s so far)")
    with open(os.path.join(OUT, "outcomes.jsonl"), "w") as f:
        for name in names:
            for s in split.speakers:
                for r in split.test[s]:
                    f.write(json.dumps(dict(model=name, speaker=s, id=r["id"], expected=r["expected"],
                                            outcome=outcome(r, heard[name][s][r["id"]]), **heard[name][s][r["id"]])) + "\n")
    n = len(split.test[split.speakers[0]])
    print(f"\nfsdd digits per speaker: trained on takes 0-4 (50 clips), tested on takes 25-49 "
          f"({'every 5th, ' if args.quick else ''}{n} clips per speaker; takes 5-24 said as commands for 'learned'). Percent of the test clips: "
          "right = the right digit ran, wrong = another ran, none = nothing ran, top-1 = best digit heard, "
          "ownFA = the clip ran a command at the prompt")
    print_table(split, results, cpu, names)
    for name in names[1:]:
        print_failures(f"{name} (test takes)", split, {s: failures(split.test[s], heard[name][s]) for s in split.speakers})
    worst = min(results["trained"][s]["right"] for s in split.speakers)
    most_wrong = max(results["trained"][s]["wrong"] for s in split.speakers)
    print_learning(split)
    print(f"\ngoals (test takes): every speaker >= 95% right after 50 takes (worst {worst:.1f}), <= 2% wrong "
          f"(most {most_wrong:.1f}); adaptation <= 10 s CPU (most {max(cpu.values()):.1f} s)")
    if "learned" in results:
        gaps = [(s, results["trained"][s]["right"], results["learned"][s]["right"]) for s in split.speakers]
        print("after 200 commands of use: not lower than after train, and higher where train left a gap: "
              + ", ".join(f"{s} {a:.1f} -> {b:.1f}" for s, a, b in gaps))
    log(f"main table: {time.time() - started:.0f} s wall")
    mean = {n: {k: sum(results[n][s][k] for s in split.speakers) / len(split.speakers) for k in ("right", "wrong")}
            for n in names}
    for name in names[1:]:
        headline(f"fsdd digits, {name}: right, mean of speakers (baseline: stock model)",
                 f"{mean[name]['right']:.1f}%", f"{mean['stock']['right']:.1f}%")
        headline(f"fsdd digits, {name}: wrong, mean of speakers (baseline: stock model)",
                 f"{mean[name]['wrong']:.1f}%", f"{mean['stock']['wrong']:.1f}%")
    headline("fsdd digits, trained: right, worst speaker", f"{worst:.1f}%",
             f"{min(results['stock'][s]['right'] for s in split.speakers):.1f}% (stock model)")
    headline("adaptation CPU, most of the speakers, s", f"{max(cpu.values()):.1f}")
    if args.other_people:
        other_people(args, split.speakers[0])
    save("train")


def enrolment(args, rows):
    """The curve: accuracy against the number of takes trained on."""
    counts = [int(n) for n in args.takes.split(",")]
    if any(n % 10 or not 10 <= n <= 50 for n in counts):
        sys.exit("--takes: multiples of 10 from 10 to 50 (N/10 takes of each digit)")
    base = os.path.join(OUT, "enrolment")
    shutil.rmtree(base, ignore_errors=True)
    os.makedirs(base)
    started = time.time()
    split = Split(rows, ADAPT_TAKES, args.quick)
    stock = {s: tally(split.test[s], hear(args.vsh, isolated_env(os.path.join(base, "stock")), split.test[s], args.jobs,
                                          prompt=False)) for s in split.speakers}
    log(f"stock heard ({time.time() - started:.0f} s so far)")
    results, cpu, fails = {}, {}, {}
    for n in counts:
        split = Split(rows, range(n // 10), args.quick)
        results[n], cpu[n], fails[n] = {}, {}, {}
        for s in split.speakers:
            home = os.path.join(base, f"{n}", s)
            env, cpu[n][s] = trained_model(args.vsh, split, s, home)
            heard = hear(args.vsh, env, split.test[s], args.jobs)
            results[n][s], fails[n][s] = tally(split.test[s], heard), failures(split.test[s], heard)
            log(f"{n} takes, {s}: {cpu[n][s]:.1f} s CPU to train, right {results[n][s]['right']:.1f} "
                f"({time.time() - started:.0f} s so far)")
    m = len(split.test[split.speakers[0]])
    print(f"\nenrolment curve, fsdd digits: trained on N takes (N/10 of each digit: takes 0 .. N/10-1), tested on takes "
          f"25-49 ({'every 5th, ' if args.quick else ''}{m} clips per speaker); right % / wrong %, own FA % at the prompt")
    print(f"{'speaker':<10} {'fold':>4} {'stock':>11}" + "".join(f"{f'N={n}':>19}" for n in counts))
    for s in split.speakers:
        print(f"{s:<10} {fold_of(s):>4} {stock[s]['right']:5.1f}/{stock[s]['wrong']:4.1f}"
              + "".join(f"   {results[n][s]['right']:5.1f}/{results[n][s]['wrong']:4.1f} {results[n][s]['fa']:5.1f}"
                        for n in counts))
    mean = lambda d, k: sum(d[s][k] for s in split.speakers) / len(split.speakers)  # noqa: E731
    print(f"{'mean':<10} {'':>4} {mean(stock, 'right'):5.1f}/{mean(stock, 'wrong'):4.1f}"
          + "".join(f"   {mean(results[n], 'right'):5.1f}/{mean(results[n], 'wrong'):4.1f} {mean(results[n], 'fa'):5.1f}"
                    for n in counts))
    print(f"{'worst':<10} {'':>4} {min(stock[s]['right'] for s in split.speakers):5.1f}{'':5}"
          + "".join(f"   {min(results[n][s]['right'] for s in split.speakers):5.1f}{'':11}" for n in counts))
    print(f"{'train CPU':<10} {'':>4} {'':>11}" + "".join(f"{f'max {max(cpu[n].values()):.1f} s':>19}" for n in counts))
    for n in counts:
        print_failures(f"trained on {n} takes (test takes)", split, fails[n])
    log(f"enrolment curve: {time.time() - started:.0f} s wall")


def prompt_accepts(vsh, env, rows, jobs):
    """(accept % of "stop", false-accept % of the rest, how many of each) against vsh's
    own commands, as at the prompt: `listen` without --grammar."""
    def one(row):
        objs, _ = vsh_listen(vsh, env, row["path"])
        return row, [phrase(c) for c in commands(objs or [])]
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        results = list(pool.map(one, rows))
    stops = [acc for r, acc in results if r["expected"] == "stop"]
    others = [acc for r, acc in results if r["expected"] != "stop"]
    return (100 * sum("stop" in a for a in stops) / max(1, len(stops)),
            100 * sum(bool(a) for a in others) / max(1, len(others)), len(stops), len(others))


def librivox_wer(vsh, env):
    librivox = os.path.join(EVAL_DIR, "real", "librivox")
    errors = words = 0
    for name, ref in sorted(librivox_words().items()):
        objs, _ = json_lines(*run([vsh, "transcribe", os.path.join(librivox, name + ".wav"), "--json"], env))
        hyp = " ".join(o.get("text", "") for o in objs or []).lower().split()
        errors += edit_distance(ref, hyp)
        words += len(ref)
    return 100 * errors / words


def other_people(args, first):
    """The model trained on `first` beside the stock model, on people it was not made for."""
    log(f"people it was not made for: Speech Commands at the prompt, librivox dictation (stock and trained on {first})")
    sc = quick_subset(prepare(prompt_rows(), REAL_CACHE))
    stock_env, first_env = isolated_env(os.path.join(OUT, "stock")), isolated_env(os.path.join(OUT, first))
    sc_stock, sc_trained = prompt_accepts(args.vsh, stock_env, sc, args.jobs), prompt_accepts(args.vsh, first_env, sc, args.jobs)
    wer_stock, wer_trained = librivox_wer(args.vsh, stock_env), librivox_wer(args.vsh, first_env)
    print(f"\nother people, model trained on {first} beside the stock model:")
    print(f"  Speech Commands at the prompt, other speakers ({sc_stock[2]} 'stop', {sc_stock[3]} others): "
          f"'stop' accepted {sc_stock[0]:.1f}% -> {sc_trained[0]:.1f}%, other clips falsely accepted "
          f"{sc_stock[1]:.1f}% -> {sc_trained[1]:.1f}%")
    print(f"  librivox dictation WER: {wer_stock:.1f}% -> {wer_trained:.1f}%")
    headline("other people at the prompt: 'stop' accepted (baseline: stock model)", f"{sc_trained[0]:.1f}%", f"{sc_stock[0]:.1f}%")
    headline("other people at the prompt: other clips run (baseline: stock model)", f"{sc_trained[1]:.1f}%", f"{sc_stock[1]:.1f}%")
    headline("other people: librivox dictation WER (baseline: stock model)", f"{wer_trained:.1f}%", f"{wer_stock:.1f}%")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vsh", default=VSH)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--quick", action="store_true", help="every 5th test take (50 per speaker)")
    ap.add_argument("--enrolment", action="store_true", help="the curve against the number of takes, not the main table")
    ap.add_argument("--takes", default="10,20,30,50", help="with --enrolment: the numbers of takes (default 10,20,30,50)")
    ap.add_argument("--other-people", action="store_true",
                    help="also Speech Commands and librivox with the model trained on the first speaker")
    args = ap.parse_args()
    require_eval(EVAL_DIR)
    rows = prepare(fsdd_rows(), REAL_CACHE)
    (enrolment if args.enrolment else main_table)(args, rows)


if __name__ == "__main__":
    main()
