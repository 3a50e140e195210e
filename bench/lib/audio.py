"""16-bit mono WAV in and out, and where speech lies in a clean synthesized file."""
import subprocess
import wave

import numpy as np

RATE = 16000


def read_wav(path):
    """The samples of a 16-bit mono WAV, as int16."""
    with wave.open(path) as w:
        return np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16)


def write_frames(path, frames, rate=RATE):
    """Raw 16-bit mono little-endian `frames` (bytes) as a WAV."""
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(frames)


def write_wav(path, x, rate=RATE):
    """Samples (any numeric array, full scale 32768) rounded and clipped to 16 bits."""
    write_frames(path, np.clip(np.round(x), -32768, 32767).astype("<i2").tobytes(), rate)


def read_audio(path, rate):
    """Any file sox reads, as float64 mono samples at `rate`."""
    out = subprocess.run(["sox", path, "-t", "raw", "-r", str(rate), "-e", "signed", "-b", "16", "-c", "1", "-"],
                         capture_output=True, check=True).stdout
    return np.frombuffer(out, dtype="<i2").astype(np.float64)


def noise(n, db, rng):
    """n samples of white noise at `db` dBFS: a microphone's own noise."""
    return rng.standard_normal(n) * 32768 * 10 ** (db / 20)


def speech_ends(clean, floor_db=-50):
    """Where each phrase's speech ends (seconds) in a clean synthesized session: the last
    sample above `floor_db` dBFS before at least 0.3 s of silence. (The synthesizer's
    tails fade on below -50 dBFS for up to 0.1 s more: 40 dB under the speech, inaudible.)"""
    x = np.abs(clean)
    loud = np.flatnonzero(x > 32768 * 10 ** (floor_db / 20))
    ends = [loud[i] for i in range(len(loud)) if i + 1 == len(loud) or loud[i + 1] - loud[i] > 0.3 * RATE]
    return [(e + 1) / RATE for e in ends]
