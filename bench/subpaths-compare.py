#!/usr/bin/env python3
"""Hot subpaths of the bench programs, sampled against exact.

Runs each program's workload with the subpaths build at sparsity 1000
(the bench's default rate), with OSP's lengths and the default memory,
as a user would, and with SAMPLER_SUBPATH_TRACE, which writes every
block the run visits (from its first sample on) to a trace while the run
keeps its lists as it would untraced: so the exact counts are of the very
run sampled (lua's runs differ from one to the next: its string hashes
are seeded from addresses and the time).  For the run's top subpaths
(`sampler-report subpaths --top=10`: surely hottest first), and its top
10 of 16 blocks, it counts each one's occurrences in the trace exactly
(subpath-count.c) and checks that the exact count lies in the sampled
run's 95% bounds.  The same at the other rates
(--other-rates, 100 and 10000), summed up per rate: how many agree, and
how wide the bounds are, which is how accuracy trades with overhead.

Writes subpaths-compare.md and subpaths-compare.json into the output
directory (BUILD_DIR/bench-subpaths by default, where its builds go).
Exit status 1 if, over all programs, fewer than 85% of the exact counts
lie in their bounds (95% bounds: about 1 in 20 misses by chance).
"""

import argparse
import csv
import io
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench  # noqa: E402
import programs  # noqa: E402

TOP = 10
LONG = 16   # the second table: subpaths of this many blocks


def run(b, program, binary, size, scratch, env_extra):
    """Runs the workload; returns its report's path."""
    for f in os.listdir(scratch):
        os.unlink(os.path.join(scratch, f))
    argv, stdin_path = program.command(binary, b.data, size)
    env = b.environment("1", scratch)
    env.update(env_extra)
    with open(stdin_path, "rb") if stdin_path else open(os.devnull, "rb") as stdin:
        subprocess.run(argv, stdin=stdin, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, env=env, cwd=scratch, check=True)
    reports = sorted(os.path.join(scratch, f) for f in os.listdir(scratch)
                     if f.startswith("report-"))
    if len(reports) != 1:
        raise RuntimeError("%s wrote %d reports, not one" % (program.name, len(reports)))
    return reports[0]


def unit_ordinals(report):
    """The report's units: signature -> ordinal (their place among the
    unit records, as the runtime names blocks)."""
    ordinals = {}
    with open(report) as f:
        n = 0
        for line in f:
            if line.startswith("unit\t"):
                ordinals.setdefault(line.split("\t")[1], n)
                n += 1
    return ordinals


def hot_subpaths(b, report, binary, extra):
    out = subprocess.run(
        [os.path.join(b.build, "bin", "sampler-report"), "subpaths", report,
         "--binary", binary, "--top=%d" % TOP, "--format=csv"] + extra,
        capture_output=True, text=True, check=True).stdout
    return list(csv.DictReader(io.StringIO(out)))


def list_tau(report):
    """The tau-log2 of each subpath list in the report."""
    with open(report) as f:
        return [int(line.split("\t")[4]) for line in f if line.startswith("subpaths\t")]


def exact_counts(counter, traces, ordinals, rows):
    """Each row's exact count in the traces, and the block visits traced."""
    lines = []
    for r in rows:
        blocks = []
        for block in r["sites"].split():
            signature, site = block.rsplit(":", 1)
            blocks.append("%d:%s" % (ordinals[signature], site))
        lines.append(" ".join(blocks))
    out = subprocess.run([counter] + traces, input="\n".join(lines) + "\n",
                         capture_output=True, text=True, check=True).stdout.split("\n")
    counts = [int(x) for x in out[:len(rows)]]
    visits = int(out[len(rows)].split()[1])
    return counts, visits


def compare(rows, counts):
    results = []
    for r, exact in zip(rows, counts):
        low, high = float(r["low"]), float(r["high"])
        results.append({
            "rank": int(r["rank"]), "length": int(r["length"]), "blocks": r["blocks"],
            "estimate": float(r["estimate"]), "low": low, "high": high,
            "count": int(r["count"]), "exact": exact,
            "agree": low <= exact <= high,
        })
    return results


