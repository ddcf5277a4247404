#!/usr/bin/env bash
# vector_paths_test.sh CLI_DIR: the AVX2 paths against the general ones.
# CLI_DIR's adexp-parse and adexp-write run bench/same_output.sh's inputs
# and options twice, the second time with the AVX2 code turned off through
# glibc's tunable (as on a CPU without it): every output must be the same.
# Where the CPU has no AVX2, both runs take the general paths (said, and
# still compared). Where it has AVX-512, a third run with only that turned
# off (the AVX2 loops where the AVX-512 ones would run) is compared too.
set -u
dir=$1
src=$(cd "$(dirname "$0")/.." && pwd)
off=GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2
on_code=$("$dir/adexp-parse" --version | sed -n 's/^vector code: //p')
off_code=$(env "$off" "$dir/adexp-parse" --version | sed -n 's/^vector code: //p')
echo "vector code: $on_code, with $off: $off_code"
if [ -z "$on_code" ] || [ -z "$off_code" ]; then
    echo "adexp-parse --version says no vector code" >&2
    exit 1
fi
if [ "$on_code" = avx2 ] && [ "$off_code" = avx2 ]; then
    echo "the tunable did not turn AVX2 off" >&2
    exit 1
fi
case $on_code in
*avx512*)
    off512=GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX512BW
    echo "and with $off512: $(env "$off512" "$dir/adexp-parse" --version | sed -n 's/^vector code: //p')"
    NEW_ENV=$off512 "$src/bench/same_output.sh" "$dir" "$dir" || exit 1
    ;;
esac
NEW_ENV=$off exec "$src/bench/same_output.sh" "$dir" "$dir"
