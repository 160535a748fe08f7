#!/usr/bin/env python3
"""make-round-runs.py OUT: the runs of two rounds' builds for rounds.sh (which
says what they are) in OUT/runs, their site tables in OUT/sites.txt."""
import sys
out = sys.argv[1]
ROUND1, ROUND2 = "a1" * 16, "b2" * 16
branch = "site\t0\tbranches\tsrc/mix.c\t5\t9\tmain\t2\tx > 50\tfalse,true"
entry = "site\t1\tfunction-entries\tsrc/mix.c\t3\t1\tmain\t1\tmain\tentered"
with open(out + "/sites.txt", "w") as f:
    f.write("unit\t%s\tsrc/mix.c\t1\t2\n%s\nend\n" % (ROUND1, branch))
    f.write("unit\t%s\tsrc/mix.c\t2\t3\n%s\n%s\nend\n" % (ROUND2, branch, entry))
def run(number, unit, n_sites, n_counters, failed, lines):
    with open("%s/runs/run-%03d.report" % (out, number), "w") as f:
        f.write("\n".join(["sampler-report\t1", "program\t/nonexistent/mix", "pid\t%d" % (1000 + number),
                           "sparsity\t1", "seed\t%d" % number,
                           "exit\tsignal\t11" if failed else "exit\tstatus\t0",
                           "unit\t%s\t%d\t%d\tsrc/mix.c" % (unit, n_sites, n_counters)]
                          + lines + ["end"]) + "\n")
for r in range(200):
    run(r, ROUND1, 1, 2, r < 10, ["0\t0\t1" if r < 10 else "0\t1\t0"])
for r in range(50):
    run(200 + r, ROUND2, 2, 3, r < 45, ["0\t0\t1" if r < 45 else "0\t1\t0", "1\t1"])
