#!/bin/sh
# Long fuzzing run of one target, restarted after each crash until the time
# is up: fuzz/long-run.sh BUILD_DIR TARGET SECONDS [WORKDIR]
# Runs at nice 19 with one job; crashes go to WORKDIR/crashes, the corpus
# grows in WORKDIR/TARGET (seeded from fuzz/corpus and testdata/), the
# libFuzzer logs are WORKDIR/TARGET.N.log. Inputs are capped at FUZZ_MAX_LEN
# bytes (default 8192): the seeds in testdata/ go up to 50 KB, and libFuzzer
# would otherwise mutate inputs that large, 100 times slower; the small limits
# picked by the option byte reach the limit code paths with small inputs.
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
        -max_len="${FUZZ_MAX_LEN:-8192}" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -dict="$src/fuzz/adexp.dict" \
        -artifact_prefix="$work/crashes/$target-" \
        "$work/$target" $(ls -d "$src/fuzz/corpus" "$src/testdata" 2>/dev/null) \
        > "$work/$target.$n.log" 2>&1 || true
    # with -jobs the output goes to fuzz-0.log in the current directory
    [ -f fuzz-0.log ] && mv fuzz-0.log "$work/$target.$n.log"
done
echo "$target: $n runs, logs in $work/$target.*.log"
