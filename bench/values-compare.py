#!/usr/bin/env python3
"""Value profiles of the bench programs, sampled against exact.

Runs each program's workload twice: built with the values scheme
(hot-lists of 16) at sparsity 100, as a user would, and built with
hot-lists of 1024 (--exact-hotlist) at sparsity 1, where every visit is
observed and a site with at most that many values has its exact profile
(tau 1).  For the
20 hottest sites of the exact run (by visits, among those it saw
exactly, pointers left out as their values are one run's addresses), it
checks that the sampled run's top value is the exact top value (or ties
with it: its exact share lies in the sampled interval of the top's), and
that the exact top value's share lies in the sampled run's 95% interval
for it (Wilson's at 0 when the sample missed it).  Then it lists the semi-invariant
sites the sampled run finds, hottest first, with their source lines.

Writes values-compare.md and values-compare.json into the output
directory (BUILD_DIR/bench-values by default, where its
builds go).  Exit status 1 if, over all
programs, fewer than 90% of the sites agree or fewer than 85% of the
intervals hold the exact share (95% intervals: about 1 in 20 misses by
chance).  The runs' value tables are kept as PROGRAM-exact.csv and
PROGRAM-sampled.csv.
"""

import argparse
import csv
import io
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench  # noqa: E402
import programs  # noqa: E402

HOTTEST = 20
SEMI_INVARIANT_SHOWN = 6


def run_values(b, program, binary, sparsity, size, scratch, seed):
    """Runs the workload with sampling at SPARSITY; returns the rows of
    `sampler-report values --format=csv` of its reports."""
    for f in os.listdir(scratch):
        if f.startswith("report-"):
            os.unlink(os.path.join(scratch, f))
    argv, stdin_path = program.command(binary, b.data, size)
    env = b.environment(sparsity, scratch)
    env["SAMPLER_SEED"] = str(seed)
    with open(stdin_path, "rb") if stdin_path else open(os.devnull, "rb") as stdin:
        subprocess.run(argv, stdin=stdin, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, env=env, cwd=scratch, check=True)
    reports = sorted(os.path.join(scratch, f) for f in os.listdir(scratch)
                     if f.startswith("report-"))
    if not reports:
        raise RuntimeError("%s wrote no report" % program.name)
    out = subprocess.run(
        [os.path.join(b.build, "bin", "sampler-report"), "values"] + reports
        + ["--binary", binary, "--top=1024", "--format=csv"],
        capture_output=True, text=True, check=True).stdout
    return list(csv.DictReader(io.StringIO(out)))


def by_site(rows):
    """Per site (file, line, column, observed): its rows, rank order."""
    sites = {}
    for r in rows:
        key = (r["file"], int(r["line"]), int(r["column"]), r["observed"], r["function"])
        sites.setdefault(key, []).append(r)
    return sites


def source_line(tree, path, line):
    candidates = [path, os.path.join(tree, path)]
    # A file compiled from a subdirectory names itself relative to it.
    for directory, _, files in os.walk(tree):
        if os.path.basename(path) in files:
            candidates.append(os.path.join(directory, os.path.basename(path)))
    for candidate in candidates:
        try:
            with open(candidate, errors="replace") as f:
                for number, text in enumerate(f, 1):
                    if number == line:
                        return text.strip()
        except OSError:
            continue
    return ""


