#!/usr/bin/env python3
"""make-ties.py DIR [--runs N] [--seed N]: runs made to test rank's ties and
zero counts (run-sql-tests.sh).  Writes DIR/sites.txt and DIR/runs/*.report.

Two units, a.c and b.c, have the same sites and, in every run, the same
counts: each predicate of b.c ties with its twin in a.c, which comes first
(source order).  In a.c a return and a scalar pair are true in the same
runs (the return comes first: its scheme's tie group).  A switch of 70
arms puts predicates past the first 62 bits of an observation (word 1);
its arm 65 is the bug: a run that takes it fails with probability 0.9,
and its read () returns below 0 more often.
Some sites are never observed and some predicates never true (zero
counts); a check site is observed in every run.  Standard library only."""
import argparse, os, random

ARMS = 70
SITES = [  # (scheme, function, predicate, counter names)
    ("branches", "parse", "n > 0", "false,true"),
    ("returns", "parse", "read (fd)", "<0,==0,>0"),
    ("scalar-pairs", "parse", "got ? want", "<,==,>"),
    ("branches", "dispatch", "switch (op)", ",".join("case %d" % i for i in range(ARMS))),
    ("checks", "dispatch", "check (op)", "sampled"),
    ("branches", "unused", "never ()", "false,true"),
    ("returns", "unused", "never_called ()", "<0,==0,>0"),
    ("branches", "parse", "flag", "false,true"),
]
UNITS = [("%032x" % 0xa11ce, "a.c"), ("%032x" % 0xb0b, "b.c")]


def write_table(path):
    with open(path, "w") as out:
        for signature, source in UNITS:
            n_counters = sum(len(names.split(",")) for *_, names in SITES)
            out.write("unit\t%s\t%s\t%d\t%d\n" % (signature, source, len(SITES), n_counters))
            for index, (scheme, function, predicate, names) in enumerate(SITES):
                out.write("site\t%d\t%s\t%s\t%d\t1\t%s\t%d\t%s\t%s\n" % (
                    index, scheme, source, 10 + index, function, len(names.split(",")),
                    predicate, names))
            out.write("end\n")


def run_counts(rng):
    """The counts of one run's sites (None: not observed) and whether it failed."""
    arm = rng.randrange(ARMS) if rng.random() < 0.8 else None
    buggy = arm is not None and (arm == 65 or rng.random() < 0.08)
    if buggy:
        arm = 65
    failed = (buggy and rng.random() < 0.9) or rng.random() < 0.03
    counts = [None] * len(SITES)
    if rng.random() < 0.7:
        counts[0] = [rng.randint(0, 2), rng.randint(0, 3) + (3 if failed else 0)]
        if not any(counts[0]):
            counts[0][1] = 1
    if rng.random() < 0.6:
        # The return and the pair are true in the same runs: got is read's result.
        result = rng.choice([[0, 2, 0], [0, 0, 3], [0, 1, 2]])
        if buggy and rng.random() < 0.7:
            result = [2, 0, 0]
        counts[1] = result
        counts[2] = list(result)
    if arm is not None:
        counts[3] = [0] * ARMS
        counts[3][arm] = rng.randint(1, 4)
        if rng.random() < 0.3:
            counts[3][rng.randrange(ARMS)] += 1
    if rng.random() < 0.5:
        counts[4] = [rng.randint(1, 5)]
    if rng.random() < 0.5:
        counts[7] = [rng.randint(1, 3), 0]     # observed, never true
    return counts, failed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dir")
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    os.makedirs(os.path.join(args.dir, "runs"), exist_ok=True)
    write_table(os.path.join(args.dir, "sites.txt"))
    n_counters = sum(len(names.split(",")) for *_, names in SITES)
    for run in range(args.runs):
        counts, failed = run_counts(rng)
        lines = ["sampler-report\t1", "program\t/ties/prog", "pid\t%d" % (100 + run),
                 "sparsity\t10", "seed\t%d" % run,
                 "exit\tsignal\t11" if failed else "exit\tstatus\t0"]
        for signature, source in UNITS:
            lines.append("unit\t%s\t%d\t%d\t%s" % (signature, len(SITES), n_counters, source))
            for index, values in enumerate(counts):
                if values is not None and any(values):
                    lines.append("%d\t%s" % (index, "\t".join(str(v) for v in values)))
        lines.append("end\n")
        with open(os.path.join(args.dir, "runs", "run-%04d.report" % run), "w") as out:
            out.write("\n".join(lines))


main()
