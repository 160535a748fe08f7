#!/usr/bin/env python3
"""coverage.py TRUTH TOP MIN CSV...: for each CSV (values --format=csv of
one trial), the TOP commonest true values' visits and shares (TRUTH: VALUE
COUNT a line, what the program printed) against their intervals (a value
missing from the list has count 0: visits in [0, 3.84 tau], share in
[0, 3.84 / (n + 3.84)], the score intervals at 0); fails unless each
interval held the truth MIN times or more."""
import csv, sys
truth_path, top, minimum = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
truth = {}
for line in open(truth_path):
    value, count = line.split()
    truth[value] = int(count)
total = sum(truth.values())
commonest = sorted(truth, key=lambda v: -truth[v])[:top]
visits_in = share_in = cases = 0
for path in sys.argv[4:]:
    rows = [r for r in csv.DictReader(open(path)) if r["observed"] == "v (signed)"]
    if not rows:
        sys.exit(f"{path}: no row for v")
    tau, sample = float(rows[0]["tau"]), float(rows[0]["sample"])
    by_value = {r["value"]: r for r in rows}
    for v in commonest:
        r = by_value.get(v)
        if r:
            vl, vh = float(r["visits_low"]), float(r["visits_high"])
            sl, sh = float(r["share_low"]), float(r["share_high"])
        else:
            vl, vh, sl, sh = 0, 3.8415 * tau, 0, 3.8415 / (sample + 3.8415)
        visits_in += vl <= truth[v] <= vh
        share_in += sl <= truth[v] / total <= sh
        cases += 1
print(f"visits intervals held the truth {visits_in}/{cases}, shares {share_in}/{cases}")
sys.exit(0 if visits_in >= minimum and share_in >= minimum else 1)
