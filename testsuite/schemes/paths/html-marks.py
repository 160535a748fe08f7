#!/usr/bin/env python3
"""html-marks.py PAGE-JSON ROWS: the page (read by testsuite/tools/
html-tables.py) has the csv's paths (ROWS), and each path's column of the
source marks T or F on the line of each branch its spelling names, X on its
exit line."""
import json, re, sys
page = json.load(open(sys.argv[1]))
rows = sorted(open(sys.argv[2]).read().splitlines())
seen, marked = [], 0
tables = page["tables"]
assert len(tables) == 2 * len(page["h2"]), (len(tables), page["h2"])
for paths, source in zip(tables[0::2], tables[1::2]):
    function = paths["after"].split(" ")[0]
    assert source["after"] == paths["after"]
    assert paths["rows"][0] == ["#", "path", "traversals", "95% interval", "share", "spelled"]
    assert source["rows"][0][-1] == "source"
    marks = {}     # (column, line) -> mark
    for r in source["rows"][1:]:
        if len(r) == 1:
            continue   # folded lines
        for column, mark in enumerate(r[1:-1]):
            marks[(column, int(r[0]))] = mark
    for column, r in enumerate(paths["rows"][1:]):
        spelled = r[5]
        # At sparsity 1 the count is the traversals; region lines are not shown.
        seen.append((function, r[2], spelled))
        for line, how in re.findall(r"line (\d+) (true|false)", spelled):
            assert how[0].upper() in marks.get((column, int(line)), ""), (function, spelled, line)
            marked += 1
        for line in re.findall(r"exit line (\d+)", spelled):
            assert "X" in marks.get((column, int(line)), ""), (function, spelled, line)
expected = sorted((f, n, s) for f, n, _, s in (r.split("\t") for r in rows))
assert sorted(seen) == expected, (sorted(seen)[:5], expected[:5])
assert marked >= 10, marked
