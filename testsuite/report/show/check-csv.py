#!/usr/bin/env python3
"""check-csv.py < FILE: show --format=csv wrote its header and rows of 12
fields."""
import csv, sys
rows = list(csv.reader(sys.stdin))
assert rows[0] == ["unit", "site", "file", "line", "column", "function", "scheme",
                   "predicate", "counter", "count", "rate", "estimate"], rows[0]
assert len(rows) > 1
for row in rows[1:]:
    assert len(row) == 12, row
