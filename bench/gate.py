#!/usr/bin/env python3
"""After `train`, does vsh still answer its own person, and only them? Both sides of the
gate at once, at the prompt's decisions (issue 34).

    python3 bench/gate.py [--every N] [--sc-every N] [--jobs N] [--vsh PATH] [--out DIR]
                          [--speakers a,b] [--no-check] [--no-synthetic]

Real voices: the Free Spoken Digit Dataset (../shared/eval/real/fsdd: 4 speakers with
different accents, 50 takes of each digit, 8 kHz). Folds by speaker, crc32(speaker) % 2
(bench/lib/data.py `fold_of`): george, lucas and yweweler are fold 0, jackson fold 1.
Nothing here is tuned: the speaker check's margin was chosen on fold 0 before this ran
(research/attention/SPEAKER.md), so jackson's figures are held out for it, and every
model column is held out for the test takes.

Per speaker, in an isolated home whose command file makes each digit a command (so a
digit said alone is one, as the issue's protocol has it), three models:
  stock    the stock model;
  trained  `vsh train --from` the speaker's takes 0-4 (50 clips), each padded with 0.4 s of
           its own room noise and upsampled to 16 kHz with sox (bench/lib/data.py
           `prepare`), with vsh's default settings;
  check    the same with `voice.speaker_check = true` (off by default): `train` calibrates
           the check, or leaves it off and says why.
Then every Nth of the speaker's takes 25-49 (never trained on) is said at the prompt:
clips joined into one stream with 2 s of quiet before each, heard by `vsh listen --from
STREAM --json` (no --grammar: the prompt's grammar, its decisions, every check, always
mode). Two recordings of the same clips:
  takes'   processed as the takes were (padded, sox to 16 kHz);
  as rec.  the 8 kHz file as recorded, resampled by vsh itself, with no room noise around
           it: another lead-in, level and resampler than the takes (the way a person's
           set-up changes from one day to the next).
Per speaker and model: own right (the clip ran its own digit) and own stopped by the
speaker check; other people on the same kind of microphone: the other three fsdd
speakers' same takes (processed as the takes), the share that ran any command and the
share the speaker check stopped. Then other people elsewhere: every --sc-every'th Speech
Commands clip (many speakers and microphones; words, mostly no command), each after 2 s
of quiet, false runs per hour of that stream for each model ("stop", the one command
among them, not counted).

Synthetic voices: espeak-ng's en-us voice says the training script's phrases (`train
status --json`'s `script`), `train --from` them (default settings, and with the check);
then ten short commands, each after 2 s of quiet, by the same voice and by two others
(espeak-ng en-gb-x-rp, flite slt): how many ran.
"""
import argparse
import collections
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib.audio import noise, read_audio, write_wav  # noqa: E402
from lib.data import fold_of, fsdd_rows, prepare, speech_commands_rows  # noqa: E402
from lib.env import ROOT, VSH, isolated_env, log  # noqa: E402
from lib.results import headline, save  # noqa: E402
from lib.vsh import json_lines, phrase, run  # noqa: E402

REAL_CACHE = os.path.join(ROOT, ".build", "bench-real")
DIGIT_COMMANDS = "command digit\n    summary: A digit said alone\n    say: <digit>\n    exec: true\n"
GAP = 2.0  # seconds of quiet before each clip: every word is said on its own
SHORT = ["list", "help", "history", "show one", "drafts", "trash", "record", "reload", "quality high", "listen off"]
OTHER_VOICES = [("espeak-ng", "en-gb-x-rp"), ("flite", "slt")]


def take_of(row):
    return int(row["id"].split("_")[2])


def home_for(out, name, check, digits=True):
    """An isolated home (the digit command file; `voice.speaker_check` as `check`)."""
    home = os.path.join(out, name)
    shutil.rmtree(home, ignore_errors=True)
    env = isolated_env(home)
    config = os.path.join(env["XDG_CONFIG_HOME"], "vsh")
    os.makedirs(os.path.join(config, "commands"))
    if digits:
        with open(os.path.join(config, "commands", "digits.commands"), "w") as f:
            f.write(DIGIT_COMMANDS)
    with open(os.path.join(config, "vsh.toml"), "w") as f:
        f.write(f"[voice]\nspeaker_check = {'true' if check else 'false'}\n")
    return env


