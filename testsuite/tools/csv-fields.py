#!/usr/bin/env python3
"""csv-fields.py FIELD... < CSV: the rows of a CSV file with a header (as
sampler-report writes them), the FIELDs of each TAB-separated.  A FIELD is
a column's name, A:B for two columns joined by a colon (line:column), or
NAME|TEXT for a column written TEXT when empty (flag|-)."""
import csv, sys
def field(row, spec):
    name, _, default = spec.partition("|")
    value = ":".join(row[part] for part in name.split(":"))
    return value or default
for r in csv.DictReader(sys.stdin):
    print("\t".join(field(r, spec) for spec in sys.argv[1:]))
