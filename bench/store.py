#!/usr/bin/env python3
"""Transcript store benchmark: `list`, `search` and `save` over stores of 1,000 and
100,000 transcripts, each beside a shell baseline run on the same store.

The stores are written here directly in the format of FORMAT.md (a .txt, a tiny .wav and
a .json per transcript). VSH_BIN names the release binary (default .build/release/vsh);
VSH_BENCH_SIZES overrides the sizes, e.g. `VSH_BENCH_SIZES=1000 python3 bench/store.py`.
"""
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib.env import VSH  # noqa: E402
from lib.results import headline, save  # noqa: E402

SIZES = [int(s) for s in os.environ.get("VSH_BENCH_SIZES", "1000,100000").split(",")]
COMMON = ("the a and to of we it is that for on with I you this be have not at so but do "
          "meeting garden coffee tomorrow call project deadline review notes idea kitchen").split()


def vocabulary(size=5000):
    """Common words, then made-up ones, in order of frequency; `plumber` and `invoice` rank
    so that a few percent of transcripts hold each and about 0.1 % hold both."""
    rng = random.Random(7)
    syllables = "ka lo mi ne ru ta vo pe si da ge bu fo ha ji".split()
    words = list(COMMON)
    while len(words) < size:
        word = "".join(rng.choice(syllables) for _ in range(rng.randint(2, 4)))
        if word not in words:
            words.append(word)
    words[300], words[500] = "plumber", "invoice"
    return words


WORDS = vocabulary()
# Zipf's law: the word of rank r is said in proportion to 1/r.
CUMULATIVE = []
for rank in range(len(WORDS)):
    CUMULATIVE.append((CUMULATIVE[-1] if CUMULATIVE else 0) + 1 / (rank + 1))
ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"
# One second of 16 kHz silence is too big for 300,000 files; a few samples keep it a WAV.
WAV = (b"RIFF" + struct.pack("<I", 36 + 32) + b"WAVE" + b"fmt " + struct.pack("<IHHIIHH", 16, 1, 1, 16000, 32000, 2, 16)
       + b"data" + struct.pack("<I", 32) + bytes(32))


def make_id(t):
    """The id vsh would give a recording started at local time `t` (FORMAT.md)."""
    lt = time.localtime(t)
    value = (lt.tm_hour * 3600 + lt.tm_min * 60 + lt.tm_sec) * 12
    code = "".join(ALPHABET[(value >> shift) & 31] for shift in (15, 10, 5, 0))
    return time.strftime("%Y%m%d-", lt) + code


def iso(t):
    s = time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(t))
    return s[:-2] + ":" + s[-2:]


def write_transcript(directory, item_id, t, words, rng):
    title = " ".join(words[:6])
    duration = len(words) * 0.4 + rng.random()
    with open(os.path.join(directory, item_id + ".txt"), "w") as f:
        f.write(f"Id: {item_id}\nTitle: {title}\nCreated: {iso(t)}\nDuration: {duration:.2f}\n"
                f"Quality: medium\nSample-Rate: 16000\nAudio: {item_id}.wav\nSource: microphone default\n\n"
                + " ".join(words) + "\n")


def make_store(directory, count, seed=1):
    """`count` transcripts spread over the last few years, a dozen a day, newest now."""
    rng = random.Random(seed)
    os.makedirs(os.path.join(directory, "drafts"), mode=0o700)
    t = int(time.time()) - 60
    for _ in range(count):
        item_id = make_id(t)
        words = rng.choices(WORDS, cum_weights=CUMULATIVE, k=rng.randint(40, 160))
        write_transcript(directory, item_id, t, words, rng)
        with open(os.path.join(directory, item_id + ".wav"), "wb") as f:
            f.write(WAV)
        with open(os.path.join(directory, item_id + ".json"), "w") as f:
            f.write('{"words":[]}\n')
        t -= rng.randint(600, 12000)


def best_ms(command, runs=3, shell=False):
    best = None
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, shell=shell, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        elapsed = (time.perf_counter() - start) * 1000
        best = elapsed if best is None else min(best, elapsed)
    return best


def draft(store, rng):
    """A recording left in drafts/ as the recorder would leave it; returns its id."""
    drafts = os.path.join(store, "drafts")
    os.makedirs(drafts, mode=0o700, exist_ok=True)
    t = int(time.time()) + rng.randint(1, 10 ** 6)
    item_id = make_id(t)
    with open(os.path.join(drafts, item_id + ".wav"), "wb") as f:
        f.write(WAV)
    write_transcript(drafts, item_id, t, rng.choices(WORDS, cum_weights=CUMULATIVE, k=50), rng)
    return item_id


def row(name, ours, base):
    print(f"{name:<38} {ours:>9.1f} {base:>12.1f} {ours / base:>7.2f}x")
    headline(name + ", ms", f"{ours:.1f}", f"{base:.1f}")


def main():
    if not os.access(VSH, os.X_OK):
        sys.exit(f"{VSH} not built: run `swift build -c release` (or set VSH_BIN)")
    home = tempfile.mkdtemp(prefix="vsh-store-bench-")
    env_vsh = [VSH, "--store"]
    try:
        print(f"{'benchmark':<38} {'vsh ms':>9} {'baseline ms':>12} {'ratio':>8}")
        print("-" * 70)
        for count in SIZES:
            store = os.path.join(home, f"store-{count}")
            start = time.perf_counter()
            make_store(store, count)
            print(f"# {count} transcripts written in {time.perf_counter() - start:.1f} s", flush=True)
            ls = f"ls {store} | wc -l"
            first = best_ms(env_vsh + [store, "-c", "list"], runs=1)
            row(f"list, {count}, first (builds cache)", first, best_ms(ls, shell=True))
            row(f"list, {count}", best_ms(env_vsh + [store, "-c", "list"]), best_ms(ls, shell=True))
            grep = f"grep -ril --include='*.txt' plumber {store} | wc -l"
            row(f"search plumber invoice, {count}", best_ms(env_vsh + [store, "-c", "search plumber invoice"]),
                best_ms(grep, shell=True))
            # A query of 20,000 words (nothing has them all) is read from a script: too
            # long for one argument. Baseline: grep for any of them (-F -f).
            words = [f"zq{i}x" for i in range(20000)]
            query = os.path.join(home, "query.vsh")
            with open(query, "w") as f:
                f.write("search " + " ".join(words) + "\n")
            with open(os.path.join(home, "words.txt"), "w") as f:
                f.write("\n".join(words) + "\n")
            long_grep = f"grep -ril -F -f {home}/words.txt --include='*.txt' {store} | wc -l"
            row(f"search 20,000 words, {count}", best_ms(" ".join(env_vsh + [store]) + f" < {query} > /dev/null", shell=True),
                best_ms(long_grep, shell=True))
            rng = random.Random(count)
            saves = []
            for _ in range(3):
                item_id = draft(store, rng)
                start = time.perf_counter()
                subprocess.run(env_vsh + [store, "-c", f"save --draft {item_id}"], check=True, stdout=subprocess.DEVNULL)
                saves.append((time.perf_counter() - start) * 1000)
            after = best_ms(env_vsh + [store, "-c", "list"], runs=1)
            moves = []
            for _ in range(3):
                item_id = draft(store, rng)
                start = time.perf_counter()
                subprocess.run(f"mv {store}/drafts/{item_id}.* {store}/", shell=True, check=True)
                moves.append((time.perf_counter() - start) * 1000)
            row(f"save, {count} (vs mv)", min(saves), min(moves))
            row(f"list after a save, {count}", after, best_ms(ls, shell=True))
            shutil.rmtree(store)
        save("store")
    finally:
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
