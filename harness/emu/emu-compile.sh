#!/bin/sh
# emu-compile.sh REWRITE SRC.cu OUT.o RESOURCES.txt [compiler flags...]
#
# Compiles a lab's .cu file for the CPU emulator: REWRITE turns its
# <<< >>> launches into TL_LAUNCH(...), g++ compiles the result against
# harness/emu/cuda_runtime.h with every memory access instrumented, and the
# sizes of its __shared__ arrays become RESOURCES.txt, in the words ptxas
# uses for its report, so the technique checks read one format.
set -eu
rewrite=$1 src=$2 out=$3 resources=$4
shift 4
here=$(dirname "$0")
cpp=${out%.o}.emu.cpp

"$rewrite" "$src" "$cpp"
g++ -std=c++17 -include "$here/cuda_runtime.h" -I"$here" -I"$here/.." \
    -fsanitize=address -fsanitize-sections=tl_shared --param asan-instrumentation-with-call-threshold=0 \
    --param asan-stack=0 --param asan-use-after-return=0 --param asan-globals=1 \
    -fno-exceptions -fno-rtti -fno-tree-vectorize -fno-tree-sra -O1 -g -Wall -Wextra -Werror -Wno-unknown-pragmas \
    "$@" -c "$cpp" -o "$out"

# "kernel(float*, ...)::tile" with its size: a kernel's static shared memory.
nm -C -S --defined-only "$out" | awk '
    function hex(s,    i, v) {
        v = 0
        for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
        return v
    }
    $3 ~ /^[bBdD]$/ && index($0, ")::") {
        name = substr($0, index($0, $4)); kernel = substr(name, 1, index(name, "(") - 1)
        bytes[kernel] += hex($2)
    }
    END {
        status = 0
        for (k in bytes) {
            printf "ptxas info    : Compiling entry function '\''%s'\'' for '\''emulator'\''\n", k
            printf "ptxas info    : Used 0 registers, %d bytes smem, 0 bytes cmem[0]\n", bytes[k]
            if (bytes[k] > 49152) {
                printf "ptxas error   : Entry function '\''%s'\'' uses too much shared data (0x%x bytes, 0xc000 max)\n", k, bytes[k] > "/dev/stderr"
                status = 1
            }
        }
        exit status
    }' >"$resources"
