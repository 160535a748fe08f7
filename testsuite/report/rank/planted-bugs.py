#!/usr/bin/env python3
"""planted-bugs.py BUGS RANK-CSV: the elimination's first three steps are
the bugs make-runs.py planted (its bugs.txt: UNIT SITE a line)."""
import csv, sys
bugs = {tuple(l.split()) for l in open(sys.argv[1])}
steps = [(r['unit'], r['site']) for r in csv.DictReader(open(sys.argv[2])) if r['list'] == 'elimination']
assert set(steps[:3]) == bugs, (steps, bugs)
