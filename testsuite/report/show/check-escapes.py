#!/usr/bin/env python3
"""check-escapes.py < FILE: the escaped predicates of the fixtures' site
tables (a backslash, a TAB, quotes and a comma) came through show
--format=jsonl intact."""
import json, sys
predicates = {json.loads(l).get("predicate") for l in sys.stdin}
assert "c == '\\t'" in predicates, predicates
assert "flags\tmask" in predicates, predicates
assert "check_invariant (\"a,b\")" in predicates, predicates
