"""Scoring and reporting: percentages, ratios, tables, medians, word error."""
import re

from .results import headline


def pct(n, d, width=0):
    """"12.5% (1/8)"; the percentage right-aligned in `width` characters."""
    return f"{100 * n / d:{width}.1f}% ({n}/{d})" if d else "n/a"


def ratio(a, b):
    return f"{a / b:.2f}" if b else ("1.00" if a == b else "inf")


def row(name, ours, base, unit, goal, better="lower"):
    """One line of the plain tables: vsh beside the baseline, their ratio and the goal; a
    headline figure of the benchmark (`results`)."""
    headline(f"{name.strip()}, {unit}", f"{ours:.1f}", f"{base:.1f}")
    ratio = ours / base if base else float("inf")
    ok = (ours <= goal) if better == "lower" else (ours >= goal)
    print(f"{name:<34} {ours:>12.1f} {base:>12.1f} {unit:<8} {ratio:>7.2f}x   goal {'≤' if better == 'lower' else '≥'} {goal:g} {unit}: {'met' if ok else 'NOT MET'}")


def markdown_table(head, rows):
    """Prints a Markdown table with its columns padded to line up."""
    width = [max(len(str(r[i])) for r in list(rows) + [head]) for i in range(len(head))]
    line = lambda r: "| " + " | ".join(str(c).ljust(w) for c, w in zip(r, width)) + " |"  # noqa: E731
    print(line(head))
    print("|" + "|".join("-" * (w + 2) for w in width) + "|")
    for r in rows:
        print(line(r))


def met(ok):
    """A table's "met?" cell: yes, NO, or — where there is no goal."""
    return {None: "—", True: "yes", False: "NO"}[ok]


def median(values):
    values = sorted(values)
    return 0.0 if not values else (values[(len(values) - 1) // 2] + values[len(values) // 2]) / 2


def p95(values):
    """The 95th percentile (nearest rank)."""
    values = sorted(values)
    return 0.0 if not values else values[max(0, -(-95 * len(values) // 100) - 1)]


def latency_pairs(ends, times):
    """Each time matched with the last end of speech before it: [(end, time)]."""
    pairs = []
    for t in times:
        before = [e for e in ends if e <= t]
        if before:
            pairs.append((before[-1], t))
    return pairs


def words(text):
    """The words of a transcript as scored: lower case, no <s>, [noise] or (2)."""
    text = re.sub(r"<[^>]*>|\[[^\]]*\]|\(\d+\)", " ", text.lower())
    return [w.strip("'") for w in re.sub(r"[^a-z0-9']+", " ", text).split() if w.strip("'")]


def edit_distance(ref, hyp):
    """Word substitutions, insertions and deletions from ref to hyp (or of any items: phones)."""
    row = list(range(len(hyp) + 1))
    for i, r in enumerate(ref, 1):
        prev, row[0] = row[0], i
        for j, h in enumerate(hyp, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (r != h))
    return row[-1]


def row_head():
    """The head of the plain tables `row` prints lines of."""
    print(f"{'benchmark':<34} {'vsh':>12} {'baseline':>12} {'unit':<8} {'vsh/base':>8}")
    print("-" * 100)
