#!/usr/bin/env python3
"""bug-position.py RANK-CSV FUNCTIONS: "STEP RANK" of the bug, the first
elimination step in one of the FUNCTIONS (space-separated) and the first
position in the ranking, "-" for none."""
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
def first(kind):
    for r in rows:
        if r["list"] == kind and r["function"] in sys.argv[2].split():
            return r["position"]
    return "-"
print(first("elimination"), first("ranking"))
