#!/usr/bin/env bash
# The data formats against --format json on the same input: bench/by_turns.py
# times each side by side with json (pairs of runs, ratio per pair), and callgrind
# counts the instructions of each on a smaller corpus (machine-independent).
#
#   bench/formats.sh BUILD_DIR [MESSAGES [FILE]]   (default 20000 messages, -j1)
#
# The instructions are counted on seed 7's and seed 11's 2,000 messages,
# and on FILE too (json and view only) when it is given.
set -eu
build=$(cd "$1" && pwd)
n=${2:-20000}
extra=${3:-}
here=$(cd "$(dirname "$0")/.." && pwd)
exe=$build/cli/adexp-parse
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$here/testdata/gen_corpus.py" --messages "$n" --out "$tmp/big.adexp" --seed 7 >/dev/null
python3 "$here/testdata/gen_corpus.py" --messages 2000 --out "$tmp/small.adexp" --seed 7 >/dev/null
python3 "$here/testdata/gen_corpus.py" --messages 2000 --out "$tmp/small11.adexp" --seed 11 >/dev/null
json="$exe -q -j1 --format json -o /dev/null $tmp/big.adexp"
for f in "view" "csv" "tsv" "csv --rows RTEPTS"; do
    echo "== --format $f vs --format json ($n messages, $(stat -c %s "$tmp/big.adexp") bytes)"
    # shellcheck disable=SC2086
    python3 "$here/bench/by_turns.py" -n 9 --vs "$json" -- $exe -q -j1 --format $f -o /dev/null "$tmp/big.adexp"
done
count() {   # FILE FORMAT...: callgrind's instructions for the whole process
    local f=$1
    shift
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$exe" -q -j1 --format "$@" \
        -o /dev/null "$f" 2>&1 | sed -n 's/.*refs: *//p'
}
if command -v valgrind >/dev/null; then
    echo "== instructions (callgrind, 2000 messages: seed 7, seed 11)"
    for f in "summary" "json" "view" "csv" "tsv" "csv --rows RTEPTS"; do
        # shellcheck disable=SC2086
        printf '%-22s %14s %14s\n' "$f" "$(count "$tmp/small.adexp" $f)" \
            "$(count "$tmp/small11.adexp" $f)"
    done
    if [ -n "$extra" ]; then
        echo "== instructions (callgrind, $extra)"
        for f in "json" "view"; do
            printf '%-22s %14s\n' "$f" "$(count "$extra" $f)"
        done
    fi
fi
