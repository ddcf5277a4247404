#!/usr/bin/env bash
# same_output.sh OLD_DIR NEW_DIR: adexp-parse and adexp-write of two builds
# (each DIR holds adexp-parse and adexp-write, e.g. BUILD/cli) run on the
# same inputs with the same options; prints one line per run whose output,
# stderr or exit status differ, then "N same, N different". The inputs:
# testdata/, generated corpora (plain and corrupted), the fuzz corpora, in
# every output format, with --validate, --strict and both shipped extensions.
# Exit 1 if anything differs. With NEW_ENV set (NAME=VALUE), NEW_DIR's
# programs run with that in their environment: one build against itself
# with its vector code turned off (NEW_ENV=GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,
# the test vector_paths) compares the AVX2 paths with the general ones.
set -u
newenv=(env)
[ -n "${NEW_ENV:-}" ] && newenv+=("$NEW_ENV")
old=$(cd "$1" && pwd) new=$(cd "$2" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gen="$src/testdata/gen_corpus.py"
python3 "$gen" --messages 3000 --out "$tmp/gen7.adexp" --seed 7 >/dev/null
python3 "$gen" --messages 3000 --out "$tmp/gen11.adexp" --seed 11 >/dev/null
python3 - "$tmp/gen7.adexp" "$tmp/corrupt.adexp" <<'PY'
import random, sys
data = bytearray(open(sys.argv[1], 'rb').read())
rnd = random.Random(3)
for _ in range(len(data) // 500):   # a damaged byte every ~500
    i = rnd.randrange(len(data))
    data[i] = rnd.choice(b'-() \n\rABZ019\x00\xff')
open(sys.argv[2], 'wb').write(bytes(data))
PY
ext=""
for f in "$src"/lib/dict/extensions/*.tsv; do
    [ -f "$f" ] && ext="$ext --dictionary $f"
done
inputs=("$src/testdata" "$tmp/gen7.adexp" "$tmp/gen11.adexp" "$tmp/corrupt.adexp")
[ -d "$src/fuzz/corpus" ] && inputs+=("$src/fuzz/corpus")
same=0 diff=0
run() {   # run NAME ARGS...: both builds' adexp-parse with ARGS
    local name=$1; shift
    (cd "$src" && "$old/adexp-parse" "$@" >"$tmp/o.out" 2>"$tmp/o.raw"; echo $? >"$tmp/o.rc")
    (cd "$src" && "${newenv[@]}" "$new/adexp-parse" "$@" >"$tmp/n.out" 2>"$tmp/n.raw"; echo $? >"$tmp/n.rc")
    # The summary's time and rates differ from run to run.
    sed -E 's/ in [0-9.]+ s: .*$//' "$tmp/o.raw" >"$tmp/o.err"
    sed -E 's/ in [0-9.]+ s: .*$//' "$tmp/n.raw" >"$tmp/n.err"
    if cmp -s "$tmp/o.out" "$tmp/n.out" && cmp -s "$tmp/o.err" "$tmp/n.err" &&
       cmp -s "$tmp/o.rc" "$tmp/n.rc"; then
        same=$((same + 1))
    else
        diff=$((diff + 1)); echo "DIFFERENT: $name: adexp-parse $*"
        # what differs first: exit status, stderr, then output
        cmp -s "$tmp/o.rc" "$tmp/n.rc" || echo "  exit $(cat "$tmp/o.rc") -> $(cat "$tmp/n.rc")"
        diff "$tmp/o.err" "$tmp/n.err" | head -4 | sed 's/^/  /'
        cmp "$tmp/o.out" "$tmp/n.out" 2>&1 | head -1 | sed 's/^/  /'
    fi
}
for in in "${inputs[@]}"; do
    for fmt in json summary view csv tsv adexp "adexp --layout ifps" \
               "csv --rows RTEPTS" "csv --fields ARCID,RFL_ft,ESTDATA.PTID,EOBT_utc"; do
        for j in 1 2; do
            # shellcheck disable=SC2086
            run "$fmt -j$j" -j$j --format $fmt "$in"
        done
        # shellcheck disable=SC2086
        run "$fmt validate" -j2 --validate --format $fmt "$in"
    done
    run "strict" -j2 --validate --strict "$in"
    # shellcheck disable=SC2086
    run "extensions" -j2 --validate $ext "$in"
    run "title" -j2 --title IFPL,CHG --fields ARCID,ADEP "$in"
done
# adexp-write over each JSON output of testdata and the generated corpus.
for in in "$src/testdata" "$tmp/gen7.adexp"; do
    "$old/adexp-parse" -j1 "$in" >"$tmp/w.ndjson" 2>/dev/null
    for layout in line ifps; do
        "$old/adexp-write" --layout $layout "$tmp/w.ndjson" >"$tmp/o.out" 2>"$tmp/o.err"; echo $? >"$tmp/o.rc"
        "${newenv[@]}" "$new/adexp-write" --layout $layout "$tmp/w.ndjson" >"$tmp/n.out" 2>"$tmp/n.err"; echo $? >"$tmp/n.rc"
        if cmp -s "$tmp/o.out" "$tmp/n.out" && cmp -s "$tmp/o.err" "$tmp/n.err" &&
           cmp -s "$tmp/o.rc" "$tmp/n.rc"; then
            same=$((same + 1))
        else
            diff=$((diff + 1)); echo "DIFFERENT: adexp-write --layout $layout ($in)"
        fi
    done
done
echo "$same same, $diff different"
[ "$diff" -eq 0 ]
