#!/usr/bin/env python3
# TEST: predicate text keeps the meaning of every operator pair
# RUN: python3 $SRC $PLUGIN $T
"""Branch predicates' text means what the condition means.

Usage: predicate-text.py PLUGIN SCRATCH

Writes a C file whose functions each test one condition combining a pair
of C operators (every pair of unary, multiplicative, additive, shift,
relational, equality, bitwise, logical, conditional and cast operators,
the inner one on the left and on the right of the outer one, and member
access, array index and calls inside them), compiles it with the plugin at
-O2 and reads the branch sites' text from the site table.  Each text is
then compiled back as C, in a harness that evaluates it and the original
condition on the same random inputs (fixed seed): they must agree on every
input, or disagree on every input (GCC may have inverted the branch).
Texts with GCC's stand-ins for what it does not print (`(...)', a
temporary such as `iftmp.0') and functions whose condition became several
branches (&&, ||, ?:) are counted, not evaluated; at least half the
conditions must be evaluated.  Prints what it checked; exit status 1 on a
disagreement or a text that is not C."""
import os, random, re, subprocess, sys

plugin, scratch = sys.argv[1], sys.argv[2]

BINARY = ["*", "/", "%", "+", "-", "<<", ">>", "<", "<=", ">", ">=", "==", "!=",
          "&", "^", "|", "&&", "||"]
UNARY = ["-", "~", "!", "(unsigned char) ", "(short) ", "(unsigned) "]

def binary(left, op, right):
    """LEFT OP RIGHT, with a right operand that is never 0 for / and % and
    in 0..7 for shifts (C leaves the others undefined)."""
    if op in ("/", "%"):
        right = "((%s) | 1)" % right
    elif op in ("<<", ">>"):
        right = "((%s) & 7)" % right
        if op == "<<":
            left = "(unsigned) (%s)" % left   # no signed overflow
    return "%s %s %s" % (left, op, right)

def inner(op, x, y):
    return "(%s)" % binary(x, op, y)

conditions = ["(m & 0xF000) == 0x4000"]
for outer in BINARY:
    for op in BINARY:
        conditions.append(binary(inner(op, "a", "b"), outer, "c"))
        conditions.append(binary("a", outer, inner(op, "b", "c")))
    for u in UNARY:
        conditions.append(binary("%s(a %s b)" % (u, "+" if outer != "+" else "-"), outer, "c"))
        conditions.append(binary("%sa" % u, outer, "b"))
        conditions.append(binary("a", outer, "%sb" % u))
    conditions.append(binary("(a ? b : c)", outer, "d"))
    conditions.append(binary("a", outer, "(b ? c : d)"))
    conditions.append("(%s) ? c : d" % binary("a", outer, "b"))
    conditions.append(binary("p->f", outer, "a"))
    conditions.append(binary("arr[a & 3]", outer, "b"))
    conditions.append("arr[(%s) & 3] == c" % binary("a", outer, "b"))
    conditions.append(binary("g (a)", outer, "b"))
for u in UNARY:
    for v in UNARY:
        conditions.append("%s(%s(a - b)) < c" % (u, v))

prelude = """struct s { int f; };
extern int arr[4];
extern int g (int);
"""
with open(os.path.join(scratch, "pairs.c"), "w") as out:
    out.write(prelude + "extern void hit (int);\n")
    for i, c in enumerate(conditions):
        out.write("void cond_%d (int a, int b, int c, int d, unsigned m, struct s *p)\n"
                  "{ if (%s) hit (%d); }\n" % (i, c, i))
table = os.path.join(scratch, "pairs.sites")
if os.path.exists(table):
    os.remove(table)
subprocess.run(["gcc", "-O2", "-w", "-fplugin=" + plugin,
                "-fplugin-arg-sampler-schemes=branches",
                "-fplugin-arg-sampler-site-table=" + table,
                "-c", os.path.join(scratch, "pairs.c"), "-o", os.path.join(scratch, "pairs.o")],
               check=True)
texts = {}
for line in open(table):
    fields = line.rstrip("\n").split("\t")
    if fields[0] == "site" and fields[2] == "branches" and fields[6].startswith("cond_"):
        texts.setdefault(int(fields[6][5:]), []).append(fields[8])

stand_in = re.compile(r"\(\.\.\.\)|\b[A-Za-z_]\w*\.\d+\b|\b_\d+\b")
checked, elided, split = [], 0, 0
for i, c in enumerate(conditions):
    sites = texts.get(i, [])
    if len(sites) != 1:
        split += 1
    elif stand_in.search(sites[0]):
        elided += 1
    else:
        checked.append((i, c, sites[0]))

harness = os.path.join(scratch, "harness.c")
with open(harness, "w") as out:
    out.write("#include <stdio.h>\n#include <stdlib.h>\n" + prelude)
    out.write("int arr[4] = { 3, -7, 0, 12 };\nint g (int x) { return x * 3 - 1; }\n")
    for i, c, text in checked:
        out.write("static int original_%d (int a, int b, int c, int d, unsigned m, struct s *p)"
                  " { return !!(%s); }\n" % (i, c))
        out.write("#line 1 \"text of cond_%d\"\n" % i)
        out.write("static int printed_%d (int a, int b, int c, int d, unsigned m, struct s *p)"
                  " { return !!(%s); }\n" % (i, text))
    out.write("typedef int test (int, int, int, int, unsigned, struct s *);\n")
    out.write("static test *originals[] = { %s };\n" % ", ".join("original_%d" % i for i, _, _ in checked))
    out.write("static test *printed[] = { %s };\n" % ", ".join("printed_%d" % i for i, _, _ in checked))
    out.write("""
int main (void)
{
  int bad = 0;
  srand (20261127);
  for (unsigned k = 0; k < sizeof originals / sizeof originals[0]; k++)
    {
      int same = 0, inverse = 0;
      for (int round = 0; round < 2000; round++)
        {
          int v[4];
          for (int j = 0; j < 4; j++)
            v[j] = round < 1000 ? rand () % 41 - 20 : rand () - RAND_MAX / 2;
          unsigned m = (unsigned) rand () * 2654435761u;
          struct s object = { rand () % 41 - 20 };
          int x = originals[k] (v[0], v[1], v[2], v[3], m, &object);
          int y = printed[k] (v[0], v[1], v[2], v[3], m, &object);
          same += x == y;
          inverse += x != y;
        }
      if (same && inverse)
        {
          printf ("%u\\n", k);
          bad++;
        }
    }
  return bad != 0;
}
""")
build = subprocess.run(["gcc", "-O0", "-fwrapv", "-w", harness, "-o", os.path.join(scratch, "harness")],
                       capture_output=True, text=True)
print("%d conditions: %d evaluated, %d with stand-ins, %d split into several branches"
      % (len(conditions), len(checked), elided, split))
if build.returncode != 0:
    print("printed text that is not C:")
    print(build.stderr[:3000])
    sys.exit(1)
run = subprocess.run([os.path.join(scratch, "harness")], capture_output=True, text=True)
for k in run.stdout.split():
    i, c, text = checked[int(k)]
    print("cond_%d: `%s' printed as `%s'" % (i, c, text))
if run.returncode != 0:
    sys.exit(1)
if len(checked) * 2 < len(conditions):
    print("fewer than half the conditions evaluated")
    sys.exit(1)