def compare(exact_rows, sampled_rows):
    exact, sampled = by_site(exact_rows), by_site(sampled_rows)
    # The exact run's sites it saw whole (tau 1), hottest first; not
    # pointers, whose values move from run to run (ASLR).
    whole = [k for k, rows in exact.items()
             if float(rows[0]["tau"]) == 1 and not k[3].endswith("(pointer)")]
    whole.sort(key=lambda k: -float(exact[k][0]["site_visits"]))
    results = []
    for key in whole[:HOTTEST]:
        rows = exact[key]
        shares = {r["value"]: float(r["share"]) for r in rows}
        exact_top = rows[0]["value"]
        exact_share = shares[exact_top]
        srows = sampled.get(key, [])
        result = {
            "site": "%s:%d:%d" % key[:3], "function": key[4], "observed": key[3],
            "visits": float(rows[0]["site_visits"]), "exact_top": exact_top,
            "exact_share": exact_share,
            "sampled_top": srows[0]["value"] if srows else None,
        }
        mine = next((r for r in srows if r["value"] == exact_top), None)
        if mine:
            low, high = float(mine["share_low"]), float(mine["share_high"])
            result["sampled_share"] = float(mine["share"])
        elif srows:
            # Not in the list: count 0 of the sample, Wilson's interval at 0.
            n = float(srows[0]["sample"])
            low, high = 0.0, 3.8415 / (n + 3.8415)
            result["sampled_share"] = 0.0
        else:
            low, high = 0.0, 1.0
        result.update(share_low=low, share_high=high)
        # (Wilson's bound at a count of n is 1 but for rounding.)
        result["in_interval"] = low - 1e-9 <= exact_share <= high + 1e-9
        result["agree"] = bool(srows) and srows[0]["value"] == exact_top
        # A tie the sample cannot break: the sampled top value's true share
        # lies in the interval of the true top's.
        result["tied"] = (not result["agree"] and bool(srows)
                          and low - 1e-9 <= shares.get(srows[0]["value"], 0.0) <= high + 1e-9)
        results.append(result)
    return results


# A source line that assigns a literal: its site is invariant by
# construction, and says nothing.
CONSTANT_ASSIGNMENT = re.compile(r"=\s*(-?\d+|0x[0-9a-fA-F]+|True|False|NULL)\s*;")


