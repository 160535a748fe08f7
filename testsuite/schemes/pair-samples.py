#!/usr/bin/env python3
"""pair-samples.py PAIRS VISITS APART SAMPLED: from PAIRS (KEY EXACT SPARSE,
KEY = place|function|scheme|predicate|counter), each scalar-pairs
assignment's visits, exact and sampled: the counts of its first pair, added
(VISITS: KEY EXACT SPARSE); in APART, the assignments whose pairs have
different samples; in SAMPLED, those of more than one pair that were
sampled."""
import collections, sys
pairs = collections.defaultdict(lambda: collections.defaultdict(lambda: [0, 0]))
for line in open(sys.argv[1]):
    key, exact, sparse = line.rstrip("\n").split("\t")
    place, function, scheme, predicate, counter = key.split("|")
    if scheme != "scalar-pairs":
        continue
    x, y = predicate.split(" ? ")
    totals = pairs["%s|%s|scalar-pairs|%s ?|visits" % (place, function, x)][y]
    totals[0] += int(exact)
    totals[1] += int(sparse)
with open(sys.argv[2], "w") as visits, open(sys.argv[3], "w") as apart, \
        open(sys.argv[4], "w") as sampled:
    for assignment, partners in sorted(pairs.items()):
        if len(partners) > 1 and any(s > 0 for _, s in partners.values()):
            sampled.write(assignment + "\n")
        exact, sparse = partners[min(partners)]
        if exact > 0:
            visits.write("%s\t%d\t%d\n" % (assignment, exact, sparse))
        if len(partners) > 1 and len({s for _, s in partners.values()}) > 1:
            apart.write("%s: %s\n" % (assignment, " ".join(
                "%s %d" % (y, s) for y, (_, s) in sorted(partners.items()))))
