#!/bin/sh
# emu-compile.sh REWRITE SRC.cu OUT.o RESOURCES.txt [compiler flags...]
#
# Compiles a lab's .cu file for the CPU emulator. REWRITE is the emulator's
# rewrite (build/harness/emu-rewrite); its other tools lie beside it (the
# Makefile's EMU_TOOLS: emu-sass-widths, emu-sites, emu-shared-bytes,
# emu-host-calls, emu-host-builtins).
#
# 1. Where nvcc is installed (no GPU needed), nvcc compiles the file first,
#    with the flags of the kit's GPU build and for the architecture it
#    builds for (TL_EMU_ARCH: nvcc's flags for the Makefile's CUDA_ARCH
#    where one is given; else sm_90, the H100 the emulator models), so
#    whatever that build refuses (a host function called from a kernel,
#    __launch_bounds__ beyond that GPU's limits, a launch of a function that is
#    not __global__, a warning in host or device code) the emulator
#    refuses, with nvcc's words, and what that build's link refuses too
#    (host code that reads a device built-in: emu-host-builtins); and
#    ptxas's report of each kernel's registers and shared memory becomes
#    RESOURCES.txt. TL_EMU_NVCC=none
#    skips it (TL_EMU_NVCC=path picks an nvcc).
# 2. Without nvcc, rewrite and emu-host-calls check the host/device rules
#    themselves, and g++'s warnings stand in for nvcc's: those nvcc's device
#    compiler does not give (signed/unsigned comparisons, unused
#    parameters, a variable g++'s optimiser finds maybe used before it is
#    set, as a sum declared without a value and added to in a loop) are
#    off, in host code too.
# 3. REWRITE turns its <<< >>> launches into TL_LAUNCH(...), and g++
#    compiles the result against harness/emu/cuda_runtime.h with every
#    memory access instrumented; without nvcc, emu-shared-bytes reads the
#    __shared__ bytes of each kernel from the object into RESOURCES.txt, in
#    its own words, which the technique checks read beside ptxas's.
# 4. The emulator counts instructions as ncu does: where nvcc and nvdisasm
#    are installed, nvcc also compiles the file for sm_90 (the H100 the
#    recorded profiles come from) with -lineinfo, and emu-sass-widths reads
#    from its SASS how wide the loads and stores of each source line are
#    (LDS.128 where a thread reads four floats in a row); g++'s assembly
#    gets a table of its access checks with those widths (emu-sites:
#    section tl_sites, laid out as sites.h says), by which the emulator
#    merges a thread's neighbouring accesses into one instruction. Without
#    them the table says so, and accesses count as written.
#    TL_EMU_NVDISASM=none skips it (TL_EMU_NVDISASM=path picks an nvdisasm).
#
# emu-compile.sh --header REWRITE precompiles the emulator's CUDA headers (cuda_runtime.h
# and what it includes) for step 3's g++, with its flags, into REWRITE's folder
# (emu-pch/; the Makefile's EMU_TOOLS): each lab file's compile then reads them from there
# instead of parsing them again (more than half of that g++'s time). A precompiled header
# that does not fit a compile (older than a header, other macros) is left aside by g++,
# which then reads the headers themselves, as it does where there is none.
set -eu
header_only=
[ "$1" != --header ] || { header_only=1 && set -- "$2" - - -; }
rewrite=$1 src=$2 out=$3 resources=$4
shift 4
here=$(dirname "$0")
tools=$(dirname "$rewrite")
pch=$tools/emu-pch/cuda_runtime.h
cpp=${out%.o}.emu.cpp
names=${out%.o}.kernels

# g++'s own include directories less the CUDA toolkit's (where a toolkit is
# installed, /usr/local/include may hold its headers): a file's CUDA headers
# are the emulator's own (cuda_runtime.h, cooperative_groups.h,
# cuda_pipeline.h, ...) or missing, the same with a toolkit as without.
system_dirs=$(env -u CPATH -u CPLUS_INCLUDE_PATH g++ -std=c++17 -x c++ -E -v /dev/null 2>&1 |
    sed -n '/^#include <...> search starts here:/,/^End of search list/p' | sed '1d;$d' |
    while read -r dir; do
        [ -e "$dir/cuda_runtime_api.h" ] || [ -e "$dir/cooperative_groups.h" ] || printf ' -isystem %s' "$dir"
    done)

