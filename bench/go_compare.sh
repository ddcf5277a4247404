#!/bin/sh
# go_compare.sh TEIVAH_DIR [BUILD_DIR] [ROUNDS]: libadexp against the public
# Go ADEXP parsers of teivah/golang-good-code-bad-code, timed by turns in
# one process on the teivah IFPL (go_compare/main.go, built with cgo against
# BUILD_DIR/libadexp.a; default build-bench). TEIVAH_DIR is a checkout of
# that repository (its good/ and bad/ packages are used as they are, and
# not kept in this tree). Needs Go and logrus; on Debian 12:
#   apt-get install golang-go golang-github-sirupsen-logrus-dev
# The build is in GOPATH mode, with Debian's Go sources in /usr/share/gocode.
# Prints a table for GOMAXPROCS=1 and for the default (all CPUs).
set -e
[ $# -ge 1 ] || { echo "usage: $0 TEIVAH_DIR [BUILD_DIR] [ROUNDS]" >&2; exit 2; }
src=$(cd "$(dirname "$0")/.." && pwd)
teivah=$(cd "$1" && pwd)
build=$(cd "${2:-$src/build-bench}" && pwd)
for d in "$teivah/good" "$teivah/bad"; do
    [ -d "$d" ] || { echo "$0: $d not found (a checkout of teivah/golang-good-code-bad-code?)" >&2; exit 2; }
done
[ -f "$build/libadexp.a" ] || { echo "$0: $build/libadexp.a not found (build it first)" >&2; exit 2; }
command -v go >/dev/null || { echo "$0: go not found" >&2; exit 2; }
msg=$src/testdata/messages/IFPL-teivah-1.adexp
if [ -f "$teivah/resources/tests/adexp.txt" ] && ! cmp -s "$msg" "$teivah/resources/tests/adexp.txt"; then
    echo "$0: note: $msg differs from their resources/tests/adexp.txt" >&2
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/src/goadexp/go_compare"
ln -s "$teivah/good" "$tmp/src/goadexp/good"
ln -s "$teivah/bad" "$tmp/src/goadexp/bad"
cp "$src/bench/go_compare/main.go" "$tmp/src/goadexp/go_compare/"
(cd "$tmp/src/goadexp/go_compare" &&
    GOPATH="$tmp:/usr/share/gocode" GO111MODULE=off GOCACHE="$tmp/cache" \
    CGO_CFLAGS="-O2 -I$src/include" CGO_LDFLAGS="$build/libadexp.a -lz -pthread -ldl" \
    go build -o "$tmp/go_compare" .)
GOMAXPROCS=1 "$tmp/go_compare" "$msg" "${3:-15}"
echo
"$tmp/go_compare" "$msg" "${3:-15}"
