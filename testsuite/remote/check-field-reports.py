#!/usr/bin/env python3
"""Checks reports meant to leave the machine (docs/remote.md, "What a
report holds"): each is a whole report of version 1 with a run id and the
release's record; it names no path but by its last component, holds none
of the given strings (host name, user name, home directory), and only
sites of the schemes the release sends.

  check-field-reports.py --product P --version V --send LIST
                         [--forbid TEXT]... [--tool SAMPLER-REPORT --binary FILE...]
                         REPORT...

--send is the comma-separated schemes the release sends; with --tool, each
report's sites are read back with `sampler-report show --format=csv` and
their schemes checked against it.  Prints one line per problem and exits 1
if there is any; prints the run ids, one a line, otherwise.
"""
import argparse
import csv
import io
import re
import subprocess
import sys

PATH_RECORDS = {"program": 1, "object": 1, "unit": 4, "loaded": 4}


def check(path, args, problems):
    data = open(path, "rb").read()
    text = data.decode("utf-8", "surrogateescape")
    for forbidden in args.forbid:
        if forbidden and forbidden in text:
            problems.append(f"{path}: holds {forbidden!r}")
    lines = text.split("\n")
    if lines[0] != "sampler-report\t1" or not text.endswith("\nend\n"):
        problems.append(f"{path}: not a whole report of version 1")
        return None
    header, run_id = {}, None
    for line in lines[1:]:
        fields = line.split("\t")
        if fields[0] in PATH_RECORDS:
            value = fields[PATH_RECORDS[fields[0]]] if len(fields) > PATH_RECORDS[fields[0]] else ""
            if "/" in value:
                problems.append(f"{path}: a path in its {fields[0]} record: {value!r}")
        if fields[0] in ("object", "unit", "end"):
            continue
        header.setdefault(fields[0], fields[1:])
    if not re.fullmatch(r"[0-9a-f]{32}", (header.get("run-id") or [""])[0]):
        problems.append(f"{path}: no run id")
    else:
        run_id = header["run-id"][0]
    if header.get("release") != [args.product, args.version]:
        problems.append(f"{path}: release record {header.get('release')}")
    send = set(args.send.split(",")) if args.send else set()
    if "indirect-calls" not in send and "loaded" in header:
        problems.append(f"{path}: loaded objects, but indirect-calls are not sent")
    withheld = set(header.get("withheld", [""])[0].split(",")) - {""}
    if withheld & send:
        problems.append(f"{path}: withholds schemes it sends: {sorted(withheld & send)}")
    if args.tool:
        command = [args.tool, "show", "--format=csv", path]
        for binary in args.binary:
            command += ["--binary", binary]
        shown = subprocess.run(command, capture_output=True, text=True)
        if shown.returncode != 0:
            problems.append(f"{path}: sampler-report show failed: {shown.stderr.strip()}")
        else:
            schemes = {row["scheme"] for row in csv.DictReader(io.StringIO(shown.stdout))}
            if not schemes:
                problems.append(f"{path}: no site at all")
            if schemes - send:
                problems.append(f"{path}: sites of schemes it must not send: {sorted(schemes - send)}")
    return run_id


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--product", required=True)
    parser.add_argument("--version", required=True)
    parser.add_argument("--send", required=True)
    parser.add_argument("--forbid", action="append", default=[])
    parser.add_argument("--tool")
    parser.add_argument("--binary", action="append", default=[])
    parser.add_argument("reports", nargs="+")
    args = parser.parse_args()
    problems, ids = [], []
    for path in args.reports:
        run_id = check(path, args, problems)
        if run_id:
            ids.append(run_id)
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print("\n".join(ids))
    return 0


if __name__ == "__main__":
    sys.exit(main())
