#!/bin/sh
# Long fuzzing run of one target, restarted after each crash until the time
# is up: fuzz/long-run.sh BUILD_DIR TARGET SECONDS [WORKDIR]
# Runs at nice 19 with one job; crashes go to WORKDIR/crashes, the corpus
# grows in WORKDIR/TARGET (seeded from fuzz/corpus and testdata/), the
# libFuzzer logs are WORKDIR/TARGET.N.log.
set -eu
build=$1 target=$2 secs=$3
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$build" && pwd)
work=${4:-$build/fuzz-work}
mkdir -p "$work/$target" "$work/crashes" "$work/$target.cwd"
work=$(cd "$work" && pwd)
cd "$work/$target.cwd"          # -jobs writes fuzz-0.log here
end=$(( $(date +%s) + secs ))
n=0
while :; do
    left=$(( end - $(date +%s) ))
    [ "$left" -gt 0 ] || break
    n=$((n + 1))
    nice -n 19 "$build/fuzz/$target" -jobs=1 -workers=1 -max_total_time="$left" \
        -print_final_stats=1 -dict="$src/fuzz/adexp.dict" \
        -artifact_prefix="$work/crashes/$target-" \
        "$work/$target" $(ls -d "$src/fuzz/corpus" "$src/testdata" 2>/dev/null) \
        > "$work/$target.$n.log" 2>&1 || true
    # with -jobs the output goes to fuzz-0.log in the current directory
    [ -f fuzz-0.log ] && mv fuzz-0.log "$work/$target.$n.log"
done
echo "$target: $n runs, logs in $work/$target.*.log"
