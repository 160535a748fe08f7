"""The programs of the benchmark: where their sources come from, how each
is built, and the deterministic CPU-bound workload it runs.

Every program is a Debian source package, fetched and unpacked by
testsuite/tools/fetch-debian-source.sh into a cache outside the
repository.  Where the real-program tests have a recipe for the package
(testsuite/integration/real/packages/PACKAGE.sh), the program names it, and is
configured and built with the tests' helpers (testsuite/integration/real/lib.sh:
autotools_configure, autotools_make), so that how a Debian tree is built
(which generated files stand as shipped) is said in one place.  The
benchmark builds only the program it runs, statically, where the tests
build the whole package and its shared libraries.  A workload has three sizes: "full" (timed; about 1 to 5 s
for the plain build on the reference machine), "small" (counted
instruction by instruction under callgrind) and "tiny" (the smoke test of
`make check`).  A run's standard output must be the same for every build
of a program: it is the program's answer.
"""

import itertools
import os
import random
import shutil
import subprocess

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REAL = os.path.join(TOP, "testsuite", "integration", "real")
RECIPE_HELPERS = os.path.join(REAL, "lib.sh")


class Program:
    name = ""
    package = ""        # the Debian source package
    recipe = False      # whether testsuite/integration/real/packages/PACKAGE.sh exists
    sizes = {}          # size name -> workload parameter

    def recipe_files(self):
        """The test suite's files this program's build depends on."""
        if not self.recipe:
            return []
        return [RECIPE_HELPERS,
                os.path.join(REAL, "packages", self.package + ".sh")]

    def configure(self, tree, env, log):
        """Prepares a fresh copy of the source for building (once, with
        plain gcc; every build then starts from a copy of the result)."""

    def build(self, tree, cc, cflags, jobs, log):
        """Builds in TREE with CC and CFLAGS (a list); returns the
        executable's path.  Autotools packages get the flags in CC, so
        that the flags their configure added to CFLAGS stay."""
        raise NotImplementedError

    def prepare_input(self, data_dir, size):
        """Creates what a run of SIZE reads (cached in DATA_DIR)."""

    def command(self, binary, data_dir, size):
        """The argument vector and the standard input file (or None) of a
        run."""
        raise NotImplementedError


def run_logged(argv, cwd, log, env=None):
    log.write("$ (cd %s && %s)\n" % (cwd, " ".join(argv)))
    log.flush()
    subprocess.run(argv, cwd=cwd, stdout=log, stderr=subprocess.STDOUT,
                   check=True, env=env)


def recipe_shell(program, script, args, tree, log, env=None):
    """Runs the bash SCRIPT (its arguments: ARGS) in TREE with
    testsuite/integration/real/lib.sh and PROGRAM's recipe sourced, as the real-program
    tests run a recipe's phases.  The helpers read CC, CFLAGS, LDFLAGS and
    JOBS from ENV (default: this process's environment)."""
    helpers, recipe = program.recipe_files()
    env = dict(env if env is not None else os.environ)
    env.setdefault("LDFLAGS", "")
    env.setdefault("JOBS", "1")
    run_logged(["bash", "-c", '. "$0" && . "$1" && shift && ' + script,
                helpers, recipe] + list(args), tree, log, env)


def compiler_variable(cc, cflags):
    """CC=... for make: the compiler with the build's flags."""
    return "CC=" + " ".join([cc] + cflags)


