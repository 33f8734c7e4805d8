#!/bin/sh
# isolate-symbols.sh IN.o OUT.o [PREFIX]
#
# Makes every symbol a compiled lab file defines local, except its entry
# points (lab.h's, each declared once in its operation's file, harness/core/ops/): strong, weak,
# common or unique, none stays global (an IFUNC is refused, below). A lab file's helpers and
# kernels then never collide with the harness's or with another lab
# file's, and a lab file cannot replace a harness function (memcmp, the
# checker). With PREFIX the entry points are renamed (transpose ->
# reference_transpose), so the bench links the student's file and the
# reference beside each other. A lab file that refers to the reference's
# entry points (reference_*) is refused: it would run the reference's code
# wherever both are linked.
set -eu
in=$1 out=$2 prefix=${3:-}
# nm as gcc runs it (gcc-nm: with gcc's own LTO plugin, of the compiler that made these
# objects): plain nm loads every plugin of bfd-plugins/, and where LLVM is installed its
# LLVMgold and libLLVM with it, 17 ms of a call's 19 (five calls a lab file's build).
nm=$(command -v gcc-nm || echo nm)
# lab.h's entry points, as the operations' files declare them (TL_ENTRY_POINT(name), op.h).
ops=$(dirname "$0")/../core/ops
entries=" $(sed -n 's/^TL_ENTRY_POINT(\([A-Za-z_0-9]*\));.*/\1/p' "$ops"/*.c | tr '\n' ' ')"
[ "$entries" != " " ] || { echo "isolate-symbols.sh: no entry points in $ops" >&2; exit 1; }
calls=$("$nm" --format=posix -u "$in" | while read -r sym _; do
    case "$sym" in reference_*) printf ' %s' "$sym" ;; esac
done)
if [ -n "$calls" ]; then
    echo "$in: the lab file refers to the reference's own code:$calls. Write your own" >&2
    exit 1
fi
# Of the kit's own code, a lab file may call what the emulator's headers emit for a
# kernel (its launch, its threads' coordinates, a barrier, and the CUDA functions the
# emulator implements, tl_emu_cuda_*) and TODO() (tilelab_todo); the
# rest (the launch log the technique checks read, the emulator's counts, the checks, the
# plans) is the kit's to call, not the lab's.
calls=$("$nm" --format=posix -u "$in" | while read -r sym _; do
    case "$sym" in tl_emu_launch | tl_emu_builtin | tl_emu_syncthreads_at | tl_emu_cuda_*) ;; tl_*) printf ' %s' "$sym" ;; esac
done)
if [ -n "$calls" ]; then
    echo "$in: the lab file calls the kit's own code:$calls. A lab file calls CUDA and the" \
        "C library, and TODO() until it is done" >&2
    exit 1
fi
# Code that runs before main's own first line: the emulator's lab process is
# confined from .preinit_array (harness/lab/lab_runner.c), ahead of every
# constructor, and an IFUNC's resolver runs earlier still, while the program
# is loaded. A lab file has neither.
ifuncs=$("$nm" --format=posix "$in" | while read -r sym type _; do
    case "$type" in i) printf ' %s' "$sym" ;; esac
done)
if [ -n "$ifuncs" ] || objdump -h "$in" | grep -q '[.]preinit_array'; then
    echo "$in: the lab file has code that runs as the program is loaded (an IFUNC or a" \
        ".preinit_array entry), before the kit sets up. A lab file needs neither: take it out" >&2
    exit 1
fi
# Valgrind's client requests (valgrind.h, callgrind.h) start with this
# sequence on amd64 (rolq $3, $13, $61, $51 of %rdi); with one a lab file
# could zero or pause the cache simulation the grader measures CPU labs by.
preamble=$(printf '\110\301\307\003\110\301\307\015\110\301\307\075\110\301\307\063')
if LC_ALL=C grep -q -a -F -e "$preamble" "$in"; then
    echo "$in: the lab file holds valgrind's client-request instructions (from valgrind.h or" \
        "callgrind.h): they would change what valgrind measures. Take them out" >&2
    exit 1
fi
# A template's instance and its static __shared__ tile each sit in a COMDAT group
# named after their symbol, and the linker keeps one group of a name: a student's
# file with the reference's templates (transpose_unrolled<8>) took the reference's
# code out of the bench. With PREFIX those symbols get a suffix (.reference), which
# keeps a static's _ZZ, by which the emulator finds it (harness/emu/statics.c).
# The compiler's own pointers in a group (DW.ref.__gxx_personality_v0, which a C++ file's
# unwind tables read) get one too, .lab, without PREFIX: made local under their own name,
# the lab file's group took the place of the kit's C++ objects' (the bench's CUB) and left
# their references undefined.
groups=" $(readelf -gW "$in" | sed -n 's/^COMDAT group section .*\[\(.*\)\] contains .*/\1/p' | tr '\n' ' ')"
set --
for sym in $("$nm" --format=posix --defined-only -g "$in" | while read -r sym _; do echo "$sym"; done); do
    case "$entries" in
    *" $sym "*) [ -z "$prefix" ] || set -- "$@" --redefine-sym "$sym=$prefix$sym" ;;
    *) case "$groups" in
       *" $sym "*) if [ -n "$prefix" ]; then # objcopy localizes by the new name
                       set -- "$@" --redefine-sym "$sym=$sym.${prefix%_}" --localize-symbol "$sym.${prefix%_}"
                   elif [ "${sym#DW.ref.}" != "$sym" ]; then
                       set -- "$@" --redefine-sym "$sym=$sym.lab" --localize-symbol "$sym.lab"
                   else set -- "$@" --localize-symbol "$sym"; fi ;;
       *) set -- "$@" --localize-symbol "$sym" ;;
       esac ;;
    esac
done
objcopy "$@" "$in" "$out"
# What objcopy cannot make local (a common symbol) must not stay global either,
# but for the CUDA toolkit's own inline variables (libcu++'s, in cuda::, which
# cooperative_groups/reduce.h and <cuda/std/...> define in every file that
# includes them): unique symbols (u), the same bytes in every object, which
# objcopy cannot make local and which collide with nothing of the kit's.
left=$("$nm" --format=posix --defined-only -g "$out" | while read -r sym type _; do
    case "$entries" in *" ${sym#"$prefix"} "*) continue ;; esac
    case "$type:$sym" in u:_ZN4cuda*) continue ;; esac
    printf ' %s' "$sym"
done)
if [ -n "$left" ]; then
    rm -f "$out"
    case "$left" in
    *3cub*|*6thrust*) # CUB's and Thrust's own (_ZN3cub..., _ZN6thrust...): a library's, not the student's
        echo "$in: your lab file uses CUB or Thrust (cub::, thrust::), whose code its symbols are:$left." \
            "A library's algorithms are not a lab's answer: write the kernels yourself, with" \
            "CUDA's own headers (cuda_runtime.h and cooperative_groups are fine)." >&2 ;;
    *) echo "$in: these symbols of the lab file cannot be made local:$left (declare them static)" >&2 ;;
    esac
    exit 1
fi
