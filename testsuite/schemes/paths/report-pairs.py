#!/usr/bin/env python3
"""report-pairs.py FULL SPARSE SAMPLER-REPORT BINARY: each path of two
reports' paths (sampler-report paths --format=csv), "KEY EXACT SPARSE", and
each function's sampled traversals too."""
import csv, io, subprocess, sys
def counts(path):
    out = subprocess.run([sys.argv[3], "paths", path, "--binary", sys.argv[4],
                          "--top=1000000", "--format=csv"], capture_output=True,
                         text=True, check=True).stdout
    paths, sampled = {}, {}
    for r in csv.DictReader(io.StringIO(out)):
        k = "%s | %s | %s" % (r["function"], r["region_line"], r["spelled"])
        paths[k] = paths.get(k, 0) + int(r["count"])
        sampled[r["function"]] = int(r["sampled"])
    return paths, sampled
full, full_sampled = counts(sys.argv[1])
sparse, sparse_sampled = counts(sys.argv[2])
for k in sorted(set(full) | set(sparse)):
    print("%s\t%d\t%d" % (k, full.get(k, 0), sparse.get(k, 0)))
for f in sorted(full_sampled):
    print("%s sampled\t%d\t%d" % (f, full_sampled[f], sparse_sampled.get(f, 0)))
