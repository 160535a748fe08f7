#!/usr/bin/env python3
"""Reads back every report that real programs wrote, and checks that reports
written at sparsity 1 (every site visit sampled) are plausible.

Usage: check-reports.py --report-tool SAMPLER_REPORT [--binary FILE...]
           [--plausible DIR...] [--readable DIR...] [--trained DIR...]

Every file in the folders (leftover temporary files, *.tmp.*, are an error:
a report is whole or absent) must be read by `sampler-report show
--format=jsonl` with exit status 0: its units all found in the report's
program or in the --binary files (instrumented shared libraries: a report
names only its program).  A report whose program is gone (configure's
conftest programs, run while the package builds) must still be read, with
exit status 1 (no site tables).  Reports under --plausible must also have sparsity 1 and:

  * main entered once: in every report of a program whose main function is
    instrumented (its unit has a function-entries site for main, found with
    --all once per program), that site counts exactly 1;
  * no site without its function's entry: a function with any nonzero
    counter was entered (its function-entries site counts at least 1);
  * bounds: a site that observed values has min <= max.

Folders under --trained are read as --readable ones, and come from a build
with a rates file (-fplugin-arg-sampler-rates): some site of some report in
each must have a rate other than the default 1/sparsity, else the rates
were not applied.

The reports of each folder (those whose program is still there) are also
read together by `sampler-report values`, `paths` and `subpaths` (the
analyses of the hot-list, path and subpath schemes), with every program
they name and the --binary files: each must exit with status 0 and print
JSON lines.  In --plausible folders (every visit sampled), each value
site's visits in `values` must be the sum of its `sampled` counters over
the folder's reports, and each function's sampled traversals in `paths`
the sum of its paths site's `sampled` counters: the analyses lose nothing.

A report with a `parent` record is a fork child's: it starts with zeroed
counters inside the function that forked (gnulib's test-select), so main
entered 0 times and counts in functions it never entered are right there,
and only the first two rules are skipped.

Prints "N reports read back, N checked at sparsity 1 (N of them fork
children), N of programs deleted since read without site tables, N folders
analysed by values, paths and subpaths" on stdout; each
problem on stderr, naming the report.  Exit status 0 when all is well, 1
otherwise, 2 on bad usage.
"""

import argparse
import json
import os
import re
import subprocess
import sys

MAX_PROBLEMS_SHOWN = 20
UNESCAPE = {"t": "\t", "n": "\n", "\\": "\\"}


def report_program(report):
    """The program a report names (its `program` record), or None."""
    with open(report, "rb") as stream:
        for line in stream.read(65536).split(b"\n")[:3]:
            if line.startswith(b"program\t"):
                path = line[len(b"program\t"):].decode("utf-8", "replace")
                return re.sub(r"\\(.)", lambda m: UNESCAPE.get(m.group(1), m.group(1)),
                              path)
    return None


def show(tool, binaries, report, show_all=False, program_gone=False):
    """The report's run metadata and site rows, or raises ValueError."""
    command = [tool, "show", report, "--format=jsonl"]
    # With --binary, sampler-report no longer tries the report's program
    # by itself: name it too.
    program = report_program(report)
    if binaries and program and os.path.isfile(program):
        binaries = [program] + [b for b in binaries if b != program]
    for binary in binaries:
        command += ["--binary", binary]
    if show_all:
        command.append("--all")
    result = subprocess.run(command, capture_output=True, text=True)
    # Without the program's site tables, status 1 says the report itself
    # was read.
    if result.returncode != 0 and not (program_gone and result.returncode == 1):
        message = (result.stderr.strip().splitlines() or ["no message"])[0]
        raise ValueError("sampler-report show exits with %d: %s"
                         % (result.returncode, message))
    lines = result.stdout.splitlines()
    if not lines:
        raise ValueError("sampler-report show printed nothing")
    return json.loads(lines[0]), [json.loads(line) for line in lines[1:]]


ANALYSES = ("values", "paths", "subpaths")
# The schemes whose sites `values` lists (hot-lists of values).
HOT_LIST_SCHEMES = ("values", "sizes", "indirect-calls")


def analyse(tool, binaries, reports):
    """Runs values, paths and subpaths over the reports together; returns
    {command: [JSON objects]}, or raises ValueError."""
    programs = []
    for report in reports:
        program = report_program(report)
        if program not in programs:
            programs.append(program)
    command_binaries = []
    for binary in programs + [b for b in binaries if b not in programs]:
        command_binaries += ["--binary", binary]
    results = {}
    for analysis in ANALYSES:
        command = ([tool, analysis] + reports + command_binaries
                   + ["--format=jsonl"])
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            message = (result.stderr.strip().splitlines() or ["no message"])[0]
            raise ValueError("sampler-report %s exits with %d: %s"
                             % (analysis, result.returncode, message))
        try:
            results[analysis] = [json.loads(line)
                                 for line in result.stdout.splitlines()]
        except json.JSONDecodeError as error:
            raise ValueError("sampler-report %s printed a line that is not "
                             "JSON: %s" % (analysis, error))
    return results


