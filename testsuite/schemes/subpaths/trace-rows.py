#!/usr/bin/env python3
"""trace-rows.py < CSV: subpaths --format=csv rows without their header as
"COUNT BLOCKS", each block as UNIT:LINE (loop.c is one unit, unit 0 in the
trace)."""
import csv, sys
# "COUNT BLOCKS": loop.c is one unit, unit 0 in the trace.
for r in csv.reader(sys.stdin):
    print(r[6], " ".join("0:" + b.rsplit(":", 1)[1] for b in r[10].split()))
