#!/usr/bin/env python3
"""lower-bounds.py CSV95 CSV99: at 99% the bounds are lower than at 95%,
and no predicate is kept that was not kept at 95%."""
import csv, sys
def bounds(path):
    return {r['predicate']: float(r['increase_lower_bound'])
            for r in csv.DictReader(open(path)) if r['list'] == 'ranking'}
a, b = bounds(sys.argv[1]), bounds(sys.argv[2])
assert set(b) <= set(a) and all(b[p] < a[p] for p in b), (a, b)
