#!/usr/bin/env bash
# What the emulator's build reads of a lab file's code (the Makefile's
# EMU_TOOLS, which harness/emu/emu-compile.sh runs):
#
# - the table of access checks emu-sites writes is what the emulator reads:
#   a planted assembly's table, read back through harness/emu/sites.h, gives
#   each check's return address, first check, line and widths; a writer
#   built from another layout of sites.h is caught the same way;
# - without nvcc, emu-shared-bytes adds up each kernel's __shared__ bytes as
#   ptxas does, and refuses above 48 KiB in ptxas's words; emu-host-calls
#   says which host function device code calls, in nvcc's words;
# - with nvcc, emu-host-builtins says which host function reads a device
#   built-in (warpSize), in the words of the GPU build's linker.
#
# (emu-sass-widths is checked in tests/profile_test.sh, beside the counts it
# feeds.) Prints TAP; make check counts it.
source "$(dirname "$0")/tap.sh"
CC=${CC:-gcc}
cflags="-std=c11 -D_DEFAULT_SOURCE -O2 -Wall -Wextra -Werror -Iharness/core/include"

# --------------------------------------------------------------- the table

# Four checks: two copies of one expression on line 7 of the lab file, a store on its
# line 9, and a load in another file (a header of the emulator), which counts as line 0.
cat >"$tmp/planted.s" <<'ASM'
	.file	"planted.cpp"
	.text
	.file 1 "labs/03-gpu-naive/transpose.cu"
	.file 2 "harness/emu/cuda_runtime.h"
	.globl	planted_code
	.type	planted_code, @function
planted_code:
	.loc 1 7 3
	call	__asan_load4
	.globl	after_0
after_0:
	.loc 1 7 3
	call	__asan_load4
	.globl	after_1
after_1:
	.loc 1 9 5
	call	__asan_store16
	.globl	after_2
after_2:
	.loc 2 30 1
	call	__asan_load4
	.globl	after_3
after_3:
	ret
	.size	planted_code, .-planted_code
	.section	.note.GNU-stack,"",@progbits
ASM
printf '7 4 0 20 0\n9 0 16 0 8\n' >"$tmp/planted.widths"
cat >"$tmp/known.want" <<'WANT'
5 entries
0 pc=0 first=none line=1 widths=0 0 0 0
1 pc=after_0 first=1 line=7 widths=4 0 20 0
2 pc=after_1 first=1 line=7 widths=4 0 20 0
3 pc=after_2 first=3 line=9 widths=0 16 0 8
4 pc=after_3 first=4 line=0 widths=0 0 0 0
WANT
cat >"$tmp/unknown.want" <<'WANT'
5 entries
0 pc=0 first=none line=0 widths=0 0 0 0
1 pc=after_0 first=1 line=7 widths=0 0 0 0
2 pc=after_1 first=1 line=7 widths=0 0 0 0
3 pc=after_2 first=3 line=9 widths=0 0 0 0
4 pc=after_3 first=4 line=0 widths=0 0 0 0
WANT

# read_back SITES WIDTHS|- NAME: the planted table as SITES writes it, as the emulator's
# layout reads it, in $tmp/NAME.got.
read_back() {
    "$1" "$2" labs/03-gpu-naive/transpose.cu "$tmp/planted.s" "$tmp/$3.s" &&
        $CC $cflags -Iharness/emu tests/emu_sites_check.c "$tmp/$3.s" -o "$tmp/$3" &&
        "$tmp/$3" >"$tmp/$3.got"
}
for case in known unknown; do
    widths=$([ $case = known ] && echo "$tmp/planted.widths" || echo -)
    if ! read_back "$build/harness/emu-sites" "$widths" $case >"$tmp/$case.log" 2>&1; then
        not_ok "emu-sites ($case widths): the planted table builds and is read" "$tmp/$case.log"
    elif cmp -s "$tmp/$case.got" "$tmp/$case.want"; then
        ok "emu-sites ($case widths): the emulator reads back each check's return address, first check, line and widths"
    else
        not_ok "emu-sites ($case widths): read back, then written" <(cat "$tmp/$case.got" "$tmp/$case.want")
    fi
done

