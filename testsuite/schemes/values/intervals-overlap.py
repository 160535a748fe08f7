#!/usr/bin/env python3
"""intervals-overlap.py CSV CSV: the visits intervals of value 1001 in two
values --format=csv outputs overlap (exit 0) or not (exit 1)."""
import csv, sys
# 1001's visits interval; missing from the list: count 0, [0, 3.84 tau].
def interval(path):
    tau = None
    for r in csv.DictReader(open(path)):
        if r["observed"] == "v (signed)":
            tau = float(r["tau"])
            if r["value"] == "1001":
                return float(r["visits_low"]), float(r["visits_high"])
    return (0, 3.8415 * tau) if tau else None
a, b = interval(sys.argv[1]), interval(sys.argv[2])
sys.exit(0 if a and b and a[0] <= b[1] and b[0] <= a[1] else 1)
