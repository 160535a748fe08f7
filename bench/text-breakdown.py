#!/usr/bin/env python3
"""Where an instrumented program's code bytes go.

For each program's builds in a bench.py build tree, splits the bytes of the
executable's functions into the fast copies (each function's own symbol)
the slow copies (the `.cold' parts GCC moves the never-run blocks to) and
the unsampled clones (`.unsampled', the functions without sites that run
when sampling is off), and each of those into:
  countdown  the countdown's own instructions: checks, refunds and the
             slow copy's per-site decrements (`subq/addq ..., %fs:...'), with
             the conditional jump after each, and the stores of the next
             countdown (`mov ..., %fs:...')
  calls      the runtime calls' sequences: the call, the pushes and pops
             around it and the steps over the red zone
  code       everything else: the program's own code, and what the sites
             compute for the calls (values, their stores)
Bytes are per instruction, from the disassembly's addresses.

Usage: text-breakdown.py --build-dir BUILD [--variants plain,br,brs] [PROGRAM...]
(BUILD as for bench.py, after a run that built those variants.)
"""

import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import programs  # noqa: E402
from disassembly import built_binary, instructions, is_slow_copy  # noqa: E402

COUNTDOWN = re.compile(r"(sub|add|mov)q?\s+.*,\s*%fs:")
RUNTIME_CALL = re.compile(r"call\s+.*<__sampler_")
STACK_STEP = re.compile(r"lea\s+-?0x80\(%rsp\),%rsp$")
# The site's counters, which the call's asm loads into the first argument.
COUNTERS_ARGUMENT = re.compile(r"lea\s+\S+\(%rip\),%rdi\b")


def is_stack_shuffle(text):
    return (text.startswith(("push", "pop")) or bool(STACK_STEP.match(text))
            or bool(COUNTERS_ARGUMENT.match(text)))


def breakdown(binary):
    """{("fast"|"slow"|"unsampled", kind): bytes}."""
    listing = list(instructions(binary, ".text"))
    kinds = ["code"] * len(listing)
    for i, (_, _, text) in enumerate(listing):
        if COUNTDOWN.match(text):
            kinds[i] = "countdown"
            if i + 1 < len(listing) and listing[i + 1][2].startswith("j") \
               and not text.startswith("mov"):
                kinds[i + 1] = "countdown"
        elif RUNTIME_CALL.match(text):
            kinds[i] = "calls"
            j = i - 1
            while j >= 0 and is_stack_shuffle(listing[j][2]):
                kinds[j] = "calls"
                j -= 1
            j = i + 1
            while j < len(listing) and is_stack_shuffle(listing[j][2]):
                kinds[j] = "calls"
                j += 1
    sizes = {}
    for i, (function, address, _) in enumerate(listing):
        if i + 1 >= len(listing):
            break
        size = listing[i + 1][1] - address
        if size <= 0 or size > 15:     # the gap before the next function
            continue
        part = ("slow" if is_slow_copy(function) else
                "unsampled" if ".unsampled" in function else "fast")
        sizes[(part, kinds[i])] = sizes.get((part, kinds[i]), 0) + size
    return sizes


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", required=True)
    parser.add_argument("--variants", default="plain,br,brs")
    parser.add_argument("programs", nargs="*")
    args = parser.parse_args()
    known = [p.name for p in programs.PROGRAMS]
    for name in args.programs:
        if name not in known:
            parser.error("unknown program '%s'; known: %s" % (name, ", ".join(known)))
    names = args.programs or known
    variants = args.variants.split(",")
    work = os.path.join(os.path.abspath(args.build_dir), "bench")
    # The fast copies make no runtime call: no column for that.
    columns = [("fast", "code"), ("fast", "countdown"),
               ("slow", "code"), ("slow", "countdown"), ("slow", "calls"),
               ("unsampled", "code")]
    print("| program | build | .text bytes | " + " | ".join(
        "%s %s" % c for c in columns) + " |")
    print("|---|---|---|" + "---|" * len(columns))
    status = 0
    for name in names:
        plain_total = None
        for variant in variants:
            binary = built_binary(work, name, variant)
            if binary is None:
                print("text-breakdown.py: no %s build of %s in %s (run "
                      "bench.py with a configuration that builds it)"
                      % (variant, name, work), file=sys.stderr)
                status = 1
                continue
            sizes = breakdown(binary)
            total = sum(sizes.values())
            if variant == "plain":
                plain_total = total
            unit = plain_total or total
            print("| %s | %s | %d (%.2fx) | %s |" % (
                name, variant, total, total / unit,
                " | ".join("%.2f" % (sizes.get(c, 0) / unit)
                           for c in columns)))
    if plain_total is None:
        print("(parts as multiples of the first build's bytes: run with "
              "plain first to read them as multiples of plain)")
    return status


if __name__ == "__main__":
    sys.exit(main())
