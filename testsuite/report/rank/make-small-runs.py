#!/usr/bin/env python3
"""make-small-runs.py DIR: the runs of small-counts.sh, into DIR/runs and
DIR/sites.txt.  200 runs, 0-39 failing (signal 11), every site observed in
every run:
  fluke != 0     true in failing run 39 only
  few != 0       true in failing runs 36-38 only: F 3, S 0, so Failure's
                 interval has zero width under the normal approximation
  real > limit   true in failing runs 0-11 and successful runs 40-45
  res < buf (scalar pair, line 39) and fgets (buf) == 0 (return, line 40):
                 both true in failing runs 12-19 and successful 100-103,
                 an exact tie"""
import os, sys
out = sys.argv[1]
os.makedirs(out + "/runs")
unit = "fedcba9876543210fedcba9876543210"
sites = [("branches", 20, "fluke != 0", "false,true", 2), ("branches", 21, "few != 0", "false,true", 2),
         ("branches", 30, "real > limit", "false,true", 2), ("scalar-pairs", 39, "res ? buf", "<,==,>", 3),
         ("returns", 40, "fgets (buf)", "<0,==0,>0", 3)]
n_counters = sum(s[4] for s in sites)
with open(out + "/sites.txt", "w") as f:
    f.write("unit\t%s\tsrc/small.c\t%d\t%d\n" % (unit, len(sites), n_counters))
    for i, (scheme, line, predicate, counters, n) in enumerate(sites):
        f.write("site\t%d\t%s\tsrc/small.c\t%d\t5\tmain\t%d\t%s\t%s\n"
                % (i, scheme, line, n, predicate, counters))
    f.write("end\n")
def branch(i, true):
    return "%d\t%d\t%d" % (i, 0 if true else 1, 1 if true else 0)
for run in range(200):
    fluke, few = run == 39, 36 <= run <= 38
    real = run < 12 or 40 <= run <= 45
    tie = 12 <= run <= 19 or 100 <= run <= 103
    lines = ["sampler-report\t1", "program\t/nonexistent/small", "pid\t%d" % (5000 + run),
             "sparsity\t100", "seed\t%d" % run,
             "exit\tsignal\t11" if run < 40 else "exit\tstatus\t0",
             "unit\t%s\t%d\t%d\tsrc/small.c" % (unit, len(sites), n_counters),
             branch(0, fluke), branch(1, few), branch(2, real),
             "3\t1\t0\t0" if tie else "3\t0\t0\t1", "4\t0\t1\t0" if tie else "4\t0\t0\t1", "end"]
    with open("%s/runs/run-%03d.report" % (out, run), "w") as f:
        f.write("\n".join(lines) + "\n")