def train(vsh, env, takes, directory):
    """`vsh train --from` the (path, words) `takes`; what it printed."""
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(directory)
    for i, (path, words) in enumerate(takes):
        os.symlink(path, os.path.join(directory, f"take{i:03d}.wav"))
        with open(os.path.join(directory, f"take{i:03d}.txt"), "w") as f:
            f.write(words + "\n")
    rc, out, err = run([vsh, "train", "--from", directory], env, timeout=3600)
    with open(directory + ".log", "w") as f:
        f.write(out + err)
    if rc != 0:
        sys.exit(f"vsh train --from {directory} failed: see {directory}.log")
    return out


def quiet(rate, seed):
    """GAP seconds of a faint noise, 70 dB under full scale."""
    return noise(int(GAP * rate), -70, np.random.default_rng(seed))


def stream(clips, rate, path, seed):
    """The clips (float samples at `rate`) joined, each after GAP seconds of quiet; each
    clip's (start, end) in seconds."""
    parts, spans, t = [], [], 0.0
    for i, x in enumerate(clips):
        parts += [quiet(rate, seed * 100_000 + i), x]
        t += GAP
        spans.append((t, t + len(x) / rate))
        t += len(x) / rate
    parts.append(quiet(rate, seed))
    write_wav(path, np.concatenate(parts), rate)
    return spans


def listen(vsh, env, path):
    objs, err = json_lines(*run([vsh, "listen", "--from", path, "--json"], env, timeout=3600))
    if err:
        sys.exit(f"vsh listen --from {path} failed: {err}")
    return objs


def by_clip(objs, spans):
    """The utterances overlapping each clip."""
    out = [[] for _ in spans]
    for o in objs:
        for i, (a, b) in enumerate(spans):
            if o["start"] < b + 0.3 and o["end"] > a - 0.3:
                out[i].append(o)
                break
    return out


def ran(objs):
    return [o for o in objs if o.get("decision") in ("run", "confirm")]


def tally(expected, heard):
    """Counts over clips: right (its own words ran), any (something ran), speaker (the
    speaker check stopped one of its utterances), and stopped:CHECK for utterances heard as
    the clip's own words that ran nothing."""
    c = collections.Counter(n=len(expected))
    for words, objs in zip(expected, heard):
        r = ran(objs)
        c["any"] += bool(r)
        c["right"] += any(phrase(o.get("text", "")) == words for o in r)
        c["speaker"] += any(o.get("stopped_by") == "other-speaker" for o in objs)
        for o in objs:
            if o.get("decision") == "ignore" and phrase(o.get("text", "")) == words:
                c["stopped:" + str(o.get("stopped_by"))] += 1
    return c


def pc(c, k):
    return 100 * c[k] / max(1, c["n"])


def said(out):
    """What `train` said of the held-out takes and the speaker check."""
    keep = ("Heard by models", "At the prompt", "speaker check", "Spoken commands must")
    return [line.strip() for line in out.splitlines() if any(k in line for k in keep)]


