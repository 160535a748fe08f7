#!/usr/bin/env python3
"""Damaged reports, site tables and binaries (the fixtures' run.report,
main.sites, util.sites, main.o and demo-prog, mutated at random with a fixed
seed) and random bytes must give sampler-report a message and exit status 1
or 2, never a crash, under ASan and UBSan.  Leaks are looked for by the
other cases, on the ordinary paths; here they would only slow each run
down.  FUZZ_ROUNDS (default 100) sets how many of each kind.

Usage: fuzz-damaged.py TOOL SCRATCH ROUNDS (prints its check)."""
# RUN: . $SRCDIR/fixtures.sh && build_fixtures
# CHECKS: ASAN_OPTIONS=detect_leaks=0 python3 $SRC $SANITIZED_REPORT $T ${FUZZ_ROUNDS:-100}
import os, random, subprocess, sys

tool, scratch, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
rng = random.Random(20240601)
inputs = {name: open(os.path.join(scratch, name), "rb").read()
          for name in ("run.report", "main.sites", "util.sites", "main.o", "demo-prog")}

def mutate(data):
    data = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        choice = rng.random()
        position = rng.randrange(len(data)) if data else 0
        if choice < 0.3 and data:
            data[position] = rng.randrange(256)
        elif choice < 0.5 and data:
            data[position] = rng.choice(b"\t\n\\0123456789-,")
        elif choice < 0.7:
            data[position:position] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
        elif choice < 0.85 and data:
            del data[position:position + rng.randint(1, 32)]
        else:
            start = rng.randrange(len(data)) if data else 0
            data[position:position] = data[start:start + rng.randint(1, 64)]
    return bytes(data)

def run(args):
    result = subprocess.run([tool] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            timeout=20)
    error = result.stderr.decode("utf-8", "replace")
    if result.returncode not in (0, 1, 2) or "Sanitizer" in error or "runtime error" in error:
        return "exit status %d: %s" % (result.returncode, error[:2000])
    if result.returncode == 2 and not error.startswith("sampler-report: "):
        return "status 2 without a message: %r" % error[:200]
    return None

case_path = os.path.join(scratch, "fuzz.input")
binaries = ["--binary", os.path.join(scratch, "demo-prog"),
            "--binary", os.path.join(scratch, "libsize.so")]
failures = 0
cases = 0
problems = []
for round in range(rounds):
    for kind in ("report", "sites", "binary", "random"):
        if kind == "report":
            data = mutate(inputs["run.report"])
            args = ["show", case_path] + binaries
        elif kind == "sites":
            data = mutate(inputs[rng.choice(["main.sites", "util.sites"])])
            args = ["show", os.path.join(scratch, "run.report"), "--sites", case_path]
        elif kind == "binary":
            original = inputs[rng.choice(["main.o", "demo-prog"])]
            data = bytearray(original)
            # Headers and section tables are where damage is interesting.
            for _ in range(rng.randint(1, 6)):
                region = rng.choice([(0, 64), (max(0, len(data) - 2048), len(data)),
                                     (0, len(data))])
                position = rng.randrange(*region)
                data[position] = rng.randrange(256)
            if rng.random() < 0.2:
                data = data[:rng.randrange(len(data))]
            data = bytes(data)
            args = ["show", os.path.join(scratch, "run.report"), "--binary", case_path,
                    "--format=" + rng.choice(["text", "csv", "jsonl"])]
        else:
            data = bytes(rng.randrange(256) for _ in range(rng.randint(0, 300)))
            args = ["show", case_path]
        with open(case_path, "wb") as out:
            out.write(data)
        cases += 1
        problem = run(args)
        if problem:
            failures += 1
            kept = os.path.join(scratch, "fuzz-failure-%d" % failures)
            os.rename(case_path, kept)
            problems.append("%s case %d: %s (kept as %s)" % (kind, round, problem, kept))
if failures:
    print("FAIL: fuzzing with ASan and UBSan: %d cases, %d failures" % (cases, failures))
    for line in problems[-60:]:
        print("    " + line)
else:
    print("PASS: fuzzing with ASan and UBSan: %d cases, 0 failures" % cases)
