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
    """Any file sox reads, as float64 mono samples at `rate`. Repeatable (-R): sox dithers
    when it resamples, from a random seed unless told, so that the same clip gave other
    samples, and at times other words, in each run."""
    out = subprocess.run(["sox", "-R", path, "-t", "raw", "-r", str(rate), "-e", "signed", "-b", "16", "-c", "1", "-"],
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


SPECTRUM_FFT = 512


def long_term_spectrum(clips):
    """The long-term average power spectrum (SPECTRUM_FFT // 2 + 1 bins) of the louder half
    of the clips' frames: a microphone and room's colouring, with the voice's."""
    frames = []
    for x in clips:
        x = np.asarray(x, dtype=np.float64)
        n = len(x) // SPECTRUM_FFT
        if n == 0:
            continue
        p = np.abs(np.fft.rfft(x[: n * SPECTRUM_FFT].reshape(n, SPECTRUM_FFT) * np.hanning(SPECTRUM_FFT), axis=1)) ** 2
        e = p.sum(axis=1)
        frames.append(p[e >= np.median(e)])
    return np.concatenate(frames).mean(axis=0) + 1e-6


def channel_gain(target, source, limit_db=20):
    """The magnitude response that gives audio with the long-term spectrum `source` the
    spectrum `target`: smoothed over a sixth of the band, at most `limit_db` either way."""
    g = 0.5 * np.log(target / source)
    g = np.convolve(g, np.ones(9) / 9, mode="same")
    return np.exp(np.clip(g, -limit_db / 20 * np.log(10), limit_db / 20 * np.log(10)))


def equalise(x, gain):
    """x filtered by the magnitude response `gain` (on the SPECTRUM_FFT grid), zero phase."""
    spec = np.fft.rfft(np.asarray(x, dtype=np.float64))
    g = np.interp(np.linspace(0, 1, len(spec)), np.linspace(0, 1, len(gain)), gain)
    return np.fft.irfft(spec * g, len(x))
