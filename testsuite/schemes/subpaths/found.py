#!/usr/bin/env python3
"""found.py TRUTH COMBINED: the top 5 subpaths of the combined sampled runs
(COMBINED: subpath rows, hottest first) are among the 10 commonest of the
truth (TRUTH: COUNT BLOCKS rows of exact mode), ties included."""
import sys
truth = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
counts = {b: float(c) for c, b in truth}
tenth = sorted(counts.values(), reverse=True)[min(9, len(counts) - 1)]
top = [l.rstrip("\n").split("\t")[4] for l in open(sys.argv[2])][:5]
bad = [b for b in top if counts.get(b, 0) < tenth]
if len(top) < 5 or bad:
    print("top 5:", top, "below the 10th count", tenth, ":", bad)
    sys.exit(1)
