#!/usr/bin/env python3
"""totals.py < CSV: from sampler-report paths --format=csv, "FUNCTION SAMPLED
LOST PAIRS-SUM" per function, sorted."""
import csv, sys
seen = {}
for r in csv.DictReader(sys.stdin):
    f = seen.setdefault(r["function"], [r["sampled"], r["lost"], 0])
    f[2] += int(r["count"])
for name, (sampled, lost, pairs) in sorted(seen.items()):
    print(name, sampled, lost, pairs)
