#!/usr/bin/env python3
"""Does vsh's decision depend on the channel? Counts flipped decisions.

    python3 bench/invariance.py [--clips N] [--jobs N] [--vsh PATH] [--vsh-config TOML] [--threshold T]

Takes a speaker-stratified sample of the padded Speech Commands and fsdd clips that
bench/real_speech.py prepared (run it first), transforms each with sox, and runs
`vsh listen --json --grammar G` on the original and on every transform. A decision is the
list of commands vsh would run (phrases at or above the threshold); a flip is a
transform whose decision differs from the original's. Goal: at most 1% flips for each
transform.

Transforms:
  8k, 44k1, 48k       resampled to that rate and back to 16 kHz (sox)
  in-44k1, in-48k     handed to vsh at 44.1/48 kHz (vsh's own resampler brings it to 16 kHz)
  stereo              two identical channels
  +12dB, -12dB        scaled (clips that would clip at +12 dB are left out of that row)
  dc                  a DC offset of 3% of full scale
  dither              sox's TPDF dither at 16 bits
Transformed audio goes to .build/bench-real/invariance/ and per-clip outcomes to
.build/bench-real/invariance.tsv.

Beside vsh, the same count for stock pocketsphinx_continuous with the same JSGF (its
decision: the hypothesis it prints), on the transforms it can read: it takes 16 kHz mono
only, so it has no in-44k1, in-48k or stereo row. --no-stock leaves it out.
"""
import argparse
import concurrent.futures
import os
import shutil
import subprocess
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib.data import fsdd_rows, prepare, speech_commands_rows  # noqa: E402
from lib.env import EVAL_DIR, GRAMMARS, ROOT, VSH, require_eval, snapshot_home  # noqa: E402
from lib.results import headline, save  # noqa: E402
from lib.score import pct  # noqa: E402
from lib.vsh import stock_tool, vsh_tool  # noqa: E402

require_eval(EVAL_DIR)

TRANSFORMS = {
    "8k": [["rate", "-v", "8000"], ["rate", "-v", "16000"]],
    "44k1": [["rate", "-v", "44100"], ["rate", "-v", "16000"]],
    "48k": [["rate", "-v", "48000"], ["rate", "-v", "16000"]],
    "in-44k1": [["rate", "-v", "44100"]],
    "in-48k": [["rate", "-v", "48000"]],
    "stereo": [["channels", "2"]],
    "+12dB": [["vol", "12", "dB"]],
    "-12dB": [["vol", "-12", "dB"]],
    "dc": [["dcshift", "0.03"]],
    "dither": [["dither", "-s"]],
}


# Stock continuous reads 16 kHz mono only.
STOCK_CANNOT_READ = {"in-44k1", "in-48k", "stereo"}


def transform(src, name, out_dir):
    out = os.path.join(out_dir, name, os.path.basename(src))
    if os.path.exists(out):
        return out
    os.makedirs(os.path.dirname(out), exist_ok=True)
    cur = src
    steps = TRANSFORMS[name]
    for i, effect in enumerate(steps):
        nxt = out if i == len(steps) - 1 else out + f".{i}.wav"
        # -D: no automatic dither, so that only the "dither" transform dithers
        subprocess.run(["sox", "-D", cur, "-b", "16", nxt, *effect], check=True, capture_output=True)
        if cur != src:
            os.remove(cur)
        cur = nxt
    return out


