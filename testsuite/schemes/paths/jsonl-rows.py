#!/usr/bin/env python3
"""jsonl-rows.py < JSONL: from sampler-report paths --format=jsonl, the rows
of rows() in lib.sh ("FUNCTION TRAVERSALS REGION'S-LINE SPELLED"); each
function's sampled traversals are its hot paths' counts and its lost ones."""
import json, sys
for line in sys.stdin:
    f = json.loads(line)
    assert f["sampled"] == sum(p["count"] for p in f["hot"]) + f["lost"]
    for p in f["hot"]:
        print("\t".join([f["function"], str(p["count"]), str(p["region_line"]), p["spelled"]]))
