#!/usr/bin/env python3
"""formats-agree.py CSV JSONL PAGE-JSON: subpaths --format=jsonl and
--format=html (read by testsuite/tools/html-tables.py) give the csv's
subpaths: every object and table row a csv row, each block's source line
shown."""
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
objects = [json.loads(line) for line in open(sys.argv[2])]
page = json.load(open(sys.argv[3]))
assert len(rows) >= 5 and len(objects) == len(rows), (len(rows), len(objects))
for r, o in zip(rows, objects):
    assert int(r["rank"]) == o["rank"] and int(r["length"]) == o["length"], (r, o)
    assert int(r["count"]) == o["count"] and float(r["confidence"]) == o["confidence"], (r, o)
    for key in ("estimate", "low", "high"):
        assert r[key] == "%.0f" % o[key], (key, r, o)
    assert abs(float(r["scale"]) - o["scale"]) <= 1e-5 * o["scale"], (r, o)
    assert r["blocks"] == " ".join("%s:%d" % (b["function"], b["line"]) for b in o["blocks"])
    assert r["sites"] == " ".join(b["site"] for b in o["blocks"]), (r, o)
    assert r["file"] == o["blocks"][0]["file"], (r, o)
(table,) = page["tables"]
assert table["rows"][0][:3] == ["#", "estimate", "bounds"], table["rows"][0]
assert len(table["rows"]) == len(rows) + 1, len(table["rows"])
for r, cells in zip(rows, table["rows"][1:]):
    assert cells[0] == r["rank"] and cells[1] == r["estimate"], (r, cells)
    assert cells[2] == "%s\u2013%s" % (r["low"], r["high"]), (r, cells)
    assert cells[3] == r["length"] and cells[4] == r["count"], (r, cells)
    # Each block as function:line, then its source line, found in --source-dir.
    blocks = [b for b in cells[6].split("\n") if b]
    assert [b.split(" ")[0] for b in blocks] == r["blocks"].split(" "), (r, blocks)
    assert all(len(b.split(" ", 1)) == 2 and "not found" not in b for b in blocks), blocks
