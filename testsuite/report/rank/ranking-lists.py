#!/usr/bin/env python3
"""ranking-lists.py CSV: "elimination: A; B | ranking: C; D", the predicate
texts of rank's csv; with --first, the first elimination step's."""
import csv, sys
rows = list(csv.DictReader(open(sys.argv[-1])))
if sys.argv[1] == "--first":
    print(next(r["predicate"] for r in rows))
else:
    print(" | ".join("%s: %s" % (kind, "; ".join(r["predicate"] for r in rows if r["list"] == kind))
                     for kind in ("elimination", "ranking")))
