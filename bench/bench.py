#!/usr/bin/env python3
"""The overhead of sampler on real programs, against plain -O2 and gcov.

Builds each program of programs.py five ways:
  plain  gcc -O2
  gcov   gcc -O2 -fprofile-arcs
  brs    sampler-gcc -O2, schemes branches, returns, scalar-pairs
  br     sampler-gcc -O2, schemes branches, returns
  all    sampler-gcc -O2, every scheme
  (and values, brs-pair: brs with pairs-sites=pair, returns, brs-trained:
  brs with per-site rates trained on brs's runs of the small workload)
and runs them as these configurations:
  plain, gcov, brs at SAMPLER_SPARSITY 0 (off), 10000, 1000, 100, 1 and
  10^9 (the fast copies alone), br, all, values, brs-pair, returns and
  brs-trained at 1000.
Runs are interleaved (round after round, every configuration once per
round), so that the machine's slow and fast moments fall on all of them;
each figure is the median of the rounds, and a ratio is the median over the
rounds of the configuration's time over plain's in the same round.  Every
run's output must be plain's.  Instructions executed are counted with
callgrind on a smaller input, repeatable to the instruction whatever the
machine is doing.  Text size (of the executable) and compile time (CPU
seconds of the build, configure excluded) are per build.

Writes results.md and results.json into --out-dir (default: BUILD/bench/,
beside the cached builds).

Usage: bench.py --build-dir BUILD [--programs bzip2,lua] [--runs 5]
                [--size full] [--callgrind-size small] [--smoke]
                [--sampler-flags='-fplugin-arg-sampler-region-limit=16']
"""

import argparse
import csv
import hashlib
import io
import json
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import programs  # noqa: E402

BRS = "branches,returns,scalar-pairs"
BR = "branches,returns"
ALL = ("checks,branches,returns,scalar-pairs,float-kinds,function-entries,bounds,"
       "values,sizes,indirect-calls")

# Schemes whose sites hold a hot-list (docs/values.md) or a table of path
# counts (docs/paths.md), not counts: their counter "sampled" counts.
HOT_LIST_SCHEMES = {"values", "sizes", "indirect-calls", "paths"}
# Counters that hold values, not counts.
VALUE_COUNTERS = {"bounds": ("min", "max")}

# Build variants: compiler ("gcc" or "sampler") and flags.
VARIANTS = {
    "plain": ("gcc", ["-O2"]),
    "gcov": ("gcc", ["-O2", "-fprofile-arcs"]),
    "brs": ("sampler", ["-O2", "-fplugin-arg-sampler-schemes=" + BRS]),
    "br": ("sampler", ["-O2", "-fplugin-arg-sampler-schemes=" + BR]),
    "all": ("sampler", ["-O2", "-fplugin-arg-sampler-schemes=" + ALL]),
    "values": ("sampler", ["-O2", "-fplugin-arg-sampler-schemes=values"]),
    # brs with CBI's one scalar-pairs visit per pair instead of one per
    # assignment.
    "brs-pair": ("sampler", ["-O2", "-fplugin-arg-sampler-schemes=" + BRS,
                             "-fplugin-arg-sampler-pairs-sites=pair"]),
    "returns": ("sampler", ["-O2", "-fplugin-arg-sampler-schemes=returns"]),
    # brs with per-site rates (docs/rates.md) trained on brs's runs of the
    # small workload at sparsity 1000 (Bench.trained_rates).
    "brs-trained": ("sampler", ["-O2", "-fplugin-arg-sampler-schemes=" + BRS]),
    # Hot-lists large enough to hold every value of most sites: at sparsity
    # 1, the exact profile values-compare.py checks estimates against.
    "values-exact": ("sampler", ["-O2", "-fplugin-arg-sampler-schemes=values",
                                 "-fplugin-arg-sampler-hotlist=1024"]),
    "paths": ("sampler", ["-O2", "-fplugin-arg-sampler-schemes=paths"]),
    "paths-br": ("sampler", ["-O2", "-fplugin-arg-sampler-schemes=paths," + BR]),
    "subpaths": ("sampler", ["-O2", "-fplugin-arg-sampler-schemes=subpaths"]),
}

# How brs-trained's rates are trained: runs of brs on the small workload,
# at this sparsity, with seeds 1, 2, ...
TRAINING_RUNS = 5
TRAINING_SPARSITY = "1000"

