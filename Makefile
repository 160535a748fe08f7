# sampler: statistically fair sampled instrumentation for C (GCC plugin,
# runtime, tools).  `make` builds everything into build/, laid out like an
# installation (build/bin, build/lib, build/include) so that the uninstalled
# sampler-gcc works as is; `make install PREFIX=DIR` copies that tree.

PREFIX     ?= /usr/local
DESTDIR    ?=
CC         ?= gcc
CXX        ?= g++
ifeq ($(CC),cc)
CC := gcc
endif
# Another GCC (docs/gcc-versions.md): GCC=gcc-14 is CC=gcc-14 CXX=g++-14.
ifneq ($(GCC),)
CC  := $(GCC)
CXX := $(subst gcc,g++,$(GCC))
endif

B          ?= build
PLUGIN_INC := $(shell $(CC) -print-file-name=plugin)/include
# The plugin is built for the GCC whose headers it includes, and goes where
# sampler-gcc looks for that GCC's: lib/sampler/gcc-MAJOR/sampler.so.
GCC_MAJOR  := $(shell sed -n 's/^\#define BUILDING_GCC_MAJOR //p' $(PLUGIN_INC)/bversion.h 2>/dev/null)

CFLAGS_COMMON := -std=c11 -O2 -g -Wall -Wextra -D_GNU_SOURCE
# On x86-64 the runtime is built for Intel CET (endbr64 at every indirect
# call target, the property notes), so that programs built with
# -fcf-protection keep their IBT and SHSTK properties (docs/distributions.md).
CET_CFLAGS := $(if $(filter x86_64-%,$(shell $(CC) -dumpmachine)),-fcf-protection)
# The runtime must not be instrumented by itself, whatever CFLAGS say.
RUNTIME_CFLAGS := $(CFLAGS_COMMON) $(CET_CFLAGS) -fPIC -fvisibility=hidden -Iinclude -Iruntime
# -Iplugin: every source of the plugin, in whichever folder, includes the
# plugin's shared headers (plugin/*.h) and the runtime's (../runtime/) as
# plugin/ would.
PLUGIN_CXXFLAGS := -std=gnu++14 -O2 -g -Wall -Wextra -Wno-unused-parameter \
                   -fPIC -fno-rtti -fno-exceptions -I$(PLUGIN_INC) -Iplugin

GSL_LIBS   := -lgsl -lgslcblas -lm

RUNTIME_SRCS := $(wildcard runtime/*.c runtime/report-writer/*.c runtime/schemes/*.c \
                            runtime/schemes/*/*.c)
RUNTIME_HDRS := $(wildcard runtime/*.h runtime/report-writer/*.h runtime/schemes/*/*.h) \
                runtime/schemes.def runtime/sampler-abi.def include/sampler.h
RUNTIME_OBJS := $(RUNTIME_SRCS:runtime/%.c=$(B)/obj/runtime/%.o)
# The plugin's folders follow its pipeline (docs/design.md, "Source
# files"): passes/, sites/, transform/, support/, and schemes/ with a file
# or a folder per scheme; plugin/loader.cc, at the top, is sampler.so.
PLUGIN_SRCS  := $(wildcard plugin/*/*.cc plugin/schemes/*/*.cc)
PLUGIN_HDRS  := $(wildcard plugin/*.h plugin/*.def plugin/*/*.h plugin/schemes/*/*.h)
PLUGIN_OBJS  := $(PLUGIN_SRCS:plugin/%.cc=$(B)/obj/plugin-gcc-$(GCC_MAJOR)/%.o)

# sampler-report's sources, in folders by the stage of the pipeline they
# serve (tools/report/main.c says which); includes name their folder, so
# -Itools/report is the one include path of its own.
REPORT_SRCS := $(wildcard tools/report/*.c tools/report/*/*.c tools/report/*/*/*.c)
REPORT_HDRS := $(wildcard tools/report/*.h tools/report/*/*.h tools/report/*/*/*.h)
REPORT_TOOL := $(B)/bin/sampler-report