# Writers built from other layouts of sites.h: two fields of one size swapped (the table
# as long as the emulator's), and the line moved before the first check's address (4
# bytes of padding after each: a longer table). Reading their tables back must not give
# what was written.
for moved in 'swapped pc and first|/^    uintptr_t pc;$/d; s/^    const struct tl_site \*first;$/&\n    uintptr_t pc;/' \
             'line before first|/^    uint32_t line;$/d; s/^    const struct tl_site \*first;$/    uint32_t line;\n&/'; do
    what=${moved%%|*}
    mkdir -p "$tmp/planted"
    cp harness/emu/sites.c harness/emu/line_widths.c harness/emu/line_widths.h "$tmp/planted/"
    sed -e "${moved#*|}" harness/emu/sites.h >"$tmp/planted/sites.h"
    if cmp -s harness/emu/sites.h "$tmp/planted/sites.h" ||
            [ "$(grep -c -E '^    (uintptr_t pc|const struct tl_site \*first|uint32_t line);$' "$tmp/planted/sites.h")" != 3 ]; then
        not_ok "a writer of another layout ($what): harness/emu/sites.h no longer has the fields this test moves"
    elif ! $CC $cflags -o "$tmp/planted/emu-sites" "$tmp/planted/sites.c" "$tmp/planted/line_widths.c" 2>"$tmp/planted.log"; then
        not_ok "a writer of another layout ($what) builds" "$tmp/planted.log"
    elif read_back "$tmp/planted/emu-sites" "$tmp/planted.widths" moved >"$tmp/moved.log" 2>&1 &&
            cmp -s "$tmp/moved.got" "$tmp/known.want"; then
        not_ok "a table written in another layout ($what) reads back as if it were the emulator's" "$tmp/moved.got"
    else
        ok "a table written in another layout ($what) than the emulator reads does not read back as written"
    fi
    rm -rf "$tmp/planted"
done

# --------------------------------------------- without nvcc: the object's code

# compile NAME: emu-compile.sh without nvcc on $tmp/NAME.cu; its output in $tmp/NAME.log,
# its resources in $tmp/NAME.txt.
compile() {
    TL_EMU_NVCC=none harness/emu/emu-compile.sh "$build/harness/emu-rewrite" "$tmp/$1.cu" "$tmp/$1.o" \
        "$tmp/$1.txt" >"$tmp/$1.log" 2>&1
}

# Shared bytes: a kernel's own array, a file-scope array one of its __device__ functions
# uses, and a template kernel's array, which g++ keeps as a static of the function.
cat >"$tmp/shared.cu" <<'CU'
#include "lab.h"
__shared__ float row[50];
__device__ float from_row(int i) { return row[i % 50]; }
__global__ void own_and_called(float *o)
{
    __shared__ float tile[100];
    tile[threadIdx.x] = o[threadIdx.x];
    row[threadIdx.x % 50] = tile[threadIdx.x];
    __syncthreads();
    o[threadIdx.x] = from_row(threadIdx.x + 1);
}
template <int N> __global__ void templated(float *o)
{
    __shared__ float t[N];
    t[threadIdx.x] = o[threadIdx.x];
    __syncthreads();
    o[threadIdx.x] = t[N - 1 - threadIdx.x];
}
__global__ void none(float *o) { o[threadIdx.x] = 1; }
void transpose(float *o, const float *i, int r, int c)
{
    (void)i, (void)r, (void)c;
    own_and_called<<<1, 32>>>(o);
    templated<64><<<1, 64>>>(o);
    none<<<1, 32>>>(o);
}
CU
cat >"$tmp/shared.want" <<'WANT'
emulator: kernel 'own_and_called' uses 600 bytes of shared memory (registers: only nvcc can count them)
emulator: kernel 'templated<64>' uses 256 bytes of shared memory (registers: only nvcc can count them)
emulator: kernel 'none' uses 0 bytes of shared memory (registers: only nvcc can count them)
WANT
if ! compile shared; then
    not_ok "without nvcc, a file with __shared__ arrays builds" "$tmp/shared.log"
elif diff <(sort "$tmp/shared.txt") <(sort "$tmp/shared.want") >"$tmp/shared.diff"; then
    ok "emu-shared-bytes: each kernel's own arrays, those of the functions it calls, a template kernel's"
else
    not_ok "emu-shared-bytes: got (<), wanted (>)" "$tmp/shared.diff"
fi

cat >"$tmp/big.cu" <<'CU'
#include "lab.h"
__global__ void k(float *o) { __shared__ float big[12289]; big[threadIdx.x] = 1; o[0] = big[0]; }
void transpose(float *o, const float *i, int r, int c) { (void)i, (void)r, (void)c; k<<<1, 32>>>(o); }
CU
if compile big; then
    not_ok "without nvcc, a kernel of 49156 bytes of __shared__ arrays builds" "$tmp/big.log"
