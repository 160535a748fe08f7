#!/usr/bin/env python3
"""check-jsonl.py < FILE: show --format=jsonl wrote one JSON object a line:
each report's run line first, then its sites, each with the keys it must
have (a site whose table is known has its rate and estimated counts too)."""
import json, sys
lines = [json.loads(l) for l in sys.stdin]
run_keys = {"program", "pid", "sparsity", "seed", "exit"}
optional_run_keys = {"parent", "resets", "interim", "countdown_unit", "run_id", "product",
                     "version", "withheld", "dropped"}
site_keys = {"unit", "source", "site", "file", "line", "column", "function", "scheme",
             "predicate", "counts"}
# A site whose table is known has its rate and estimated counts.
rated_keys = site_keys | {"rate", "estimated"}
def is_run(line):
    return run_keys <= set(line) <= run_keys | optional_run_keys
assert is_run(lines[0]), lines[0]
for line in lines[1:]:
    # Each report of a file starts with its run line.
    if "program" in line:
        assert is_run(line), line
        continue
    assert set(line) == (site_keys if line["file"] is None else rated_keys), line
    assert all(v is None or isinstance(v, (int, float)) for v in line["counts"].values()), line
    if "rate" in line:
        assert 0 <= line["rate"] <= 1, line
        assert set(line["estimated"]) <= set(line["counts"]), line
