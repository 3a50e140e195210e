#!/usr/bin/env python3
"""Store fault injection, the long version of Tests/VshEndToEndTests/StoreFaultTests:
vsh killed (SIGKILL) at random moments of save, delete, undo, discard and `trash empty
--yes`; eight vsh processes changing one store at once for a while; saves and recordings
under file-size limits (a full disk). After each case the store is checked the way
StoreCheck does it, and every transcript saved before must still be saved or in the trash,
byte for byte. Prints the cases tried, crashes (vsh ending by a signal other than our
kill), items lost and stores failing the check.

VSH_BIN names the binary (default .build/release/vsh); VSH_FAULT_KILLS (500) and
VSH_FAULT_SECONDS (60) size the runs; VSH_FAULT_SEED makes them repeatable.
"""
import json
import math
import os
import random
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib.env import EVAL_DIR, VSH  # noqa: E402
from lib.results import headline, save  # noqa: E402

KILLS = int(os.environ.get("VSH_FAULT_KILLS", "500"))
SECONDS = float(os.environ.get("VSH_FAULT_SECONDS", "60"))
SEED = int(os.environ.get("VSH_FAULT_SEED", "1"))
ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"
SENTENCE = os.path.join(EVAL_DIR, "real/librivox/sense_and_sensibility_01_austen_64kb-0920.wav")


def make_id(second, day=20):
    value = second * 12
    return f"202611{day}-" + "".join(ALPHABET[(value >> s) & 31] for s in (15, 10, 5, 0))


def wav(seconds, seed):
    n = int(seconds * 16000)
    step = 0.02 + (seed % 50) / 1000
    samples = struct.pack(f"<{n}h", *(int(8000 * math.sin(i * step)) for i in range(n)))
    return (b"RIFF" + struct.pack("<I", 36 + 2 * n) + b"WAVE" + b"fmt "
            + struct.pack("<IHHIIHH", 16, 1, 1, 16000, 32000, 2, 16) + b"data" + struct.pack("<I", 2 * n) + samples)


def header(item_id, second, title, seconds):
    created = f"2026-11-20T{second // 3600:02d}:{second // 60 % 60:02d}:{second % 60:02d}Z"
    return (f"Id: {item_id}\n" + (f"Title: {title}\n" if title else "") + f"Created: {created}\n"
            f"Duration: {seconds:.2f}\nQuality: medium\nSample-Rate: 16000\nAudio: {item_id}.wav\nSource: file test.wav\n\n")


def put(path, data):
    with open(path, "wb") as f:
        f.write(data)
    os.chmod(path, 0o600)


def fill(store, items, drafts, start):
    """Saved transcripts and drafts written as vsh writes them; returns the next number."""
    os.makedirs(os.path.join(store, "drafts"), mode=0o700, exist_ok=True)
    os.chmod(store, 0o700)
    for second in range(start, start + items):
        i = make_id(second)
        put(f"{store}/{i}.wav", wav(0.2, second))
        put(f"{store}/{i}.json", b'{"words":[]}\n')
        put(f"{store}/{i}.txt", (header(i, second, f"note {second}", 0.2) + f"note {second} garden\n").encode())
    for second in range(start + items, start + items + drafts):
        i = make_id(second)
        put(f"{store}/drafts/{i}.wav", wav(0.2, second))
        put(f"{store}/drafts/{i}.txt", (header(i, second, None, 0) + f"draft {second}\n").encode())
    return start + items + drafts


def vsh(store, *args, stdin="", limit=None, kill_after=None):
    """Runs vsh; returns (returncode, stdout, stderr, killed by us)."""
    command = [VSH, "--store", store, *args]
    if limit is not None:
        command = ["prlimit", f"--fsize={limit}"] + command
    p = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    timer = None
    killed = []
    if kill_after is not None:
        def fire():
            killed.append(True)
            p.send_signal(signal.SIGKILL)
        timer = threading.Timer(kill_after, fire)
        timer.start()
    out, err = p.communicate(stdin)
    if timer:
        timer.cancel()
    return p.returncode, out, err, bool(killed) and p.returncode == -signal.SIGKILL


