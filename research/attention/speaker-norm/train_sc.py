"""Models for Speech Commands speakers (same recipe): 'cohort' models for T-norm (all their clips),
and 'sc' test models adapted on half the words (yes no up down left + first half of unknown words)."""
import os, sys, subprocess, concurrent.futures
import vshaudio as v, sc
HERE = os.path.dirname(os.path.abspath(__file__))
COHORT = ["4c6167ca", "692a88e6", "1b4c9b89", "0cb74144", "1acc97de", "4fd1443e"]
TEST = ["5170b77f", "3b4f8f24", "563aa4e6", "18f8afd5", "37dca74f", "63f7a489", "5e3dde6b", "5c8af87a", "189cbabe"]
ADAPT_WORDS = set("yes no up down left bed bird cat dog happy house marvin sheila zero one two three four".split())
def name(r): return r["id"].replace("/", "__")
def prep(spk):
    d = f"{HERE}/takes/sc_{spk}"; os.makedirs(d, exist_ok=True)
    for r in sc.by_speaker()[spk]:
        p = f"{d}/{name(r)}.wav"
        if os.path.exists(p): continue
        x = v.read_audio(r["src"], 16000)
        v.write_wav(p, v.normalised(v.pad(x, 16000, 0.3, 0.3, "take/" + r["id"])))
    return d
def job(spk, kind):
    d = prep(spk)
    rs = [r for r in sc.by_speaker()[spk] if sc.in_dict(r["word"])]
    if kind == "sc": rs = [r for r in rs if r["word"] in ADAPT_WORDS]
    out = f"{HERE}/models/sc_{spk}/{kind}"
    if os.path.exists(out + "/means"): return out
    os.makedirs(out, exist_ok=True)
    with open(out + ".tr", "w") as f:
        for r in rs: f.write(f"{name(r)}\t{r['word']}\n")
    p = subprocess.run(["bash", f"{HERE}/../../adaptation/vsh-train-recipe.sh", d, out + ".tr", out], capture_output=True, text=True)
    if p.returncode: return out + " FAILED " + p.stderr[-300:]
    subprocess.run(["rm", "-rf", out + "/.work"])
    return out
if __name__ == "__main__":
    jobs = [(s, "cohort") for s in COHORT] + [(s, "sc") for s in TEST]
    with concurrent.futures.ThreadPoolExecutor(2) as ex:
        for r in ex.map(lambda a: job(*a), jobs): print(r, flush=True)