elif grep -qF "ptxas error   : Entry function 'k' uses too much shared data (0xc004 bytes, 0xc000 max)" "$tmp/big.log"; then
    ok "emu-shared-bytes: more than 48 KiB of __shared__ arrays is refused, in ptxas's words"
else
    not_ok "emu-shared-bytes: 49156 bytes refused without ptxas's words" "$tmp/big.log"
fi

# __shared__ variables of a class type (a float4, a __half, the student's own struct), which
# the kernel reaches through a reference (kernel_edits.c): g++ warned of T (&x), and without
# nvcc warnings are errors.
cat >"$tmp/classes.cu" <<'CU'
#include <cuda_fp16.h>
#include "lab.h"
struct pair { float a, b; };
__global__ void k(float *o)
{
    __shared__ float4 sum;
    __shared__ __half h, *hp;
    __shared__ pair p, ps[2];
    if (threadIdx.x == 0)
        sum = make_float4(1, 2, 3, 4), h = __float2half(5.0f), hp = &h, p = {6, 7}, ps[1] = p;
    __syncthreads();
    o[threadIdx.x] = sum.x + __half2float(*hp) + p.b + ps[1].a;
}
void transpose(float *o, const float *i, int r, int c) { (void)i, (void)r, (void)c; k<<<1, 32>>>(o); }
CU
if compile classes; then
    ok "without nvcc, __shared__ variables of class types (float4, __half, a struct) build"
else
    not_ok "without nvcc, __shared__ variables of class types (float4, __half, a struct) fail to build" "$tmp/classes.log"
fi

# Host calls: a kernel and a __device__ function each call a host function of the file,
# the kernel twice (said once); the C++ library's maths and the file's __device__
# functions are allowed.
cat >"$tmp/calls.cu" <<'CU'
#include <cmath>
#include "lab.h"
float on_host(float x) { return x + 1; }
__device__ float on_device(float x) { return std::sqrt(x); }
__device__ float helper(float x) { return on_host(x) * 2; }
__global__ void k(float *o)
{
    o[threadIdx.x] = on_host(o[threadIdx.x]) + on_host(1) + on_device(2) + helper(3);
}
void transpose(float *o, const float *i, int r, int c) { (void)i, (void)r, (void)c; k<<<1, 32>>>(o); }
CU
cat >"$tmp/calls.want" <<WANT
$tmp/calls.cu: error: calling a __host__ function("on_host") from a __device__ function("helper") is not allowed: only __device__ functions run on the GPU (nvcc refuses this file)
$tmp/calls.cu: error: calling a __host__ function("on_host") from a __global__ function("k") is not allowed: only __device__ functions run on the GPU (nvcc refuses this file)
WANT
# host_calls NAME WHAT BUILT: without nvcc, $tmp/NAME.cu fails to build, and its errors of a host
# function called from device code are those $tmp/NAME.want lists, each once (ok WHAT); BUILT is
# what it says where the file builds.
host_calls() {
    if compile "$1"; then
        not_ok "without nvcc, $3 builds" "$tmp/$1.log"
    elif diff <(grep -F 'calling a __host__' "$tmp/$1.log" | sort) <(sort "$tmp/$1.want") >"$tmp/$1.diff"; then
        ok "emu-host-calls: $2"
    else
        not_ok "emu-host-calls: got (<), wanted (>)" "$tmp/$1.diff"
    fi
}
host_calls calls "each host function device code calls, once for each caller, and nothing else" \
    "a kernel that calls a host function"

# A launch from device code (dynamic parallelism) needs -rdc=true, which the lab's build does
# not pass: nvcc refuses it, and so does rewrite --check-global, in its words. A launch from
# the host function after a macro that stands for __global__ is no such launch.
cat >"$tmp/nested.cu" <<'CU'
#include "lab.h"
__global__ void child(float *o) { o[threadIdx.x] = 1; }
__global__ void parent(float *o)
{
    if (threadIdx.x == 0)
        child<<<1, 32>>>(o);
}
void transpose(float *o, const float *i, int r, int c) { (void)i, (void)r, (void)c; parent<<<1, 32>>>(o); }
CU
cat >"$tmp/macro.cu" <<'CU'
#include "lab.h"
#define KERNEL __global__ \
    void
KERNEL one(float *o) { o[threadIdx.x] = 1; }
void transpose(float *o, const float *i, int r, int c) { (void)i, (void)r, (void)c; one<<<1, 32>>>(o); }
CU
if compile nested; then
    not_ok "without nvcc, a kernel that launches a kernel builds" "$tmp/nested.log"