def compile_sources(tree, cc, cflags, sources, output, libs, jobs, log,
                    extra_objects=()):
    """Compiles SOURCES (relative to TREE) into objects, JOBS at a time,
    and links them into OUTPUT."""
    pending = list(sources)
    running = []
    objects = []
    while pending or running:
        while pending and len(running) < jobs:
            source = pending.pop(0)
            obj = os.path.splitext(source)[0] + ".o"
            objects.append(obj)
            argv = [cc] + cflags + ["-c", source, "-o", obj]
            log.write("$ " + " ".join(argv) + "\n")
            log.flush()
            running.append((source, subprocess.Popen(
                argv, cwd=tree, stdout=log, stderr=subprocess.STDOUT)))
        source, proc = running.pop(0)
        if proc.wait() != 0:
            for _, other in running:
                other.wait()
            raise subprocess.CalledProcessError(proc.returncode, source)
    run_logged([cc] + cflags + ["-o", output] + objects + list(extra_objects)
               + libs, tree, log)
    return os.path.join(tree, output)


# --- Generated inputs --------------------------------------------------------

def text_corpus(path, megabytes):
    """Text with a Zipf-like vocabulary and numbers: compresses like
    prose (about 3.5:1 with gzip)."""
    if os.path.exists(path):
        return
    rng = random.Random(20260101)
    letters = "etaoinshrdlcumwfgypbvkjxqz"
    weights = [26 - i for i in range(26)]
    words = ["".join(rng.choices(letters, weights, k=rng.randint(1, 10)))
             for _ in range(20000)]
    ranks = [1.0 / (i + 1) for i in range(len(words))]
    # The cumulative weights once: choices() would add them up at each call.
    cumulative = list(itertools.accumulate(ranks))
    target = megabytes * 1024 * 1024
    tmp = path + ".tmp"
    with open(tmp, "w") as out:
        written = 0
        while written < target:
            line = " ".join(rng.choices(words, cum_weights=cumulative, k=rng.randint(4, 16)))
            line += " %d.\n" % rng.randint(0, 99999)
            out.write(line)
            written += len(line)
    os.replace(tmp, path)


def first_bytes(source, path, size):
    if os.path.exists(path):
        return
    with open(source, "rb") as f:
        data = f.read(size)
    with open(path, "wb") as out:
        out.write(data)


# --- The programs ------------------------------------------------------------

class Compressor(Program):
    """Compresses the first MiB of a generated text corpus (sizes: MiB) to
    standard output at LEVEL."""
    corpus_mib = 12
    level = "-6"

    def prepare_input(self, data_dir, size):
        corpus = os.path.join(data_dir, "text-%d.txt" % self.corpus_mib)
        text_corpus(corpus, self.corpus_mib)
        first_bytes(corpus, self.input(data_dir, size),
                    int(self.sizes[size] * 1024 * 1024))

    def input(self, data_dir, size):
        return os.path.join(data_dir, "text-%s.txt" % self.sizes[size])

    def command(self, binary, data_dir, size):
        return [binary, self.level, "-c"], self.input(data_dir, size)


class Bzip2(Compressor):
    """The recipe's Makefile links bzip2 against libbz2.so; the benchmark
    compiles the eight sources into one executable instead."""
    name = "bzip2"
    package = "bzip2"
    level = "-9"
    sizes = {"full": 12, "small": 0.25, "tiny": 0.05}   # MiB of text
    sources = ["blocksort.c", "huffman.c", "crctable.c", "randtable.c",
               "compress.c", "decompress.c", "bzlib.c", "bzip2.c"]

    def build(self, tree, cc, cflags, jobs, log):
        return compile_sources(tree, cc, cflags + ["-D_FILE_OFFSET_BITS=64"],
                               self.sources, "bzip2", [], jobs, log)


class Gzip(Compressor):
    name = "gzip"
    package = "gzip"
    recipe = True
    corpus_mib = 48
    sizes = {"full": 48, "small": 1, "tiny": 0.05}

    def configure(self, tree, env, log):
        recipe_shell(self, "autotools_configure --disable-silent-rules && "
                     "autotools_make version.h", [], tree, log, env)

    def build(self, tree, cc, cflags, jobs, log):
        # gnulib's lib/ is part of the program; the documentation is not.
        recipe_shell(self, 'autotools_make -C lib "$1" && autotools_make "$1" gzip',
                     [compiler_variable(cc, cflags)], tree, log,
                     dict(os.environ, JOBS=str(jobs)))
        return os.path.join(tree, "gzip")


