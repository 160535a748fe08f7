#!/usr/bin/env python3
"""fairness.py SITES REPORT...: loop.c's branch at line 24 (true in 50000 of
100000 visits a run) has its sampled true outcomes, over the reports,
within 4 standard deviations of the binomial mean at sparsity 100."""
import math, sys
site = None
for l in open(sys.argv[1]):
    f = l.rstrip("\n").split("\t")
    if f[0] == "site" and f[2] == "branches" and f[4] == "24":
        site = f[1]
total = 0
for path in sys.argv[2:]:
    for l in open(path):
        f = l.rstrip("\n").split("\t")
        if f[0] == site:
            total += int(f[2])
runs = len(sys.argv) - 2
mean = runs * 50000 / 100
sd = math.sqrt(runs * 50000 * 0.01 * 0.99)
print("site", site, "true outcomes sampled", total, "expected", mean, "sd", round(sd, 1))
sys.exit(0 if site is not None and abs(total - mean) <= 4 * sd else 1)