# g++ on the rewritten file as the emulator compiles it: C++17 against its
# CUDA headers, where __SANITIZE_ADDRESS__ stays undefined (see unseen_code).
libcudacxx='' gxx_cache='' runtime_h=$here/cuda_runtime.h
emu_gxx() {
    # shellcheck disable=SC2086
    env -u CPATH -u CPLUS_INCLUDE_PATH $gxx_cache g++ -std=c++17 -nostdinc $system_dirs $libcudacxx ${runtime_h:+-include "$runtime_h"} \
        -I"$here" -I"$here/../core/include" -U__SANITIZE_ADDRESS__ -U_FORTIFY_SOURCE "$@"
}

# Calls through a pointer go through the emulator's thunks, which refuse, in a kernel, a
# target that is not one of the functions this build compiles (marked at their entry):
# harness/emu/indirect.c.
pointer_calls="-mindirect-branch=thunk-extern -mindirect-branch-register -fno-jump-tables -fcf-protection=none -fpatchable-function-entry=1"

# -fno-gnu-unique: a template kernel's __shared__ array is a function-local
# static, which g++ would make a "unique" global symbol that objcopy cannot
# make local (isolate-symbols.sh refuses it); as a weak symbol it can.
instrumented="-fsanitize=address -fsanitize-sections=tl_shared,tl_constant --param asan-instrumentation-with-call-threshold=0
    --param asan-stack=0 --param asan-use-after-return=0 --param asan-globals=1
    -fno-exceptions -fno-rtti -fno-tree-vectorize -fno-tree-sra -fno-gnu-unique $pointer_calls -O1 -g"
# g++'s warnings where they stand in for nvcc's (step 2).
gxx_warnings="-Wall -Wextra -Werror -Wno-unknown-pragmas -Wno-sign-compare -Wno-unused-parameter -Wno-maybe-uninitialized"

# The precompiled headers (--header, above), with the warnings of step 2: where the
# headers themselves warned, every compile without nvcc would stop.
if [ -n "$header_only" ]; then
    mkdir -p "${pch%/*}"
    echo '#include <cuda_runtime.h>' >"$pch.$$" && mv "$pch.$$" "$pch"
    # shellcheck disable=SC2086
    runtime_h='' emu_gxx $instrumented $gxx_warnings -x c++-header "$pch" -o "$pch.gch.$$"
    mv "$pch.gch.$$" "$pch.gch"
    exit 0
fi

nvcc=${TL_EMU_NVCC-}
[ -n "$nvcc" ] || nvcc=$(command -v nvcc || { [ -x /usr/local/cuda/bin/nvcc ] && echo /usr/local/cuda/bin/nvcc; } || true)
[ "$nvcc" != none ] || nvcc=

# nvdisasm, which reads the widths of nvcc's memory instructions from its SASS (step 4).
nvdisasm=
if [ -n "$nvcc" ]; then
    nvdisasm=${TL_EMU_NVDISASM-}
    [ -n "$nvdisasm" ] || nvdisasm=$("$here/nvdisasm.sh" "$nvcc")
    [ "$nvdisasm" != none ] || nvdisasm=
fi

# A compile cache, where the Makefile's is asked for (TILELAB_CCACHE=DIR: make check, for
# every copy of the kit it builds): nvcc's check, its code for sm_90 and g++'s compile go
# through ccache, and a file compiled again with the same flags is a hit; nvdisasm's SASS of
# a cubin it read before is kept in DIR/nvdisasm. Unset, each is compiled and read.
cache='' sass_cache=''
if [ -n "${TILELAB_CCACHE-}" ]; then
    cache=$(command -v ccache || true)
    sass_cache=$TILELAB_CCACHE/nvdisasm
fi