# Configurations: (name, variant, SAMPLER_SPARSITY or None).
CONFIGS = [
    ("plain", "plain", None),
    ("gcov", "gcov", None),
    ("brs-0", "brs", "0"),
    ("brs-10000", "brs", "10000"),
    ("brs-1000", "brs", "1000"),
    ("brs-100", "brs", "100"),
    ("brs-1", "brs", "1"),
    # Sampling on, but a sample about once in 10^9 visits: what the fast
    # copies cost alone, with checks and the code around them.
    ("brs-1000000000", "brs", "1000000000"),
    ("br-1000", "br", "1000"),
    ("all-1000", "all", "1000"),
    ("values-1000", "values", "1000"),
    # The values build's fast copies alone, as brs-1000000000 for brs.
    ("values-1000000000", "values", "1000000000"),
    ("brs-pair-1000", "brs-pair", "1000"),
    ("returns-1000", "returns", "1000"),
    ("brs-trained-1000", "brs-trained", "1000"),
    # Path profiles (docs/paths.md): alone, and with branches and returns.
    ("paths-1000", "paths", "1000"),
    ("paths-100", "paths", "100"),
    ("paths-1", "paths", "1"),
    ("paths-br-1000", "paths-br", "1000"),
    # Hot subpaths (docs/subpaths.md): every block a site.
    ("subpaths-1000", "subpaths", "1000"),
    ("subpaths-10000", "subpaths", "10000"),
    ("subpaths-100", "subpaths", "100"),
    # The fast copies alone, as brs-1000000000.
    ("subpaths-1000000000", "subpaths", "1000000000"),
]

# The largest unit, compiled alone to measure the plugin's compile time and
# memory: (program, source, extra flags).
LARGEST_UNIT = ("sqlite3", "sqlite3.c", programs.Sqlite3.defines)

# The targets, as ratios to plain.
TARGETS = [
    ("brs-1000 geometric mean", 1.05),
    ("brs-1000 worst program", 1.15),
    ("brs-0 geometric mean", 1.03),
    ("brs-1 at most gcov", None),
    ("brs text size", 2.5),
    ("brs compile time", 2.0),
    ("values-1000 geometric mean", 1.10),
    ("brs-trained-1000 geometric mean", 1.05),
    ("paths-1000 geometric mean", 1.08),
    ("paths-100 geometric mean", 1.15),
    ("subpaths-1000 geometric mean", 1.10),
]


def log_line(message):
    print(message, flush=True)


