#!/bin/sh
# compare_builds.sh OLD_BUILD NEW_BUILD [PAIRS]: the main parser's time per
# message in two build directories (each with bench/pair_time), alternated
# PAIRS times (default 30) so that both see the same machine speed; prints
# each pair, then the medians and the median of the new/old ratios.
set -e
old=$1/bench/pair_time new=$2/bench/pair_time pairs=${3:-30}
teivah=$(dirname "$0")/../testdata/messages/IFPL-teivah-1.adexp
[ -x "$old" ] && [ -x "$new" ] || { echo "usage: $0 OLD_BUILD NEW_BUILD [PAIRS]" >&2; exit 2; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
i=0
while [ $i -lt "$pairs" ]; do
    echo "$("$old" "$teivah") $("$new" "$teivah")" | tee -a "$out"
    i=$((i + 1))
done
python3 - "$out" <<'PY'
import statistics, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1])]
for name, o, n in (("teivah IFPL", 0, 2), ("generated", 1, 3)):
    ratios = [r[n] / r[o] for r in rows]
    print("%s: old %.0f ns, new %.0f ns (medians); new/old median %.3f (%.3f to %.3f)" % (
        name, statistics.median(r[o] for r in rows), statistics.median(r[n] for r in rows),
        statistics.median(ratios), min(ratios), max(ratios)))
PY
