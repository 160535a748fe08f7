#!/usr/bin/env python3
"""binomial-bounds.py EXACT.csv SPARSE.csv SPARSITY: every count of at least
2000 in EXACT (a report at sparsity 1, every visit sampled) has its count in
SPARSE (the same program at SPARSITY) within the two-sided binomial bounds
of confidence 99.9%, Bonferroni-corrected over the counts tested.  Rows are
keyed by unit, site and counter (sampler-report show --format=csv); only
the predicate schemes' counters, each a count of sampled visits, are
tested (hot-lists and bounds keep values, not visits).  With a mean of at least 20,
the bounds are the normal approximation's, with continuity correction."""
import csv
import math
import sys


PREDICATE_SCHEMES = {"branches", "returns", "scalar-pairs", "function-entries",
                     "float-kinds", "checks"}


def counts(path):
    with open(path, newline="") as f:
        return {(r["unit"], r["site"], r["counter"]): int(r["count"])
                for r in csv.DictReader(f)
                if r["scheme"] in PREDICATE_SCHEMES}


def normal_tail(z):
    """P(Z >= z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def main():
    exact, sparse = counts(sys.argv[1]), counts(sys.argv[2])
    p = 1.0 / float(sys.argv[3])
    tested = {key: n for key, n in exact.items() if n >= 2000}
    if not tested:
        print("no count of at least 2000 at sparsity 1")
        return 1
    alpha = 0.001 / len(tested)
    bad = 0
    for key, n in sorted(tested.items()):
        k = sparse.get(key, 0)
        mean, sd = n * p, math.sqrt(n * p * (1.0 - p))
        z = max(abs(k - mean) - 0.5, 0.0) / sd
        if normal_tail(z) < alpha / 2:
            print("unit %s site %s %s: %d of %d visits sampled, expected %.1f"
                  % (key[0][:8], key[1], key[2], k, n, n * p))
            bad += 1
    print("%d counts tested, %d outside their bounds" % (len(tested), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