def peak(path):
    """The largest absolute sample, full scale 1: sox's stat gives the most positive
    ("Maximum amplitude") and the most negative ("Minimum amplitude") apart, and speech is
    often louder on one side."""
    out = subprocess.run(["sox", path, "-n", "stat"], capture_output=True, text=True).stderr
    found = [abs(float(line.split(":")[1])) for line in out.splitlines()
             if line.startswith(("Maximum amplitude", "Minimum amplitude"))]
    return max(found) if len(found) == 2 else 1.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clips", type=int, default=240, help="clips in the sample (default 240)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--vsh", default=VSH)
    ap.add_argument("--threshold", type=float, default=None, help="decision threshold (default: vsh's own)")
    ap.add_argument("--vsh-config", default=None, help="a vsh.toml for vsh to read as the user's (e.g. voice.denoise = false)")
    ap.add_argument("--only", action="append", choices=list(TRANSFORMS))
    ap.add_argument("--no-stock", action="store_true", help="leave out stock pocketsphinx_continuous")
    ap.add_argument("--cache", default=os.path.join(ROOT, ".build/bench-real"))
    args = ap.parse_args()
    rows = speech_commands_rows() + fsdd_rows()
    for r in rows:
        r["grammar"] = os.path.join(GRAMMARS, "speech-commands.gram" if r["set"] == "sc" else "digits.gram")
    rows = prepare(rows, args.cache)
    # Stratified: every k-th clip in (set, class, speaker hash) order, so classes and speakers mix.
    rows.sort(key=lambda r: (r["set"], r["cls"], zlib.crc32(r["id"].encode())))
    step = max(1, len(rows) // args.clips)
    rows = rows[::step][: args.clips]
    out_dir = os.path.join(args.cache, "invariance")
    names = args.only or list(TRANSFORMS)
    home, env = snapshot_home("vsh-invariance-", args.vsh_config)  # this tree's shipped settings, as real_speech.py
    extra = ["--threshold", str(args.threshold)] if args.threshold is not None else []
    tool = vsh_tool(os.path.abspath(args.vsh), env, extra=extra, places=3)
    try:
        jobs = [(r, None) for r in rows] + [(r, n) for n in names for r in rows]

        def run_on(decide):
            """A job (clip, transform or None) run through `decide`, on the transformed audio."""
            def one(job):
                r, name = job
                return decide(dict(r, path=r["path"] if name is None else transform(r["path"], name, out_dir)))
            return one

        stock_jobs = [] if args.no_stock else [(r, n) for (r, n) in jobs if n not in STOCK_CANNOT_READ]
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            outs = list(pool.map(run_on(tool), jobs))
            stock_outs = dict(zip(((r["id"], n) for r, n in stock_jobs), pool.map(run_on(stock_tool()), stock_jobs)))
    finally:
        shutil.rmtree(home, ignore_errors=True)
    base = {r["id"]: o for (r, n), o in zip(jobs, outs) if n is None}
    headroom = {r["id"]: peak(r["path"]) < 0.25 for r in rows} if "+12dB" in names else {}  # room for +12 dB
    print(f"vsh {args.vsh}{' with ' + args.vsh_config if args.vsh_config else ''}; {len(rows)} clips (Speech Commands + fsdd, stratified); "
          f"threshold {'vsh default' if args.threshold is None else args.threshold}")
    print("| transform | clips | flipped decisions | confidence change, median abs | errors | stock continuous flipped |")
    print("|---|---|---|---|---|---|")
    total_flips = total = stock_flips = stock_total = 0
    with open(os.path.join(args.cache, "invariance.tsv"), "w") as f:
        f.write("id\ttransform\toriginal\ttransformed\tflip\n")
        for n in names:
            flips, deltas, errors, count = 0, [], 0, 0
            stock_flipped = stock_count = 0
            for (r, name), o in zip(jobs, outs):
                if name != n:
                    continue
                if n == "+12dB" and not headroom.get(r["id"], True):
                    continue
                b = base[r["id"]]
                if o.error or b.error:
                    errors += 1
                    continue
                count += 1
                flip = o.accepted != b.accepted
                flips += flip
                cb = max([u.get("confidence", 0) for u in b.utterances] or [0])
                co = max([u.get("confidence", 0) for u in o.utterances] or [0])
                deltas.append(abs(cb - co))
                f.write(f"{r['id']}\t{n}\t{' | '.join(b.accepted)}\t{' | '.join(o.accepted)}\t{int(flip)}\n")
                sb, so = stock_outs.get((r["id"], None)), stock_outs.get((r["id"], n))
                if sb and so and not sb.error and not so.error:
                    stock_count += 1
                    stock_flipped += so.accepted != sb.accepted
            deltas.sort()
            med = deltas[len(deltas) // 2] if deltas else 0
            stock_cell = pct(stock_flipped, stock_count, 5) if stock_count else "—"
            print(f"| {n} | {count} | {pct(flips, count, 5)} | {med:.3f} | {errors} | {stock_cell} |")
            total_flips += flips
            total += count
            stock_flips += stock_flipped
            stock_total += stock_count
    stock_all = pct(stock_flips, stock_total, 5) if stock_total else "—"
    print(f"| all | {total} | {pct(total_flips, total, 5)} | | | {stock_all} |")
    headline("decisions flipped by a harmless change of the audio (baseline: stock continuous)",
             pct(total_flips, total), pct(stock_flips, stock_total) if stock_total else None)
    save("invariance")
    return 0


if __name__ == "__main__":
    sys.exit(main())
