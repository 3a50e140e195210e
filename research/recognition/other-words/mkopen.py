#!/usr/bin/env python3
"""mkopen.py IN.gram N W OUT [--noloop]: the grammar plus N garbage words weighted W (flat, then a free loop)."""
import sys, re
src, n, w, out = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
loop = "--noloop" not in sys.argv
t = open(src).read()
DICT = "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict"
pron = {}
for line in open(DICT):
    p = line.split()
    if p: pron.setdefault(re.sub(r"\(\d+\)$", "", p[0]), []).append(" ".join(p[1:]))
body = re.sub(r"//[^\n]*", "", t)
vocab = set(re.findall(r"(?<![<\w])([a-z][a-z']*)(?![\w>])", body.split("grammar", 1)[1].split(";", 1)[1])) & set(pron)
cmdprons = {pr for v in vocab for pr in pron[v]}
uni = sorted((l.split("\t") for l in open("uni.tsv")), key=lambda x: -float(x[0]))
g = []
for lp, word in uni:
    word = word.strip()
    if word in vocab or word not in pron or not re.fullmatch(r"[a-z][a-z']*", word): continue
    if any(pr in cmdprons for pr in pron[word]): continue
    g.append(word)
    if len(g) >= n: break
pubs = re.findall(r"public\s+<([^>]+)>", t)
t = re.sub(r"public\s+<", "<", t)
rest = " <vsh_rest>" if loop else ""
alts = [f"/1/ <{p}>" for p in pubs] + [f"/{w}/ {x}{rest}" for x in g]
t += "\npublic <vsh_utterance> = " + " | ".join(alts) + ";\n"
if loop:
    t += "<vsh_rest> = [<vsh_more>];\n<vsh_more> = (" + " | ".join(g) + ")+;\n"
open(out, "w").write(t)
print(len(vocab), "vocab;", len(g), "garbage", file=sys.stderr)
