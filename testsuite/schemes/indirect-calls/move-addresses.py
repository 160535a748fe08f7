#!/usr/bin/env python3
"""move-addresses.py REPORT TWICE-ADDRESS > REPORT: the report with the
table site's first three targets (entries with a count, in the list's
order) moved: one byte into twice (TWICE-ADDRESS, hex, from nm), an
address no object holds, and one in an object without a readable file
(the vDSO)."""
import sys
lines = open(sys.argv[1]).read().split("\n")
loaded = [l.split("\t") for l in lines if l.startswith("loaded\t")]
program = int(loaded[0][1])
vdso = next(int(l[1]) for l in loaded if l[4] == "linux-vdso.so.1")
moved = [program + int(sys.argv[2], 16) + 1, 1, vdso + 16]
site = next(i for i, l in enumerate(lines) if l.startswith("0\t"))
fields = lines[site].split("\t")
counted = [i for i in range((len(fields) - 4) // 2) if fields[5 + 2 * i] != "0"]
for i, address in zip(counted, moved):
    fields[4 + 2 * i] = str(address)
lines[site] = "\t".join(fields)
print("\n".join(lines), end="")
