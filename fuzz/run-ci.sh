#!/bin/sh
# Fuzzing in CI: build the libFuzzer targets with clang + ASan + UBSan
# (-fno-sanitize-recover=undefined) in BUILD_DIR, replay the checked-in
# corpus and testdata/ through each target, then fuzz each target for
# FUZZ_SECONDS (default 60) seconds. Exits 1 if any input crashes, leaks,
# trips a sanitizer, times out or fails an invariant.
#
#   fuzz/run-ci.sh BUILD_DIR
#   FUZZ_SECONDS=600 fuzz/run-ci.sh build-fuzz
#
# Crash inputs are left in BUILD_DIR/fuzz-ci/crashes; reproduce one with
#   BUILD_DIR/fuzz/TARGET BUILD_DIR/fuzz-ci/crashes/TARGET-crash-...
# and minimize it with -minimize_crash=1 -runs=100000 (see fuzz/README.md).
set -eu

if [ $# -ne 1 ]; then
    echo "usage: $0 BUILD_DIR" >&2
    exit 2
fi
build=$1
secs=${FUZZ_SECONDS:-60}
src=$(cd "$(dirname "$0")/.." && pwd)

if [ ! -f "$build/build.ninja" ]; then
    CC=clang meson setup "$build" "$src" -Dfuzz=enabled -Dc_args=-gdwarf-4
fi
ninja -C "$build"
build=$(cd "$build" && pwd)
work=$build/fuzz-ci
rm -rf "$work"
mkdir -p "$work/crashes"

# the libFuzzer binaries, not the plain *_replay builds of the same targets
targets=$(cd "$build/fuzz" && for t in fuzz_*; do
              case $t in *_replay) continue ;; esac
              if [ -f "$t" ] && [ -x "$t" ]; then echo "$t"; fi; done)
[ -n "$targets" ] || { echo "no fuzz targets in $build/fuzz" >&2; exit 1; }

# the sanitizers stop on the first error; leaks count too
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=0:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}

failed=""
for t in $targets; do
    echo "=== $t: replay fuzz/corpus and testdata/"
    # files given one by one are run once each, nothing is written
    if ! find "$src/fuzz/corpus" "$src/testdata" -type f ! -name '.*' -print0 |
            (cd "$work" && xargs -0 "$build/fuzz/$t" -runs=1 \
                 -artifact_prefix="$work/crashes/$t-" > "$work/$t.replay.log" 2>&1); then
        echo "$t: FAILED on a checked-in input, see $work/$t.replay.log"
        tail -n 30 "$work/$t.replay.log"
        failed="$failed $t"
        continue
    fi
    echo "=== $t: fuzzing for $secs s"
    mkdir -p "$work/$t"
    seeds=""
    [ -d "$src/fuzz/corpus/$t" ] && seeds="$src/fuzz/corpus/$t"
    if (cd "$work" && "$build/fuzz/$t" -max_total_time="$secs" -timeout=10 \
            -rss_limit_mb=2048 -print_final_stats=1 \
            -dict="$src/fuzz/adexp.dict" -artifact_prefix="$work/crashes/$t-" \
            "$work/$t" $seeds > "$work/$t.log" 2>&1); then
        grep -E '^stat::number_of_executed_units|^#[0-9]+ +DONE' "$work/$t.log" | tail -n 2
        echo "$t: OK"
    else
        echo "$t: FAILED, see $work/$t.log"
        grep -E 'ERROR|SUMMARY|invariant failed|runtime error|Test unit written' \
            "$work/$t.log" | head -n 20
        failed="$failed $t"
    fi
done

if [ -n "$failed" ]; then
    echo "fuzz: FAILED:$failed (crash inputs in $work/crashes)"
    exit 1
fi
echo "fuzz: all targets OK ($secs s each)"