def file_digest(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def text_size(binary):
    out = subprocess.run(["size", binary], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    return int(out[1].split()[0])


def measured(argv, **kwargs):
    """Runs ARGV; returns (wall seconds, CPU seconds, peak RSS in KiB,
    exit status): CPU and memory over the whole process tree."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, **kwargs)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, proc.returncode


class Bench:
    def __init__(self, args):
        self.args = args
        self.build = os.path.abspath(args.build_dir)
        self.work = os.path.join(self.build, "bench")
        self.data = os.path.join(self.work, "data")
        os.makedirs(self.data, exist_ok=True)
        self.sampler_gcc = os.path.join(self.build, "bin", "sampler-gcc")
        # What the builds depend on, besides their flags: the recipes (ours,
        # and the real-program tests' where a program uses them), and for
        # sampler builds, the plugin, runtime and wrapper.
        self.programs_key = file_digest(os.path.join(HERE, "programs.py"))
        plugin = subprocess.run([self.sampler_gcc, "-print-sampler-plugin"],
                                capture_output=True, text=True, check=True).stdout.strip()
        self.sampler_key = "".join(
            file_digest(p) for p in
            (plugin, os.path.join(self.build, "lib/libsampler.so.0"), self.sampler_gcc))

    # --- Building -------------------------------------------------------

    def source(self, program):
        fetch = os.path.join(TOP, "testsuite", "tools", "fetch-debian-source.sh")
        out = subprocess.run([fetch, program.package], capture_output=True,
                             text=True)
        if out.returncode != 0:
            raise RuntimeError("cannot fetch %s: %s" % (program.package,
                                                         out.stderr.strip()))
        return out.stdout.strip().splitlines()[-1]

    def recipes_key(self, program):
        return self.programs_key + "".join(
            file_digest(f) for f in program.recipe_files())

    def configured(self, program):
        """A copy of the source, configured once with plain gcc (again when
        the recipes change)."""
        tree = os.path.join(self.work, program.name, "configured")
        stamp = tree + ".done"
        key = self.recipes_key(program)
        if os.path.exists(stamp):
            with open(stamp) as f:
                if f.read() == key:
                    return tree
        log_line("%s: configuring" % program.name)
        programs.copy_tree(self.source(program), tree)
        env = dict(os.environ, CC="gcc", CFLAGS="-O2")
        with open(tree + ".log", "w") as log:
            program.configure(tree, env, log)
        with open(stamp, "w") as f:
            f.write(key)
        return tree

    def variant(self, name):
        """The compiler kind and flags of a build variant: sampler builds
        also get --sampler-flags."""
        kind, cflags = VARIANTS[name]
        if kind == "sampler":
            cflags = cflags + self.args.sampler_flags.split()
        return kind, cflags

    def compiler(self, kind):
        return "gcc" if kind == "gcc" else self.sampler_gcc

    def trained_rates(self, program):
        """brs-trained's rates file for PROGRAM: brs run TRAINING_RUNS times
        on the small workload at TRAINING_SPARSITY, then sampler-report
        rates on the reports (for that sparsity, within the budget the
        runs took)."""
        brs = self.built(program, "brs")
        program.prepare_input(self.data, "small")
        rates = os.path.join(self.work, program.name, "brs-trained.rates")
        stamp = rates + ".key"
        key = json.dumps([brs["key"], TRAINING_RUNS, TRAINING_SPARSITY])
        if os.path.exists(stamp) and os.path.exists(rates):
            with open(stamp) as f:
                if f.read() == key:
                    return rates
        log_line("%s: training rates on %d small runs" % (program.name, TRAINING_RUNS))
        with tempfile.TemporaryDirectory(prefix="sampler-train-") as scratch:
            reports = os.path.join(scratch, "reports")
            os.makedirs(reports)
            for seed in range(1, TRAINING_RUNS + 1):
                argv, stdin_path = program.command(brs["binary"], self.data, "small")
                env = self.environment(TRAINING_SPARSITY, scratch)
                env["SAMPLER_SEED"] = str(seed)
                env["SAMPLER_FILE"] = os.path.join(reports, "run-%d-%%p" % seed)
                stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
                subprocess.run(argv, stdin=stdin, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, env=env, cwd=scratch,
                               check=True)
                if stdin_path:
                    stdin.close()
            subprocess.run([os.path.join(self.build, "bin", "sampler-report"), "rates",
                            reports, "--binary", brs["binary"], "--output", rates],
                           check=True)
        with open(stamp, "w") as f:
            f.write(key)
        return rates

    def built(self, program, variant):
        """Builds VARIANT of PROGRAM, or reuses the build if nothing it
        depends on changed; returns its record."""
        kind, cflags = self.variant(variant)
        depends = [kind, cflags, self.recipes_key(program),
                   self.sampler_key if kind == "sampler" else ""]
        if variant == "brs-trained":
            rates = self.trained_rates(program)
            cflags = cflags + ["-fplugin-arg-sampler-rates=" + rates]
            depends += [cflags, file_digest(rates)]
        key = json.dumps(depends)
        tree = os.path.join(self.work, program.name, variant)
        stamp = tree + ".json"
        if os.path.exists(stamp):
            with open(stamp) as f:
                record = json.load(f)
            if record["key"] == key and os.path.exists(record["binary"]):
                return record
        configured = self.configured(program)
        log_line("%s: building %s" % (program.name, variant))
        programs.copy_tree(configured, tree)
        cc = self.compiler(kind)
        with open(tree + ".log", "w") as log:
            # Compile time is measured in a child of our own: the CPU time
            # of the whole build, in all its processes.
            start = time.perf_counter()
            pid = os.fork()
            if pid == 0:
                try:
                    binary = program.build(tree, cc, list(cflags),
                                           self.args.jobs, log)
                    with open(tree + ".binary", "w") as f:
                        f.write(binary)
                    log.flush()
                    os._exit(0)
                except Exception as e:  # noqa: BLE001 - reported by the parent
                    log.write("build failed: %s\n" % e)
                    log.flush()
                    os._exit(1)
            _, status, usage = os.wait4(pid, 0)
            wall = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status) != 0:
            raise RuntimeError("%s %s: build failed, see %s.log"
                               % (program.name, variant, tree))
        with open(tree + ".binary") as f:
            binary = f.read()
        record = {
            "key": key, "binary": binary, "text": text_size(binary),
            "compile_cpu": usage.ru_utime + usage.ru_stime,
            "compile_wall": wall, "compile_maxrss_kib": usage.ru_maxrss,
        }
        with open(stamp, "w") as f:
            json.dump(record, f)
        return record

    def largest_unit(self):
        """Compile time and peak memory of the largest unit alone, plain
        and with the plugin."""
        name, source, defines = LARGEST_UNIT
        program = next(p for p in programs.PROGRAMS if p.name == name)
        tree = self.configured(program)
        result = {"unit": "%s (%s)" % (source, name)}
        lines = sum(1 for _ in open(os.path.join(tree, source), "rb"))
        result["lines"] = lines
        for variant in ("plain", "brs", "all"):
            kind, cflags = self.variant(variant)
            stamp = os.path.join(self.work, "unit-%s.json" % variant)
            key = json.dumps([kind, cflags, self.sampler_key if kind == "sampler" else ""])
            if os.path.exists(stamp):
                with open(stamp) as f:
                    record = json.load(f)
                if record["key"] == key:
                    result[variant] = record
                    continue
            log_line("largest unit: compiling %s %s" % (source, variant))
            argv = [self.compiler(kind)] + cflags + list(defines) + [
                "-c", source, "-o", os.path.join(self.work, "unit-%s.o" % variant)]
            wall, cpu, rss, status = measured(argv, cwd=tree)
            if status != 0:
                raise RuntimeError("compiling %s failed" % source)
            record = {"key": key, "cpu": cpu, "wall": wall, "maxrss_kib": rss,
                      "text": text_size(os.path.join(self.work, "unit-%s.o" % variant))}
            with open(stamp, "w") as f:
                json.dump(record, f)
            result[variant] = record
        return result

    # --- Running --------------------------------------------------------

    def environment(self, sparsity, scratch):
        env = dict(os.environ)
        for var in ("SAMPLER_SPARSITY", "SAMPLER_SEED", "SAMPLER_FILE",
                    "SAMPLER_REPORT_FD"):
            env.pop(var, None)
        if sparsity is not None:
            env["SAMPLER_SPARSITY"] = sparsity
            env["SAMPLER_SEED"] = "1"
            env["SAMPLER_FILE"] = os.path.join(scratch, "report-%p")
        env["GCOV_PREFIX"] = os.path.join(scratch, "gcov")
        env["GCOV_PREFIX_STRIP"] = "64"
        return env

    def run_once(self, program, binary, sparsity, size, scratch):
        """Runs one workload; returns (wall, cpu, digest of the output)."""
        argv, stdin_path = program.command(binary, self.data, size)
        stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
        out_path = os.path.join(scratch, "out")
        with open(out_path, "wb") as out:
            wall, cpu, _, status = measured(
                argv, stdin=stdin, stdout=out, stderr=subprocess.DEVNULL,
                env=self.environment(sparsity, scratch), cwd=scratch)
        if stdin_path:
            stdin.close()
        if status != 0:
            raise RuntimeError("%s exited with %d: %s" % (program.name, status,
                                                          " ".join(argv)))
        for f in os.listdir(scratch):
            if f.startswith("report-"):
                os.unlink(os.path.join(scratch, f))
        return wall, cpu, file_digest(out_path)

    def instructions(self, program, binary, sparsity, size, scratch):
        argv, stdin_path = program.command(binary, self.data, size)
        stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
        proc = subprocess.run(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
            + argv, stdin=stdin, stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE, text=True,
            env=self.environment(sparsity, scratch), cwd=scratch)
        if stdin_path:
            stdin.close()
        for line in proc.stderr.splitlines():
            if "Collected :" in line:
                return int(line.split()[-1])
        raise RuntimeError("callgrind gave no count for %s: %s"
                           % (program.name, proc.stderr[-500:]))

    def sampled_visits(self, binary, scratch, cflags):
        """The visits the reports in SCRATCH sampled, all sites and schemes
        together; removes the reports.  Each count is one visit, but for
        scalar-pairs by assignment (the default pairs-sites): one visit
        observes every pair of the assignment, so its visits are those of
        any one pair (the most counted, should two assignments share a
        place)."""
        per_pair = "-fplugin-arg-sampler-pairs-sites=pair" in cflags
        total = 0
        for f in sorted(os.listdir(scratch)):
            if not f.startswith("report-"):
                continue
            path = os.path.join(scratch, f)
            out = subprocess.run(
                [os.path.join(self.build, "bin", "sampler-report"), "show", path,
                 "--binary", binary, "--format=csv", "--all"],
                capture_output=True, text=True, check=True).stdout
            # A hot-list site (values, sizes) counts its sampled visits in
            # its counter "sampled"; its other slots are not counts, nor
            # are a bounds site's least and greatest values.
            pairs = {}
            for row in csv.DictReader(io.StringIO(out)):
                if row["scheme"] in HOT_LIST_SCHEMES:
                    if row["counter"] == "sampled":
                        total += int(row["count"])
                    continue
                if row["counter"] in VALUE_COUNTERS.get(row["scheme"], ()):
                    continue
                if row["scheme"] == "scalar-pairs" and not per_pair:
                    x = row["predicate"].split(" ? ")[0]
                    assignment = (row["unit"], row["file"], row["line"],
                                  row["column"], row["function"], x)
                    pair = pairs.setdefault(assignment, {})
                    pair[row["site"]] = pair.get(row["site"], 0) + int(row["count"])
                else:
                    total += int(row["count"])
            total += sum(max(pair.values()) for pair in pairs.values())
            os.unlink(path)
        return total

    def measure(self, program, configs):
        args = self.args
        builds = {}
        for variant in sorted({v for _, v, _ in configs}, key=list(VARIANTS).index):
            builds[variant] = self.built(program, variant)
        sizes = [args.size] + ([args.callgrind_size] if args.callgrind_size else [])
        for size in sizes:
            program.prepare_input(self.data, size)
        result = {"builds": builds, "configs": {}}
        with tempfile.TemporaryDirectory(prefix="sampler-bench-") as scratch:
            expected = None
            times = {name: [] for name, _, _ in configs}
            cpus = {name: [] for name, _, _ in configs}
            for round_number in range(args.runs):
                for name, variant, sparsity in configs:
                    wall, cpu, digest = self.run_once(
                        program, builds[variant]["binary"], sparsity, args.size,
                        scratch)
                    if expected is None:
                        expected = digest
                    elif digest != expected:
                        raise RuntimeError("%s %s: output differs from plain's"
                                           % (program.name, name))
                    times[name].append(wall)
                    cpus[name].append(cpu)
                log_line("%s: round %d of %d done" % (program.name,
                                                      round_number + 1, args.runs))
            for name, variant, sparsity in configs:
                record = {
                    "runs": times[name],
                    "cpu_runs": cpus[name],
                    "median": statistics.median(times[name]),
                    "cpu_median": statistics.median(cpus[name]),
                    "ratio": statistics.median(
                        t / p for t, p in zip(times[name], times["plain"])),
                    "cpu_ratio": statistics.median(
                        t / p for t, p in zip(cpus[name], cpus["plain"])),
                }
                if args.callgrind_size:
                    record["instructions"] = self.instructions(
                        program, builds[variant]["binary"], sparsity,
                        args.callgrind_size, scratch)
                    # Site visits, estimated as the sampled ones times the
                    # sparsity: what sampling's cost grows with.  Too few
                    # samples say nothing of them.
                    sampled = self.sampled_visits(builds[variant]["binary"], scratch,
                                                  self.variant(variant)[1])
                    # (Not for brs-trained, whose sites have rates of their own.)
                    if sparsity not in (None, "0") and sampled >= 100 \
                            and variant != "brs-trained":
                        record["site_visits"] = sampled * int(sparsity)
                result["configs"][name] = record
            if args.callgrind_size:
                base = result["configs"]["plain"]["instructions"]
                for record in result["configs"].values():
                    record["instructions_ratio"] = record["instructions"] / base
                    if "site_visits" in record:
                        record["visits_per_instruction"] = record["site_visits"] / base
        return result


# --- Reporting -----------------------------------------------------------------

def geomean(values):
    values = [v for v in values if v]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else 0


def summarize(results, configs):
    """Geometric means and the targets."""
    names = [n for n, _, _ in configs]
    progs = list(results["programs"])
    summary = {"wall": {}, "instructions": {}}
    for name in names:
        summary["wall"][name] = geomean(
            results["programs"][p]["configs"][name]["ratio"] for p in progs)
        if all("instructions_ratio" in results["programs"][p]["configs"][name]
               for p in progs):
            summary["instructions"][name] = geomean(
                results["programs"][p]["configs"][name]["instructions_ratio"]
                for p in progs)
    for variant in [v for v in VARIANTS if v != "plain"]:
        if all(variant in results["programs"][p]["builds"] for p in progs):
            summary["text_" + variant] = geomean(
                results["programs"][p]["builds"][variant]["text"]
                / results["programs"][p]["builds"]["plain"]["text"] for p in progs)
            summary["compile_" + variant] = geomean(
                results["programs"][p]["builds"][variant]["compile_cpu"]
                / results["programs"][p]["builds"]["plain"]["compile_cpu"]
                for p in progs)
    return summary


def markdown(results, configs):
    lines = []
    add = lines.append
    meta = results["meta"]
    names = [n for n, _, _ in configs]
    progs = list(results["programs"])
    add("# Benchmark results")
    add("")
    add("Produced by `%s` on %s (%s, %d cores, %s), sampler commit %s, %s."
        % (meta["command"], meta["host"], meta["cpu"], meta["cores"],
           meta["system"], meta["commit"], meta["date"]))
    add("Wall times: median of %d interleaved runs of the %s workload; ratios "
        "are medians of per-round ratios to plain -O2.  Instructions: "
        "callgrind, %s workload, one run (SAMPLER_SEED=1).  `brs` is sampler "
        "with branches, returns and scalar-pairs; `all` with every scheme; "
        "the number is SAMPLER_SPARSITY (0: sampling off)."
        % (meta["runs"], meta["size"], meta["callgrind_size"] or "no"))
    add("")

    def table(title, key, fmt, base_key=None):
        add("### " + title)
        add("")
        add("| program | " + " | ".join(names) + " |")
        add("|---" * (len(names) + 1) + "|")
        for p in progs:
            configs_of = results["programs"][p]["configs"]
            cells = []
            for n in names:
                value = configs_of[n].get(key)
                cells.append(fmt(value, configs_of[n]) if value is not None else "")
            add("| %s | %s |" % (p, " | ".join(cells)))
        add("")

    table("Wall time, ratio to plain (plain: median seconds)", "ratio",
          lambda v, r: "%.2f s" % r["median"] if v == 1.0 and r is not None
          and r["ratio"] == 1.0 else "%.3f" % v)
    if meta["callgrind_size"]:
        table("Instructions (callgrind), ratio to plain (plain: count)",
              "instructions_ratio",
              lambda v, r: "%.3g" % r["instructions"] if v == 1.0 else "%.3f" % v)
        if any("visits_per_instruction" in results["programs"][p]["configs"][n]
               for p in progs for n in names):
            add("Site visits per instruction of plain's run (the sampled visits "
                "times the sparsity, so an estimate): sampling costs in "
                "proportion to them, whatever the code around the sites does.")
            add("")
            table("Site visits per plain instruction", "visits_per_instruction",
                  lambda v, r: "%.3f" % v)
    summary = results["summary"]
    add("### Geometric means over the programs")
    add("")
    add("| measure | " + " | ".join(names) + " |")
    add("|---" * (len(names) + 1) + "|")
    add("| wall time | " + " | ".join("%.3f" % summary["wall"][n] for n in names) + " |")
    if summary["instructions"]:
        add("| instructions | " + " | ".join(
            "%.3f" % summary["instructions"].get(n, 0) for n in names) + " |")
    add("")
    add("### Builds: text size and compile time (CPU seconds, configure excluded)")
    add("")
    variants = [v for v in VARIANTS if all(v in results["programs"][p]["builds"]
                                           for p in progs)]
    add("| program | " + " | ".join("%s text" % v for v in variants) + " | "
        + " | ".join("%s compile" % v for v in variants) + " |")
    add("|---" * (2 * len(variants) + 1) + "|")
    for p in progs:
        b = results["programs"][p]["builds"]
        cells = []
        for v in variants:
            cells.append("%d" % b[v]["text"] if v == "plain"
                         else "%.2fx" % (b[v]["text"] / b["plain"]["text"]))
        for v in variants:
            cells.append("%.1f s" % b[v]["compile_cpu"] if v == "plain"
                         else "%.2fx" % (b[v]["compile_cpu"] / b["plain"]["compile_cpu"]))
        add("| %s | %s |" % (p, " | ".join(cells)))
    cells = []
    for v in variants:
        cells.append("" if v == "plain" else "%.2fx" % summary.get("text_" + v, 0))
    for v in variants:
        cells.append("" if v == "plain" else "%.2fx" % summary.get("compile_" + v, 0))
    add("| geometric mean | %s |" % " | ".join(cells))
    add("")
    unit = results.get("largest_unit")
    if unit:
        add("### The largest unit: %s, %d lines, compiled alone" % (unit["unit"],
                                                                  unit["lines"]))
        add("")
        add("| build | CPU seconds | peak memory | text |")
        add("|---|---|---|---|")
        for v in ("plain", "brs", "all"):
            r = unit[v]
            add("| %s | %.1f (%.2fx) | %.0f MiB (%.2fx) | %d (%.2fx) |"
                % (v, r["cpu"], r["cpu"] / unit["plain"]["cpu"],
                   r["maxrss_kib"] / 1024, r["maxrss_kib"] / unit["plain"]["maxrss_kib"],
                   r["text"], r["text"] / unit["plain"]["text"]))
        add("")
    for name, why in results.get("failed", {}).items():
        add("**%s failed**: %s" % (name, why))
        add("")
    add("### Targets")
    add("")
    add("| target | wall time | instructions |")
    add("|---|---|---|")
    for label, verdict_wall, verdict_ins in results["targets"]:
        add("| %s | %s | %s |" % (label, verdict_wall, verdict_ins))
    add("")
    return "\n".join(lines)


def targets(results):
    """Each target with its measured value, met or missed."""
    progs = list(results["programs"])
    summary = results["summary"]
    rows = []

    def verdict(value, limit):
        if value is None:
            return "not measured"
        return "%.3f (%s %.2f)" % (value, "met, <=" if value <= limit else
                                   "MISSED, >", limit)

    def per(key):
        return {p: results["programs"][p]["configs"] for p in progs}, key

    configs = {p: results["programs"][p]["configs"] for p in progs}
    have = lambda name: all(name in configs[p] for p in progs)  # noqa: E731
    ins = bool(summary["instructions"])
    if have("brs-1000"):
        rows.append(("brs-1000: geometric mean <= 1.05",
                     verdict(summary["wall"]["brs-1000"], 1.05),
                     verdict(summary["instructions"].get("brs-1000"), 1.05) if ins else "-"))
        worst = max(progs, key=lambda p: configs[p]["brs-1000"]["ratio"])
        worst_i = max(progs, key=lambda p: configs[p]["brs-1000"].get("instructions_ratio", 0))
        rows.append(("brs-1000: every program <= 1.15",
                     "%s: %s" % (worst, verdict(configs[worst]["brs-1000"]["ratio"], 1.15)),
                     "%s: %s" % (worst_i, verdict(configs[worst_i]["brs-1000"].get(
                         "instructions_ratio"), 1.15)) if ins else "-"))
    if have("brs-0"):
        rows.append(("brs-0: geometric mean <= 1.03",
                     verdict(summary["wall"]["brs-0"], 1.03),
                     verdict(summary["instructions"].get("brs-0"), 1.03) if ins else "-"))
    if have("subpaths-1000"):
        rows.append(("subpaths-1000: geometric mean <= 1.10",
                     verdict(summary["wall"]["subpaths-1000"], 1.10),
                     verdict(summary["instructions"].get("subpaths-1000"), 1.10) if ins else "-"))
    if have("values-1000"):
        rows.append(("values-1000: geometric mean <= 1.10",
                     verdict(summary["wall"]["values-1000"], 1.10),
                     verdict(summary["instructions"].get("values-1000"), 1.10) if ins else "-"))
    if have("brs-trained-1000"):
        rows.append(("brs-trained-1000: geometric mean <= 1.05",
                     verdict(summary["wall"]["brs-trained-1000"], 1.05),
                     verdict(summary["instructions"].get("brs-trained-1000"), 1.05)
                     if ins else "-"))
    for name, limit in (("paths-1000", 1.08), ("paths-100", 1.15)):
        if have(name):
            rows.append(("%s: geometric mean <= %.2f" % (name, limit),
                         verdict(summary["wall"][name], limit),
                         verdict(summary["instructions"].get(name), limit) if ins else "-"))
    if have("brs-1") and have("gcov"):
        def against_gcov(key):
            over = [p for p in progs
                    if configs[p]["brs-1"].get(key, 0) > configs[p]["gcov"].get(key, 0)]
            return "met" if not over else "MISSED by %d: %s" % (
                len(over), ", ".join("%s %.2f vs %.2f" % (
                    p, configs[p]["brs-1"][key], configs[p]["gcov"][key]) for p in over))
        rows.append(("brs-1: at most gcov's ratio, per program",
                     against_gcov("ratio"),
                     against_gcov("instructions_ratio") if ins else "-"))
    if "text_brs" in summary:
        builds = {p: results["programs"][p]["builds"] for p in progs}
        worst = max(progs, key=lambda p: builds[p]["brs"]["text"] / builds[p]["plain"]["text"])
        rows.append(("brs text size <= 2.5x plain (worst program)",
                     "%s: %s" % (worst, verdict(builds[worst]["brs"]["text"]
                                                / builds[worst]["plain"]["text"], 2.5)), "-"))
        worst = max(progs, key=lambda p: builds[p]["brs"]["compile_cpu"]
                    / builds[p]["plain"]["compile_cpu"])
        rows.append(("brs compile time <= 2x plain (worst program)",
                     "%s: %s" % (worst, verdict(builds[worst]["brs"]["compile_cpu"]
                                                / builds[worst]["plain"]["compile_cpu"], 2.0)),
                     "-"))
    return rows


def machine():
    cpu = "unknown cpu"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:   # a source tree without git (an unpacked tarball) has no commit
        commit = subprocess.run(["git", "-C", TOP, "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True).stdout.strip()
    except OSError:
        commit = ""
    return {"host": platform.node(), "cpu": cpu, "cores": os.cpu_count(),
            "system": "%s %s" % (platform.system(), platform.release()),
            "commit": commit or "unknown", "date": time.strftime("%Y-%m-%d %H:%M")}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build-dir", default=os.path.join(TOP, "build"),
                        help="the build tree (with bin/sampler-gcc)")
    parser.add_argument("--programs", default="",
                        help="comma-separated names (default: all of %s)"
                        % ", ".join(p.name for p in programs.PROGRAMS))
    parser.add_argument("--configs", default="",
                        help="comma-separated configurations (default: all of %s)"
                        % ", ".join(n for n, _, _ in CONFIGS))
    parser.add_argument("--runs", type=int, default=5, help="rounds (default 5)")
    parser.add_argument("--size", default="full", choices=["full", "small", "tiny"])
    parser.add_argument("--callgrind-size", default="small",
                        choices=["full", "small", "tiny", ""],
                        help="workload counted with callgrind ('' for none)")
    parser.add_argument("--jobs", type=int, default=2, help="parallel compiles")
    parser.add_argument("--out-dir", default="",
                        help="where results.md and results.json go "
                        "(default: BUILD_DIR/bench)")
    parser.add_argument("--sampler-flags", default="",
                        help="more flags for the sampler builds (with =), e.g. "
                        "-fplugin-arg-sampler-region-limit=16")
    parser.add_argument("--no-largest-unit", action="store_true",
                        help="skip compiling the largest unit alone")
    parser.add_argument("--smoke", action="store_true",
                        help="a quick check that the harness works: bzip2 "
                        "only, tiny workload, one round, plain, brs and brs-trained")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if args.smoke:
        args.programs = args.programs or "bzip2"
        args.configs = args.configs or "plain,brs-0,brs-1000,brs-1,brs-trained-1000"
        args.runs = 1
        args.size = "tiny"
        args.callgrind_size = "tiny"
        args.no_largest_unit = True

    known = {p.name: p for p in programs.PROGRAMS}
    wanted = [n for n in args.programs.split(",") if n] or list(known)
    for n in wanted:
        if n not in known:
            parser.error("unknown program '%s'; known: %s" % (n, ", ".join(known)))
    config_names = [n for n in args.configs.split(",") if n] or [n for n, _, _ in CONFIGS]
    for n in config_names:
        if n not in [c for c, _, _ in CONFIGS]:
            parser.error("unknown configuration '%s'; known: %s"
                         % (n, ", ".join(c for c, _, _ in CONFIGS)))
    if "plain" not in config_names:
        config_names.insert(0, "plain")
    configs = [c for c in CONFIGS if c[0] in config_names]
    if not shutil.which("valgrind") and args.callgrind_size:
        parser.error("valgrind is needed for instruction counts (or --callgrind-size '')")

    bench = Bench(args)
    args.out_dir = args.out_dir or bench.work
    results = {"meta": dict(machine(), command=" ".join(["bench/bench.py"] + sys.argv[1:]),
                            runs=args.runs, size=args.size,
                            callgrind_size=args.callgrind_size),
               "programs": {}}
    failed = {}
    os.makedirs(args.out_dir, exist_ok=True)
    for name in wanted:
        log_line("== %s" % name)
        try:
            results["programs"][name] = bench.measure(known[name], configs)
        except (RuntimeError, subprocess.CalledProcessError, OSError) as e:
            log_line("%s: FAILED: %s" % (name, e))
            failed[name] = str(e)
        # What is measured so far, should a later program take all night.
        with open(os.path.join(args.out_dir, "results.json"), "w") as f:
            json.dump(results, f, indent=1, sort_keys=True)
    if not args.no_largest_unit and LARGEST_UNIT[0] in wanted and LARGEST_UNIT[0] not in failed:
        results["largest_unit"] = bench.largest_unit()
    results["failed"] = failed
    if results["programs"]:
        results["summary"] = summarize(results, configs)
        results["targets"] = targets(results)
    with open(os.path.join(args.out_dir, "results.json"), "w") as f:
        json.dump(results, f, indent=1, sort_keys=True)
    if results["programs"]:
        text = markdown(results, configs)
        with open(os.path.join(args.out_dir, "results.md"), "w") as f:
            f.write(text + "\n")
        print(text)
    if failed:
        for name, why in failed.items():
            print("bench: %s failed: %s" % (name, why), file=sys.stderr)
        sys.exit(1)
    if args.smoke and not visits_agree(results):
        sys.exit(1)


def visits_agree(results):
    """At sparsity 1 every visit is counted; at 1000 the sampled ones times
    1000 estimate the same number, with a standard deviation of
    sqrt(1000 V) for V visits.  Further apart than 4 of those (1 in 15,000
    by chance; the seed is fixed) means the counts or the sampling are
    wrong."""
    ok = True
    for name, result in results["programs"].items():
        configs = result["configs"]
        if "brs-1" not in configs or "brs-1000" not in configs:
            continue
        # No estimate (no report, or too few samples) is a failure too.
        exact = configs["brs-1"].get("site_visits", 0)
        estimate = configs["brs-1000"].get("site_visits", 0)
        bound = 4 * math.sqrt(1000 * exact)
        agree = exact > 0 and abs(estimate - exact) <= bound
        print("bench: %s: site visits %d counted at sparsity 1, %d estimated at "
              "1000 (within %d: %s)" % (name, exact, estimate, bound,
                                        "yes" if agree else "NO"),
              file=sys.stderr if not agree else sys.stdout)
        ok = ok and agree
    return ok


if __name__ == "__main__":
    main()