# sampler-report's sources but main.c, as objects that other tools link
# with (the collector reads reports with the report tool's own reader).
REPORT_LIB_SRCS := $(filter-out tools/report/main.c,$(REPORT_SRCS))
REPORT_OBJS := $(REPORT_LIB_SRCS:tools/report/%.c=$(B)/obj/report/%.o)
# sampler-report --store reads the collector's store (tools/report/input/
# store-input.c) through the collector's store layer: libpq, SQLite, zlib.
STORE_SRCS := tools/collect/store.c tools/collect/store-postgresql.c tools/collect/store-sqlite.c \
              tools/collect/inflate.c
STORE_HDRS := tools/collect/store.h tools/collect/store-engine.h tools/collect/inflate.h
STORE_CFLAGS := $(shell pkg-config --cflags libpq sqlite3 2>/dev/null)
STORE_LIBS := $(shell pkg-config --libs libpq sqlite3 2>/dev/null) -lz -pthread
REPORT_CFLAGS := $(CFLAGS_COMMON) $(STORE_CFLAGS) -Itools/report -Itools/collect -Iruntime

RELEASE_TOOL := $(B)/bin/sampler-release
SUBMIT_SRCS := $(wildcard tools/submit/*.c) runtime/release.c
SUBMIT_HDRS := $(wildcard tools/submit/*.h) runtime/release.h
SUBMIT_TOOL := $(B)/bin/sampler-submit
SUBMIT_UNITS := $(B)/lib/systemd/user/sampler-submit.service $(B)/lib/systemd/user/sampler-submit.timer

# The collector (docs/collect.md): libmicrohttpd, libpq, SQLite, zlib; the
# SQL files of tools/sql/ built in (tools/collect/sql-files.c).
COLLECT_SRCS := $(wildcard tools/collect/*.c)
COLLECT_HDRS := $(wildcard tools/collect/*.h)
COLLECT_SQL := $(wildcard tools/sql/*.sql tools/sql/*/*.sql)
COLLECT_TOOL := $(B)/bin/sampler-collect
COLLECT_CFLAGS := $(shell pkg-config --cflags libmicrohttpd libpq sqlite3 2>/dev/null)
COLLECT_LIBS := $(shell pkg-config --libs libmicrohttpd libpq sqlite3 2>/dev/null) -lz -pthread
COLLECT_UNIT := $(B)/lib/systemd/system/sampler-collect.service

# sampler.so checks that the GCC loading it is the one it was built for,
# then loads sampler-main.so, the plugin proper (plugin/loader.cc).
PLUGIN     := $(B)/lib/sampler/gcc-$(GCC_MAJOR)/sampler.so
PLUGIN_MAIN := $(B)/lib/sampler/gcc-$(GCC_MAJOR)/sampler-main.so
LIBA       := $(B)/lib/libsampler.a
LIBSO      := $(B)/lib/libsampler.so.0
WRAPPER    := $(B)/bin/sampler-gcc
HEADER     := $(B)/include/sampler.h
PCFILE     := $(B)/lib/pkgconfig/sampler.pc

.PHONY: all bad-input-table check-gcc-versions evaluate-ranking evaluate-rates check check-fuzz fuzz fuzz-build check-unit check-plugin check-lto check-distro-flags check-docs check-paths check-run check-rates check-report check-schemes check-runtime check-remote check-collect check-torture check-torture-ci check-case-study check-real check-csmith check-sql sql-deps install clean bench demo deps

# What a fresh Debian bookworm machine needs (run as root).
# The real-program recipes (testsuite/integration/real/packages/*.sh) say what they need
# to build and run their suites; csmith generates the random programs;
# libc6-dbg has the symbols that name libc's functions chosen by an IFUNC
# (__strcmp_avx2) as indirect-call targets (testsuite/schemes/indirect-calls);
# sampler-submit sends with libcurl and gzips with zlib, and its tests
# make a certificate with openssl.
# npm for DuckDB (check-sql): Debian's nodejs and npm, unless a Node.js with
# npm is installed already (NodeSource's nodejs bundles npm and conflicts
# with Debian's npm package).
NODE_DEPS := $(if $(shell command -v npm 2>/dev/null),,nodejs npm)
REAL_DEPS := $(shell testsuite/integration/real/run-real.sh --deps)
# The collector builds with libmicrohttpd, libpq and SQLite; its tests run
# PostgreSQL and check its pages in Chromium (headless).
DEPS := gcc g++ make gcc-12-plugin-dev libgsl-dev check pkg-config valgrind python3 \
        gcc-12-source dpkg-dev sqlite3 csmith libcsmith-dev clang libclang-rt-14-dev \
        libc6-dbg libcurl4-openssl-dev zlib1g-dev openssl postgresql debootstrap $(NODE_DEPS) $(REAL_DEPS) \
        libmicrohttpd-dev libpq-dev libsqlite3-dev chromium
