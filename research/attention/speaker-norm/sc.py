"""Speech Commands: clips by speaker, cohort selections."""
import os, zlib, collections
SC = "/work/shared/eval/real/speech-commands"
DICT = "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict"
def rows():
    out = []
    for cls in sorted(os.listdir(SC)):
        d = f"{SC}/{cls}"
        if not os.path.isdir(d) or cls == "_silence_": continue
        for f in sorted(os.listdir(d)):
            if not f.endswith(".flac"): continue
            stem = f[:-5]
            if cls == "_unknown_": word, spk = stem.split("_")[0], stem.split("_")[1]
            else: word, spk = cls, stem.split("_")[0]
            out.append(dict(id=f"{cls}/{stem}", word=word, speaker=spk, src=f"{d}/{f}"))
    return out
def by_speaker():
    g = collections.defaultdict(list)
    for r in rows(): g[r["speaker"]].append(r)
    return g
_words = None
def in_dict(w):
    global _words
    if _words is None: _words = {l.split()[0] for l in open(DICT)}
    return w in _words
def big_speakers(n=39):
    g = by_speaker(); return sorted([s for s in g if len(g[s]) >= n], key=lambda s: -len(g[s]))
