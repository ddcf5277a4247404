#!/bin/sh
# compare_builds.sh OLD_BUILD NEW_BUILD [ROUNDS]: the main parser of two
# build directories timed against each other in one process (bench/ab_time.c):
# each build's library archive with its global symbols renamed (A_ for the old,
# B_ for the new), linked into one program that runs them by turns on small
# chunks of messages. Prints, for the teivah IFPL and for generated messages,
# the mean times and the median new/old ratio of the chunks with its
# quartiles. ROUNDS (default 20) passes over the generated messages, and 50
# times as many chunks of the teivah IFPL. Needs cc, nm, ar and objcopy.
set -e
[ $# -ge 2 ] || { echo "usage: $0 OLD_BUILD NEW_BUILD [ROUNDS]" >&2; exit 2; }
src=$(cd "$(dirname "$0")/.." && pwd)
archive() {  # archive BUILD: its library with internals (libadexp.a before they were made local)
    if [ -f "$1/libadexp_internal.a" ]; then echo "$1/libadexp_internal.a"; else echo "$1/libadexp.a"; fi
}
old=$(archive "$1") new=$(archive "$2") ref=$2/parser/ref/libadexp_ref.a
for f in "$old" "$new" "$ref"; do
    [ -f "$f" ] || { echo "$0: $f not found (build both directories first)" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rename() {  # rename LIB OUT PREFIX: LIB with its defined global symbols PREFIXed
    lib=$1
    if [ "$(head -c 7 "$lib")" = '!<thin>' ]; then   # objcopy copies only whole archives
        (cd "$(dirname "$1")" && ar t "$(basename "$1")" | xargs ar qcs "$tmp/whole$3.a")
        lib=$tmp/whole$3.a
    fi
    nm --defined-only -g "$lib" | awk 'NF == 3 { print $3 }' | sort -u |
        awk -v p="$3" '{ print $1, p $1 }' > "$tmp/syms$3"
    objcopy --redefine-syms="$tmp/syms$3" "$lib" "$2"
}
rename "$old" "$tmp/old.a" A_
rename "$new" "$tmp/new.a" B_
${CC:-cc} -O2 -I"$src/include" -I"$src/parser/ref" "$src/bench/ab_time.c" \
    "$tmp/old.a" "$tmp/new.a" "$ref" "$new" -o "$tmp/ab_time"   # ref needs a plain copy
"$tmp/ab_time" "$src/testdata/messages/IFPL-teivah-1.adexp" "${3:-20}"