# What `make bench` needs to build its programs: jq's autoreconf, the
# sqlite3 amalgamation (tclsh), bc (flex's libl).
BENCH_DEPS := autoconf automake libtool tcl libfl-dev

# The test suites call gcc, g++ and cc by name: built with another GCC
# (GCC=gcc-14), they find that one's first on PATH under those names.
ifneq ($(CC),gcc)
TOOLCHAIN := $(abspath $(B))/toolchain-gcc-$(GCC_MAJOR)
export PATH := $(TOOLCHAIN):$(PATH)
endif

all: $(PLUGIN) $(LIBA) $(LIBSO) $(WRAPPER) $(HEADER) $(PCFILE) $(REPORT_TOOL) $(RELEASE_TOOL) \
     $(SUBMIT_TOOL) $(SUBMIT_UNITS) $(COLLECT_TOOL) $(COLLECT_UNIT) $(TOOLCHAIN)

ifneq ($(TOOLCHAIN),)
$(TOOLCHAIN):
	@mkdir -p $@.new
	for name in gcc cc; do ln -sf "$$(command -v $(CC))" $@.new/$$name; done
	for name in g++ c++; do ln -sf "$$(command -v $(CXX))" $@.new/$$name; done
	rm -rf $@ && mv $@.new $@
endif

$(B)/obj/plugin-gcc-$(GCC_MAJOR)/%.o: plugin/%.cc $(PLUGIN_HDRS) runtime/sampler-abi.h runtime/sampler-abi.def runtime/schemes.def | plugin-headers
	@mkdir -p $(@D)
	$(CXX) $(PLUGIN_CXXFLAGS) -c $< -o $@

.PHONY: plugin-headers
plugin-headers:
	@test -n "$(GCC_MAJOR)" || { echo "no GCC plugin headers for $(CC) at $(PLUGIN_INC): install gcc-N-plugin-dev for $(CC)'s version N" >&2; exit 1; }

$(PLUGIN_MAIN): $(PLUGIN_OBJS)
	@mkdir -p $(@D)
	$(CXX) -shared -o $@ $^

# Linked without libstdc++, which it does not use, so that an older GCC's
# libstdc++ does not stop it loading before it can say what is wrong.
$(PLUGIN): $(B)/obj/plugin-gcc-$(GCC_MAJOR)/loader.o | $(PLUGIN_MAIN)
	$(CC) -shared -o $@ $^

$(B)/obj/runtime/%.o: runtime/%.c $(RUNTIME_HDRS)
	@mkdir -p $(@D)
	$(CC) $(RUNTIME_CFLAGS) -c $< -o $@

$(LIBA): $(RUNTIME_OBJS)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(LIBSO): $(RUNTIME_OBJS)
	@mkdir -p $(@D)
	$(CC) -shared -Wl,-soname,libsampler.so.0 -Wl,-z,defs -o $@ $^ -lm -lpthread
	ln -sf libsampler.so.0 $(B)/lib/libsampler.so

$(REPORT_TOOL): $(REPORT_SRCS) $(REPORT_HDRS) $(STORE_SRCS) $(STORE_HDRS) runtime/sampler-abi.h \
                runtime/sampler-abi.def runtime/schemes.def
	@mkdir -p $(@D)
	$(CC) $(REPORT_CFLAGS) -o $@ $(REPORT_SRCS) $(STORE_SRCS) $(GSL_LIBS) $(STORE_LIBS)

