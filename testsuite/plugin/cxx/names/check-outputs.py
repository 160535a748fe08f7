#!/usr/bin/env python3
"""Checks sampler-report's outputs for names.cc against names.expected:
the text view shows each readable name, the CSV's last column and the JSON
rows' `symbol' give each function's symbol, the paths page shows each
function with its symbol on hover (title).
Usage: check-outputs.py EXPECTED TEXT CSV JSONL HTML   (HTML - : no page)"""
import csv
import html
import json
import sys

expected_file, text_file, csv_file, jsonl_file, html_file = sys.argv[1:6]
symbols = dict(line.rstrip("\n").split("\t") for line in open(expected_file))
problems = []

text = open(text_file).read()
for name in symbols:
    if "  " + name + "  " not in text:
        problems.append(f"text: no FUNCTION cell '{name}'")

rows = list(csv.DictReader(open(csv_file)))
if not rows or list(rows[0].keys())[-1] != "symbol":
    problems.append("csv: no last column 'symbol'")
seen = set()
for row in rows:
    want = symbols.get(row["function"])
    if want is None:
        if row["function"] not in seen:
            problems.append(f"csv: unexpected function '{row['function']}'")
    elif row.get("symbol") != want:
        problems.append(f"csv: {row['function']}: symbol {row.get('symbol')!r}, not {want!r}")
    seen.add(row["function"])
problems += [f"csv: no row of {name}" for name in symbols if name not in seen]

for line in open(jsonl_file):
    row = json.loads(line)
    if "function" not in row:
        continue                # the run's own line
    want = symbols.get(row["function"])
    # main's symbol is its name: JSON says so by leaving `symbol' out.
    got = row.get("symbol", row["function"])
    if want != got:
        problems.append(f"jsonl: {row['function']}: symbol {got!r}, not {want!r}")

page = open(html_file).read() if html_file != "-" else ""
for name, symbol in symbols.items():
    if symbol == "main" or not page:
        continue
    span = f'<span title="{html.escape(symbol)}">{html.escape(name, quote=True)}</span>'
    if span not in page:
        problems.append(f"html: no {span}")

for problem in problems:
    print(problem)
sys.exit(1 if problems else 0)