elif grep -qF "nested.cu(6): error: kernel launch from __device__ or __global__ functions requires separate compilation mode: child" "$tmp/nested.log"; then
    ok "rewrite: a launch from a kernel is refused in nvcc's words, with its line"
else
    not_ok "rewrite: a launch from a kernel refused without nvcc's words" "$tmp/nested.log"
fi
if compile macro; then
    ok "rewrite: a launch from the host, below a macro for __global__, builds"
else
    not_ok "rewrite: a launch from the host, below a macro for __global__, is refused" "$tmp/macro.log"
fi

# C library functions: device code may call those CUDA gives it (the Math API's, printf,
# malloc, free, memcpy, memset); any other (wmemcpy) nvcc refuses, and so does the emulator,
# where the C library's code would move the kernel's memory unchecked and uncounted
# (a lab 5 file's transpose made by wmemcpy scored 10 of 10 without nvcc).
cat >"$tmp/libc.cu" <<'CU'
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>
#include "lab.h"
__device__ void moved(float *o, const float *i) { wmemcpy((wchar_t *)o, (const wchar_t *)i, 1); }
__global__ void k(float *o, const float *i)
{
    int e;
    float whole, *scratch = (float *)malloc(sizeof(float));
    memcpy(scratch, i + threadIdx.x, sizeof(float));
    memset(o + 32 + threadIdx.x, 0, sizeof(float));
    o[threadIdx.x] = sqrtf(*scratch) + frexpf(expf(1.0f), &e) + modff(2.5f, &whole) + (float)e + whole;
    free(scratch);
    if (threadIdx.x == 0)
        printf("%f\n", (double)o[0]);
    moved(o, i);
    wmemcpy((wchar_t *)o, (const wchar_t *)i, 1);
}
void transpose(float *o, const float *i, int r, int c) { (void)r, (void)c; k<<<1, 32>>>(o, i); }
CU
cat >"$tmp/libc.want" <<WANT
$tmp/libc.cu: error: calling a __host__ function("wmemcpy") from a __device__ function("moved") is not allowed: only __device__ functions run on the GPU (nvcc refuses this file)
$tmp/libc.cu: error: calling a __host__ function("wmemcpy") from a __global__ function("k") is not allowed: only __device__ functions run on the GPU (nvcc refuses this file)
WANT
host_calls libc "a C library function CUDA does not give device code is refused, those it gives are not" \
    "a kernel that calls the C library's wmemcpy"
# The emulator's own code that device code calls is no host function of the file: an
# extern __shared__ array in a kernel reads the launch's dynamic shared memory through a
# conversion operator of the emulator's (cuda_runtime.h), which a student without nvcc saw
# refused as "calling a __host__ function" (lab04-dynamic-shared-tile and every corpus file
# with extern __shared__ in a kernel).
# Operators of the file's, __device__, are device functions too: a conversion of a template
# struct's (the CUDA samples' SharedMemory<T>, lab10-samples-shared-memory-struct), of a
# struct's, and operators of symbols (lab08-float4-operators).
cat >"$tmp/dynamic.cu" <<'CU'
#include "lab.h"
struct Half {
    float v;
    __device__ operator float() const { return v * 0.5f; }
};
template <class T>
struct Shared {
    __device__ operator T *()
    {
        extern __shared__ float dynamic[];
        return (T *)dynamic;
    }
};
__device__ Half operator*(Half h, float s) { return Half{h.v * s}; }
__device__ Half &operator+=(Half &h, float s) { return h.v += s, h; }
__global__ void k(float *o)
{
    extern __shared__ float tile[];
    Half h{1};
    h += 1;
    tile[threadIdx.x] = (float)(h * 2.0f) + (float)((float *)Shared<float>() - tile);
    __syncthreads();
    o[threadIdx.x] = tile[31 - threadIdx.x];
}
void transpose(float *o, const float *i, int r, int c) { (void)i, (void)r, (void)c; k<<<1, 32, 128>>>(o); }
CU
if compile dynamic; then
    ok "emu-host-calls: a kernel's extern __shared__ array (the emulator's own code) and __device__ operators build without nvcc"
else
    not_ok "emu-host-calls: without nvcc, a kernel's extern __shared__ array or a __device__ operator is refused" "$tmp/dynamic.log"
fi
# An operator that is not __device__ is a host function still, a conversion named as nvcc
# names it.
# (Conversions are known by "operator" alone: one __device__ conversion in the file lets
# through the others.)
sed -e 's/^__device__ Half operator/Half operator/' -e 's/__device__ operator/operator/' \
    "$tmp/dynamic.cu" >"$tmp/hostop.cu"