def analysis_problems(results, sampled):
    """At sparsity 1: the analyses' totals against the reports' counters
    (sampled: {(scheme kind, unit, site): sum of `sampled`})."""
    problems = []
    shown = {}
    for row in results["values"]:
        shown[("values", row["unit"], row["site"])] = row["visits"]
    for row in results["paths"]:
        shown[("paths", row["unit"], row["site"])] = row["sampled"]
    for key in sorted(set(shown) | set(sampled)):
        if shown.get(key, 0) != sampled.get(key, 0):
            problems.append("sampler-report %s: site %s:%s: %s, the reports' "
                            "sampled counters add up to %s"
                            % (key[0], key[1], key[2], shown.get(key, "absent"),
                               sampled.get(key, 0)))
    return problems


def main_entry_units(tool, binaries, report):
    """Units of the report's program whose main has a function-entries
    site."""
    _, rows = show(tool, binaries, report, show_all=True)
    return {row["unit"] for row in rows
            if row["scheme"] == "function-entries" and row["function"] == "main"}


def plausibility_problems(meta, rows, main_units):
    """The problems of a report at sparsity 1.  A fork child's (its run
    metadata has "parent") started inside the function that forked: the
    rules of a process that started at main are not its."""
    problems = []
    if meta.get("sparsity") != 1:
        problems.append("sparsity %s, not 1" % meta.get("sparsity"))
    entered = {}
    active = set()
    for row in rows:
        key = (row["unit"], row["function"])
        counts = row["counts"]
        if row["scheme"] == "function-entries":
            entered[key] = counts["entered"]
        elif row["scheme"] == "bounds":
            # A NaN or an infinity has no JSON number: null, not compared.
            if (counts["count"] > 0 and counts["min"] is not None
                    and counts["max"] is not None
                    and counts["min"] > counts["max"]):
                problems.append("%s:%s: bounds min %s > max %s"
                                % (row["file"], row["line"], counts["min"],
                                   counts["max"]))
        if any(value != 0 for value in counts.values()):
            active.add(key)
    if "parent" in meta:
        return problems
    for unit in main_units:
        main_entries = entered.get((unit, "main"), 0)
        if main_entries != 1:
            problems.append("main entered %d times, not once" % main_entries)
    for key in sorted(active):
        if entered.get(key, 0) < 1:
            problems.append("function %s has counts but was never entered"
                            % key[1])
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--report-tool", required=True)
    parser.add_argument("--binary", nargs="*", default=[])
    parser.add_argument("--plausible", nargs="*", default=[])
    parser.add_argument("--readable", nargs="*", default=[])
    parser.add_argument("--trained", nargs="*", default=[])
    args = parser.parse_args()

    problems = []
    read = checked = gone = children = analysed = 0
    main_units_by_program = {}
    for plausible, trained, folders in ((True, False, args.plausible),
                                        (False, False, args.readable),
                                        (False, True, args.trained)):
        for folder in folders:
            if not os.path.isdir(folder):
                continue
            readable = []
            sampled = {}
            weighted = False
            for name in sorted(os.listdir(folder)):
                report = os.path.join(folder, name)
                if ".tmp." in name:
                    problems.append("%s: a temporary report file was left"
                                    % report)
                    continue
                try:
                    program = report_program(report) or ""
                    if not os.path.isfile(program):
                        # A configure probe's conftest, deleted since: the
                        # report must still read, without site tables.
                        show(args.report_tool, args.binary, report,
                             program_gone=True)
                        gone += 1
                        continue
                    meta, rows = show(args.report_tool, args.binary, report)
                    read += 1
                    readable.append(report)
                    if trained and meta.get("sparsity"):
                        default_rate = 1.0 / meta["sparsity"]
                        weighted = weighted or any(
                            "rate" in row
                            and abs(row["rate"] - default_rate) > 1e-9 * default_rate
                            for row in rows)
                    for row in rows:
                        if row["scheme"] in HOT_LIST_SCHEMES:
                            kind = "values"
                        elif row["scheme"] == "paths":
                            kind = "paths"
                        else:
                            continue
                        key = (kind, row["unit"], row["site"])
                        sampled[key] = (sampled.get(key, 0)
                                        + row["counts"]["sampled"])
                    if not plausible:
                        continue
                    if program not in main_units_by_program:
                        main_units_by_program[program] = main_entry_units(
                            args.report_tool, args.binary, report)
                    checked += 1
                    children += "parent" in meta
                    problems.extend(
                        "%s (%s): %s" % (report, program, p)
                        for p in plausibility_problems(
                            meta, rows, main_units_by_program[program]))
                except (ValueError, KeyError, json.JSONDecodeError) as error:
                    problems.append("%s: %s" % (report, error))
            if trained and not weighted:
                problems.append("%s: no site has a rate other than the default "
                                "1/sparsity: the rates file was not applied"
                                % folder)
            if not readable:
                continue
            try:
                results = analyse(args.report_tool, args.binary, readable)
                analysed += 1
                if plausible:
                    problems.extend("%s: %s" % (folder, p)
                                    for p in analysis_problems(results, sampled))
            except (ValueError, KeyError) as error:
                problems.append("%s: %s" % (folder, error))
    print("%d reports read back, %d checked at sparsity 1 (%d of them fork "
          "children), %d of programs deleted since read without site tables, "
          "%d folders analysed by values, paths and subpaths"
          % (read, checked, children, gone, analysed))
    for problem in problems[:MAX_PROBLEMS_SHOWN]:
        print(problem, file=sys.stderr)
    if len(problems) > MAX_PROBLEMS_SHOWN:
        print("... and %d more report problems"
              % (len(problems) - MAX_PROBLEMS_SHOWN), file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