class Xz(Compressor):
    name = "xz"
    package = "xz-utils"
    recipe = True
    sizes = {"full": 3, "small": 0.25, "tiny": 0.05}

    def configure(self, tree, env, log):
        recipe_shell(self, 'autotools_configure "$@"',
                     ["--disable-shared", "--disable-nls", "--disable-doc",
                      "--disable-scripts", "--disable-xzdec",
                      "--disable-lzmadec", "--disable-lzmainfo",
                      "--disable-lzma-links", "--disable-threads"],
                     tree, log, env)

    def build(self, tree, cc, cflags, jobs, log):
        recipe_shell(self, 'autotools_make -C src/liblzma "$1" && '
                     'autotools_make -C src/xz "$1"',
                     [compiler_variable(cc, cflags)], tree, log,
                     dict(os.environ, JOBS=str(jobs)))
        return os.path.join(tree, "src/xz/xz")


class Sqlite3(Program):
    """The recipe builds the library from separate sources, for its Tcl
    suite; the benchmark compiles the amalgamation, the whole library as
    one unit, as most programs that embed sqlite do."""
    name = "sqlite3"
    package = "sqlite3"
    recipe = True
    sizes = {"full": 120000, "small": 5000, "tiny": 300}   # rows
    defines = ["-DSQLITE_THREADSAFE=0", "-DSQLITE_OMIT_LOAD_EXTENSION"]

    def configure(self, tree, env, log):
        # tclsh makes the amalgamation.
        recipe_shell(self, "autotools_configure --disable-shared --disable-tcl "
                     "--disable-readline && autotools_make sqlite3.c shell.c",
                     [], tree, log, env)

    def build(self, tree, cc, cflags, jobs, log):
        return compile_sources(tree, cc, cflags + self.defines,
                               ["sqlite3.c", "shell.c"], "sqlite3-bench",
                               ["-lm"], jobs, log)

    def prepare_input(self, data_dir, size):
        path = os.path.join(data_dir, "sqlite-%d.sql" % self.sizes[size])
        if os.path.exists(path):
            return
        here = os.path.dirname(os.path.abspath(__file__))
        with open(os.path.join(here, "workloads", "sqlite.sql")) as f:
            script = f.read()
        with open(path, "w") as out:
            out.write(script.replace("@ROWS@", str(self.sizes[size])))

    def command(self, binary, data_dir, size):
        return [binary, ":memory:"], os.path.join(
            data_dir, "sqlite-%d.sql" % self.sizes[size])


class Lua(Program):
    name = "lua"
    package = "lua5.4"
    sizes = {"full": 6, "small": 0.3, "tiny": 0.03}   # scale of the script

    def configure(self, tree, env, log):
        # What debian/rules writes before building.
        arch = subprocess.run(["gcc", "-print-multiarch"], capture_output=True,
                              text=True).stdout.strip() or "x86_64-linux-gnu"
        with open(os.path.join(tree, "src", "lua5.4-deb-multiarch.h"), "w") as f:
            f.write('#ifndef _LUA_DEB_MULTIARCH_\n#define _LUA_DEB_MULTIARCH_\n'
                    '#define DEB_HOST_MULTIARCH "%s"\n#endif\n' % arch)

    def build(self, tree, cc, cflags, jobs, log):
        src = os.path.join(tree, "src")
        sources = sorted(f for f in os.listdir(src)
                         if f.endswith(".c") and f not in ("luac.c",))
        sources = ["src/" + f for f in sources]
        return compile_sources(tree, cc, cflags + ["-DLUA_COMPAT_5_3",
                                                   "-DLUA_USE_LINUX"],
                               sources, "lua-bench", ["-lm", "-ldl"], jobs, log)

    def command(self, binary, data_dir, size):
        here = os.path.dirname(os.path.abspath(__file__))
        return [binary, os.path.join(here, "workloads", "bench.lua"),
                str(self.sizes[size])], None


