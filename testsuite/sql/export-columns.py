#!/usr/bin/env python3
"""export-columns.py COLUMNS EXPORT: export's CSV files (11 of them) have the
columns of the store's tables (COLUMNS: table_name, column_name rows)."""
import csv, os, sys
columns = {}
for row in csv.DictReader(open(sys.argv[1])):
    columns.setdefault(row["table_name"], []).append(row["column_name"])
names = sorted(os.listdir(sys.argv[2]))
assert len(names) == 11, names
for name in names:
    header = open(os.path.join(sys.argv[2], name)).readline().strip().split(",")
    assert header == columns[name[:-4]], (name, header, columns[name[:-4]])
