#!/usr/bin/env python3
"""check-ppp.py EXACT.csv PREFERRED.csv SHOW.csv DUMP [--all] [--aliases]:
compares an exact run (sampler-report paths --format=csv, a build without
an interesting-paths file, sparsity 1) with one of the same program built
with paths-interesting=FILE (run-ppp-tests.sh).  Prints each problem and
exits 1 if there is one; else prints a summary line.
  - every path the preferred build counted has its exact count, and each
    function's sampled traversals are the exact run's;
  - per function with preferential numbering (the dump's "preferred"
    lines): its interesting paths' numbers are distinct and below the
    range, the range at least their number, and equal to it when every
    path of the function is interesting; each interesting path that ran
    has its exact count, and no more of the others than the pairs
    beyond the range were counted (the interesting ones are in the array:
    the reports keep the pairs but not where they were);
  - --all: no traversal lost, and at least one function numbered;
  - --aliases: at least one function has aliases (the dump says so)."""
import csv
import re
import sys

exact_csv, preferred_csv, dump_file = sys.argv[1:4]
want_all = "--all" in sys.argv[4:]
want_aliases = "--aliases" in sys.argv[4:]
problems = []


def paths_rows(name):
    """(function, Ball-Larus number) -> [count, spelled]; per function its
    sampled and lost traversals.  Both builds number paths alike."""
    counts, sampled, lost = {}, {}, {}
    for r in csv.DictReader(open(name)):
        f = r["function"]
        counts[(f, int(r["path"]))] = [int(r["count"]), r["spelled"]]
        sampled[f] = int(r["sampled"])
        lost[f] = int(r["lost"])
    return counts, sampled, lost


exact, exact_sampled, exact_lost = paths_rows(exact_csv)
got, got_sampled, got_lost = paths_rows(preferred_csv)
for f, n in exact_lost.items():
    if n:
        problems.append(f"{f}: the exact run lost {n} traversals (raise its paths-array)")
for key, (count, spelled) in got.items():
    if exact.get(key) != [count, spelled]:
        problems.append(f"{key[0]}: path {key[1]} ({spelled}) counted {count}, "
                        f"exactly {exact.get(key)}")
for f, n in exact_sampled.items():
    if got_sampled.get(f) != n:
        problems.append(f"{f}: sampled {got_sampled.get(f)}, exactly {n}")
if want_all:
    for f, n in got_lost.items():
        if n:
            problems.append(f"{f}: {n} traversals lost with every path interesting")

functions = {}
current = None
for line in open(dump_file):
    m = re.match(r"paths (\S+): (\d+) paths in", line)
    if m:
        current = functions[m.group(1)] = {"total": int(m.group(2)), "ids": []}
        continue
    m = re.match(r"  preferred: (\d+) interesting paths, numbers 0\.\.(\d+), "
                 r"compactness [0-9.]+, (\d+) pairs, (.*)", line)
    if m and current is not None:
        current.update(k=int(m.group(1)), range=int(m.group(2)) + 1,
                       pairs=int(m.group(3)), array=m.group(4) == "array")
    m = re.match(r"  preferred (\d+): path (\d+)", line)
    if m and current is not None:
        current["ids"].append((int(m.group(1)), int(m.group(2))))
    m = re.match(r"  preferred aliases: (\d+)", line)
    if m and current is not None:
        current["aliases"] = int(m.group(1))

numbered = aliased = checked_pairs = 0
for name, f in functions.items():
    if "k" not in f:
        continue
    numbered += 1
    ids = [i for i, _ in f["ids"]]
    if len(ids) != f["k"] or len(set(ids)) != len(ids):
        problems.append(f"{name}: interesting numbers not distinct: {sorted(ids)}")
    if any(i >= f["range"] for i in ids) or f["range"] < f["k"]:
        problems.append(f"{name}: numbers {sorted(ids)} outside the range {f['range']}")
    if f["k"] == f["total"] and f["range"] != f["k"]:
        problems.append(f"{name}: every path interesting, yet range {f['range']} != {f['k']}")
    aliased += f.get("aliases", 0) > 0
    if not f["array"]:
        continue
    interesting = set(path for _, path in f["ids"])
    for path in interesting:
        if (name, path) not in exact:
            continue            # did not run
        if got.get((name, path)) != exact[(name, path)]:
            problems.append(f"{name}: interesting path {path} counted {got.get((name, path))}, "
                            f"exactly {exact[(name, path)]}")
        checked_pairs += 1
    others = sum(1 for (g, path) in got if g == name and path not in interesting)
    if others > f["pairs"] - f["range"]:
        problems.append(f"{name}: {others} other paths counted in {f['pairs'] - f['range']} "
                        f"pairs beyond the range")
if want_all and not numbered:
    problems.append("no function got preferential numbering")
if want_aliases and not aliased:
    problems.append("no function has aliases")
for p in problems[:20]:
    print(p)
if problems:
    sys.exit(1)
print(f"{len(got)} paths exact, {numbered} functions numbered, {checked_pairs} interesting "
      f"paths counted, {aliased} with aliases")
