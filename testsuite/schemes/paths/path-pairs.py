#!/usr/bin/env python3
"""path-pairs.py FULL-ROWS SPARSE-ROWS FULL-TOTALS SPARSE-TOTALS: each path,
"KEY EXACT SPARSE" (0 when not sampled), and each function's sampled
traversals too."""
import sys
def read(path):
    d = {}
    for line in open(path):
        f, n, r, s = line.rstrip("\n").split("\t")
        k = "%s | %s | %s" % (f, r, s)
        d[k] = d.get(k, 0) + int(n)
    return d
def totals(path):
    return {l.split()[0]: int(l.split()[1]) for l in open(path)}
full, sparse = read(sys.argv[1]), read(sys.argv[2])
for k in sorted(full):
    print("%s\t%d\t%d" % (k, full[k], sparse.get(k, 0)))
for k in sorted(set(sparse) - set(full)):
    print("%s\t0\t%d" % (k, sparse[k]))
ft, st = totals(sys.argv[3]), totals(sys.argv[4])
for f in sorted(ft):
    print("%s sampled\t%d\t%d" % (f, ft[f], st.get(f, 0)))
