#!/usr/bin/env python3
"""checks-by-function.py < CSV: from sampler-report show --all --format=csv,
one line per sampled function, "NAME COUNT": the checks counts of its
calls, all units added up."""
import collections, csv, sys
counts = collections.Counter()
for row in csv.DictReader(sys.stdin):
    if row["scheme"] == "checks":
        counts[row["predicate"].split(" (")[0]] += int(row["count"])
for name in sorted(counts):
    print(name, counts[name])
