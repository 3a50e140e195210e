"""Python re-implementations of vsh's audio path (Swift sources as of issue 34):
SpeexDSP resampling (ctypes, quality 5, skip_zeros), SphinxCommandRecognizer.lead /
normalised / decodingAudio (SeededNoise bit-exact), bench room_noise padding, sox."""
import ctypes, subprocess, zlib, os, wave
import numpy as np

RATE = 16000
_speex = ctypes.CDLL("libspeexdsp.so.1")
_speex.speex_resampler_init.restype = ctypes.c_void_p
_speex.speex_resampler_init.argtypes = [ctypes.c_uint32]*4 + [ctypes.POINTER(ctypes.c_int)]
_speex.speex_resampler_process_int.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.POINTER(ctypes.c_int16),
    ctypes.POINTER(ctypes.c_uint32), ctypes.POINTER(ctypes.c_int16), ctypes.POINTER(ctypes.c_uint32)]
_speex.speex_resampler_skip_zeros.argtypes = [ctypes.c_void_p]
_speex.speex_resampler_destroy.argtypes = [ctypes.c_void_p]

def speex(x, rin, rout=RATE, quality=5):
    x = np.ascontiguousarray(np.clip(np.round(x), -32768, 32767).astype(np.int16))
    if rin == rout: return x.copy()
    err = ctypes.c_int(0)
    st = _speex.speex_resampler_init(1, rin, rout, quality, ctypes.byref(err))
    _speex.speex_resampler_skip_zeros(st)
    out = np.zeros(len(x) * rout // rin + 64, dtype=np.int16)
    produced = []; off = 0
    while off < len(x):
        il = ctypes.c_uint32(len(x) - off); ol = ctypes.c_uint32(len(out))
        _speex.speex_resampler_process_int(st, 0, x[off:].ctypes.data_as(ctypes.POINTER(ctypes.c_int16)), ctypes.byref(il),
                                           out.ctypes.data_as(ctypes.POINTER(ctypes.c_int16)), ctypes.byref(ol))
        produced.append(out[:ol.value].copy())
        if il.value == 0 and ol.value == 0: break
        off += il.value
    _speex.speex_resampler_destroy(st)
    return np.concatenate(produced) if produced else np.zeros(0, np.int16)

def sox_resample(x, rin, rout=RATE):
    x = np.clip(np.round(x), -32768, 32767).astype("<i2")
    out = subprocess.run(["sox", "-R", "-t", "raw", "-r", str(rin), "-e", "signed", "-b", "16", "-c", "1", "-",
                          "-t", "raw", "-r", str(rout), "-e", "signed", "-b", "16", "-c", "1", "-"],
                         input=x.tobytes(), capture_output=True, check=True).stdout
    return np.frombuffer(out, dtype="<i2").astype(np.int16)

def read_audio(path, rate):
    out = subprocess.run(["sox", path, "-t", "raw", "-r", str(rate), "-e", "signed", "-b", "16", "-c", "1", "-"],
                         capture_output=True, check=True).stdout
    return np.frombuffer(out, dtype="<i2").astype(np.float64)

def read_native(path):
    """(samples float64, rate) without resampling."""
    rate = int(subprocess.run(["soxi", "-r", path], capture_output=True, check=True, text=True).stdout)
    return read_audio(path, rate), rate

def write_wav(path, x, rate=RATE):
    x = np.clip(np.round(x), -32768, 32767).astype("<i2")
    with wave.open(path, "wb") as w:
        w.setnchannels(1); w.setsampwidth(2); w.setframerate(rate); w.writeframes(x.tobytes())

def room_noise(x, rate, n, seed):
    """bench/lib/data.py room_noise: n samples shaped like the clip's quietest 100 ms, at its level."""
    frame = rate // 100; win = 10 * frame
    if len(x) < win + frame: quiet = x
    else:
        e = np.convolve(x[: len(x) // frame * frame].reshape(-1, frame).var(axis=1) + 1e-3, np.ones(10), "valid")
        a = int(np.argmin(e)) * frame; quiet = x[a:a + win]
    quiet = quiet - quiet.mean()
    level = max(np.sqrt(np.mean(quiet ** 2)), 0.5)
    rng = np.random.default_rng(zlib.crc32(seed.encode()))
    spec = np.abs(np.fft.rfft(quiet * np.hanning(len(quiet)))) + 1e-9
    white = rng.standard_normal(n)
    shaped = np.fft.irfft(np.fft.rfft(white) * np.interp(np.linspace(0, 1, n // 2 + 1), np.linspace(0, 1, len(spec)), spec), n)
    return shaped / (np.sqrt(np.mean(shaped ** 2)) + 1e-12) * level

def pad(x, rate, before, after, seed):
    return np.concatenate([room_noise(x, rate, int(before * rate), seed + "<"), x, room_noise(x, rate, int(after * rate), seed + ">")])

# --- SeededNoise (bit-exact with the Swift LCG + Box-Muller)
_noise_cache = {}
def seeded_noise(n):
    if n in _noise_cache: return _noise_cache[n]
    M = (1 << 64) - 1
    s = 0x9E3779B97F4A7C15
    out = np.empty(n)
    for i in range(n):
        s = (s * 6364136223846793005 + 1442695040888963407) & M; u1 = ((s >> 11) + 0.5) / float(1 << 53)
        s = (s * 6364136223846793005 + 1442695040888963407) & M; u2 = ((s >> 11) + 0.5) / float(1 << 53)
        out[i] = np.sqrt(-2 * np.log(u1)) * np.cos(2 * np.pi * u2)
    _noise_cache[n] = out
    return out
_base = None
def noise(n):
    global _base
    if _base is None or len(_base) < n:
        _base = seeded_noise(max(n, 16000 * 8))
    return _base[:n]

def normalised(s):
    s = np.asarray(s, dtype=np.float64)
    if len(s) == 0: return s.astype(np.int16)
    peak = max(1.0, np.abs(s).max()); rms = np.sqrt(np.mean(s * s)) + 1e-9
    gain = min(3000 / rms, 32000 / peak, 100)
    floor = 3000 * 10 ** (-34 / 20)
    return np.clip(np.round(s * gain + noise(len(s)) * floor), -32768, 32767).astype(np.int16)

def lead(length, s):
    s = np.asarray(s, dtype=np.int64)
    if len(s) < length: return np.zeros(length, np.int64)
    c = np.concatenate([[0], np.cumsum(s * s)])
    first = c[length] - c[0]
    starts = np.arange(160, len(s) - length + 1, 160)
    if len(starts) == 0: return np.zeros(0, np.int64)
    e = c[starts + length] - c[starts]
    i = int(np.argmin(e)); least = e[i]
    if first <= least: quietest, least = 0, first
    else: quietest = starts[i]
    return np.zeros(0, np.int64) if first <= 2 * least else s[quietest:quietest + length]

def decoding_audio(s16):
    s16 = np.asarray(s16, dtype=np.int64)
    return normalised(np.concatenate([lead(RATE // 10, s16), s16]))
