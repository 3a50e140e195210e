"""Each benchmark's headline figures, for the table `make bench` ends with.

A benchmark says its few headline figures with `headline(figure, vsh, baseline)` (the
values as its own table prints them; baseline None where there is none) and, at its end,
`save(name)`: they are printed under "headline figures" and written to
.build/bench-results/<name>.json, where bench/summary.py reads them. `name` is the
benchmark and what sets a run apart from another run of it (a label, a fold).
"""
import json
import os
import time

from .env import ROOT

RESULTS_DIR = os.environ.get("VSH_BENCH_RESULTS") or os.path.join(ROOT, ".build", "bench-results")
# bench/step.py's record of the run these results belong to (its commit, when it began):
# beside the results, not among them, since bench/summary.py reads every .json there.
RUN_RECORD = RESULTS_DIR.rstrip(os.sep) + "-run.json"

_rows = []


def headline(figure, vsh, baseline=None):
    """One headline figure: what it is ("command accuracy, all"), vsh's value and the
    baseline's, as text or numbers."""
    _rows.append({"figure": figure, "vsh": _text(vsh), "baseline": None if baseline is None else _text(baseline)})


def save(name):
    """Prints the headline figures said so far and writes them for bench/summary.py."""
    if not _rows:
        return
    print(f"\nheadline figures ({name}):")
    for r in _rows:
        print(f"  {r['figure']}: vsh {r['vsh']}" + (f", baseline {r['baseline']}" if r["baseline"] is not None else ""))
    os.makedirs(RESULTS_DIR, exist_ok=True)
    path = os.path.join(RESULTS_DIR, name + ".json")
    with open(path + ".tmp", "w") as f:
        json.dump({"benchmark": name, "finished": time.strftime("%Y-%m-%d %H:%M:%S"), "rows": _rows}, f, indent=1)
    os.replace(path + ".tmp", path)
    _rows.clear()


def _text(value):
    if isinstance(value, float):
        return f"{value:.1f}" if abs(value) >= 10 else f"{value:.2f}"
    return str(value)