$(B)/obj/report/%.o: tools/report/%.c $(REPORT_HDRS) $(STORE_HDRS) runtime/sampler-abi.h \
                     runtime/schemes.def
	@mkdir -p $(@D)
	$(CC) $(REPORT_CFLAGS) -c $< -o $@

$(COLLECT_TOOL): $(COLLECT_SRCS) $(COLLECT_HDRS) $(COLLECT_SQL) $(REPORT_OBJS) runtime/release.c \
                 runtime/release.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) $(COLLECT_CFLAGS) -Itools/collect -Itools/report -Iruntime -o $@ \
	  $(COLLECT_SRCS) runtime/release.c $(REPORT_OBJS) $(COLLECT_LIBS) $(GSL_LIBS)

# The system unit names sampler-collect by its absolute path, as the user
# units of sampler-submit do.
$(COLLECT_UNIT): tools/collect/systemd/sampler-collect.service.in
	@mkdir -p $(@D)
	sed 's|@BINDIR@|$(abspath $(B))/bin|' $< > $@

# Checks release configurations and makes the object a release carries
# (docs/remote.md); the runtime's own parser.
$(RELEASE_TOOL): tools/release/sampler-release.c runtime/release.c runtime/release.h \
                 runtime/sampler-abi.h runtime/schemes.def
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) -Iruntime -o $@ tools/release/sampler-release.c runtime/release.c

# Sends the reports of field runs to their collectors (docs/remote.md).
$(SUBMIT_TOOL): $(SUBMIT_SRCS) $(SUBMIT_HDRS) runtime/sampler-abi.h runtime/schemes.def
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) -Itools/submit -Iruntime -o $@ $(SUBMIT_SRCS) -lcurl -lz

# The systemd user units name sampler-submit by its absolute path: the
# build's here, the installed one after `make install`.
$(B)/lib/systemd/user/sampler-submit.service: tools/submit/systemd/sampler-submit.service.in
	@mkdir -p $(@D)
	sed 's|@BINDIR@|$(abspath $(B))/bin|' $< > $@

$(B)/lib/systemd/user/sampler-submit.timer: tools/submit/systemd/sampler-submit.timer
	@mkdir -p $(@D)
	cp $< $@

$(WRAPPER): tools/sampler-gcc.in
	@mkdir -p $(@D)
	cp $< $@ && chmod +x $@

$(HEADER): include/sampler.h
	@mkdir -p $(@D)
	cp $< $@

# The pkg-config file is relocatable: prefix is where it is installed.  Its
# plugin is the one built for this GCC.
$(PCFILE): tools/sampler.pc.in
	@mkdir -p $(@D)
	sed 's/@GCC_MAJOR@/$(GCC_MAJOR)/' $< > $@

deps:
	apt-get update
	DEBIAN_FRONTEND=noninteractive apt-get install -y $(DEPS) $(BENCH_DEPS)

# The test driver (testsuite/README.md): the case files under the folders
# given, CHECK_JOBS at a time.
CHECK_JOBS ?= $(shell nproc)
RUN_CASES := testsuite/tools/run-cases -j $(CHECK_JOBS) --build $(abspath $(B))

# What the cases use besides the build: the statistical checks
# (testsuite/tools/stat-check.c), and sampler-report built with ASan, its
# leak checker and UBSan, whose runs must match the plain tool's.  Include
# paths: every folder of the report tool and of the runtime that holds
# headers, so that the rules follow the sources where they move, and the
# collector's, whose store layer sampler-report --store reads through.  The
# tool's folders come first: runtime/ has headers of the same names
# (schemes.h, output.h), and the tool's sources mean their own.
TEST_REPORT_DIRS := $(sort tools/report $(patsubst %/,%,$(dir $(wildcard tools/report/*.h \
                      tools/report/*/*.h tools/report/*/*/*.h))))
TEST_RUNTIME_DIRS := $(sort runtime $(patsubst %/,%,$(dir $(wildcard runtime/*.h runtime/*/*.h \
                       runtime/*/*/*.h runtime/*.def runtime/*/*.def))))
