#!/usr/bin/env python3
"""reference.py RANKED-CSV Z [MIN-FAILING]: recomputes every score of the
hand-made runs (fixtures.sh) from their description, independently of
sampler-report, and compares with rank's CSV (--top=0: all kept
predicates); then the elimination's steps, as derived in fixtures.sh."""
import csv, math, sys
ranked, z = sys.argv[1], float(sys.argv[2])
min_failing = int(sys.argv[3]) if len(sys.argv) > 3 else 3
def wilson(x, n, z, sign):
    """An end of Wilson's score interval (Wilson, JASA 1927), solved from
    |x/n - p| = z sqrt(p (1 - p) / n) as a quadratic in p."""
    a, b, c = 1 + z * z / n, -(2 * x / n + z * z / n), (x / n) ** 2
    return (-b + sign * math.sqrt(b * b - 4 * a * c)) / (2 * a)
# The hand-made runs, as the comments of fixtures.sh describe them.
truth = {}   # predicate text -> set of runs where true
observed = {}
R = range(100)
order = {}   # predicate text -> place among ties: branches, returns, then
             # other schemes, then scalar pairs; then line (one file, column 5
             # or more but for line 3, 4, 6)
LINES = {"p": 3, "!(p": 3, "read": 4, "cleanup": 6, "n": 8, "len": 9, "x": 10, "switch": 11, "i": 12}
def put(text, runs, seen):
    truth[text] = set(runs)
    observed[text] = set(seen)
    first = text.split()[0]
    kind = 0 if first in ("p", "!(p", "read", "switch") else 2 if first == "i" else 1
    order[text] = (kind, LINES[first], len(order))
put("p != 0", range(0, 20), R)
put("!(p != 0)", range(20, 100), R)
lt, gt = set(range(0, 30)), set(range(30, 80))
seen = range(0, 80)
for op, runs in (("<", lt), (">=", gt), ("==", set()), ("!=", lt | gt), (">", gt), ("<=", lt)):
    put("read (fd) %s 0" % op, runs, seen)
put("cleanup entered", list(range(0, 10)) + list(range(40, 50)), R)
neg = set(range(0, 25))
for op, runs in (("< 0", neg), ("<= 0", neg), ("> 0", R), (">= 0", R), ("!= 0", R)):
    put("n %s" % op, runs, R)
zero = set(range(30, 40)) | set(range(90, 100))
put("len == 0", zero, R)
put("len != 0", R, R)
put("x is nan", range(50, 60), R)
put("x is +normal", R, R)
put("switch (mode): case 1", range(0, 100, 2), R)
put("switch (mode): default", range(1, 100, 2), R)
for op, runs in (("<", R), (">=", ()), ("==", ()), ("!=", R), (">", ()), ("<=", R)):
    put("i %s n" % op, runs, R)
failing = set(range(40))
expected = []
for text in truth:
    t, o = truth[text], observed[text]
    if text == "cleanup entered":
        o = set(R)
    f, s = len(t & failing), len(t - failing)
    fo, so = len(o & failing), len(o - failing)
    if f + s == 0:
        continue
    failure, context = f / (f + s), fo / (fo + so)
    bound = failure - context - math.hypot(failure - wilson(f, f + s, z, -1),
                                           wilson(fo, fo + so, z, 1) - context)
    if bound <= 0 or f < min_failing:
        continue
    importance = 0 if f <= 1 else 2 / (1 / bound + math.log(40) / math.log(f))
    expected.append((text, f, s, fo, so, bound, importance, order[text]))
got = [row for row in csv.DictReader(open(ranked)) if row["list"] == "ranking"]
assert len(got) == len(expected), (len(got), [e[0] for e in expected], [g["predicate"] for g in got])
expected.sort(key=lambda e: (-e[6], -e[5], -e[1], e[7]))
for e, g in zip(expected, got):
    assert g["predicate"] == e[0], (g["predicate"], e[0])
    assert (int(g["f"]), int(g["s"]), int(g["f_observed"]), int(g["s_observed"])) == e[1:5], (g, e)
    assert abs(float(g["increase_lower_bound"]) - e[5]) < 1e-12, (g, e)
    assert abs(float(g["importance_from_lower_bound"]) - e[6]) < 1e-12, (g, e)
print("%d kept predicates agree" % len(got))
steps = [(g["predicate"], g["f"], g["s"], g["num_failing"])
         for g in csv.DictReader(open(ranked)) if g["list"] == "elimination"]
want = [("n < 0", "25", "0", "40"), ("read (fd) < 0", "5", "0", "15"), ("len == 0", "10", "10", "10")]
assert steps == want, steps
print("elimination:", steps)
