# lib.sh, sourced by the cases of this folder (bash): weighted sites and
# trained rates (docs/rates.md).  Every assertion prints "PASS: ..." or
# "FAIL: ..." (tally.sh's pass and fail_with).
#   rates_from_table TABLE UNIT WEIGHT   a rates file giving every site of
#                     the site table TABLE weight WEIGHT in unit UNIT
#   report_body REPORT   a report without what differs between two binaries
#                     of one program (and the unit's signature) and between
#                     two runs (the run id)
#   table_body TABLE  a site table without signatures, countdown unit and
#                     weights
#   rate WEIGHT       1 - (1 - 1/(sparsity * unit))^WEIGHT, with $sparsity
#                     and $unit set
#   site_samples SITES REPORT   "LINE SAMPLES" for each site of a report
set -u
here=$SRCDIR
top=$TOP
sgcc=$WRAPPER
report=$REPORT
statcheck=$STAT_CHECK
out=$T
. "$TOOLS/tally.sh"

# A rates file giving every site of the site table TABLE weight WEIGHT in
# unit UNIT.
rates_from_table() {   # TABLE UNIT WEIGHT
    awk -F'\t' -v OFS='\t' -v unit="$2" -v weight="$3" '
        BEGIN { print "sampler-rates", 1; print "unit", unit }
        $1 == "unit" { source = $3 }
        $1 == "site" { print "site", weight, source, $4, $5, $7, $3, $9 }' "$1"
}

# A report without what differs between two binaries of one program (and
# the unit's signature) and between two runs (the run id).
report_body() {
    grep -v -e '^program' -e '^pid' -e '^object' -e '^run-id' "$1" | awk -F'\t' -v OFS='\t' '$1 == "unit" { $2 = "" } 1'
}

# A site table without signatures, countdown unit and weights.
table_body() {
    awk -F'\t' -v OFS='\t' '$1 == "unit" { $2 = ""; NF = 5 } $1 == "site" { NF = 10 } 1' "$1"
}


rate() {   # WEIGHT: 1 - (1 - 1/(sparsity * unit))^WEIGHT
    awk -v w="$1" -v m=$((sparsity * unit)) 'BEGIN { printf "%.12g\n", 1 - exp(w * log(1 - 1 / m)) }'
}

# Samples per site per run, from one report: "LINE SAMPLES" for each site.
site_samples() {   # SITES REPORT
    awk -F'\t' 'FNR == NR { if ($1 == "site") line[$2] = $5; next }
                $1 ~ /^[0-9]+$/ { n = 0; for (i = 2; i <= NF; i++) n += $i; print line[$1], n }' "$1" "$2"
}