TEST_INCLUDES := $(addprefix -I,$(TEST_REPORT_DIRS) tools/collect $(TEST_RUNTIME_DIRS))
STAT_CHECK := $(B)/testsuite/stat-check
SANITIZED_REPORT := $(B)/testsuite/sanitized/sampler-report
TEST_TOOLS := $(STAT_CHECK) $(SANITIZED_REPORT)

$(STAT_CHECK): testsuite/tools/stat-check.c
	@mkdir -p $(@D)
	$(CC) -std=c11 -O2 -Wall -Wextra -Werror -o $@ $< $(GSL_LIBS)

$(SANITIZED_REPORT): $(REPORT_SRCS) $(REPORT_HDRS) $(STORE_SRCS) $(STORE_HDRS) $(RUNTIME_HDRS)
	@mkdir -p $(@D)
	$(CC) -std=c11 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
	  -D_GNU_SOURCE $(STORE_CFLAGS) $(TEST_INCLUDES) -o $@ $(REPORT_SRCS) $(STORE_SRCS) \
	  $(GSL_LIBS) $(STORE_LIBS)

check: all
	$(MAKE) check-docs
	$(MAKE) check-unit
	$(MAKE) check-plugin
	$(MAKE) check-report
	$(MAKE) check-fuzz
	$(MAKE) check-run
	$(MAKE) check-schemes
	$(MAKE) check-rates
	$(MAKE) check-paths
	$(MAKE) check-runtime
	$(MAKE) check-remote
	$(MAKE) check-collect
	$(MAKE) check-torture-ci
	$(MAKE) check-case-study
	$(MAKE) check-sql
	$(MAKE) check-real REAL_PACKAGES="$(CHECK_REAL_PACKAGES)" REAL_OPTIONS="$(CHECK_REAL_OPTIONS)"
	$(MAKE) check-csmith N=$(CHECK_CSMITH_N)
	$(if $(CHECK_GCC_VERSIONS),$(MAKE) check-gcc-versions GCC_VERSIONS="$(CHECK_GCC_VERSIONS)" GCC_VERSIONS_OPTIONS='$(CHECK_GCC_VERSIONS_OPTIONS)')
	$(MAKE) -C bench smoke B=$(abspath $(B))
	$(MAKE) bad-input-table

