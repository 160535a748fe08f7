#!/usr/bin/env python3
"""Every plugin argument, from the plugin's own table, with bad values.

Usage: every-key.py BUILD   (a case of testsuite/tools/run-cases, or alone)

Reads plugin/arguments.def (print-table.c prints it) and, for every key,
compiles a small file with values its kind must refuse: no value, an empty
one, out of range by one at each end, signs, spaces, hex, overflow, words
that are not among its choices, unknown schemes.  Each must stop the
compile with no object written and one error naming the argument, the
value and what it accepts, in the plugin's words (the same for every key
of a kind, so written here once per kind).  The values each kind must take
(the range's ends, the default, each choice, every scheme and `all') must
compile.  An unknown key must be refused with the list of every key of the
table, and the help must show every key.  A site table or dump that
cannot be written (a directory, a missing folder) must stop the compile
naming the file.  Every refusal is a row of the table of bad input
(testsuite/tools/bad-input-table.sh; docs/bad-input.md).
"""
# CHECKS: python3 $SRC $BUILD
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", "..", ".."))

passed = failed = 0
table_rows = []


def result(ok, name, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print("PASS: " + name)
    else:
        failed += 1
        print("FAIL: " + name)
        for line in detail.splitlines()[-20:]:
            print("    | " + line)


def plugin_of(build):
    """The plugin of BUILD: run-cases' $PLUGIN, else the one its sampler-gcc
    says it uses."""
    if os.environ.get("PLUGIN"):
        return os.environ["PLUGIN"]
    ask = subprocess.run([os.path.join(build, "bin", "sampler-gcc"),
                          "-print-sampler-plugin"], capture_output=True,
                         text=True)
    if ask.returncode != 0 or not ask.stdout.strip():
        sys.exit("every-key.py: sampler-gcc -print-sampler-plugin: "
                 + ask.stderr.strip())
    return ask.stdout.strip()


def read_table(scratch):
    printer = os.path.join(scratch, "print-table")
    subprocess.run(["gcc", "-std=c11", "-Wall", "-Werror",
                    os.path.join(HERE, "print-table.c"), "-o", printer],
                   check=True)
    rows = []
    for line in subprocess.run([printer], check=True, capture_output=True,
                               text=True).stdout.splitlines():
        key, kind, low, high, default, value = line.split("\t")
        rows.append({"key": key, "kind": kind, "min": int(low),
                     "max": int(high), "default": default or None,
                     "value": value})
    return rows


def scheme_names():
    out = subprocess.run([os.path.join(TOP, "testsuite", "tools",
                                       "scheme-names.sh"), ", "],
                         check=True, capture_output=True, text=True)
    return out.stdout.strip()


def log2(n):
    return n.bit_length() - 1


def accepted(row, schemes):
    """What the plugin says a key of ROW's kind accepts."""
    kind = row["kind"]
    if kind == "SCHEMES":
        return "a comma-separated list of: " + schemes + ", or all"
    if kind == "NUMBER":
        return "a whole number from %d to %d" % (row["min"], row["max"])
    if kind == "POWER_OF_TWO":
        return "a power of two from %d to %d (2^%d to 2^%d)" % (
            row["min"], row["max"], log2(row["min"]), log2(row["max"]))
    if kind == "CHOICE":
        words = row["value"].split("|")
        return ", ".join(words[:-1]) + " or " + words[-1]
    return {"SCOPE": "a name or fnmatch pattern",
            "FUNCTIONS": "a comma-separated list of function names",
            "FILE": "a file name",
            "FLAG": "no value, 1 or 0",
            "HELP": "no value or markdown"}[kind]


def bad_values(row):
    """Values (None: no value) a key of ROW's kind must refuse."""
    kind, low, high = row["kind"], row["min"], row["max"]
    if kind in ("SCHEMES", "SCOPE", "FUNCTIONS", "FILE"):
        return [None, ""]
    if kind == "NUMBER":
        return [None, "", "x", str(low - 1), str(high + 1), "+%d" % low,
                " %d" % low, "%dx" % low, "0x10", "99999999999999999999"]
    if kind == "POWER_OF_TWO":
        return [None, "", str(low // 2), str(low + 1), str(high * 2),
                "2^%d" % (log2(low) - 1), "2^%d" % (log2(high) + 1), "2^",
                "2^x", "many", "99999999999999999999"]
    if kind == "FLAG":
        return ["", "yes", "2", "on"]
    if kind == "CHOICE":
        return [None, "", "x", row["value"].split("|")[0] + "s"]
    if kind == "HELP":
        return ["", "x", "text"]
    raise ValueError(kind)


def good_values(row, scratch):
    """Values a key of ROW's kind must take."""
    kind, low, high = row["kind"], row["min"], row["max"]
    values = [row["default"]] if row["default"] else []
    if kind == "NUMBER":
        values += [str(low), str(high)]
    elif kind == "POWER_OF_TWO":
        values += [str(low), str(high), "2^%d" % log2(low),
                   "2^%d" % log2(high)]
    elif kind == "FLAG":
        values += [None, "0", "1"]
    elif kind == "CHOICE":
        values += row["value"].split("|")
    elif kind in ("SCOPE", "FUNCTIONS"):
        values += ["main"]
    elif kind == "FILE" and row["key"] in ("site-table", "dump"):
        values += [os.path.join(scratch, row["key"] + ".out")]
    elif kind == "HELP":
        values += [None, "markdown"]
    return values


def compile_with(scratch, argument):
    obj = os.path.join(scratch, "x.o")
    if os.path.exists(obj):
        os.remove(obj)
    run = subprocess.run(["gcc", "-fplugin=" + PLUGIN,
                          "-fplugin-arg-sampler-schemes=branches", argument,
                          "-c", os.path.join(scratch, "unit.c"), "-o", obj],
                         capture_output=True, text=True,
                         env=dict(os.environ, LC_ALL="C"))
    return run, os.path.exists(obj)


def errors(stderr):
    return [line.split("error: ", 1)[1] for line in stderr.splitlines()
            if "error: " in line]


def check_bad(scratch, row, value, schemes):
    key = row["key"]
    argument = "-fplugin-arg-sampler-" + key + ("" if value is None
                                                else "=" + value)
    if value is None:
        expected = "sampler: '-fplugin-arg-sampler-%s' needs a value: %s" % (
            key, accepted(row, schemes))
    else:
        expected = ("sampler: bad value '%s' in '-fplugin-arg-sampler-%s=%s'; "
                    "accepted: %s" % (value, key, value,
                                      accepted(row, schemes)))
    refused(scratch, argument, [expected],
            "%s refused, naming the key and what it accepts" % repr(argument))


def refused(scratch, argument, expected, name):
    """ARGUMENT stops the compile, writing no object, with the one error
    EXPECTED (a list of one line, or a compiled pattern); a row of the
    table of bad input."""
    run, wrote = compile_with(scratch, argument)
    said = errors(run.stderr)
    if isinstance(expected, list):
        matches = said == expected
    else:
        matches = len(said) == 1 and expected.search(said[0])
    ok = run.returncode != 0 and not wrote and matches
    result(ok, name, "expected: %s\n%s" % (expected, run.stderr))
    if ok:
        table_rows.append((argument.split("=", 1)[0], argument, said[0]))


def check_unwritable(scratch):
    """A site table or dump that cannot be written is named."""
    directory = os.path.join(scratch, "a-directory")
    os.makedirs(directory, exist_ok=True)
    missing = os.path.join(scratch, "missing", "table")
    for key, path in (("site-table", directory), ("site-table", missing),
                      ("dump", directory)):
        argument = "-fplugin-arg-sampler-%s=%s" % (key, path)
        shown = argument.replace(scratch + "/", "")
        refused(scratch, argument,
                re.compile("cannot (open|write).*" + re.escape(path)),
                "%s refused, naming the file" % repr(shown))


def write_table():
    """The rows of the table of bad input, in its part of $BUILD/bad-input
    (testsuite/tools/bad-input-table.sh's format)."""
    build = os.environ.get("BUILD")
    if not build:
        return
    os.makedirs(os.path.join(build, "bad-input"), exist_ok=True)
    scratch_prefix = re.compile(r"/\S*/(a-directory|missing/)")
    with open(os.path.join(build, "bad-input", "1-plugin-arguments.md"),
              "w") as f:
        f.write("\n**Plugin arguments (gcc -fplugin=sampler.so, or "
                "sampler-gcc)**\n\n| Input | Tried | What it gets |\n"
                "|---|---|---|\n")
        for key, argument, message in table_rows:
            argument, message = (scratch_prefix.sub(r"\1", text).replace(
                "|", "\\|") for text in (argument, message))
            f.write("| %s | `%s` | error `%s`; no object |\n"
                    % (key, argument, message))


def check_good(scratch, row, value):
    argument = "-fplugin-arg-sampler-" + row["key"] + ("" if value is None
                                                       else "=" + value)
    run, wrote = compile_with(scratch, argument)
    result(run.returncode == 0 and wrote and not errors(run.stderr),
           "%s taken" % repr(argument), run.stderr)


def check_schemes(scratch, schemes):
    """Unknown scheme names, and every scheme and `all', taken."""
    listed = schemes + ", or all"
    for value, item in (("checks,brnaches", "brnaches"), ("checks,", ""),
                        ("all,x", "x"), ("ALL", "ALL"), (",checks", "")):
        argument = "-fplugin-arg-sampler-schemes=" + value
        expected = ("sampler: unknown scheme '%s' in '%s'; accepted "
                    "schemes: %s" % (item, argument, listed))
        refused(scratch, argument, [expected],
                "%s refused, naming the scheme" % repr(argument))
    for value in schemes.split(", ") + ["all", "checks,all",
                                         schemes.replace(", ", ",")]:
        check_good(scratch, {"key": "schemes"}, value)


def check_keys_and_help(scratch, rows):
    keys = ", ".join(row["key"] for row in rows)
    expected = ("sampler: unknown argument '-fplugin-arg-sampler-colour'; "
                "accepted: " + keys)
    refused(scratch, "-fplugin-arg-sampler-colour=red", [expected],
            "an unknown key is refused with the table's keys")
    run, _ = compile_with(scratch, "-fplugin-arg-sampler-help")
    missing = [row["key"] for row in rows
               if "  %s=" % row["key"] not in run.stderr
               and "  %s[=" % row["key"] not in run.stderr
               and ", %s=" % row["key"] not in run.stderr]
    result(run.returncode == 0 and not missing,
           "the help shows every key", "missing: %s\n%s" % (missing,
                                                           run.stderr))
    run, _ = compile_with(scratch, "-fplugin-arg-sampler-help=markdown")
    lines = run.stderr.splitlines()
    missing = [row["key"] for row in rows
               if not any(line.startswith("| ") and "`%s" % row["key"] in line
                          for line in lines)]
    result(run.returncode == 0 and lines[:2] == ["| argument | meaning |",
                                                 "|---|---|"]
           and not missing,
           "help=markdown is a table with every key",
           "missing: %s\n%s" % (missing, run.stderr))


def main():
    global PLUGIN
    if len(sys.argv) != 2:
        sys.exit("usage: every-key.py BUILD")
    PLUGIN = plugin_of(os.path.abspath(sys.argv[1]))
    with tempfile.TemporaryDirectory(prefix="sampler-arguments.") as scratch:
        with open(os.path.join(scratch, "unit.c"), "w") as f:
            f.write("int main (int argc, char **argv)\n"
                    "{\n  return argc > 1 ? argv[1][0] : 0;\n}\n")
        rows = read_table(scratch)
        schemes = scheme_names()
        kinds = {row["kind"] for row in rows}
        result(kinds == {"SCHEMES", "SCOPE", "FUNCTIONS", "FILE", "NUMBER",
                         "POWER_OF_TWO", "FLAG", "CHOICE", "HELP"},
               "the table has every kind this test knows (%d keys)"
               % len(rows), "kinds: %s" % sorted(kinds))
        for row in rows:
            for value in bad_values(row):
                check_bad(scratch, row, value, schemes)
            for value in good_values(row, scratch):
                check_good(scratch, row, value)
        check_schemes(scratch, schemes)
        check_keys_and_help(scratch, rows)
        check_unwritable(scratch)
    write_table()
    # Under run-cases, which counts the lines: ran to its end.
    if os.environ.get("RUN_CASES"):
        sys.exit(0)
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
