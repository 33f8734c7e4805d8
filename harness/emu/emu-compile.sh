#!/bin/sh
# emu-compile.sh REWRITE SRC.cu OUT.o RESOURCES.txt [compiler flags...]
#
# Compiles a lab's .cu file for the CPU emulator:
#
# 1. Where nvcc is installed, its own front end reads the file first
#    (nvcc --ptx, no GPU needed), so whatever nvcc refuses (a host function
#    called from a kernel, a launch of a function that is not __global__,
#    a warning, which the GPU build makes an error) the emulator refuses,
#    with nvcc's words. TL_EMU_NVCC=none skips it (TL_EMU_NVCC=path picks one); without nvcc, rewrite and
#    device-code.sh check the host/device rules themselves.
# 2. REWRITE turns its <<< >>> launches into TL_LAUNCH(...), and g++
#    compiles the result against harness/emu/cuda_runtime.h with every
#    memory access instrumented.
# 3. The __shared__ bytes of each kernel become RESOURCES.txt, in the words
#    ptxas uses for its report, so the technique checks read one format.
set -eu
rewrite=$1 src=$2 out=$3 resources=$4
shift 4
here=$(dirname "$0")
cpp=${out%.o}.emu.cpp
names=${out%.o}.kernels

nvcc=${TL_EMU_NVCC-}
[ -n "$nvcc" ] || nvcc=$(command -v nvcc || { [ -x /usr/local/cuda/bin/nvcc ] && echo /usr/local/cuda/bin/nvcc; } || true)
[ "$nvcc" != none ] || nvcc=

if [ -n "$nvcc" ] && ! "$nvcc" --ptx -arch=sm_75 -Wno-deprecated-gpu-targets -Werror all-warnings \
        -I"$here/.." "$@" "$src" -o "${out%.o}.ptx" 2>"${out%.o}.nvcc.log"; then
    # An nvcc that cannot work here (a host compiler too new for it, an
    # architecture it dropped) says nothing about the file: check without it.
    if grep -q 'unsupported GNU version\|unsupported clang version\|Unsupported gpu architecture' \
            "${out%.o}.nvcc.log"; then
        echo "note: $nvcc cannot compile here ($(head -1 "${out%.o}.nvcc.log")); the emulator checks the host/device rules itself" >&2
        nvcc=
    else
        cat "${out%.o}.nvcc.log" >&2
        echo "nvcc refuses $src, so no GPU could run it: the emulator refuses it too." >&2
        exit 1
    fi
fi
if [ -n "$nvcc" ]; then
    "$rewrite" --names "$names" "$src" "$cpp"
else
    "$rewrite" --check-global --names "$names" "$src" "$cpp"
fi

g++ -std=c++17 -include "$here/cuda_runtime.h" -I"$here" -I"$here/.." \
    -fsanitize=address -fsanitize-sections=tl_shared --param asan-instrumentation-with-call-threshold=0 \
    --param asan-stack=0 --param asan-use-after-return=0 --param asan-globals=1 \
    -fno-exceptions -fno-rtti -fno-tree-vectorize -fno-tree-sra -O1 -g -Wall -Wextra -Werror -Wno-unknown-pragmas \
    "$@" -c "$cpp" -o "$out"

if [ -z "$nvcc" ]; then
    # Every call still a call: where device code calls host code.
    g++ -std=c++17 -include "$here/cuda_runtime.h" -I"$here" -I"$here/.." -O0 -fno-inline -w \
        "$@" -c "$cpp" -o "${out%.o}.calls.o"
    "$here/device-code.sh" host-calls "${out%.o}.calls.o" "$names" "$src"
fi

"$here/device-code.sh" resources "$out" "$names" "$src" >"$resources"
