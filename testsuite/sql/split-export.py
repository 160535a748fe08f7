#!/usr/bin/env python3
"""split-export.py EXPORT FIRST SECOND: the export cut in two by run (runs
up to 150 in FIRST, the others in SECOND), every table with its header;
the first part has the release's sites."""
import csv, os, sys
source, first, second = sys.argv[1:]
for out in (first, second):
    os.makedirs(out, exist_ok=True)
for name in os.listdir(source):
    with open(os.path.join(source, name), newline="") as f:
        lines = f.read().splitlines(keepends=True)
    header = lines[0].strip().split(",")
    parts = ([lines[0]], [lines[0]])
    for line in lines[1:]:
        row = next(csv.reader([line]))
        later = "run" in header and int(row[header.index("run")]) > 150
        parts[later].append(line)
    for out, part in zip((first, second), parts):
        with open(os.path.join(out, name), "w", newline="") as f:
            f.writelines(part)
