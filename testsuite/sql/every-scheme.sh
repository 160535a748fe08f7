#!/bin/sh
# rank on synthetic runs of every predicate scheme
# (testsuite/report/make-runs.py), in the three engines as in sampler-report;
# and with --steps=2, which stops each at the second of its three steps.
# CHECKS: sh $SRC
. "$SRCDIR/lib.sh"
start_postgresql
python3 "$top/testsuite/report/make-runs.py" "$scratch/syn" --runs 400 --sites 900 --units 3 \
    --observed 0.2 --bugs 3 --seed 11
"$tool" rank "$scratch/syn/runs" --sites "$scratch/syn/sites.txt" --top=0 --format=csv \
    >"$scratch/syn.csv"
"$tool" export "$scratch/syn/runs" --sites "$scratch/syn/sites.txt" -o "$scratch/syn-export" \
    2>"$scratch/export.log" || fail "export of the synthetic runs" "$scratch/export.log"
agree_rank every_scheme "$scratch/syn-export" "$scratch/syn.csv"
"$tool" rank "$scratch/syn/runs" --sites "$scratch/syn/sites.txt" --top=0 --format=csv \
    --steps=2 >"$scratch/syn-steps.csv"
check "every scheme: rank takes three steps, two with --steps=2" \
    sh -c "[ \$(grep -c '^elimination,' '$scratch/syn.csv') = 3 ] &&
           [ \$(grep -c '^elimination,' '$scratch/syn-steps.csv') = 2 ]"
agree_rank every_scheme_steps "$scratch/syn-export" "$scratch/syn-steps.csv" --steps=2
finish