def digest(directory, item_id):
    data = b""
    for ext in (".txt", ".wav"):
        try:
            with open(f"{directory}/{item_id}{ext}", "rb") as f:
                data += f.read() + b"\xff"
        except OSError:
            data += b"\xfe"
    return hash(data)


def parse_header(path):
    try:
        with open(path, "rb") as f:
            data = f.read()
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if "\0" in text or "\n\n" not in text:
        return None
    keys = {}
    for line in text.split("\n\n", 1)[0].split("\n"):
        if ":" not in line:
            return None
        k, v = line.split(":", 1)
        keys[k.lower()] = v.strip()
    return keys if "created" in keys else None


def wav_problem(path, stated):
    try:
        with open(path, "rb") as f:
            b = f.read()
    except OSError:
        return "missing"
    if b[:4] != b"RIFF" or b[8:12] != b"WAVE":
        return "not a WAV"
    at, rate = 12, None
    while at + 8 <= len(b):
        cid, size = b[at:at + 4], struct.unpack("<I", b[at + 4:at + 8])[0]
        if cid == b"fmt ":
            rate = struct.unpack("<I", b[at + 12:at + 16])[0]
        if cid == b"data":
            held = len(b) - at - 8
            # Bytes past the data chunk (an append cut short) are ignored by readers, as by vsh.
            if size > held:
                return f"data size {size}, file holds {held}"
            if stated is not None and abs(stated - (size // 2) / rate) > 0.006:
                return f"Duration {stated}, audio {(size // 2) / rate}"
            return None
        at += 8 + size + (size & 1)
    return "no data chunk"


class Check:
    """StoreCheck's rules: runs `list --json` (the next start), then reads the files."""

    def __init__(self, store):
        self.problems, self.live, self.trashed, self.drafts, self.trashed_drafts = [], {}, {}, set(), set()
        code, out, err, _ = vsh(store, "-c", "list --json")
        if code < 0:
            self.problems.append(f"list died by signal {-code}")
        for root, dirs, files in os.walk(store):
            for name in dirs + files:
                full = os.path.join(root, name)
                mode = os.lstat(full).st_mode & 0o777
                if mode != (0o700 if name in dirs else 0o600):
                    self.problems.append(f"{full} has mode {mode:o}")
                if name.endswith(".tmp"):
                    self.problems.append(f"temporary file left: {full}")
        names = set(os.listdir(store))
        for name in sorted(names):
            base, ext = os.path.splitext(name)
            if name.startswith("."):
                continue
            if ext == ".txt":
                h = parse_header(f"{store}/{name}")
                if h is None:
                    self.problems.append(f"{name} does not parse")
                    continue
                problem = wav_problem(f"{store}/{h['audio']}", float(h.get("duration", "0"))) if h.get("audio") else None
                if problem:
                    self.problems.append(f"{name}: audio {problem}")
                self.live[base] = digest(store, base)
            elif ext in (".wav", ".json") and base + ".txt" not in names:
                self.problems.append(f"half a transcript: {name}")
        trash = f"{store}/trash"
        for batch in sorted(os.listdir(trash)) if os.path.isdir(trash) else []:
            if batch.startswith("."):
                self.problems.append(f"trash/{batch} left over")
                continue
            files = set(os.listdir(f"{trash}/{batch}"))
            if not files - {".origin"}:
                self.problems.append(f"empty batch {batch}")
            for name in files - {"drafts"}:
                if name.startswith("."):  # .origin: which vsh made the batch
                    continue
                base, ext = os.path.splitext(name)
                if ext == ".txt":
                    if base in self.trashed:
                        self.problems.append(f"{base} in two batches")
                    self.trashed[base] = digest(f"{trash}/{batch}", base)
                elif base + ".txt" not in files:
                    self.problems.append(f"half a transcript in trash/{batch}: {name}")
            if "drafts" in files:
                self.trashed_drafts |= {os.path.splitext(n)[0] for n in os.listdir(f"{trash}/{batch}/drafts")}
        if os.path.isdir(f"{store}/drafts"):
            self.drafts = {os.path.splitext(n)[0] for n in os.listdir(f"{store}/drafts") if not n.startswith(".")}
        for i in set(self.live) & set(self.trashed):
            self.problems.append(f"{i} both saved and in the trash")
        for i in self.drafts & self.trashed_drafts:
            self.problems.append(f"draft {i} both in drafts and in the trash")
        for i in self.drafts & set(self.live):
            self.problems.append(f"{i} both saved and a draft")
        try:
            listed = [item["id"] for item in json.loads(out)]
        except ValueError:
            listed = None
            self.problems.append(f"list --json printed no JSON: {err.strip()[:200]}")
        if listed is not None and (sorted(listed) != sorted(self.live)):
            self.problems.append(f"list shows {len(listed)}, the files hold {len(self.live)}")
        shutil.rmtree(f"{store}/.cache", ignore_errors=True)
        if vsh(store, "-c", "list --json")[1] != out:
            self.problems.append("the listing cache disagrees with a fresh scan")

    def everything(self):
        return set(self.live) | set(self.trashed) | self.drafts | self.trashed_drafts


class Tally:
    def __init__(self, name):
        self.name, self.cases, self.crashes, self.lost, self.failing, self.examples = name, 0, 0, 0, 0, []
        self.killed = None

    def case(self, before, after, crashed, emptied=False, context=""):
        self.cases += 1
        self.crashes += crashed
        lost = [i for i, d in before.live.items() if after.live.get(i, after.trashed.get(i)) != d]
        if not emptied:
            lost += [i for i, d in before.trashed.items() if after.live.get(i, after.trashed.get(i)) != d]
        lost += [i for i in before.drafts if i not in after.everything()]
        self.lost += len(lost)
        if after.problems:
            self.failing += 1
        if (lost or after.problems or crashed) and len(self.examples) < 3:
            self.examples.append(f"{context}: lost {lost[:3]} problems {after.problems[:3]}")

    def row(self):
        print(f"{self.name:<34} {self.cases:>6} {self.crashes:>8} {self.lost:>11} {self.failing:>14}"
              + (f"  ({self.killed} killed midway)" if self.killed is not None else ""))
        headline(f"{self.name}: crashes / items lost / stores failing, of {self.cases} cases",
                 f"{self.crashes} / {self.lost} / {self.failing}")
        for e in self.examples:
            print(f"    {e}")


def script(op, state, rng):
    live = sorted(state.live)
    if op == "save":
        return "\n".join(f"save --draft {d}" for d in sorted(state.drafts))
    if op == "delete":
        rng.shuffle(live)
        return "delete " + " ".join(live[:12]) + "\ndelete " + " ".join(live[12:13])
    if op == "undo":
        # Each case is a new vsh: the deletions are another's, which undo asks about.
        return "undo --yes\nundo --yes\nundo --yes"
    if op == "discard":
        return "\n".join(f"discard {d}" for d in sorted(state.drafts)[:8])
    return "trash empty --yes"


def kills(home, rng):
    tally = Tally("kill -9 mid-change")
    tally.killed = 0
    store = f"{home}/kills"
    number = fill(store, 40, 30, 0)
    state = Check(store)
    ops = ["save", "delete", "undo", "discard", "empty"]
    for n in range(KILLS):
        if len(state.drafts) < 10:
            number = fill(store, 0, 15, number)
        if len(state.live) < 15:
            number = fill(store, 20, 0, number)
        if number > 80000:
            break
        state = Check(store)
        op = ops[n % len(ops)]
        delay = rng.uniform(0.002, 0.12)
        code, _, _, killed = vsh(store, stdin=script(op, state, rng), kill_after=delay)
        tally.killed += killed
        after = Check(store)
        tally.case(state, after, code < 0 and not killed, emptied=op == "empty", context=f"case {n} {op} +{delay:.3f}s")
        state = after
    return tally


def crowd(home, rng):
    tally = Tally("8 processes for a while")
    store = f"{home}/crowd"
    number = 0
    deadline = time.time() + SECONDS
    fill(store, 0, 0, 0)
    while time.time() < deadline:
        before = Check(store)
        scripts, deletes = [], []
        for w in range(8):
            lines, saved = [], []
            for i in range(20):
                number = fill(store, 0, 1, number)
                d = make_id(number - 1)
                lines.append(f"save --draft {d}")
                saved.append(d)
                if i % 3 == 2:
                    lines.append("list")
                if i % 4 == 3:
                    lines.append(f"delete {saved.pop(0)}")
                    deletes.append(lines[-1][7:])
                if i % 7 == 6:
                    lines.append("undo")
            scripts.append("\n".join(lines) + "\n")
        results = [None] * 8

        def work(w):
            results[w] = vsh(store, stdin=scripts[w])
        threads = [threading.Thread(target=work, args=(w,)) for w in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        saved, restored, crashed = [], [], 0
        for code, out, err, _ in results:
            crashed += code < 0
            for line in out.splitlines():
                if line.startswith("saved "):
                    saved.append(line[6:19])
                if line.startswith("restored ") and "(" in line:
                    restored += line[line.index("(") + 1:line.index(")")].split(", ")
        after = Check(store)
        tally.case(before, after, crashed)
        expected = (set(before.live) | set(saved)) - set(deletes) | set(restored)
        if len(set(saved)) != len(saved) or set(after.live) != expected:
            tally.lost += len(expected ^ set(after.live))
            tally.failing += 1
    return tally


def full_disk(home, rng):
    tally = Tally("file-size limits (disk full)")
    store = f"{home}/full"
    number = fill(store, 5, 0, 0)
    for n in range(40):
        before = Check(store)
        if n % 4 == 3 and os.path.exists(SENTENCE):
            limit = rng.randint(1000, 200000)
            code, out, err, _ = vsh(store, "-c", f"record --from {SENTENCE}", limit=limit)
        else:
            number = fill(store, 0, 1, number)
            draft = make_id(number - 1)
            with open(f"{store}/drafts/{draft}.txt", "a") as f:
                f.write("words " * rng.randint(0, 400))
            limit = rng.randint(0, 3000)
            code, out, err, _ = vsh(store, "-c", f"save --draft {draft}", limit=limit)
        told = code == 0 or "File too large" in err or "file is too large (the disk is full" in err
        after = Check(store)
        tally.case(before, after, code < 0, context=f"case {n} limit {limit}")
        if not told:
            tally.failing += 1
            tally.examples.append(f"case {n}: unclear message {err.strip()[:120]}")
        # With the limit lifted every draft saves.
        for d in sorted(after.drafts):
            if vsh(store, "-c", f"save --draft {d}")[0] != 0:
                tally.failing += 1
                tally.examples.append(f"case {n}: draft {d} does not save after the limit is lifted")
    return tally


def main():
    if not os.access(VSH, os.X_OK):
        sys.exit(f"{VSH} not built: run `swift build -c release` (or set VSH_BIN)")
    rng = random.Random(SEED)
    home = tempfile.mkdtemp(prefix="vsh-faults-")
    os.environ.update(HOME=home, XDG_CONFIG_HOME=f"{home}/config", XDG_STATE_HOME=f"{home}/state",
                      XDG_DATA_HOME=f"{home}/data")
    os.environ.pop("VSH_STORE", None)
    try:
        print(f"{'faults (seed ' + str(SEED) + ')':<34} {'cases':>6} {'crashes':>8} {'items lost':>11} {'stores failing':>14}")
        print("-" * 77)
        for run in (kills, crowd, full_disk):
            start = time.perf_counter()
            tally = run(home, rng)
            tally.row()
            print(f"    ({time.perf_counter() - start:.0f} s)", flush=True)
        save("faults")
    finally:
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