def real(args, models):
    rows = prepare(fsdd_rows(), REAL_CACHE)
    speakers = sorted({r["speaker"] for r in rows})
    chosen = [s for s in speakers if not args.speakers or s in args.speakers.split(",")]
    test = {s: [r for r in rows if r["speaker"] == s and take_of(r) >= 25 and (take_of(r) - 25) % args.every == 0]
            for s in speakers}
    streams, spans = {}, {}
    for i, s in enumerate(speakers):
        for v, key, rate in (("takes", "path", 16000), ("recorded", "src", 8000)):
            streams[s, v] = os.path.join(args.out, f"{s}-{v}.wav")
            spans[s, v] = stream([read_audio(r[key], rate) for r in test[s]], rate, streams[s, v], 2 * i + (v == "recorded"))
    sc = [r for r in speech_commands_rows() if r["cls"] != "_silence_"][::args.sc_every]
    sc_path = os.path.join(args.out, "sc.wav")
    sc_spans = stream([read_audio(r["src"], 16000) for r in sc], 16000, sc_path, 99)
    sc_hours = (sc_spans[-1][1] + GAP) / 3600

    envs = {"stock": home_for(args.out, "stock", False)}
    printed = {}

    def train_one(job):
        s, model = job
        env = home_for(args.out, f"{s}-{model}", model == "check")
        takes = [(r["path"], r["expected"]) for r in rows if r["speaker"] == s and take_of(r) < 5]
        return job, env, train(args.vsh, env, takes, os.path.join(args.out, f"{s}-{model}-takes"))

    log(f"training {len(chosen)} speakers × {len(models) - 1} models")
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for job, env, out in pool.map(train_one, [(s, m) for s in chosen for m in models if m != "stock"]):
            envs[job], printed[job] = env, out

    def env_of(model, s):
        return envs["stock"] if model == "stock" else envs[s, model]

    # The stock model hears each stream once; each trained one its own speaker's both ways
    # and the other speakers' as the takes were processed.
    jobs = [("stock", s2, s2, "takes") for s2 in speakers] + [("stock", s, s, "recorded") for s in chosen]
    jobs += [(m, s, s2, v) for s in chosen for m in models if m != "stock" for s2 in speakers for v in ("takes", "recorded")
             if s2 == s or v == "takes"]
    jobs += [(m, s, "sc", "sc") for s in chosen for m in models if m != "stock"] + [("stock", None, "sc", "sc")]

    def hear(job):
        model, s, s2, v = job
        if s2 == "sc":
            return job, by_clip(listen(args.vsh, env_of(model, s), sc_path), sc_spans)
        return job, by_clip(listen(args.vsh, env_of(model, s), streams[s2, v]), spans[s2, v])

    log(f"hearing {len(jobs)} streams")
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        heard = dict(pool.map(hear, jobs))

    n = len(next(iter(test.values())))
    print(f"\nbench/gate.py, real voices: fsdd, trained on takes 0-4, tested on every {args.every}th of takes 25-49 "
          f"({n} clips a speaker), each said alone, at the prompt's decisions (vsh listen, always mode)")
    print("own: % of the speaker's own digits that ran right, (% the speaker check stopped); "
          "others: % of the other 3 speakers' same digits that ran, (% the speaker check stopped)\n")
    cols = " → ".join(models)
    print(f"| speaker (fold) | own, processed as the takes: {cols} | own, as recorded: {cols} | others, same kind of microphone: {cols} |")
    print("|---|---|---|---|")
    results = {}
    for s in chosen:
        own_t = {m: tally([r["expected"] for r in test[s]], heard[(m, s, s, "takes")]) for m in models}
        own_r = {m: tally([r["expected"] for r in test[s]], heard[(m, s, s, "recorded")]) for m in models}
        others = {}
        for m in models:
            c = collections.Counter()
            for s2 in speakers:
                if s2 != s:
                    c += tally([r["expected"] for r in test[s2]], heard[(m, s2 if m == "stock" else s, s2, "takes")])
            others[m] = c
        cell = lambda d, k: " → ".join(f"{pc(d[m], k):.0f}" + (f" ({pc(d[m], 'speaker'):.0f})" if pc(d[m], "speaker") else "")  # noqa: E731
                                       for m in models)
        print(f"| {s} ({fold_of(s)}) | {cell(own_t, 'right')} | {cell(own_r, 'right')} | {cell(others, 'any')} |")
        results[s] = dict(fold=fold_of(s), own_takes={m: pc(own_t[m], "right") for m in models},
                          own_recorded={m: pc(own_r[m], "right") for m in models},
                          own_speaker={m: pc(own_t[m] + own_r[m], "speaker") for m in models},
                          others={m: pc(others[m], "any") for m in models},
                          others_speaker={m: pc(others[m], "speaker") for m in models},
                          stopped_own={m: {k[8:]: v for k, v in (own_t[m] + own_r[m]).items() if k.startswith("stopped:")}
                                       for m in models})
    print("\nwhat stopped the speaker's own digit heard right, both recordings:")
    for s in chosen:
        for m in models:
            print(f"  {s:<10} {m:<8} " + (", ".join(f"{k} {v}" for k, v in sorted(results[s]["stopped_own"][m].items())) or "-"))
    print(f"\nother people elsewhere: {len(sc)} Speech Commands clips each said alone ({sc_hours * 60:.0f} min): "
          "false runs per hour (\"stop\" not counted) and what ran")
    sc_runs = {}
    for job, objs in heard.items():
        if job[2] == "sc":
            sc_runs[job[0], job[1]] = [o for clip in objs for o in ran(clip) if phrase(o.get("text", "")) != "stop"]
    print(f"  {'stock':<20} {len(sc_runs['stock', None]) / sc_hours:6.1f}   "
          + ", ".join(sorted({o['command'] for o in sc_runs['stock', None]})))
    for s in chosen:
        for m in models:
            if m != "stock":
                print(f"  {s + ' ' + m:<20} {len(sc_runs[m, s]) / sc_hours:6.1f}   " + ", ".join(sorted({o['command'] for o in sc_runs[m, s]})))
                results[s][f"sc_per_hour_{m}"] = len(sc_runs[m, s]) / sc_hours
        results[s]["sc_per_hour_stock"] = len(sc_runs["stock", None]) / sc_hours
    print("\nwhat train said:")
    for (s, m), out in sorted(printed.items()):
        for line in said(out):
            print(f"  {s} {m}: {line}")
    return results