def table(results):
    lines = ["| # | blocks | estimate [95%] | exact | |", "|---|---|---|---|---|"]
    for r in results:
        lines.append("| %d | %d: `%s` | %.0f [%.0f, %.0f] | %d | %s |" % (
            r["rank"], r["length"], r["blocks"].replace(" ", " → "), r["estimate"],
            r["low"], r["high"], r["exact"], "agree" if r["agree"] else "**disagree**"))
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build-dir", default=os.path.join(bench.TOP, "build"))
    parser.add_argument("--programs", default="bzip2,lua")
    parser.add_argument("--size", default="small", choices=["full", "small", "tiny"])
    parser.add_argument("--sparsity", default="1000")
    parser.add_argument("--other-rates", default="100,10000",
                        help="sparsities whose top %d is summed up too ('' for none)" % TOP)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out-dir", default="")
    args = parser.parse_args()
    args.sampler_flags = ""
    b = bench.Bench(args)
    # Builds and inputs of its own, so that it can run beside bench.py.
    b.work = os.path.join(b.build, "bench-subpaths")
    b.data = os.path.join(b.work, "data")
    os.makedirs(b.data, exist_ok=True)
    out_dir = args.out_dir or b.work
    os.makedirs(out_dir, exist_ok=True)
    counter = os.path.join(b.work, "subpath-count")
    subprocess.run(["gcc", "-std=c11", "-O2", "-Wall", "-Wextra", "-D_GNU_SOURCE",
                    os.path.join(HERE, "subpath-count.c"), "-o", counter], check=True)
    known = {p.name: p for p in programs.PROGRAMS}
    results = {}
    lines = ["# Hot subpaths: sampled (sparsity %s) against a full trace" % args.sparsity, "",
             "`%s`, %s workload, seed %d; estimates with Chernoff bounds at 95%%."
             % (" ".join(["bench/subpaths-compare.py"] + sys.argv[1:]), args.size, args.seed),
             ""]
    held = total = 0
    for name in [n for n in args.programs.split(",") if n]:
        program = known[name]
        bench.log_line("== %s" % name)
        binary = b.built(program, "subpaths")["binary"]
        program.prepare_input(b.data, args.size)
        rates = []
        with tempfile.TemporaryDirectory(prefix="sampler-subpaths-") as scratch:
            for rate in [args.sparsity] + [r for r in args.other_rates.split(",") if r]:
                # One run: its lists, and the trace of every block it visited.
                report = run(b, program, binary, args.size, scratch,
                             {"SAMPLER_SPARSITY": rate, "SAMPLER_SEED": str(args.seed),
                              "SAMPLER_SUBPATH_TRACE": os.path.join(scratch, "trace")})
                traces = sorted(os.path.join(scratch, f) for f in os.listdir(scratch)
                                if f.startswith("trace."))
                if not traces:
                    raise RuntimeError("%s wrote no trace" % name)
                top = hot_subpaths(b, report, binary, [])
                long_top = (hot_subpaths(b, report, binary, ["--length=%d" % LONG])
                            if rate == args.sparsity else [])
                counts, traced = exact_counts(counter, traces, unit_ordinals(report),
                                              top + long_top)
                rows = compare(top, counts[:len(top)])
                if rate == args.sparsity:
                    compared, visits = rows, traced
                    compared_long = compare(long_top, counts[len(top):])
                rates.append((rate, rows, list_tau(report)))
        results[name] = {"block_visits": visits, "top": compared, "long": compared_long,
                         "rates": {rate: {"top": rows, "tau_log2": t}
                                   for rate, rows, t in rates}}
        n_held = sum(r["agree"] for r in compared + compared_long)
        n_total = len(compared) + len(compared_long)
        held, total = held + n_held, total + n_total
        lines += ["## %s" % name, "",
                  "%d block visits traced; the exact count lies in the sampled bounds for "
                  "%d of %d subpaths." % (visits, n_held, n_total), "",
                  "Top %d:" % TOP, ""] + table(compared) + [
                  "", "Top %d of %d blocks:" % (TOP, LONG), ""] + table(compared_long) + [
                  "", "The top %d at each rate, each its own traced run: exact counts in "
                  "the bounds; the median of the estimates' error relative to the exact "
                  "count, and of the bounds' half-width relative to the estimate; the "
                  "lists' tau at the end:" % TOP, "",
                  "| sparsity | in bounds | error, median | half-width, median | tau |",
                  "|---|---|---|---|---|"]
        for rate, rows, t in sorted(rates, key=lambda r: int(r[0])):
            errors = sorted(abs(r["estimate"] - r["exact"]) / r["exact"]
                            for r in rows if r["exact"])
            widths = sorted((r["high"] - r["low"]) / 2 / r["estimate"]
                            for r in rows if r["estimate"])
            lines.append("| %s | %d of %d | %s | %s | %s |" % (
                rate, sum(r["agree"] for r in rows), len(rows),
                "%.2f" % errors[len(errors) // 2] if errors else "-",
                "%.2f" % widths[len(widths) // 2] if widths else "-",
                ", ".join("2^%d" % x for x in t)))
            if rate != args.sparsity:
                held += sum(r["agree"] for r in rows)
                total += len(rows)
        lines.append("")
        for r in compared + compared_long:
            print("%s %2d %4d %12.0f [%12.0f, %12.0f] exact %12d %s  %s" % (
                name, r["rank"], r["length"], r["estimate"], r["low"], r["high"], r["exact"],
                "agree" if r["agree"] else "DISAGREE", r["blocks"]))
    summary = ("All programs and rates: the exact count lies in the bounds for %d of %d "
               "subpaths."
               % (held, total))
    lines.append(summary)
    with open(os.path.join(out_dir, "subpaths-compare.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(out_dir, "subpaths-compare.json"), "w") as f:
        json.dump(results, f, indent=1)
    ok = total > 0 and held >= 0.85 * total
    print(summary)
    print("subpaths-compare: %s (report in %s)" % ("PASS" if ok else "FAIL",
                                                   os.path.join(out_dir, "subpaths-compare.md")))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
