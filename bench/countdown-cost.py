#!/usr/bin/env python3
"""How much of the fast copies' cost is the countdown's own arithmetic.

Runs a program's brs build (from a bench.py build tree) on its small
workload under callgrind at sparsity 10^9, where sampling is on but almost
nothing is sampled, counting each instruction of the executable, and adds
up the executions of the fast copies' instructions that do the countdown's
work: a check (`subq $W, %fs:...` and the jump after it) and a refund (the
same with a negative W, or `addq`).  What the fast copies cost beyond that
is their effect on the code around them (registers, prologues, inlining).

With --sparsity N (1000, say) it also says how a sample's cost splits: the
samples the run took (from its report), the instructions run in the slow
copies (the `.cold' parts of the functions), and how often a slow copy was
entered (its entry gives the check's weight back: `addq $W, %fs:...').

It also counts the instructions run in the runtime (libsampler.so, or
the functions of libsampler.a linked into the executable): the
observations, and for subpaths the recording and the hot-list.

Usage: countdown-cost.py --build-dir BUILD [--sparsity N] [--variant V]
PROGRAM...  (BUILD as for bench.py, after a run that built the programs'
variant V, brs by default.)
The total counts every object callgrind cannot name, as it names the
executable itself, with the executable.
"""

import argparse
import collections
import csv
import io
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import programs  # noqa: E402
from disassembly import built_binary, instructions as listing, is_slow_copy  # noqa: E402

COUNTDOWN_OP = re.compile(r"(subq|addq)\s+\$(0x[0-9a-f]+),.*%fs:")
POSITION = re.compile(r"^(0x[0-9a-f]+|[+-]\d+|\*)$")


def is_refund(match):
    """A countdown operation that gives visits back."""
    return match.group(1) == "addq" or int(match.group(2), 16) >= 1 << 63


def is_check(instruction):
    m = COUNTDOWN_OP.match(instruction)
    return bool(m) and not is_refund(m)


def runtime_functions(build):
    """The names of the functions libsampler.a defines."""
    out = subprocess.run(["nm", "--defined-only", os.path.join(build, "lib", "libsampler.a")],
                         capture_output=True, text=True, check=True).stdout
    return {f[2] for f in (line.split() for line in out.splitlines())
            if len(f) == 3 and f[1] in "Tt"}


def disassembly(binary, runtime_names):
    """Address -> instruction text, the set of addresses of jumps that
    follow a check, the set of addresses in slow copies, and the set in
    the runtime's functions."""
    text = {}
    after_check = set()
    slow = set()
    runtime = set()
    previous = None
    for function, address, instruction in listing(binary):
        text[address] = instruction
        if is_slow_copy(function):
            slow.add(address)
        elif function.split(".")[0] in runtime_names:
            runtime.add(address)
        if previous is not None and instruction.startswith("j") \
           and is_check(text[previous]):
            after_check.add(address)
        previous = address
    return text, after_check, slow, runtime


def executions(binary, argv, stdin_path, scratch, sparsity):
    """Address in BINARY -> times executed (callgrind, --dump-instr), at
    SPARSITY; the report goes to SCRATCH/report."""
    out = os.path.join(scratch, "callgrind.out")
    env = dict(os.environ, SAMPLER_SPARSITY=str(sparsity), SAMPLER_SEED="1",
               SAMPLER_FILE=os.path.join(scratch, "report"))
    with open(stdin_path, "rb") if stdin_path else open(os.devnull, "rb") as stdin:
        subprocess.run(["valgrind", "--tool=callgrind", "--dump-instr=yes",
                        "--callgrind-out-file=" + out] + argv, stdin=stdin,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       env=env, cwd=scratch, check=True)
    counts = collections.Counter()
    names = {}
    current = 0
    in_binary = in_runtime = False
    runtime_total = 0

    def position(token):
        if token.startswith("0x"):
            return int(token, 16)
        if token[0] in "+-":
            return current + int(token)
        return current

    # "positions: instr line": each cost line is INSTR LINE IR, with
    # positions absolute (0x...) or relative to the previous one.
    with open(out) as f:
        lines = iter(f)
        for line in lines:
            if line.startswith(("ob=", "cob=")):
                m = re.match(r"c?ob=\((\d+)\)(?: (.*))?", line.rstrip("\n"))
                if m.group(2):
                    names[m.group(1)] = m.group(2)
                if line.startswith("ob="):
                    # callgrind names the executable itself "???" here.
                    in_binary = names.get(m.group(1)) in (binary, "???")
                    in_runtime = "libsampler.so" in (names.get(m.group(1)) or "")
                continue
            if line.startswith("calls="):
                # The next line is the call's inclusive cost: not ours.
                current = position(next(lines).split()[0])
                continue
            fields = line.split()
            if len(fields) == 3 and POSITION.match(fields[0]):
                current = position(fields[0])
                if in_binary:
                    counts[current] += int(fields[2])
                elif in_runtime:
                    runtime_total += int(fields[2])
    return counts, runtime_total


