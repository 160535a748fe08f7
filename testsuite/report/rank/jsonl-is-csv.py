#!/usr/bin/env python3
"""jsonl-is-csv.py JSONL CSV: rank's jsonl of the hand-made runs is its csv:
the summary line first (100 runs, 40 failing, none unexplained), then a
line per row with the same values."""
import csv, json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert lines[0]["runs"] == 100 and lines[0]["failing"] == 40 and lines[0]["unexplained"] == 0, lines[0]
rows = list(csv.DictReader(open(sys.argv[2])))
assert len(rows) == len(lines) - 1
for j, c in zip(lines[1:], rows):
    for key, value in c.items():
        assert str(j[key]) == value or float(j[key]) == float(value), (key, j[key], value)
