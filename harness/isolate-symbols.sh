#!/bin/sh
# isolate-symbols.sh IN.o OUT.o [PREFIX]
#
# Makes every symbol a compiled lab file defines local, except its entry
# points (transpose, matmul_naive, matmul_tiled, sgemm). A lab file's helpers and
# kernels then never collide with the harness's or with another lab file's,
# and a lab file cannot replace a harness function. With PREFIX the entry
# points are renamed (transpose -> reference_transpose), so the bench links
# the student's file and the reference beside each other.
set -eu
in=$1 out=$2 prefix=${3:-}
entries=" transpose matmul_naive matmul_tiled sgemm "
set --
for sym in $(nm --defined-only -g "$in" | awk '$2 ~ /^[TDBR]$/ { print $3 }'); do
    case "$entries" in
    *" $sym "*) [ -z "$prefix" ] || set -- "$@" --redefine-sym "$sym=$prefix$sym" ;;
    *) set -- "$@" --localize-symbol "$sym" ;;
    esac
done
objcopy "$@" "$in" "$out"