# The GPU build's flags (Makefile, NVCC_FLAGS), for the architecture it would build for.
arch=${TL_EMU_ARCH:--arch=sm_90}
# Where step 4 reads SASS, the check keeps what nvcc compiled, with line numbers: its code
# for sm_90 (the H100 the emulator models, from compute_90 as -arch=sm_90 builds it) is
# then read from there, not compiled a second time (that took as long as the rest).
keep=
cubin=${out%.o}.sm_90.cubin
rm -f "$cubin"
if [ -n "$nvdisasm" ]; then
    keep=${out%.o}.keep
    rm -rf "$keep" && mkdir -p "$keep"
fi
# shellcheck disable=SC2086 # $arch: nvcc's flags, one or a -gencode list
nvcc_check() { # FLAGS...: its output in .nvcc.log
    [ -z "$keep" ] || set -- -lineinfo --keep --keep-dir "$keep" "$@"
    $cache "$nvcc" -c -O3 $arch -Wno-deprecated-gpu-targets -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror \
        -Xptxas -v -I"$here/../core/include" "$@" "$src" -o "${out%.o}.nvcc.o" >"${out%.o}.nvcc.log" 2>&1
}
# Each step says what it runs before it runs, so that errors sit under the
# compiler that wrote them (nvcc's under nvcc, not under g++): the file as the
# student knows it (TL_EMU_SHOWN, the Makefile's), then the tunables.
shown=${TL_EMU_SHOWN:-$src}
[ -z "$nvcc" ] || echo "nvcc -c $shown (nvcc's check before the CPU emulator's build: a GPU build compiles it so; warnings are errors)${*:+ $*}"
if [ -n "$nvcc" ] && ! nvcc_check "$@"; then
    [ -z "$keep" ] || rm -rf "$keep"
    # An nvcc that cannot work here (a host compiler too new for it, an
    # architecture it dropped) says nothing about the file: check without it.
    if grep -q -E 'unsupported GNU version|unsupported clang version|Unsupported gpu architecture' \
            "${out%.o}.nvcc.log"; then
        echo "note: $nvcc cannot compile here ($(head -1 "${out%.o}.nvcc.log")); the emulator checks the host/device rules itself" >&2
        nvcc=
    else
        grep -v -E '^ptxas info|bytes stack frame' "${out%.o}.nvcc.log" >&2
        names=$(echo "$arch" | grep -o -E 'sm_[0-9]+[a-z]?|native' | sort -u | tr '\n' ' ')
        why="the H100 the emulator models; CUDA_ARCH=sm_NN picks another"
        [ -z "${TL_EMU_ARCH-}" ] || why="as CUDA_ARCH asks"
        echo "The lines above are nvcc's errors in $src (it compiled for ${names% }: $why): a GPU build stops there too, so the emulator refuses the file as well. Fix the first one first." >&2
        exit 1
    fi
fi
if [ -n "$keep" ]; then
    base=$(basename "$src")
    for kept in "$keep/${base%.*}.sm_90.cubin" "$keep/${base%.*}.compute_90.sm_90.cubin"; do
        [ ! -f "$kept" ] || mv "$kept" "$cubin"
    done
    rm -rf "$keep"
fi
# Host code that reads a built-in of device code (warpSize, threadIdx, ...): nvcc compiles it,
# and the GPU build's link fails, for want of its symbol (emu-host-builtins).
[ -z "$nvcc" ] || "$tools/emu-host-builtins" "${out%.o}.nvcc.o" "$shown" || exit 1
echo "g++ -c $shown (for the CPU emulator; warnings are errors, as in the GPU build)${*:+ $*}"

