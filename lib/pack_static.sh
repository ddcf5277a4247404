#!/bin/sh
# pack_static.sh OUT ARCHIVE OBJCOPY AR CC...: the static library as
# installed. The objects of ARCHIVE (every layer, internals included) are
# linked into one relocatable object, in which the symbols compiled hidden
# (all but the ADEXP_API functions) are then made local; OUT holds that one
# object. A program linked against it sees only the adexp_ API: its own
# fatal() or vwalk() can neither clash with the library's nor be called by it.
set -e
out=$1 archive=$2 objcopy=$3 ar=$4
shift 4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$@" -r -nostdlib -o "$tmp/adexp.o" \
    -Wl,--whole-archive "$archive" -Wl,--no-whole-archive
"$objcopy" --localize-hidden "$tmp/adexp.o"
rm -f "$out"
"$ar" rcs "$out" "$tmp/adexp.o"
