#!/bin/sh
# go_compare.sh [-e] TEIVAH_DIR DELEPLACE_DIR [BUILD_DIR] [ROUNDS]: libadexp
# against the public Go ADEXP parsers: teivah/golang-good-code-bad-code
# (packages good and bad) and its fork Deleplace/forks-golang-good-code-bad-code
# (branch performance: good made faster; nogo: good without its goroutines;
# lexerparser: a lexer and a parser). TEIVAH_DIR and DELEPLACE_DIR are git
# checkouts of the two; the three branches are taken from DELEPLACE_DIR's
# refs (BRANCH or origin/BRANCH) and used as they are, with one file of ours
# (go_compare/lexerparser/export.go) to call lexerparser's unexported lex and
# parse. None of their code is kept in this tree.
#
# Without -e: timed by turns in one process on the teivah IFPL
# (go_compare/main.go, built with cgo against BUILD_DIR/libadexp.a; default
# build-bench), a table for GOMAXPROCS=1 and for the default (all CPUs).
# With -e, end to end: a file of 20,000 copies of the teivah IFPL, each
# whole process timed by turns (by_turns.py, ROUNDS pairs, default 5):
# BUILD_DIR/cli/adexp-parse -q -j 1 --format summary against go_e2e
# (go_compare/e2e/main.go: read the file, split it, parse each message) with
# GOMAXPROCS=1, for each Go parser. GO_PARSERS (space-separated names) picks
# some of them.
#
# Needs Go and logrus; on Debian 12:
#   apt-get install golang-go golang-github-sirupsen-logrus-dev
# The build is in GOPATH mode, with Debian's Go sources in /usr/share/gocode.
set -e
e2e=
[ "$1" = -e ] && { e2e=1; shift; }
[ $# -ge 2 ] || { echo "usage: $0 [-e] TEIVAH_DIR DELEPLACE_DIR [BUILD_DIR] [ROUNDS]" >&2; exit 2; }
src=$(cd "$(dirname "$0")/.." && pwd)
teivah=$(cd "$1" && pwd)
deleplace=$(cd "$2" && pwd)
build=$(cd "${3:-$src/build-bench}" && pwd)
for d in "$teivah/good" "$teivah/bad"; do
    [ -d "$d" ] || { echo "$0: $d not found (a checkout of teivah/golang-good-code-bad-code?)" >&2; exit 2; }
done
command -v go >/dev/null || { echo "$0: go not found" >&2; exit 2; }
msg=$src/testdata/messages/IFPL-teivah-1.adexp
if [ -f "$teivah/resources/tests/adexp.txt" ] && ! cmp -s "$msg" "$teivah/resources/tests/adexp.txt"; then
    echo "$0: note: $msg differs from their resources/tests/adexp.txt" >&2
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pkg=$tmp/src/goadexp
mkdir -p "$pkg/deleplace"
ln -s "$teivah/good" "$pkg/good"
ln -s "$teivah/bad" "$pkg/bad"
# branch DIR: the folder DIR of Deleplace's branch into $pkg/deleplace/NAME.
branch() {
    ref=$1
    git -C "$deleplace" rev-parse -q --verify "$ref^{commit}" >/dev/null || ref=origin/$1
    git -C "$deleplace" rev-parse -q --verify "$ref^{commit}" >/dev/null ||
        { echo "$0: no branch $1 in $deleplace (a clone of Deleplace/forks-golang-good-code-bad-code?)" >&2; exit 2; }
    git -C "$deleplace" archive "$ref" "$2" | tar -x -C "$tmp"
    mv "$tmp/$2" "$pkg/deleplace/$3"
}
branch performance good good
branch nogo good nogo
branch lexerparser lexerparser lexerparser
cp "$src/bench/go_compare/lexerparser/export.go" "$pkg/deleplace/lexerparser/"

gobuild() { # DIR OUT: go build of $pkg/DIR into OUT
    (cd "$pkg/$1" && GOPATH="$tmp:/usr/share/gocode" GO111MODULE=off GOCACHE="$tmp/cache" \
        go build -o "$2" .)
}

if [ -z "$e2e" ]; then
    [ -f "$build/libadexp.a" ] || { echo "$0: $build/libadexp.a not found (build it first)" >&2; exit 2; }
    mkdir -p "$pkg/go_compare"
    cp "$src/bench/go_compare/main.go" "$pkg/go_compare/"
    libs="-lz -pthread -ldl"   # and sqlite where --format sqlite is built in
    nm "$build/libadexp.a" 2>/dev/null | grep -q ' U sqlite3_' && libs="$libs -lsqlite3"
    export CGO_CFLAGS="-O2 -I$src/include" CGO_LDFLAGS="$build/libadexp.a $libs -lm"
    gobuild go_compare "$tmp/go_compare"
    GOMAXPROCS=1 "$tmp/go_compare" "$msg" "${4:-15}"
    echo
    "$tmp/go_compare" "$msg" "${4:-15}"
    exit
fi

cli=$build/cli/adexp-parse
[ -x "$cli" ] || { echo "$0: $cli not found (build it first)" >&2; exit 2; }
mkdir -p "$pkg/e2e"
cp "$src/bench/go_compare/e2e/main.go" "$pkg/e2e/"
gobuild e2e "$tmp/go_e2e"
file=$tmp/teivah20k.adexp
python3 - "$msg" "$file" <<'PY'
import sys
one = open(sys.argv[1], "rb").read().rstrip(b"\n") + b"\n\n"
open(sys.argv[2], "wb").write(one * 20000)
PY
ours="$cli -q -j 1 --format summary -o /dev/null $file"
echo "$file: 20,000 copies of $(basename "$msg"), $(wc -c <"$file") bytes; load: $(cut -d' ' -f1-3 /proc/loadavg)"
for p in ${GO_PARSERS:-deleplace-lexerparser deleplace-nogo deleplace-good teivah-good teivah-bad}; do
    echo
    echo "## A: $ours"
    read=$(GOMAXPROCS=1 "$tmp/go_e2e" "$p" "$file")
    echo "## B: GOMAXPROCS=1 go_e2e $p ($read)"
    python3 "$src/bench/by_turns.py" -n "${4:-5}" --vs "env GOMAXPROCS=1 $tmp/go_e2e $p $file" -- $ours
done