# One program for both compilers: the emulator must count the code nvcc
# compiles. The file's own lines that survive its #if's, macros unexpanded
# (-fdirectives-only), are read as the emulator's build sees them and as
# nvcc's passes do for the H100 (sm_90), which the emulator models: device
# and host (without nvcc: g++ with nvcc's macros defined and not, the
# emulator's headers out of sight). A file whose lines differ (an #if on
# __CUDA_ARCH__, __CUDACC__, a macro of either's headers) is refused, naming
# the first such line.
own_lines() {
    awk -v src="$src" '/^# [0-9]+ "/ { line = $2; file = $3; gsub(/"/, "", file); next }
        file == src { if ($0 !~ /^[ \t]*$/) print line ": " $0; line++ }'
}
one_program() {
    pp=${out%.o}.pp shadow=${out%.o}.shadow
    # A file the emulator's build cannot preprocess (a toolkit header it lacks) is left to
    # the compile, which says what is missing.
    emu_gxx -x c++ -E -fdirectives-only "$@" "$src" >"$pp.emulator.i" 2>/dev/null || return 0
    own_lines <"$pp.emulator.i" >"$pp.emulator"
    # Every CUDA header the emulator has, empty: those views see none of its code.
    mkdir -p "$shadow/cooperative_groups" && for h in "$here"/*.h "$here"/cooperative_groups/*.h; do
        : >"$shadow/${h#"$here"/}"
    done
    for view in device $([ -n "$nvcc" ] && echo host || echo plain); do
        # shellcheck disable=SC2046 # the view's macro flags, one word each
        if [ -n "$nvcc" ]; then
            "$nvcc" -E -arch=sm_90 -Xcompiler -fdirectives-only -I"$here/../core/include" \
                $([ "$view" = device ] || echo -U__CUDA_ARCH__ -U__CUDA_ARCH_LIST__ -UCUDA_DOUBLE_MATH_FUNCTIONS) "$@" "$src"
        else
            g++ -std=c++17 -x c++ -E -fdirectives-only -I"$shadow" -I"$here/../core/include" \
                $([ "$view" = plain ] || echo -D__CUDACC__ -D__NVCC__ -D__CUDA_ARCH__=900) "$@" "$src"
        fi >"$pp.$view.i" 2>"$pp.log" || continue
        own_lines <"$pp.$view.i" >"$pp.$view"
        cmp -s "$pp.emulator" "$pp.$view" && continue
        line=$(diff "$pp.emulator" "$pp.$view" | sed -n 's/^[<>] \([0-9]*\):.*/\1/p' | sort -n | head -n 1)
        echo "$src:${line:-1}: the preprocessor keeps other code here for $([ -n "$nvcc" ] && echo "nvcc's $view pass" || echo nvcc) than for the emulator's build: an #if or #ifdef tells the two apart (__CUDA_ARCH__, __CUDACC__, a macro or header only one of them has). A lab file must be one program for both, since the emulator checks and counts the code the GPU runs: take the test out." >&2
        exit 1
    done
}
# disassemble CUBIN SASS: nvdisasm's SASS of CUBIN, with its lines, into SASS; from the
# cache (above) where it read the same cubin before, with the same nvdisasm.
disassemble() {
    key=
    if [ -n "$sass_cache" ]; then
        key=$({ stat -L -c '%n %s %Y' "$nvdisasm" && cat "$1"; } | sha256sum | cut -d ' ' -f 1)
        if cp "$sass_cache/$key" "$2" 2>/dev/null; then return 0; fi
    fi
    "$nvdisasm" -g -c "$1" >"$2" || return 1
    [ -z "$key" ] || { mkdir -p "$sass_cache" && cp "$2" "$sass_cache/$key.$$" && mv "$sass_cache/$key.$$" "$sass_cache/$key"; } || true
}
# The widths of nvcc's memory instructions per source line, from its SASS
# for sm_90, in the background while g++ compiles (step 4).
widths=-
if [ -n "$nvcc" ] && [ -n "$nvdisasm" ]; then
    widths=${out%.o}.widths
    # (-c: the same cubin, and one a compile cache keeps; where the check's came from the
    # cache, no file of nvcc's was kept.)
    { { [ -s "$cubin" ] || $cache "$nvcc" -c -cubin -O3 -arch=sm_90 -lineinfo -Wno-deprecated-gpu-targets -I"$here/../core/include" \
            "$@" "$src" -o "$cubin"; } && disassemble "$cubin" "${out%.o}.sass" &&
          "$tools/emu-sass-widths" "${out%.o}.sass" "$src" >"$widths"; } >"${out%.o}.sass.log" 2>&1 &
    sass=$!
fi

