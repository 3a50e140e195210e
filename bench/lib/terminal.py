"""vsh at a pseudo-terminal, stock continuous fed audio at real-time pace, and the CPU a
process uses."""
import os
import pty
import re
import select
import subprocess
import sys
import threading
import time

from .audio import RATE, read_wav

# Terminal control sequences (CSI, charset, OSC) and carriage returns, taken out of what
# vsh shows so that its lines can be matched.
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\x1b\][^\x07]*\x07|\r")


class Terminal:
    """A program at a pseudo-terminal; its output is read as it comes (so it never blocks)."""

    def __init__(self, argv, env):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execvpe(argv[0], argv, env)
        self.text = ""

    def pump(self, seconds):
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return
            r, _, _ = select.select([self.fd], [], [], left)
            if r:
                try:
                    self.text += ANSI.sub("", os.read(self.fd, 65536).decode("utf-8", "replace"))
                except OSError:
                    return

    def wait_for(self, needle, timeout):
        deadline = time.monotonic() + timeout
        while needle not in self.text and time.monotonic() < deadline:
            self.pump(0.05)
        if needle not in self.text:
            sys.exit(f"vsh did not show {needle!r} within {timeout} s; it showed:\n{self.text[-2000:]}")

    def close(self):
        try:
            os.kill(self.pid, 9)
            os.waitpid(self.pid, 0)
        except OSError:
            pass
        os.close(self.fd)


class Paced:
    """A recogniser (argv reading /dev/stdin) fed the WAV `path` at real-time pace through
    its standard input; `lines` collects (seconds since the audio started, line) as it
    prints them."""

    def __init__(self, path, argv):
        self.samples = read_wav(path).tobytes()
        self.process = subprocess.Popen(["stdbuf", "-oL"] + argv, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.pid = self.process.pid
        self.lines = []
        self.start = time.monotonic()
        self.threads = [threading.Thread(target=self.feed, daemon=True), threading.Thread(target=self.read, daemon=True)]
        for t in self.threads:
            t.start()

    def feed(self):
        block = 3200  # 100 ms
        try:
            for i in range(0, len(self.samples), block):
                self.process.stdin.write(self.samples[i:i + block])
                self.process.stdin.flush()
                delay = self.start + (i + block) / (2 * RATE) - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
            self.process.stdin.close()
        except (BrokenPipeError, ValueError):
            pass

    def read(self):
        for line in self.process.stdout:
            self.lines.append((time.monotonic() - self.start, line.decode().strip()))

    def wait(self):
        self.threads[0].join()
        self.process.wait()
        self.threads[1].join()

    def close(self):
        self.process.kill()
        self.process.wait()


def cpu_seconds(pid):
    """User and system seconds the process has used (/proc/PID/stat)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_percent(pid, seconds, pump=None):
    """Percent of one core the process uses over the next `seconds` (pumping a Terminal
    meanwhile, when given its pump)."""
    before, t0 = cpu_seconds(pid), time.monotonic()
    if pump:
        pump(seconds)
    else:
        time.sleep(seconds)
    return (cpu_seconds(pid) - before) / (time.monotonic() - t0) * 100
