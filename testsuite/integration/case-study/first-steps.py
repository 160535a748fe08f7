#!/usr/bin/env python3
"""first-steps.py RANK-CSV: the functions of the elimination's first two
steps, space-separated."""
import csv, sys
steps = [r for r in csv.DictReader(open(sys.argv[1])) if r["list"] == "elimination"]
print(" ".join(r["function"] for r in steps[:2]))