# The table of bad input tried by the cases (testsuite/README.md, "Bad
# input"), from the parts they wrote.
bad-input-table:
	cat $(B)/bad-input/*.md >$(B)/bad-input-table.md

# The analysis in SQL (tools/sql/, docs/schema.md): DuckDB comes from the npm
# registry (@duckdb/node-api, pinned by tools/sql/duckdb/package-lock.json),
# installed into build/sql-duckdb with duckdb-sql.mjs, its command line.
SQL_DUCKDB := $(B)/sql-duckdb
$(SQL_DUCKDB)/node_modules/.package-lock.json: tools/sql/duckdb/package.json tools/sql/duckdb/package-lock.json
	@mkdir -p $(SQL_DUCKDB)
	cp tools/sql/duckdb/package.json tools/sql/duckdb/package-lock.json $(SQL_DUCKDB)/
	cd $(SQL_DUCKDB) && npm ci --no-audit --no-fund --loglevel=error
$(SQL_DUCKDB)/duckdb-sql.mjs: tools/sql/duckdb/duckdb-sql.mjs $(SQL_DUCKDB)/node_modules/.package-lock.json
	cp $< $@
sql-deps: $(SQL_DUCKDB)/duckdb-sql.mjs

# rank, values, paths and subpaths against the same SQL on PostgreSQL (a
# server the test starts), DuckDB and SQLite: the bc case study's runs, a
# set with ties and zero counts (testsuite/sql/).
check-sql: all sql-deps
	$(RUN_CASES) testsuite/sql

check-report: all $(TEST_TOOLS)
	$(RUN_CASES) testsuite/report --exclude testsuite/report/fuzz

# Fuzzing sampler-report's readers with libFuzzer (testsuite/report/fuzz/): the
# tool's sources but main.c, built with clang's fuzzer, ASan and UBSan, and
# one small target per input kind.  `make fuzz FUZZ_SECONDS=N` runs each
# target N seconds; check-fuzz runs each 12 s and replays the kept findings.
FUZZ_CC      ?= clang
FUZZ_KINDS   := report aggregate sites labels elf
FUZZ_SECONDS ?= 600
FUZZ_SANITIZE := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS  := -std=c11 -O1 -g -Wall -Wextra -D_GNU_SOURCE $(FUZZ_SANITIZE) $(STORE_CFLAGS) \
                $(TEST_INCLUDES)
FUZZ_OBJS    := $(patsubst tools/report/%.c,$(B)/fuzz/obj/%.o,$(filter-out %/main.c,$(REPORT_SRCS))) \
                $(STORE_SRCS:tools/collect/%.c=$(B)/fuzz/obj/collect/%.o)
FUZZ_BINS    := $(FUZZ_KINDS:%=$(B)/fuzz/fuzz-%)

$(B)/fuzz/obj/%.o: tools/report/%.c $(REPORT_HDRS) $(STORE_HDRS) $(RUNTIME_HDRS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(B)/fuzz/obj/collect/%.o: tools/collect/%.c $(COLLECT_HDRS) $(REPORT_HDRS) $(COLLECT_SQL)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(COLLECT_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(B)/fuzz/fuzz-%: testsuite/report/fuzz/fuzz-%.c testsuite/report/fuzz/fuzz-input.h $(FUZZ_OBJS)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer \
	  -DFUZZ_SITE_TABLE='"$(abspath testsuite/report/fuzz/corpus/sites/program)"' \
	  -o $@ $< $(FUZZ_OBJS) $(GSL_LIBS) $(STORE_LIBS)

# The objects are shared by the targets: kept, not rebuilt each time.
.SECONDARY: $(FUZZ_OBJS)

fuzz-build: $(FUZZ_BINS)

fuzz: fuzz-build
	nice -n 10 testsuite/report/fuzz/run-fuzz.sh $(abspath $(B)) $(FUZZ_SECONDS) $(FUZZ_KINDS)

check-fuzz: fuzz-build
	FUZZ_SECONDS=12 $(RUN_CASES) testsuite/report/fuzz

check-plugin: all
	$(RUN_CASES) testsuite/plugin

# Programs built with -flto in each way give the same site tables and counts
# as without it (docs/lto.md); also in check-plugin.
check-lto: all
	$(RUN_CASES) testsuite/plugin/lto

# zlib built and tested with Fedora's flags (LTO, CET, fortification) and
# with Debian's dpkg-buildflags hardening (docs/distributions.md).  The CET
# properties of the runtime are checked by check-runtime (runtime/cet.sh).
check-distro-flags: all
	testsuite/integration/real/run-real.sh $(abspath $(B)) --packages zlib --flags fedora
	testsuite/integration/real/run-real.sh $(abspath $(B)) --packages zlib --flags debian

# The documentation's tables that come from the code's own tables: the
# README's table of plugin arguments is the one the plugin's table
# (plugin/arguments.def) generates (-fplugin-arg-sampler-help=markdown);
# its environment variables come from the runtime's settings
# (`testsuite/tools/check-doc-tables.sh env build --print' prints them).
SETTINGS_TABLE := $(B)/testsuite/tools/settings-table
$(SETTINGS_TABLE): testsuite/tools/settings-table.c $(RUNTIME_HDRS) $(LIBA)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) -Iruntime -Iinclude -o $@ $< $(LIBA) -lm -pthread

check-docs: all $(SETTINGS_TABLE)
	testsuite/plugin/arguments/check-readme-table.sh $(abspath $(B)) docs/reference.md
	testsuite/tools/check-doc-tables.sh env $(abspath $(B))

# The example of Liblit et al. (PLDI 2003), built with the wrapper and run at three sparsities.
demo: all
	$(B)/bin/sampler-gcc -O2 testsuite/demo/checks-demo.c -o $(B)/checks-demo
	for s in 0 1 100; do echo "SAMPLER_SPARSITY=$$s:"; \
	  SAMPLER_SPARSITY=$$s SAMPLER_SEED=7 \
	  SAMPLER_FILE=$(B)/demo-reports/checks-demo-$$s.report $(B)/checks-demo; done
	$(B)/bin/sampler-report show $(B)/demo-reports/checks-demo-100.report

check-unit: all
	$(MAKE) -j $(CHECK_JOBS) -C testsuite/unit B=$(abspath $(B))

# GCC's torture tests: all of them (~30 min on 2 cores), or every
# TORTURE_SAMPLE-th one.
TORTURE_SAMPLE ?=
check-torture: all
	testsuite/integration/torture/run-torture.sh $(abspath $(B)) $(if $(TORTURE_SAMPLE),--sample $(TORTURE_SAMPLE))

# Statistical bug isolation on bc with a real bug (testsuite/integration/case-study/;
# fetches bc's Debian source once; about 5 minutes on 2 cores).
check-case-study: all
	testsuite/integration/case-study/run-case-study.sh $(abspath $(B))

# How many runs rank needs to find the case study's bug at sparsities 1 to
# 1000, with the old and the new bound (docs/ranking.md; long: not part of
# make check).
evaluate-ranking: all
	testsuite/integration/case-study/evaluate-ranking.sh $(abspath $(B))

# Trained rates against uniform 1/100 and 1/1000 on two bugs in bc:
# runs needed, instructions and time (docs/rates.md; long: not part of check).
evaluate-rates: all
	testsuite/integration/case-study/evaluate-rates.sh $(abspath $(B))

# Debian packages built with every scheme must pass their own test suites
# (all recipes: REAL_PACKAGES empty; REAL_OPTIONS: more options of
# run-real.sh, e.g. --rates or --schemes LIST); make check runs zlib
# (configure, a shared library, plain programs with the instrumented
# library), with the phase of rates trained on its suite (--rates).
REAL_PACKAGES ?=
REAL_OPTIONS ?=
CHECK_REAL_PACKAGES := zlib
CHECK_REAL_OPTIONS := --rates
check-real: all
	testsuite/integration/real/run-real.sh $(abspath $(B)) $(if $(REAL_PACKAGES),--packages "$(REAL_PACKAGES)") $(REAL_OPTIONS)

# N csmith programs, plain and instrumented at -O0 and -O2, compared.
N ?= 100
CHECK_CSMITH_N := 5
check-csmith: all
	testsuite/integration/csmith/run-csmith.sh $(abspath $(B)) --count $(N)

# What CI runs: every execute and ieee test at -O2 (sparsities 0, 1 and 100),
# every 25th at -O0 and -O3, every 10th compile test, every 25th execute test
# with outline-entry.
TORTURE := testsuite/integration/torture/run-torture.sh $(abspath $(B))
# outline-entry is off with the region schemes (paths, subpaths): every
# other scheme, with it on, on every 25th execute test.
OUTLINE_SCHEMES = $(shell testsuite/tools/scheme-names.sh | tr , '\n' | grep -vx -e paths -e subpaths | paste -sd, -)
check-torture-ci: all
	$(TORTURE) --set "execute ieee" --levels -O2 --o3-every 0
	$(TORTURE) --set "execute ieee" --levels "-O0 -O3" --o3-every 0 --sample 25
	$(TORTURE) --set compile --sample 10
	$(TORTURE) --set execute --levels -O2 --o3-every 0 --sample 25 \
	    --plugin-args "-fplugin-arg-sampler-schemes=$(OUTLINE_SCHEMES) -fplugin-arg-sampler-outline-entry"

# Every GCC from 12 to 16 (testsuite/gcc-versions/, docs/gcc-versions.md):
# each builds the plugin and runtime in build/gcc-versions/gcc-N and passes
# the scheme, unit, run, torture (every 10th execute test), csmith (50) and
# real (zlib) suites; 13 to 16 in Debian chroots that debootstrap builds
# once into ~/.cache/sampler/chroots (SAMPLER_CACHE).  Needs root.
# make check runs GCC 16 alone, with the scheme, unit and cross-loading
# suites (docs/gcc-versions.md says why and what it costs): the whole
# matrix takes hours, so it is this separate target.  make check
# CHECK_GCC_VERSIONS= leaves it out (no root, no network).
GCC_VERSIONS ?= 12 13 14 15 16
GCC_VERSIONS_OPTIONS ?=
CHECK_GCC_VERSIONS := 16
CHECK_GCC_VERSIONS_OPTIONS := --suites "schemes unit cross"
check-gcc-versions:
	testsuite/gcc-versions/run-gcc-versions.sh --versions "$(GCC_VERSIONS)" $(GCC_VERSIONS_OPTIONS)

# The predicate schemes' counts, the values scheme's hot-lists, and the
# subpaths scheme's hot subpaths.
check-schemes: all $(TEST_TOOLS)
	$(RUN_CASES) testsuite/schemes --exclude testsuite/schemes/paths

# The paths scheme: exact path counts at sparsity 1, binomial bounds at
# 100, hash tables, path limits, preferential numbering
# (testsuite/schemes/paths/).
check-paths: all $(TEST_TOOLS)
	$(RUN_CASES) testsuite/schemes/paths

check-run: all $(TEST_TOOLS)
	$(RUN_CASES) testsuite/runtime/sampling

# Weighted sites and trained rates (docs/rates.md): default weights change
# nothing, the statistics of weighted sites, training, bad rates files.
check-rates: all $(TEST_TOOLS)
	$(RUN_CASES) testsuite/rates

# The field side of remote sampling (docs/remote.md): release
# configurations, field runs, sampler-submit against a stand-in collector
# on loopback, and zlib's instrumented release run as its users run it
# (testsuite/remote/; the configuration's parser: testsuite/unit/test-release.c).
check-remote: all
	$(RUN_CASES) testsuite/remote

# The collector (docs/collect.md): its pieces (Check), then the service
# with SQLite and with a PostgreSQL server the tests start, sampler-submit
# and bad clients over loopback, and zlib's release uploading, its pages
# checked in headless Chromium (testsuite/collect/).
COLLECT_UNIT_TEST := $(B)/testsuite/collect/test-collect
$(COLLECT_UNIT_TEST): testsuite/collect/test-collect.c $(filter-out tools/collect/main.c,$(COLLECT_SRCS)) \
                      $(COLLECT_HDRS) $(COLLECT_SQL) $(REPORT_OBJS) runtime/release.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) $(COLLECT_CFLAGS) $(shell pkg-config --cflags check) -Itools/collect \
	  -Itools/report -Iruntime -o $@ $< $(filter-out tools/collect/main.c,$(COLLECT_SRCS)) \
	  runtime/release.c $(REPORT_OBJS) $(COLLECT_LIBS) $(GSL_LIBS) $(shell pkg-config --libs check)

# bench/collect/load.c's clients, for the fault tests (and bench/collect).
COLLECT_LOAD := $(B)/bench/collect-load
$(COLLECT_LOAD): bench/collect/load.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) -o $@ $< -lcurl -lz -pthread

check-collect: all $(COLLECT_UNIT_TEST) $(COLLECT_LOAD)
	$(COLLECT_UNIT_TEST)
	$(RUN_CASES) testsuite/collect

# Threads, fork and exec, crashes, shared libraries, interim reports.
check-runtime: all $(TEST_TOOLS)
	$(RUN_CASES) testsuite/runtime --exclude testsuite/runtime/sampling

# The benchmark of real programs (bench/bench.py): PROGRAMS=bzip2,lua,...
# CONFIGS=plain,brs-1000,... RUNS=5 SIZE=full CALLGRIND_SIZE=small SAMPLER_FLAGS=...
bench: all
	$(MAKE) -C bench B=$(abspath $(B))

install: all
	mkdir -p $(DESTDIR)$(PREFIX)
	cp -a $(B)/bin $(B)/lib $(B)/include $(DESTDIR)$(PREFIX)/
	sed -i 's|$(abspath $(B))/bin|$(PREFIX)/bin|' \
	  $(DESTDIR)$(PREFIX)/lib/systemd/user/sampler-submit.service \
	  $(DESTDIR)$(PREFIX)/lib/systemd/system/sampler-collect.service

clean:
	rm -rf $(B)
	$(MAKE) -C testsuite/unit clean
