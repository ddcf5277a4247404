#!/bin/sh
# Source coverage of the fuzz targets on a corpus, with clang's
# -fprofile-instr-generate: builds each target as a plain replay program in
# OUT_DIR (no meson dir needed), replays the corpus dirs, prints the
# llvm-cov report for lexer/, parser/parser.c and lib/json/json.c.
#
#   fuzz/coverage.sh OUT_DIR CORPUS_ROOT
#   (CORPUS_ROOT/TARGET/ per target, e.g. fuzz/corpus; testdata/ is added)
set -eu
out=$1 corpus=$2
src=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
corpus=$(cd "$corpus" && pwd)
inc=""
for d in include lexer parser parser/fast parser/ref lib/core lib/dict lib/json lib/out lib/write lib/validate lib/batch; do
    inc="$inc -I$src/$d"
done
cflags="-O1 -g -std=c11 -D_POSIX_C_SOURCE=200809L -fprofile-instr-generate -fcoverage-mapping $inc
        -DADEXP_LIBARCHIVE_SONAME=\"libarchive.so.13\""
libsrc=$(ls "$src"/lexer/lexer.c "$src"/parser/*.c "$src"/parser/fast/*.c "$src"/lib/*/*.c | grep -v '_test\.c$')
cd "$out" && pwd)
corpus=$(cd "$corpus" && pwd)
cflags="-O1 -g -std=c11 -D_POSIX_C_SOURCE=200809L -fprofile-instr-generate -fcoverage-mapping
        -I$src/include -I$src/lexer -I$src/parser -I$src/lib"
libsrc="$src/lexer/lexer.c $src/parser/dict_table.c $src/parser/parser.c
        $src/lib/core/arena.c $src/lib/core/decode.c $src/lib/core/field.c $src/lib/json/json.c
        $src/lib/core/status.c $src/parser/view.c"
cd "$out"
for t in fuzz_lexer fuzz_parser fuzz_json fuzz_stream fuzz_diff; do
    extra=""
    case $t in
        fuzz_json) extra="$src/fuzz/json_check.c" ;;
        fuzz_diff) extra="$src/parser/ref/ref.c $src/parser/ref/ref_split.c" ;;
    esac
    # shellcheck disable=SC2086
    clang $cflags -o "$t" "$src/fuzz/$t.c" $extra "$src/fuzz/replay_main.c" $libsrc -lpthread -lz -ldl
    dirs="$src/testdata"
    [ -d "$corpus/$t" ] && dirs="$corpus/$t $dirs"
    # shellcheck disable=SC2086
    LLVM_PROFILE_FILE="$out/$t.profraw" "./$t" $dirs 2>/dev/null
    llvm-profdata merge -o "$t.profdata" "$t.profraw"
    echo "== $t"
    llvm-cov report "./$t" -instr-profile="$t.profdata" \
        "$src/lexer/lexer.c" "$src/parser/parser.c" "$src/lib/json/json.c" "$src/parser/view.c" |
        sed -n '1,2p;/^-*$/d;/lexer.c\|parser.c\|json.c\|view.c\|TOTAL/p'
done
