"""Adapt models with the sphinxtrain recipe vsh train runs (research/adaptation/vsh-train-recipe.sh):
per fsdd speaker, on takes 0-4 of each digit (50): 'full' and three held-out models (HeldOut.folds=3,
take i of the sorted names left out of fold i%3). Takes: 0.3 s room tone each side, sox to 16 kHz,
vsh's normalised() (level + noise floor), as the issue author prepared them."""
import os, sys, subprocess, concurrent.futures
import numpy as np
import vshaudio as v
FSDD = "/work/shared/eval/real/fsdd"; DIG = "zero one two three four five six seven eight nine".split()
HERE = os.path.dirname(os.path.abspath(__file__))

def takes(spk, rng=range(5)):
    return sorted(f"{d}_{spk}_{t}" for d in range(10) for t in rng)

def prep(spk):
    d = f"{HERE}/takes/{spk}"; os.makedirs(d, exist_ok=True)
    for n in takes(spk):
        p = f"{d}/{n}.wav"
        if os.path.exists(p): continue
        x = v.read_audio(f"{FSDD}/{n}.wav", 8000)
        y = v.sox_resample(v.pad(x, 8000, 0.3, 0.3, "take/" + n), 8000)
        v.write_wav(p, v.normalised(y))
    return d

def job(spk, which):
    d = prep(spk)
    names = takes(spk)
    if which != "full":
        k = int(which[2:]); names = [n for i, n in enumerate(names) if i % 3 != k]
    out = f"{HERE}/models/{spk}/{which}"
    if os.path.exists(out + "/means"): return out
    os.makedirs(out, exist_ok=True)
    tr = out + ".tr"
    with open(tr, "w") as f:
        for n in names: f.write(f"{n}\t{DIG[int(n.split('_')[0])]}\n")
    subprocess.run(["bash", f"{HERE}/../../adaptation/vsh-train-recipe.sh", d, tr, out], check=True, capture_output=True)
    subprocess.run(["rm", "-rf", out + "/.work"])
    return out

if __name__ == "__main__":
    spks = sys.argv[1].split(",")
    whichs = sys.argv[2].split(",") if len(sys.argv) > 2 else ["full", "ho0", "ho1", "ho2"]
    jobs = [(s, w) for s in spks for w in whichs]
    for s in spks: prep(s)
    with concurrent.futures.ThreadPoolExecutor(2) as ex:
        for r in ex.map(lambda a: job(*a), jobs): print(r, flush=True)