cat >"$tmp/hostop.want" <<WANT
$tmp/hostop.cu: error: calling a __host__ function("operator*") from a __global__ function("k") is not allowed: only __device__ functions run on the GPU (nvcc refuses this file)
$tmp/hostop.cu: error: calling a __host__ function("Half::operator float") from a __global__ function("k") is not allowed: only __device__ functions run on the GPU (nvcc refuses this file)
$tmp/hostop.cu: error: calling a __host__ function("Shared<float>::operator float*") from a __global__ function("k") is not allowed: only __device__ functions run on the GPU (nvcc refuses this file)
WANT
host_calls hostop "an operator that is not __device__, called from a kernel, is refused" "a kernel that calls a host operator*"
# g++'s warnings stand in for nvcc's, less those nvcc's device compiler does not give: a sum
# declared without a value and added to in a loop (lab07-accumulator-not-zeroed), which g++'s
# optimiser finds "may be used uninitialized", nvcc compiles without a word; its tests fail.
cat >"$tmp/unset.cu" <<'CU'
#include "lab.h"
__global__ void k(float *o, int n)
{
    float sum;
    for (int p = 0; p < n; p++)
        sum += o[p];
    o[threadIdx.x] = sum;
}
void transpose(float *o, const float *i, int r, int c) { (void)i, (void)c; k<<<1, 32>>>(o, r); }
CU
if compile unset; then
    ok "without nvcc, a sum g++ finds maybe used before it is set builds, as nvcc builds it"
else
    not_ok "without nvcc, a sum g++ finds maybe used before it is set is refused" "$tmp/unset.log"
fi
# ------------------------------------------- with nvcc: host code's device built-ins

# nvcc compiles host code that reads warpSize or threadIdx into a reference to
# __device_builtin_variable_NAME, which nothing defines: the GPU build's link fails, and
# emu-host-builtins, reading nvcc's object, says so in the linker's words, once for each
# function and name. Planted: what nvcc's host code is (a function transpose reading warpSize
# twice and threadIdx once, a function helper reading nothing).
cat >"$tmp/builtins.s" <<'ASM'
	.text
	.globl	transpose
	.type	transpose, @function
transpose:
	movl	__device_builtin_variable_warpSize(%rip), %eax
	addl	__device_builtin_variable_warpSize(%rip), %eax
	addl	__device_builtin_variable_threadIdx(%rip), %eax
	ret
	.size	transpose, .-transpose
	.globl	helper
	.type	helper, @function
helper:
	movl	$32, %eax
	ret
	.size	helper, .-helper
	.section	.note.GNU-stack,"",@progbits
ASM
if ! $CC -c "$tmp/builtins.s" -o "$tmp/builtins.o" 2>"$tmp/builtins.log"; then
    not_ok "a planted object of nvcc's host code assembles" "$tmp/builtins.log"
elif "$build/harness/emu-host-builtins" "$tmp/builtins.o" lab.cu >"$tmp/builtins.log" 2>&1; then
    not_ok "emu-host-builtins: host code that reads warpSize passes" "$tmp/builtins.log"
elif [ "$(grep -c "^lab.cu: in function 'transpose': undefined reference to \`__device_builtin_variable_warpSize': warpSize is a built-in variable of device code" "$tmp/builtins.log")" = 1 ] &&
    [ "$(grep -c "undefined reference to \`__device_builtin_variable_threadIdx'" "$tmp/builtins.log")" = 1 ] &&
    [ "$(wc -l <"$tmp/builtins.log")" = 2 ] && ! grep -q helper "$tmp/builtins.log"; then
    ok "emu-host-builtins: each device built-in host code reads, once for each function, in the linker's words"
else
    not_ok "emu-host-builtins: not each built-in once, in the linker's words" "$tmp/builtins.log"
fi
$CC -c -x assembler - -o "$tmp/nobuiltins.o" <<'ASM'
	.text
	.globl	transpose
	.type	transpose, @function
transpose:
	ret
	.size	transpose, .-transpose
	.section	.note.GNU-stack,"",@progbits
ASM
if "$build/harness/emu-host-builtins" "$tmp/nobuiltins.o" lab.cu >"$tmp/nobuiltins.log" 2>&1 && [ ! -s "$tmp/nobuiltins.log" ]; then
    ok "emu-host-builtins: host code that reads no built-in passes, silently"
else
    not_ok "emu-host-builtins: host code that reads no built-in is refused" "$tmp/nobuiltins.log"
fi
tap_plan
