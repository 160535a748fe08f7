#!/bin/sh
# rank-scale.sh BUILD_DIR [RUNS SITES]: sampler-report at scale.  Makes RUNS
# synthetic reports (default 10000) of SITES sites each (default 50000, in
# 50 units of every scheme, 5% of sites observed per run, 3 planted bugs)
# with testsuite/report/make-runs.py, then times with /usr/bin/time -v:
#   merge   the reports into one aggregate
#   rank    on the reports directly, and on the aggregate
#   export  the aggregate to CSV
# and prints wall time and peak RSS of each, and whether rank found the
# planted bugs.  Data go to ${SCALE_DIR:-/tmp/sampler-rank-scale} (about
# 1.5 GB at the defaults; kept for reruns, delete it when done).
set -eu
build=$(cd "${1:?usage: rank-scale.sh BUILD_DIR [RUNS SITES]}" && pwd)
runs=${2:-10000}
sites=${3:-50000}
here=$(cd "$(dirname "$0")" && pwd)
tool=$build/bin/sampler-report
data=${SCALE_DIR:-/tmp/sampler-rank-scale}/$runs-$sites
if [ ! -s "$data/bugs.txt" ]; then
    rm -rf "$data"
    echo "generating $runs reports of $sites sites in $data ..."
    nice python3 "$here/../testsuite/report/make-runs.py" "$data" --runs "$runs" \
        --sites "$sites" --units 50 --observed 0.05 --bugs 3 --seed 5
fi
echo "reports: $(du -sh "$data/runs" | cut -f1) in $(ls "$data/runs" | wc -l) files"

# measure NAME COMMAND...: wall time and peak RSS from /usr/bin/time -v.
measure () {
    name=$1
    shift
    /usr/bin/time -v "$@" >"$data/$name.out" 2>"$data/$name.time"
    wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$data/$name.time")
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$data/$name.time")
    printf '%-28s wall %8s   peak RSS %6d MB\n' "$name" "$wall" $((rss / 1024))
}
measure "merge reports" "$tool" merge "$data/runs" --sites "$data/sites.txt" -o "$data/all.agg"
echo "aggregate: $(du -sh "$data/all.agg" | cut -f1)"
measure "rank reports" "$tool" rank "$data/runs" --sites "$data/sites.txt" --format=csv
measure "rank aggregate" "$tool" rank "$data/all.agg" --format=csv
measure "export aggregate" "$tool" export "$data/all.agg" -o "$data/export"
cmp "$data/rank reports.out" "$data/rank aggregate.out" && echo "rank: same result from the reports and from the aggregate"
python3 - "$data" <<'PY'
import csv, os, sys
data = sys.argv[1]
bugs = {tuple(l.split()) for l in open(os.path.join(data, "bugs.txt"))}
steps = [(r["unit"], r["site"]) for r in csv.DictReader(open(os.path.join(data, "rank aggregate.out")))
         if r["list"] == "elimination"]
print("elimination: %d steps; the first three are the planted bugs: %s" % (len(steps), set(steps[:3]) == bugs))
PY
