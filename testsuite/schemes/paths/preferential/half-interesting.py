#!/usr/bin/env python3
"""half-interesting.py ALL: the interesting-paths file ALL with a random half
of its paths (seed 5) kept, on standard output."""
import random, sys
rng = random.Random(5)
lines = open(sys.argv[1]).read().splitlines()
print("\n".join(l for l in lines if not l.startswith("path ") or rng.random() < 0.5))