class Bc(Program):
    name = "bc"
    package = "bc"
    recipe = True
    sizes = {"full": 1500, "small": 250, "tiny": 50}   # digits of pi

    def configure(self, tree, env, log):
        recipe_shell(self, "autotools_configure", [], tree, log, env)

    def build(self, tree, cc, cflags, jobs, log):
        recipe_shell(self, 'autotools_make -C lib "$1" && autotools_make -C bc "$1"',
                     [compiler_variable(cc, cflags)], tree, log,
                     dict(os.environ, JOBS=str(jobs)))
        return os.path.join(tree, "bc", "bc")

    def prepare_input(self, data_dir, size):
        path = os.path.join(data_dir, "bc-%d.b" % self.sizes[size])
        if not os.path.exists(path):
            with open(path, "w") as out:
                out.write("scale = %d\n4 * a(1)\nquit\n" % self.sizes[size])

    def command(self, binary, data_dir, size):
        return [binary, "-l", "-q"], os.path.join(
            data_dir, "bc-%d.b" % self.sizes[size])


class Jq(Program):
    name = "jq"
    package = "jq"
    sizes = {"full": 100000, "small": 4000, "tiny": 300}   # records
    filter = ('[.[] | select(.score > 40) | {id, tag: (.name | ascii_upcase),'
              ' total: (.values | add), n: (.values | length)}]'
              ' | group_by(.id % 17) | map({k: (.[0].id % 17), n: length,'
              ' s: (map(.total) | add), t: (map(.tag) | sort | .[0])})')

    def configure(self, tree, env, log):
        run_logged(["autoreconf", "-fi"], tree, log, env)
        run_logged(["./configure", "--disable-docs", "--disable-shared",
                    "--with-oniguruma=no", "--disable-maintainer-mode"],
                   tree, log, env)
        run_logged(["make", "src/builtin.inc", "src/version.h"], tree, log, env)

    def build(self, tree, cc, cflags, jobs, log):
        run_logged(["make", "-j%d" % jobs, compiler_variable(cc, cflags), "jq"],
                   tree, log)
        return os.path.join(tree, "jq")

    def prepare_input(self, data_dir, size):
        path = os.path.join(data_dir, "jq-%d.json" % self.sizes[size])
        if os.path.exists(path):
            return
        rng = random.Random(7)
        syllables = ["ka", "lo", "mi", "ne", "ru", "ta", "vo", "xe", "zu"]
        with open(path + ".tmp", "w") as out:
            out.write("[\n")
            for i in range(self.sizes[size]):
                name = "".join(rng.choices(syllables, k=rng.randint(2, 5)))
                values = [rng.randint(-500, 500)
                          for _ in range(rng.randint(1, 12))]
                out.write('%s{"id": %d, "name": "%s", "score": %d, '
                          '"values": [%s], "flag": %s}\n'
                          % ("," if i else "", i, name, rng.randint(0, 100),
                             ", ".join(map(str, values)),
                             "true" if rng.random() < 0.5 else "false"))
            out.write("]\n")
        os.replace(path + ".tmp", path)

    def command(self, binary, data_dir, size):
        return [binary, "-c", self.filter,
                os.path.join(data_dir, "jq-%d.json" % self.sizes[size])], None


PROGRAMS = [Bzip2(), Gzip(), Xz(), Sqlite3(), Lua(), Bc(), Jq()]


def copy_tree(source, dest):
    """A copy keeping timestamps, so make does not regenerate files (a
    grammar, the documentation) that the source already has."""
    if os.path.exists(dest):
        shutil.rmtree(dest)
    shutil.copytree(source, dest, symlinks=True, copy_function=shutil.copy2)