# libcu++ (<cuda/std/...>), which every CUDA toolkit has and which is written
# to compile with a host compiler too: the toolkit's own, where one is
# installed (CUDA 13 keeps it in include/cccl/, earlier ones in include/),
# through a folder that holds it alone (cuda/ and nv/, not the toolkit's other
# headers; TL_EMU_LIBCUDACXX=DIR names another, =none none). Only its
# cuda/std/ headers of what runs in one thread: the ones that wait (barrier,
# latch, semaphore, atomic's wait) would spin for ever here, where a thread
# runs until it meets a barrier the emulator knows.
libcudacxx_flags() {
    dir=${TL_EMU_LIBCUDACXX-}
    if [ -z "$dir" ]; then
        for base in ${nvcc:+"${nvcc%/bin/*}/include"} /usr/local/cuda/include; do
            for dir in "$base/cccl" "$base" ""; do
                [ -z "$dir" ] || [ ! -e "$dir/cuda/std/version" ] || break 2
            done
        done
    fi
    [ -n "$dir" ] && [ "$dir" != none ] && [ -e "$dir/cuda/std/version" ] || return 0
    mkdir -p "${out%.o}.libcudacxx"
    for h in cuda nv; do
        if [ -e "$dir/$h" ]; then ln -sfn "$(cd "$dir/$h" && pwd)" "${out%.o}.libcudacxx/$h"; fi
    done
    printf ' -isystem %s' "${out%.o}.libcudacxx"
}
# The file's <cuda/...> includes that the emulator's build cannot take, each with why.
libcudacxx_refused() {
    grep -n -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*<cuda/' "$src" | while IFS=: read -r line text; do
        h=$(echo "$text" | sed 's/.*<\(cuda\/[^>]*\)>.*/\1/')
        case "$h" in
        cuda/std/barrier | cuda/std/latch | cuda/std/semaphore | cuda/std/atomic)
            why="threads that wait for each other through libcu++ (barrier, latch, semaphore, atomic) are not supported by the tilelab CPU emulator, whose threads meet only at CUDA's own barriers and warp functions" ;;
        cuda/std/*)
            [ -z "$libcudacxx" ] || continue
            why="libcu++ comes with the CUDA toolkit, which is not installed here: the tilelab CPU emulator uses the toolkit's <cuda/std/...> headers where there is one" ;;
        *) why="libcu++'s headers outside cuda/std/ (pipelines, barriers, memory resources, ...) are not supported by the tilelab CPU emulator" ;;
        esac
        echo "$src:$line: <$h>: $why. A GPU runs it: run this lab on a GPU (make labN test GPU=cuda)"
    done
}

# A header of the CUDA toolkit the emulator does not provide (cuda_fp16.h,
# mma.h, cub, thrust, <cuda/pipeline>, ...): g++ says the file is missing,
# which reads as the student's mistake. Says what it is instead.
toolkit_headers() {
    sed -n 's/.*fatal error: \([^:]*\): No such file or directory.*/\1/p' "$1" | while read -r h; do
        case "$h" in
        cub/* | thrust/*) # what the kit's GPU build refuses too (harness/lab/isolate-symbols.sh, in its words)
            echo "$src: your lab file uses CUB or Thrust ($h). A library's algorithms are not a lab's" \
                "answer: write the kernels yourself, with CUDA's own headers (cuda_runtime.h and" \
                "cooperative_groups are fine)." >&2 ;;
        cu*.h | cu*.hpp | nv*.h | mma.h | sm_[0-9]*.h | math_functions.h* | texture_*.h | surface_*.h | \
            crt/* | cuda/* | nv/* | cooperative_groups/* | cccl/* | npp*.h | *_fp16.h | \
            *_bf16.h | *_fp8.h | *_fp4.h | *_fp6.h | device_*.h | driver_*.h | host_*.h | builtin_types.h)
            echo "$src: $h is a header of the CUDA toolkit that the tilelab CPU emulator does not provide:" \
                "what it declares is not supported by the emulator (its own CUDA headers are in" \
                "harness/emu/). A GPU runs it: run this lab on a GPU (make labN test GPU=cuda)" >&2 ;;
        esac
    done
}

# Names of CUDA the emulator's headers do not declare (texture and surface objects, an API
# it lacks): g++ says each "was not declared", which reads as the student's mistake. Where
# nvcc compiled the file (the check above), every such name is one: says so, naming the
# first few that the toolkit's headers declare. Without nvcc, only the names of texture and surface objects are known to be
# CUDA's, not a misspelling.
emulator_lacks() {
    cuda_include=$(dirname "$(dirname "$(readlink -f "$nvcc")")")/include
    lacked=$(sed -n "s/.*error: [‘'\`]\([A-Za-z_][A-Za-z0-9_]*\)[’'] \(was not declared in this scope\|has not been declared\|does not name a type\|is not a member of\).*/\1/p" "$1" |
        awk '!seen[$0]++' | while read -r name; do
            if [ -n "$nvcc" ]; then # a name in the toolkit's headers, not one the file declares
                grep -q -E "[A-Za-z0-9_>][ *&]+$name *[;=,)[]" "$src" ||
                    ! grep -q -w -- "$name" "$cuda_include"/*.h 2>/dev/null || echo "$name"
            else
                echo "$name" | grep -E '^(tex|surf)[0-9A-Z]|^cuda(Texture|Surface|Resource|Array|ChannelFormat|CreateChannelDesc|CreateTexture|CreateSurface|DestroyTexture|DestroySurface|Malloc3DArray|MallocArray|Memcpy2DToArray|Memcpy2DFromArray|MemcpyToArray|MemcpyFromArray|ReadMode|AddressMode|FilterMode)' || true
            fi
        done | head -n 5 | tr '\n' ' ')
    [ -n "$lacked" ] || return 0
    lacked=$(echo "${lacked% }" | sed 's/ /, /g')
    if [ -n "$nvcc" ]; then
        echo "$src: nvcc compiles this file, but the tilelab CPU emulator does not provide $lacked (names g++ could not find above): those errors are the emulator's limit, not mistakes in your file. A GPU runs it: run this lab on a GPU (make labN test GPU=cuda), or write it without them" >&2
    else
        echo "$src: $lacked: the tilelab CPU emulator does not provide texture and surface objects, so the errors above about them are its limit, not mistakes in your file. A GPU runs it: run this lab on a GPU (make labN test GPU=cuda), or read the matrix with plain loads" >&2
    fi
}

# Code the instrumentation cannot see: the emulator checks and counts every
# access of a kernel, and closes device memory to host code, by gcc's
# AddressSanitizer hooks. Inline assembly, and the attributes that turn the
# hooks off for a function, would go unseen (and nvcc never compiles them
# where they hide behind a macro the emulator's build alone defines): the
# file's own lines, preprocessed, may hold none. -U__SANITIZE_ADDRESS__:
# nor can a file tell the emulator's build by that macro.
unseen_code() {
    emu_gxx -E -fsanitize=address "$@" "$cpp" 2>/dev/null | awk -v src="$src" '
        /^# [0-9]+ "/ { line = $2; file = $3; gsub(/"/, "", file); next }
        file == src {
            # What rewrite itself writes for an extern __shared__ array: a name, no code.
            gsub(/__asm__\("tl_emu_cuda_dynamic_shared"\)/, "")
            # Code, not text: a string literal (a launch'"'"'s or a barrier'"'"'s __FILE__, which
            # names the file and its folders) may say asm, and runs as no code.
            code = $0
            gsub(/'"'"'([^'"'"'\\]|\\.)*'"'"'/, "0", code)
            gsub(/"([^"\\]|\\.)*"/, "\"\"", code)
            what = ""
            if (code ~ /(^|[^A-Za-z0-9_])(asm|__asm|__asm__)([^A-Za-z0-9_]|$)/) {
                printf "%s:%d: inline assembly (asm): the emulator checks and counts every memory access through the compiler'"'"'s instrumentation, which this would hide. The tilelab CPU emulator runs no inline PTX but an asm statement that only moves one special register into one variable (asm(\"mov.u32 %%0, %%%%tid.x;\" : \"=r\"(x)), with %%ctaid.y, %%laneid, %%lanemask_lt, %%clock64 or any other read-only special register of the PTX ISA), and this one is not that; a GPU runs it: run this lab on a GPU, or write it in CUDA C\n", src, line
                bad = 1
                line++
                next
            }
            if (code ~ /no_sanitize|no_address_safety_analysis/) what = "an attribute that turns off the emulator'"'"'s checks"
            else if (code ~ /^#pragma GCC optimize/ || code ~ /__attribute__.*optimize/) what = "an optimize pragma or attribute"
            if (what != "") {
                printf "%s:%d: %s: the emulator checks and counts every memory access through the compiler'"'"'s instrumentation, which this would hide; a lab file needs none\n", src, line, what
                bad = 1
            }
        }
        { line++ }
        END { exit bad }' >&2
}

emu_cxx() {
    gxx_cache=$cache
    # The precompiled headers, where none of the headers or scripts they come from is newer
    # (the Makefile's EMU_HEADERS, EMU_SCRIPTS); not through a compile cache, which would not
    # keep the result (ccache takes none unasked).
    if [ -z "$cache" ] && [ -f "$pch" ] && [ -f "$pch.gch" ] &&
        [ -z "$(find "$here" \( -name '*.h' -o -name '*.sh' \) -newer "$pch.gch")" ]; then
        runtime_h=$pch
    fi
    # shellcheck disable=SC2086
    if ! emu_gxx $instrumented "$@" -S "$cpp" -o "${out%.o}.s" 2>"${out%.o}.gxx.log"; then
        gxx_cache='' runtime_h=$here/cuda_runtime.h
        cat "${out%.o}.gxx.log" >&2
        toolkit_headers "${out%.o}.gxx.log"
        emulator_lacks "${out%.o}.gxx.log"
        exit 1
    fi
    gxx_cache='' runtime_h=$here/cuda_runtime.h
    cat "${out%.o}.gxx.log" >&2
    if [ "$widths" != - ] && ! wait "$sass"; then
        echo "note: nvcc could not compile $src for sm_90 (${out%.o}.sass.log): its accesses count as written" >&2
        widths=-
    fi
    "$tools/emu-sites" "$widths" "$src" "${out%.o}.s" "${out%.o}.sites.s"
    $cache g++ -c "${out%.o}.sites.s" -o "$out"
    # memcpy, memmove and memset that g++ leaves to the C library (a size it does not know)
    # go through the emulator's checked and counted ones, as every other access does, and so
    # do the maths functions that store a result through a pointer, and printf, whose %n does
    # (emulator.c); malloc and free in a kernel take the device's heap (in host code, the C
    # library's).
    maths=''
    for f in frexp modf remquo sincos; do
        maths="$maths --redefine-sym $f=tl_emu_cuda_$f --redefine-sym ${f}f=tl_emu_cuda_${f}f"
    done
    # shellcheck disable=SC2086
    objcopy --redefine-sym memcpy=__asan_memcpy --redefine-sym memmove=__asan_memmove \
        --redefine-sym memset=__asan_memset --redefine-sym malloc=tl_emu_cuda_malloc \
        --redefine-sym free=tl_emu_cuda_free --redefine-sym printf=tl_emu_cuda_printf $maths "$out"
}

libcudacxx=$(libcudacxx_flags)
refused=$(libcudacxx_refused)
if [ -n "$refused" ]; then
    echo "$refused" >&2
    exit 1
fi
one_program "$@"
if [ -n "$nvcc" ]; then
    # ptxas's registers and static shared memory of each kernel, which its first line passes on.
    c++filt <"${out%.o}.nvcc.log" >"${out%.o}.ptxas.log"
    "$rewrite" --names "$names" --resources "${out%.o}.ptxas.log" "$src" "$cpp"
    unseen_code "$@"
    emu_cxx -w "$@"
    grep -E '^ptxas (info|error)' "${out%.o}.nvcc.log" >"$resources" || true
    exit 0
fi

"$rewrite" --check-global --names "$names" "$src" "$cpp"
unseen_code "$@"
# shellcheck disable=SC2086
emu_cxx $gxx_warnings "$@"
# Every call still a call: where device code calls host code.
emu_gxx -O0 -fno-inline -w "$@" -c "$cpp" -o "${out%.o}.calls.o"
"$tools/emu-host-calls" "${out%.o}.calls.o" "$names" "$src"
"$tools/emu-shared-bytes" "$out" "$names" >"$resources"
