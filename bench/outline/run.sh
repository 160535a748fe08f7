#!/bin/bash
# run.sh BUILD_DIR: mainGtU's code shape (model.c) built plainly, by the
# plugin (branches; branches, returns and scalar-pairs; the same with
# outline-entry), and with its slow copies out of line by hand; for each,
# the registers pushed at the function's entry and the instructions
# mainGtU runs, callees included
# (callgrind, driver.c, 20 rounds), at sparsity 10^9 and 1000.
set -eu
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/sampler-outline.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
shapes="-DPLAIN=1 -DOUTLINED=2"
gcc -O2 $shapes -DSHAPE=PLAIN -c "$here/model.c" -o plain.o
"$build/bin/sampler-gcc" -O2 -fplugin-arg-sampler-schemes=branches $shapes -DSHAPE=PLAIN -c "$here/model.c" -o b.o
"$build/bin/sampler-gcc" -O2 -fplugin-arg-sampler-schemes=branches,returns,scalar-pairs $shapes -DSHAPE=PLAIN -c "$here/model.c" -o brs.o
"$build/bin/sampler-gcc" -O2 -fplugin-arg-sampler-schemes=branches,returns,scalar-pairs -fplugin-arg-sampler-outline-entry $shapes -DSHAPE=PLAIN -c "$here/model.c" -o brs-outline-entry.o
gcc -O2 $shapes -DSHAPE=OUTLINED -c "$here/model.c" -o outlined.o
gcc -O2 $shapes -DSHAPE=OUTLINED -DRELOAD -c "$here/model.c" -o outlined-reload.o
gcc -O2 "$here/driver.c" plain.o -o plain
"$build/bin/sampler-gcc" -O2 "$here/driver.c" b.o -o b
"$build/bin/sampler-gcc" -O2 "$here/driver.c" brs.o -o brs
"$build/bin/sampler-gcc" -O2 "$here/driver.c" brs-outline-entry.o -o brs-outline-entry
gcc -O2 -DOUTLINED_COUNTDOWN "$here/driver.c" outlined.o -o outlined
gcc -O2 -DOUTLINED_COUNTDOWN "$here/driver.c" outlined-reload.o -o outlined-reload
inclusive() {   # SPARSITY BINARY
    SAMPLER_SPARSITY=$1 SAMPLER_SEED=1 SAMPLER_FILE=$scratch/r.report \
        valgrind --tool=callgrind --callgrind-out-file=cg.out "./$2" 20 "$1" >/dev/null 2>&1
    rm -f r.report
    callgrind_annotate --inclusive=yes cg.out | awk '$NF ~ /^\[/ && $(NF-1) ~ /:mainGtU$/ {gsub(",", "", $1); print $1; exit}'
}
printf '%-16s %14s %14s %16s\n' build entry-pushes "10^9 instr" "1000 instr"
for v in plain b brs brs-outline-entry outlined outlined-reload; do
    objdump -d --no-show-raw-insn $v.o | awk '/<mainGtU>:/ {p = 1; next} p && /^$/ {exit} p' >$v.s
    pushes=$(awk '/push/ {n++} /subq? +\$0x[0-9a-f]+,%fs|cmp|mov +%fs/ {exit} END {print n + 0}' $v.s)
    printf '%-16s %14s %14s %16s\n' $v "$pushes" "$(inclusive 1000000000 $v)" "$(inclusive 1000 $v)"
done