def synthesise(engine, voice, text, path):
    if engine == "espeak-ng":
        subprocess.run(["espeak-ng", "-v", voice, "-s", "150", "-w", path, text], check=True, capture_output=True)
    else:
        subprocess.run(["flite", "-voice", voice, "-t", text, "-o", path], check=True, capture_output=True)


def synthetic(args, models):
    work = os.path.join(args.out, "synthetic")
    os.makedirs(work, exist_ok=True)
    probe = home_for(args.out, "script", False, digits=False)
    objs, err = json_lines(*run([args.vsh, "train", "status", "--json"], probe))
    if err:
        sys.exit(f"vsh train status --json failed: {err}")
    script = objs[0]["script"]
    takes = []
    for i, text in enumerate(script):
        path = os.path.join(work, f"script{i:03d}.wav")
        synthesise("espeak-ng", "en-us", text, path)
        takes.append((path, text))
    voices = [("espeak-ng", "en-us")] + OTHER_VOICES
    streams = {}
    for engine, voice in voices:
        clips = []
        for i, text in enumerate(SHORT):
            path = os.path.join(work, f"{voice}-{i}.wav")
            synthesise(engine, voice, text, path)
            clips.append(read_audio(path, 16000))
        path = os.path.join(work, f"{voice}-short.wav")
        streams[voice] = (path, stream(clips, 16000, path, 7))
    results = {}
    print(f"\nbench/gate.py, synthetic voices: espeak-ng en-us trained on the {len(script)} script phrases; "
          f"{len(SHORT)} short commands each said alone: how many ran")
    print(f"| model | " + " | ".join(f"{v} ({'own' if i == 0 else 'another voice'})" for i, (_, v) in enumerate(voices)) + " |")
    print("|---" * (len(voices) + 1) + "|")
    for m in models:
        env = home_for(args.out, f"synthetic-{m}", m == "check", digits=False)
        out = "" if m == "stock" else train(args.vsh, env, takes, os.path.join(work, f"{m}-takes"))
        row = {}
        for _, voice in voices:
            path, spans = streams[voice]
            c = tally(SHORT, by_clip(listen(args.vsh, env, path), spans))
            row[voice] = (c["right"], c["speaker"])
        print(f"| {m} | " + " | ".join(f"{r}/{len(SHORT)}" + (f" ({k} other-speaker)" if k else "") for r, k in row.values()) + " |")
        for line in said(out):
            print(f"  {m}: {line}")
        results[m] = row
    return results


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vsh", default=VSH)
    ap.add_argument("--every", type=int, default=5, help="every Nth test take (default 5: 50 clips a speaker)")
    ap.add_argument("--sc-every", type=int, default=6, help="every Nth Speech Commands clip (default 6: about 270)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--speakers", default="")
    ap.add_argument("--out", default=os.path.join(ROOT, ".build", "bench-gate"))
    ap.add_argument("--no-check", action="store_true", help="without the column that asks for the speaker check")
    ap.add_argument("--no-synthetic", action="store_true")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    models = ["stock", "trained"] + ([] if args.no_check else ["check"])
    results = {"real": real(args, models)}
    if not args.no_synthetic:
        results["synthetic"] = synthetic(args, models)
    # Headline figures: the trained model beside the stock one, means over the speakers.
    real_results = results["real"].values()
    mean = lambda key, m: sum(r[key][m] for r in real_results) / max(1, len(real_results))  # noqa: E731
    headline("own digits run right after train, processed as the takes, %", mean("own_takes", "trained"), mean("own_takes", "stock"))
    headline("own digits run right after train, as recorded, %", mean("own_recorded", "trained"), mean("own_recorded", "stock"))
    headline("other fsdd speakers' digits that ran, %", mean("others", "trained"), mean("others", "stock"))
    sc = lambda key: sum(r[key] for r in real_results) / max(1, len(real_results))  # noqa: E731
    headline("Speech Commands words said alone, false runs an hour", sc("sc_per_hour_trained"), sc("sc_per_hour_stock"))
    if "synthetic" in results:
        own = "en-us"
        headline("synthetic voice's own short commands run of 10", results["synthetic"]["trained"][own][0],
                 results["synthetic"]["stock"][own][0])
    save("gate")
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