def semi_invariant(sampled_rows, tree):
    """Sites flagged invariant (one value seen) or semi-invariant (the top
    value's share at least 0.9 at the interval's lower bound), hottest
    first; not pointers (their values are one run's addresses), nor
    assignments of a literal."""
    found = []
    for key, rows in by_site(sampled_rows).items():
        if (rows[0]["flag"] not in ("invariant", "semi-invariant")
                or key[3].endswith("(pointer)")
                or CONSTANT_ASSIGNMENT.search(source_line(tree, key[0], key[1]))):
            continue
        found.append({
            "site": "%s:%d:%d" % key[:3], "function": key[4], "observed": key[3],
            "flag": rows[0]["flag"], "visits": float(rows[0]["site_visits"]),
            "value": rows[0]["value"], "share_low": float(rows[0]["share_low"]),
            "source": source_line(tree, key[0], key[1]),
        })
    found.sort(key=lambda s: -s["visits"])
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build-dir", default=os.path.join(bench.TOP, "build"))
    parser.add_argument("--programs", default="bzip2,gzip,xz,lua,bc")
    parser.add_argument("--size", default="small", choices=["full", "small", "tiny"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out-dir", default="")
    parser.add_argument("--reuse", action="store_true",
                        help="read the value tables a previous run kept in the output "
                        "directory instead of running the programs again")
    parser.add_argument("--exact-hotlist", type=int, default=1024,
                        help="the exact build's hot-list capacity (1024)")
    args = parser.parse_args()
    kind, flags = bench.VARIANTS["values-exact"]
    bench.VARIANTS["values-exact"] = (kind, [f for f in flags if "hotlist=" not in f]
                                      + ["-fplugin-arg-sampler-hotlist=%d" % args.exact_hotlist])
    args.sampler_flags = ""
    b = bench.Bench(args)
    # Builds and inputs of its own, so that it can run beside bench.py.
    b.work = os.path.join(b.build, "bench-values")
    b.data = os.path.join(b.work, "data")
    os.makedirs(b.data, exist_ok=True)
    out_dir = args.out_dir or b.work
    os.makedirs(out_dir, exist_ok=True)
    known = {p.name: p for p in programs.PROGRAMS}
    results = {}
    lines = ["# Value profiles: sampled (sparsity 100, K 16) against exact "
             "(sparsity 1, K %d)" % args.exact_hotlist, "",
             "`%s`, %s workload, seed %d." % (" ".join(["bench/values-compare.py"] + sys.argv[1:]),
                                             args.size, args.seed), ""]
    agree = tied = held = total = 0
    for name in [n for n in args.programs.split(",") if n]:
        program = known[name]
        bench.log_line("== %s" % name)
        kept = [os.path.join(out_dir, "%s-%s.csv" % (name, label))
                for label in ("exact", "sampled")]
        if args.reuse and all(os.path.exists(k) for k in kept):
            exact_rows, sampled_rows = (list(csv.DictReader(open(k))) for k in kept)
        else:
            sampled_build = b.built(program, "values")
            exact_build = b.built(program, "values-exact")
            program.prepare_input(b.data, args.size)
            with tempfile.TemporaryDirectory(prefix="sampler-values-") as scratch:
                exact_rows = run_values(b, program, exact_build["binary"], "1", args.size,
                                        scratch, args.seed)
                sampled_rows = run_values(b, program, sampled_build["binary"], "100",
                                          args.size, scratch, args.seed)
        for label, rows in (("exact", exact_rows), ("sampled", sampled_rows)):
            with open(os.path.join(out_dir, "%s-%s.csv" % (name, label)), "w") as f:
                if rows:
                    writer = csv.DictWriter(f, fieldnames=list(rows[0]))
                    writer.writeheader()
                    writer.writerows(rows)
        tree = os.path.join(b.work, name, "values")
        compared = compare(exact_rows, sampled_rows)
        found = semi_invariant(sampled_rows, tree)
        results[name] = {"compared": compared, "semi_invariant": found}
        n_agree = sum(r["agree"] for r in compared)
        n_tied = sum(r["tied"] for r in compared)
        n_held = sum(r["in_interval"] for r in compared)
        agree, tied = agree + n_agree, tied + n_tied
        held, total = held + n_held, total + len(compared)
        lines += ["## %s" % name, "",
                  "Top value agrees at %d of %d hottest sites (%d more tied within the "
                  "interval); the exact share lies in the sampled interval at %d of %d."
                  % (n_agree, len(compared), n_tied, n_held, len(compared)), "",
                  "| site | observed | visits | exact top (share) | sampled top | sampled "
                  "share [95%] |", "|---|---|---|---|---|---|"]
        for r in compared:
            interval = ("%.3f [%.3f, %.3f]" % (r["sampled_share"], r["share_low"],
                                               r["share_high"])
                        if "sampled_share" in r else "-")
            lines.append("| %s %s | `%s` | %.0f | %s (%.3f) | %s%s | %s%s |" % (
                r["site"], r["function"], r["observed"], r["visits"], r["exact_top"],
                r["exact_share"], r["sampled_top"],
                "" if r["agree"] else " (tied)" if r["tied"] else " (differs)",
                interval, "" if r["in_interval"] else " (misses)"))
        lines += ["", "Invariant and semi-invariant sites at sparsity 100, not pointers nor "
                  "literals (%d; the hottest %d):"
                  % (len(found), min(len(found), SEMI_INVARIANT_SHOWN)), ""]
        for s in found[:SEMI_INVARIANT_SHOWN]:
            lines.append("- %s %s `%s` = %s (%s, share >= %.2f, %.0f visits): `%s`" % (
                s["site"], s["function"], s["observed"], s["value"], s["flag"],
                s["share_low"], s["visits"], s["source"]))
        lines.append("")
    lines.append("All programs: top value agrees at %d of %d sites (%d more tied), exact "
                 "share in the interval at %d of %d." % (agree, total, tied, held, total))
    with open(os.path.join(out_dir, "values-compare.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(out_dir, "values-compare.json"), "w") as f:
        json.dump(results, f, indent=1)
    print("\n".join(lines))
    ok = total > 0 and agree + tied >= 0.9 * total and held >= 0.85 * total
    print("values-compare: %s" % ("PASS" if ok else "FAIL"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
