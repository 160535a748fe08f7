#!/usr/bin/env python3
"""json-head.py FILE KEY=VALUE...: the first line of FILE, a JSON object,
has each KEY with the JSON VALUE (e.g. failing=40 interval='"wilson"')."""
import json, sys
head = json.loads(open(sys.argv[1]).readline())
for pair in sys.argv[2:]:
    key, value = pair.split("=", 1)
    want = json.loads(value)
    assert key in head and head[key] == want and type(head[key]) is type(want), (key, head.get(key), value, head)
