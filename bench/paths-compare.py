#!/usr/bin/env python3
"""Path profiles of the bench programs, sampled against exact.

Runs each program's workload with the paths scheme twice at sparsity 1
(every traversal counted; a build with 4096 path counters per function,
so that no path finds its function's table full) and once per seed at
sparsity 100, as a user would (the default 32 counters).  For the 10
hottest functions of the first exact run (by traversals) and their 10
hottest paths, it checks that the exact count lies in the sampled
estimate's 95% interval (`sampler-report paths --format=csv`; a path the
sample missed has count 0, whose interval is [0, z^2 * sparsity]).  The
exact build is run at sparsity 100 too, once per seed: the same
comparison without the default table's limit.

A miss is put down to one of:
- "unstable": the two exact runs disagree on the path's count, so the
  program's paths depend on more than its input (a hash seeded from the
  clock or an address, ASLR); the sampled run saw a third count;
- "table full": the sampled run lost traversals of the function (its
  hash table was full) and the path is not in it;
- "chance": neither (about 1 in 20 of the comparisons by construction).

Writes paths-compare.md and paths-compare.json into the output directory
(BUILD_DIR/bench-paths by default, where its builds go), and keeps the
runs' path tables as PROGRAM-exact.csv, PROGRAM-exact2.csv,
PROGRAM-sampled-SEED.csv and PROGRAM-sampled4096-SEED.csv.  Exit status
1 if, over all programs, fewer than 85% of the comparisons with 4096
counters hold.
"""

import argparse
import csv
import io
import json
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench  # noqa: E402
import programs  # noqa: E402

HOTTEST_FUNCTIONS = 10
HOTTEST_PATHS = 10
SPARSITY = 100
Z = 1.959963984540054   # the 97.5% quantile of the normal distribution
CONFIDENCE = 0.95
# The exact build's counters per function: paths-array's most.
EXACT_ARRAY = 4096
# The sampled runs' counters per function: the default, and the exact
# build's.
CONFIGURATIONS = (32, EXACT_ARRAY)


def run_paths(b, program, binary, sparsity, size, scratch, seed):
    """Runs the workload with sampling at SPARSITY; returns the rows of
    `sampler-report paths --format=csv` of its reports, every path."""
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
        [os.path.join(b.build, "bin", "sampler-report"), "paths"] + reports
        + ["--binary", binary, "--top=%d" % (2 * EXACT_ARRAY), "--format=csv"],
        capture_output=True, text=True, check=True).stdout
    return list(csv.DictReader(io.StringIO(out)))


def prepare_input(program, data_dir, size):
    """PROGRAM's input of SIZE.  A compressor's is the start of a
    generated corpus, and the generator's output for N MiB begins with its
    output for fewer: generate only the MiB the input needs, not the whole
    corpus of the full workload."""
    if not isinstance(program, programs.Compressor):
        program.prepare_input(data_dir, size)
        return
    mib = min(program.corpus_mib, math.ceil(program.sizes[size]))
    corpus = os.path.join(data_dir, "corpus-%d.txt" % mib)
    programs.text_corpus(corpus, mib)
    programs.first_bytes(corpus, program.input(data_dir, size),
                         int(program.sizes[size] * 1024 * 1024))


def function_key(row):
    # Builds differ in their counters, so their units' signatures differ:
    # a function is named by its file and name.
    return (row["file"], row["function"])


def by_function(rows):
    """Per function: its traversals, lost traversals, and its paths (path
    number -> row)."""
    functions = {}
    for r in rows:
        f = functions.setdefault(function_key(r), {
            "traversals": float(r["sampled"]), "lost": int(r["lost"]), "paths": {}})
        f["paths"][int(r["path"])] = r
    return functions


def zero_interval(sparsity):
    """The Poisson score interval at a count of 0, times the sparsity (as
    sampler-report computes it)."""
    return 0.0, Z * Z * sparsity


def binomial_range(m, p, mass=0.95):
    """The central range of Binomial(M, P) holding at least MASS."""
    pmf = [math.comb(m, k) * p ** k * (1 - p) ** (m - k) for k in range(m + 1)]
    low, cum = 0, 0.0
    while cum + pmf[low] < (1 - mass) / 2:
        cum += pmf[low]
        low += 1
    high, cum = m, 0.0
    while cum + pmf[high] < (1 - mass) / 2:
        cum += pmf[high]
        high -= 1
    return low, high


