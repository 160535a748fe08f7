#!/usr/bin/env python3
"""Synthetic runs for sampler-report rank, merge and export: a site table of
every scheme and reports drawn from it with planted bugs, all from one seed.

usage: make-runs.py DIR --runs N --sites N [--units N] [--observed P]
                    [--bugs N] [--seed N] [--noise P]

Writes DIR/sites.txt (a site-table file) and DIR/runs/run-NNNNNN.report.
Bug i is the branch site planted[i] going true: a run triggers it with
probability 0.05 * (i + 1), and then fails (killed by signal 11, or exit
status 1 for odd i) with probability 0.9; a run also fails at random with
probability NOISE (default 0.01).  Each other site is observed with
probability OBSERVED (default 0.05) and gets random counts.  DIR/bugs.txt
lists the planted sites as "UNIT<TAB>SITE".  Standard library only."""
import argparse, os, random, struct

SCHEMES = [  # (scheme, weight)
    ("branches", 50), ("returns", 12), ("scalar-pairs", 12), ("switch", 4),
    ("float-kinds", 4), ("function-entries", 6), ("bounds", 8), ("checks", 4),
]
FLOATS = "nan,-inf,-normal,-subnormal,-0,+0,+subnormal,+normal,+inf"

def signature(rng):
    return "%032x" % rng.getrandbits(128)

def make_table(rng, n_units, n_sites):
    units = []
    per_unit = [n_sites // n_units + (1 if u < n_sites % n_units else 0) for u in range(n_units)]
    total = sum(w for _, w in SCHEMES)
    for u, count in enumerate(per_unit):
        sig, source = signature(rng), "src/unit%d.c" % u
        sites = []
        for s in range(count):
            pick = rng.randrange(total)
            for scheme, weight in SCHEMES:
                if pick < weight:
                    break
                pick -= weight
            line, function = 10 + s, "f%d" % (s // 20)
            if scheme == "branches":
                sites.append(("branches", line, function, "x%d > %d" % (s, s % 7), "false,true"))
            elif scheme == "switch":
                sites.append(("branches", line, function, "switch (m%d)" % s, "case 1,case 2,default"))
            elif scheme == "returns":
                sites.append(("returns", line, function, "g%d (p)" % s, "<0,==0,>0"))
            elif scheme == "scalar-pairs":
                sites.append(("scalar-pairs", line, function, "a%d ? b" % s, "<,==,>"))
            elif scheme == "float-kinds":
                sites.append(("float-kinds", line, function, "r%d" % s, FLOATS))
            elif scheme == "function-entries":
                sites.append(("function-entries", line, function, function, "entered"))
            elif scheme == "checks":
                sites.append(("checks", line, function, "check (c%d)" % s, "sampled"))
            else:
                kind = rng.choice(["signed", "unsigned", "double"])
                sites.append(("bounds", line, function, "v%d (%s)" % (s, kind), "count,min,max"))
        units.append((sig, source, sites))
    return units

def write_table(path, units):
    with open(path, "w") as out:
        for sig, source, sites in units:
            n_counters = sum(len(names.split(",")) for *_, names in sites)
            out.write("unit\t%s\t%s\t%d\t%d\n" % (sig, source, len(sites), n_counters))
            for index, (scheme, line, function, predicate, names) in enumerate(sites):
                out.write("site\t%d\t%s\t%s\t%d\t1\t%s\t%d\t%s\t%s\n" % (
                    index, scheme, source, line, function, len(names.split(",")), predicate,
                    names))
            out.write("end\n")

def bits_of_double(value):
    return struct.unpack("<Q", struct.pack("<d", value))[0]

def random_counts(rng, site):
    scheme, _, _, predicate, names = site
    n = len(names.split(","))
    if scheme == "bounds":
        count = rng.randint(1, 9)
        kind = predicate.rsplit("(", 1)[1][:-1]
        if kind == "double":
            a, b = sorted(rng.uniform(-5, 5) * rng.choice([0, 1]) for _ in range(2))
            return [count, bits_of_double(a), bits_of_double(b)]
        if kind == "unsigned":
            a, b = sorted(rng.choice([0, rng.randint(1, 99)]) for _ in range(2))
            return [count, a, b]
        a, b = sorted(rng.randint(-9, 9) for _ in range(2))
        return [count, a % (1 << 64), b % (1 << 64)]
    counts = [rng.choice([0, 0, rng.randint(1, 5)]) for _ in range(n)]
    if not any(counts):
        counts[rng.randrange(n)] = rng.randint(1, 3)
    return counts

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dir")
    parser.add_argument("--runs", type=int, required=True)
    parser.add_argument("--sites", type=int, required=True)
    parser.add_argument("--units", type=int, default=1)
    parser.add_argument("--observed", type=float, default=0.05)
    parser.add_argument("--bugs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--noise", type=float, default=0.01)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    units = make_table(rng, args.units, args.sites)
    os.makedirs(os.path.join(args.dir, "runs"), exist_ok=True)
    write_table(os.path.join(args.dir, "sites.txt"), units)
    branch_sites = [(u, s) for u, (_, _, sites) in enumerate(units)
                    for s, site in enumerate(sites)
                    if site[0] == "branches" and site[4] == "false,true"]
    planted = rng.sample(branch_sites, args.bugs)
    with open(os.path.join(args.dir, "bugs.txt"), "w") as out:
        for u, s in planted:
            out.write("%s\t%d\n" % (units[u][0], s))
    planted_set = set(planted)
    for run in range(args.runs):
        failed = rng.random() < args.noise
        signal = rng.random() < 0.5
        forced = {}
        for i, (u, s) in enumerate(planted):
            if rng.random() < 0.05 * (i + 1):
                forced[(u, s)] = [0, rng.randint(1, 3)]
                if rng.random() < 0.9:
                    failed, signal = True, i % 2 == 0
            else:
                forced[(u, s)] = [rng.randint(0, 3), 0] if rng.random() < 0.5 else None
        lines = ["sampler-report\t1", "program\t/synthetic/prog", "pid\t%d" % (1000 + run),
                 "sparsity\t100", "seed\t%d" % run,
                 ("exit\tsignal\t11" if signal else "exit\tstatus\t1") if failed
                 else "exit\tstatus\t0"]
        for u, (sig, source, sites) in enumerate(units):
            n_counters = sum(len(site[4].split(",")) for site in sites)
            lines.append("unit\t%s\t%d\t%d\t%s" % (sig, len(sites), n_counters, source))
            observed = set(rng.sample(range(len(sites)),
                                      int(round(args.observed * len(sites)))))
            for s in range(len(sites)):
                if (u, s) in planted_set:
                    counts = forced[(u, s)]
                    if counts is None or not any(counts):
                        continue
                elif s not in observed:
                    continue
                else:
                    counts = random_counts(rng, sites[s])
                lines.append("%d\t%s" % (s, "\t".join(str(c) for c in counts)))
        lines.append("end\n")
        with open(os.path.join(args.dir, "runs", "run-%06d.report" % run), "w") as out:
            out.write("\n".join(lines))

main()
