#!/usr/bin/env python3
"""bounds-cover.py TRUTH SAMPLED...: each of the 5 commonest subpaths of the
truth (exact mode) lies within its Chernoff bounds in at least all but one
of the sampled runs (the bounds are conservative)."""
import sys
truth = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])][:5]
runs = []
for path in sys.argv[2:]:
    rows = {}
    for l in open(path):
        e, lo, hi, _, b = l.rstrip("\n").split("\t")
        rows[b] = (float(lo), float(hi))
    runs.append(rows)
ok = True
for count, blocks in truth:
    c = float(count)
    # Absent from a run's list: its count there is 0, whose upper bound
    # is the Chernoff bound of a count of 0 times the scale; counted as a
    # miss unless listed.
    held = sum(1 for r in runs if blocks in r and r[blocks][0] <= c <= r[blocks][1])
    print(count, blocks, "held in", held, "of", len(runs))
    ok = ok and held >= len(runs) - 1
sys.exit(0 if ok else 1)
