#!/usr/bin/env python3
"""html-escape.py PAGE-JSON: the page of a source named a<b&"c.c names it
(unescaped by the reader) in every heading, and shows its source."""
import json, sys
page = json.load(open(sys.argv[1]))
assert all(h.split(" \u2014 ")[1].startswith("a<b&\"c.c:") for h in page["h2"]), page["h2"]
assert len(page["h2"]) >= 5 and not page["notes"], page
source = [r[-1] for t in page["tables"][1::2] for r in t["rows"]]
assert any("for (int k = 0; k < 10; k++)" in s for s in source), source
