#!/usr/bin/env python3
"""check-bytes.py < FILE: a program path that is not UTF-8, with a control
character (/tmp/a, 0x01, 0xff, b), is still JSON, the bad byte replaced."""
import json, sys
assert json.loads(sys.stdin.readline())["program"] == "/tmp/a\x01\ufffdb"