def compare(exact_rows, exact2_rows, sampled_rows, sparsity):
    exact, exact2 = by_function(exact_rows), by_function(exact2_rows)
    sampled = by_function(sampled_rows)
    hottest = sorted(exact, key=lambda k: -exact[k]["traversals"])[:HOTTEST_FUNCTIONS]
    results = []
    for key in hottest:
        paths = sorted(exact[key]["paths"].values(), key=lambda r: -float(r["traversals"]))
        mine = sampled.get(key, {"traversals": 0.0, "lost": 0, "paths": {}})
        other = exact2.get(key, {"paths": {}})
        for rank, r in enumerate(paths[:HOTTEST_PATHS], 1):
            number = int(r["path"])
            count = float(r["traversals"])
            second = other["paths"].get(number)
            count2 = float(second["traversals"]) if second else 0.0
            s = mine["paths"].get(number)
            if s:
                estimate = float(s["traversals"])
                low, high = float(s["traversals_low"]), float(s["traversals_high"])
                spelled_same = s["spelled"] == r["spelled"]
            else:
                estimate = 0.0
                low, high = zero_interval(sparsity)
                spelled_same = True
            inside = low - 1e-9 <= count <= high + 1e-9
            if inside:
                verdict = "inside"
            elif count2 != count:
                verdict = "unstable"
            elif not s and mine["lost"]:
                verdict = "table full"
            else:
                verdict = "chance"
            results.append({
                "file": key[0], "function": key[1], "rank": rank, "path": number,
                "function_traversals": exact[key]["traversals"],
                "exact": count, "exact2": count2, "estimate": estimate,
                "low": low, "high": high, "inside": inside, "verdict": verdict,
                "sampled_lost": mine["lost"], "exact_lost": exact[key]["lost"],
                "spelled_same": spelled_same,
                "spelled": r["spelled"],
            })
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build-dir", default=os.path.join(bench.TOP, "build"))
    parser.add_argument("--programs", default="bzip2,gzip,lua,bc")
    parser.add_argument("--size", default="small", choices=["full", "small", "tiny"])
    parser.add_argument("--seeds", default="1",
                        help="the sampled runs' SAMPLER_SEEDs, comma-separated (1)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out-dir", default="")
    parser.add_argument("--reuse", action="store_true",
                        help="read the path tables a previous run kept in the output "
                        "directory instead of running the programs again")
    args = parser.parse_args()
    try:
        seeds = [int(s) for s in args.seeds.split(",") if s]
    except ValueError:
        parser.error("--seeds: not a list of integers: '%s'" % args.seeds)
    if not seeds:
        parser.error("--seeds: no seed given")
    bench.VARIANTS["paths-exact"] = (
        "sampler", bench.VARIANTS["paths"][1]
        + ["-fplugin-arg-sampler-paths-array=%d" % EXACT_ARRAY])
    args.sampler_flags = ""
    b = bench.Bench(args)
    # Builds and inputs of its own, so that it can run beside bench.py.
    b.work = os.path.join(b.build, "bench-paths")
    b.data = os.path.join(b.work, "data")
    os.makedirs(b.data, exist_ok=True)
    out_dir = args.out_dir or b.work
    os.makedirs(out_dir, exist_ok=True)
    known = {p.name: p for p in programs.PROGRAMS}
    names = [n for n in args.programs.split(",") if n]
    for name in names:
        if name not in known:
            parser.error("--programs: no bench program '%s' (known: %s)"
                         % (name, ",".join(sorted(known))))
    results = {}
    lines = ["# Path profiles: sampled (sparsity %d) against exact (sparsity 1)" % SPARSITY,
             "",
             "`%s`, %s workload, seeds %s; the %d hottest functions of the exact run, "
             "their %d hottest paths each." % (
                 " ".join(["bench/paths-compare.py"] + sys.argv[1:]), args.size,
                 ",".join(map(str, seeds)), HOTTEST_FUNCTIONS, HOTTEST_PATHS), ""]
    inside = {c: 0 for c in CONFIGURATIONS}
    total = {c: 0 for c in CONFIGURATIONS}
    verdicts = {c: {} for c in CONFIGURATIONS}
    for name in names:
        program = known[name]
        bench.log_line("== %s" % name)
        labels = (["exact", "exact2"] + ["sampled-%d" % s for s in seeds]
                  + ["sampled%d-%d" % (EXACT_ARRAY, s) for s in seeds])
        kept = {label: os.path.join(out_dir, "%s-%s.csv" % (name, label)) for label in labels}
        tables = {}
        if args.reuse and all(os.path.exists(k) for k in kept.values()):
            for label, path in kept.items():
                with open(path) as f:
                    tables[label] = list(csv.DictReader(f))
        else:
            sampled_build = b.built(program, "paths")
            exact_build = b.built(program, "paths-exact")
            prepare_input(program, b.data, args.size)
            with tempfile.TemporaryDirectory(prefix="sampler-paths-") as scratch:
                for label in ("exact", "exact2"):
                    tables[label] = run_paths(b, program, exact_build["binary"], "1",
                                              args.size, scratch, 1)
                for seed in seeds:
                    tables["sampled-%d" % seed] = run_paths(
                        b, program, sampled_build["binary"], str(SPARSITY), args.size,
                        scratch, seed)
                    tables["sampled%d-%d" % (EXACT_ARRAY, seed)] = run_paths(
                        b, program, exact_build["binary"], str(SPARSITY), args.size,
                        scratch, seed)
        for label, rows in tables.items():
            with open(kept[label], "w") as f:
                if rows:
                    writer = csv.DictWriter(f, fieldnames=list(rows[0]))
                    writer.writeheader()
                    writer.writerows(rows)
        results[name] = {}
        for seed, counters in [(s, c) for s in seeds for c in CONFIGURATIONS]:
            label = "sampled-%d" % seed if counters == 32 else "sampled%d-%d" % (counters, seed)
            compared = compare(tables["exact"], tables["exact2"], tables[label], SPARSITY)
            results[name]["%d counters, seed %d" % (counters, seed)] = compared
            n_inside = sum(r["inside"] for r in compared)
            inside[counters] += n_inside
            total[counters] += len(compared)
            for r in compared:
                verdicts[counters][r["verdict"]] = verdicts[counters].get(r["verdict"], 0) + 1
            unstable = sum(r["exact"] != r["exact2"] for r in compared)
            exact_lost = sorted({r["function"] for r in compared if r["exact_lost"]})
            lines += ["## %s, %d counters, seed %d" % (name, counters, seed), "",
                      "Exact count inside the sampled interval for %d of %d paths; "
                      "%d paths' exact counts differ between two exact runs.%s"
                      % (n_inside, len(compared), unstable,
                         " Functions whose exact table was full (counts are lower "
                         "bounds): %s." % ", ".join(exact_lost) if exact_lost else ""), "",
                      "| function | rank | path | estimate [95%] | exact | verdict | spelled |",
                      "|---|---|---|---|---|---|---|"]
            for r in compared:
                exact_text = "%.0f" % r["exact"]
                if r["exact2"] != r["exact"]:
                    exact_text += " (again: %.0f)" % r["exact2"]
                spelled = r["spelled"] if len(r["spelled"]) <= 60 else r["spelled"][:57] + "..."
                if not r["spelled_same"]:
                    spelled += " (spelled differently in the sampled build)"
                lines.append("| %s %s | %d | %d | %.0f [%.0f, %.0f] | %s | %s | %s |" % (
                    r["file"], r["function"], r["rank"], r["path"], r["estimate"], r["low"],
                    r["high"], exact_text, r["verdict"], spelled.replace("|", "\\|")))
            lines.append("")
    for counters in CONFIGURATIONS:
        n, m = inside[counters], total[counters]
        low, high = binomial_range(m, 1 - CONFIDENCE) if m else (0, 0)
        summary = ("All programs, %d counters per function: the exact count lies in the "
                   "sampled interval for %d of %d paths (%.1f%%); %d misses, %.1f expected "
                   "by chance (95%% range %d-%d)"
                   % (counters, n, m, 100.0 * n / m if m else 0, m - n,
                      m * (1 - CONFIDENCE), low, high))
        misses = ["%d %s" % (k, v) for v, k in sorted(verdicts[counters].items())
                  if v != "inside"]
        if misses:
            summary += ": " + ", ".join(misses)
        lines.append(summary + ".")
    with open(os.path.join(out_dir, "paths-compare.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(out_dir, "paths-compare.json"), "w") as f:
        json.dump(results, f, indent=1)
    print("\n".join(lines))
    ok = total[EXACT_ARRAY] > 0 and inside[EXACT_ARRAY] >= 0.85 * total[EXACT_ARRAY]
    print("paths-compare: %s" % ("PASS" if ok else "FAIL"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
