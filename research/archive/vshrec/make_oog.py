#!/usr/bin/env python3
"""Out-of-grammar speech: synthesized sentences (4 voices, clean + pink10db) + librivox + cards + goforward."""
import os, sys, subprocess, tempfile, wave, glob
import numpy as np
sys.path.insert(0, '/work/shared/eval')
import importlib.util, importlib.machinery
loader = importlib.machinery.SourceFileLoader('mcc', '/work/shared/eval/make-commands-corpus')
spec = importlib.util.spec_from_loader('mcc', loader)
mcc = importlib.util.module_from_spec(spec); loader.exec_module(mcc)
S = [
 "I will record the show later", "please stop talking", "save me a seat", "the list is long",
 "what time is it", "can you help me with this", "turn on the lights in the kitchen",
 "the weather is nice today", "I think we should go home now", "let me know when you are done",
 "she played the piano for three hours", "we need to buy milk and bread", "open the window please",
 "my phone number starts with seven", "how much does it cost", "the meeting was cancelled yesterday",
 "do you want some coffee", "he said that he would call back", "the quality of the food was high",
 "I am listening to music", "show me the way to the station", "this is a test of the system",
 "count me in for the party", "delete that email from my boss", "the code does not compile",
 "good morning everyone", "thank you very much", "hello there", "okay", "yes please",
 "no thanks", "what", "never mind", "hmm let me think", "where did I put my keys",
 "reset the password for my account", "history is written by the winners", "exit through the gift shop",
]
out = 'oog'
rng = np.random.default_rng(7)
rows = []
for vi, voice in enumerate(mcc.VOICES):
    for si, text in enumerate(S):
        clean = mcc.pad(mcc.synth(text, *voice))
        for cond, x in [("clean", clean), ("pink10db", mcc.mix(clean, "pink", 10, rng))]:
            rel = f"synth-{cond}/v{vi}-s{si:02d}.wav"
            mcc.write(os.path.join(out, rel), x)
            rows.append((f"oog-{cond}-v{vi}-s{si:02d}", rel, f"synth-{cond}", text))
for f in sorted(glob.glob('/work/shared/eval/real/librivox/*.wav')):
    rows.append(("libri-" + os.path.basename(f)[-8:-4], f, "librivox", ""))
for f in sorted(glob.glob('/work/shared/eval/real/cards/*.wav')):
    rows.append(("cards-" + os.path.basename(f)[:-4], f, "cards", ""))
raw = np.fromfile('/work/shared/eval/real/goforward.raw', dtype=np.int16).astype(np.float64)
mcc.write(os.path.join(out, 'goforward.wav'), raw)
rows.append(("goforward", "goforward.wav", "goforward", ""))
with open(os.path.join(out, "manifest.tsv"), "w") as f:
    f.write("id\tpath\tcondition\texpected\n")
    for r in rows: f.write("\t".join(r) + "\n")
print(len(rows))