def samples_in(build, report):
    """The sampled visits a report holds: the sum of its counters."""
    out = subprocess.run([os.path.join(build, "bin", "sampler-report"), "show",
                          "--format=csv", "--all", report],
                         capture_output=True, text=True, check=True).stdout
    return sum(int(row["count"]) for row in csv.DictReader(io.StringIO(out)))


def measure(build, program, sparsity, variant):
    work = os.path.join(build, "bench")
    binary = built_binary(work, program.name, variant)
    if binary is None:
        sys.exit("countdown-cost.py: no %s build of %s in %s (run bench.py "
                 "--build-dir %s --programs %s first)" % (variant, program.name, work,
                                                           build, program.name))
    text, after_check, slow, runtime = disassembly(binary, runtime_functions(build))
    data = os.path.join(work, "data")
    program.prepare_input(data, "small")
    argv, stdin_path = program.command(binary, data, "small")
    with tempfile.TemporaryDirectory(prefix="sampler-countdown-cost-") as scratch:
        counts, runtime_total = executions(binary, argv, stdin_path, scratch, sparsity)
        kinds = collections.Counter()
        kinds["runtime"] = runtime_total
        kinds["samples"] = samples_in(build, os.path.join(scratch, "report"))
    for address, n in counts.items():
        instruction = text.get(address, "")
        m = COUNTDOWN_OP.match(instruction)
        if address in runtime:
            kinds["runtime"] += n
        elif address in slow:
            kinds["slow"] += n
            if m and m.group(1) == "addq":
                kinds["slow entries"] += n
        elif m:
            kinds["refunds" if is_refund(m) else "checks"] += n
        elif address in after_check:
            kinds["checks' jumps"] += n
    return sum(counts.values()), kinds


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build-dir", required=True)
    parser.add_argument("--sparsity", type=int, default=1000000000,
                        help="SAMPLER_SPARSITY of the run (default 10^9)")
    parser.add_argument("--variant", default="brs",
                        help="the build measured, a bench.py variant (default brs)")
    parser.add_argument("programs", nargs="+")
    args = parser.parse_args()
    if args.sparsity < 1:
        parser.error("--sparsity must be at least 1, not %d" % args.sparsity)
    known = {p.name: p for p in programs.PROGRAMS}
    for name in args.programs:
        if name not in known:
            parser.error("unknown program '%s'; known: %s" % (name, ", ".join(known)))
    for name in args.programs:
        total, kinds = measure(os.path.abspath(args.build_dir), known[name],
                               args.sparsity, args.variant)
        print("%s: %d instructions executed in the executable, of which checks %d, "
              "their jumps %d, refunds %d" % (name, total, kinds["checks"],
                                              kinds["checks' jumps"], kinds["refunds"]))
        samples = kinds["samples"]
        print("%s: at sparsity %d, %d samples; the slow copies ran %d "
              "instructions (%s a sample) and were entered %d times (%s a "
              "sample)" % (name, args.sparsity, samples, kinds["slow"],
                           "%.0f" % (kinds["slow"] / samples) if samples else "-",
                           kinds["slow entries"],
                           "%.2f" % (kinds["slow entries"] / samples)
                           if samples else "-"))
        print("%s: the runtime ran %d instructions (%s a sample)" % (
            name, kinds["runtime"], "%.0f" % (kinds["runtime"] / samples) if samples else "-"))


if __name__ == "__main__":
    main()
