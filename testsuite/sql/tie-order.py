#!/usr/bin/env python3
"""tie-order.py RANK-CSV: rank puts a.c before its twin b.c, read () < 0
before the pair got < want, in make-ties.py's runs."""
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r['list'] == 'ranking']
order = [(r['file'], r['predicate']) for r in rows]
assert order[:6] == [('a.c', 'switch (op): case 65'), ('b.c', 'switch (op): case 65'),
                     ('a.c', 'read (fd) < 0'), ('b.c', 'read (fd) < 0'),
                     ('a.c', 'got < want'), ('b.c', 'got < want')], order
