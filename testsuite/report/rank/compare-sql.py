#!/usr/bin/env python3
"""compare-sql.py RANK-CSV SQL-CSV: tools/cbi-scores.sql ranks as rank does:
the same predicates in the same order, the same numbers."""
import csv, sys
ranked = [r for r in csv.DictReader(open(sys.argv[1])) if r["list"] == "ranking"]
sql = list(csv.DictReader(open(sys.argv[2])))
assert len(ranked) == len(sql) and sql, (len(ranked), len(sql))
for r, s in zip(ranked, sql):
    assert (r["unit"], r["site"], r["predicate_index"]) == (s["unit"], s["site"], s["predicate_index"]), (r, s)
    assert (r["f"], r["s"], r["f_observed"], r["s_observed"]) == (s["f"], s["s"], s["f_obs"], s["s_obs"]), (r, s)
    for a, b in (("importance_from_lower_bound", "importance_from_lower_bound"),
                 ("increase_lower_bound", "increase_lower_bound")):
        assert abs(float(r[a]) - float(s[b])) <= 1e-12, (a, r[a], s[b])
print("%d predicates in the same order" % len(sql))
