#!/bin/sh
# device-code.sh resources|host-calls OBJ NAMES SRC
#
# Reads the device code of a lab file compiled for the emulator out of its
# object: which function calls which, and which statics each references.
# NAMES is rewrite's list of the functions the file declares __global__ or
# __device__ ("global NAME" / "device NAME" lines).
#
#   resources   the __shared__ bytes of each kernel, one line a kernel,
#               "emulator: kernel 'NAME' uses N bytes of shared memory"
#               (tests/gpu_technique.h reads it beside ptxas's lines): the arrays
#               it declares, those at file scope it uses, and those of the
#               __device__ functions it calls. Fails above 48 KiB, as ptxas.
#   host-calls  nvcc's "calling a __host__ function from a __global__
#               function is not allowed", for machines without nvcc: a call
#               from device code to a function of the file, or of the C++
#               library, that is not __device__. Read from an object built
#               with -O0 -fno-inline, where every call is still a call.
set -eu
mode=$1 obj=$2 names=$3 src=$4

{
    echo "#names"
    cat "$names"
    echo "#symbols"
    objdump -t "$obj" | c++filt
    echo "#relocs"
    objdump -r "$obj" | c++filt
} | awk -v mode="$mode" -v src="$src" '
    function hex(s,    i, v) {
        s = tolower(s); sub(/^0x/, "", s); v = 0
        for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
        return v
    }
    # "void ns::kern<64>(float*, int)" -> "kern"; lambdas and statics inside keep their owner.
    function qualified(name,    p, q) {
        p = index(name, "("); q = index(name, "<")
        if (q && (!p || q < p)) p = q
        if (p) name = substr(name, 1, p - 1)
        sub(/.* /, "", name)
        return name
    }
    function base(name,    q) {
        name = qualified(name)
        while ((q = index(name, "::")) > 0) name = substr(name, q + 2)
        return name
    }
    # "kern<64>(float*, int)" without its return type and parameters, for reports.
    function shown(name,    p) {
        p = index(name, "(")
        if (p) name = substr(name, 1, p - 1)
        if (name ~ /^[A-Za-z_0-9:<>, ]* [A-Za-z_][A-Za-z_0-9:]*(<.*>)?$/ && index(name, " ") < (index(name, "<") ? index(name, "<") : length(name) + 1))
            sub(/^[^ <]* /, "", name)
        return name
    }
    /^#names/ { part = 1; next }
    /^#symbols/ { part = 2; next }
    /^#relocs/ { part = 3; next }
    part == 1 { kind[$2] = $1; next }
    part == 2 && /^[0-9a-f]+ / {
        line = $0; tab = index(line, "\t")
        if (!tab) next
        flags = substr(line, 18, 7); sec = substr(line, 26, tab - 26)
        rest = substr(line, tab + 1); size = hex(substr(rest, 1, index(rest, " ") - 1))
        name = substr(rest, index(rest, " ") + 1)
        value = hex($1)
        if (index(flags, "F")) {
            nf++; fsec[nf] = sec; flo[nf] = value; fhi[nf] = value + size; fname[nf] = name
        } else if (index(flags, "O") || sec == "*COM*") {
            if (sec == "tl_shared" || (index(name, ")::") && sec ~ /^(\.bss|\*COM\*)/)) {
                shared_size[name] = size
                if (sec == "tl_shared") { ns++; slo[ns] = value; shi[ns] = value + size; sname[ns] = name }
            }
        }
        next
    }
    part == 3 && /^RELOCATION RECORDS FOR/ {
        rsec = $0; sub(/^RELOCATION RECORDS FOR \[/, "", rsec); sub(/\]:$/, "", rsec); next
    }
    part == 3 && /^[0-9a-f]+ R_/ {
        off = hex($1); type = $2
        target = $0; sub(/^[0-9a-f]+ +[A-Z_0-9]+ +/, "", target)
        addend = 0
        if (match(target, /[-+]0x[0-9a-f]+$/)) {
            addend = hex(substr(target, RSTART + 1)); if (substr(target, RSTART, 1) == "-") addend = -addend
            target = substr(target, 1, RSTART - 1)
        }
        # The function of this section whose code holds the relocation.
        from = 0
        for (f = 1; f <= nf; f++) if (fsec[f] == rsec && off >= flo[f] && off < fhi[f]) { from = f; break }
        if (!from) next
        if (target == "tl_shared") {
            at = addend + (type ~ /PC32|PLT32/ ? 4 : 0)
            for (s = 1; s <= ns; s++) if (at >= slo[s] && at < shi[s]) { uses[from, sname[s]] = 1; used[from] = used[from] " " s }
        } else if (target in shared_size) {
            uses[from, target] = 1
            for (s = 1; s <= ns; s++) if (sname[s] == target) break
            if (s > ns) { ns++; sname[ns] = target }
            used[from] = used[from] " " s
        } else if (type ~ /PLT32/) {
            ncalls++; caller[ncalls] = from; callee[ncalls] = target
        }
        next
    }
    function device(f) { return base(fname[f]) in kind }
    # Every shared array a function reaches, through the functions it calls.
    function reach(f, k,    c, g, i, n, list) {
        if (seen[k, f]) return
        seen[k, f] = 1
        n = split(used[f], list, " ")
        for (i = 1; i <= n; i++) if (!got[k, list[i]]) { got[k, list[i]] = 1; bytes[k] += shared_size[sname[list[i]]] }
        for (c = 1; c <= ncalls; c++) if (caller[c] == f)
            for (g = 1; g <= nf; g++) if (fname[g] == callee[c]) reach(g, k)
    }
    END {
        if (mode == "resources") {
            status = 0
            for (f = 1; f <= nf; f++) {
                if (kind[base(fname[f])] != "global" || index(fname[f], "::{lambda")) continue
                reach(f, f)
                printf "emulator: kernel '\''%s'\'' uses %.0f bytes of shared memory (registers: only nvcc can count them)\n", shown(fname[f]), bytes[f]
                if (bytes[f] > 49152) {
                    printf "ptxas error   : Entry function '\''%s'\'' uses too much shared data (0x%x bytes, 0xc000 max)\n", shown(fname[f]), bytes[f] > "/dev/stderr"
                    status = 1
                }
            }
            exit status
        }
        # host-calls: what device code may call besides device code.
        # What the emulator headers give device code besides: the CUDA __ names (intrinsics,
        # warp functions), make_ functions, atomics, cooperative groups.
        cuda_device_names = "^(make_[a-z]+[1-4](_16a|_32a)?|atomic[A-Z][A-Za-z]*|rsqrtf|rsqrt|rcbrtf?|normcdff?|erfcinvf?|erfinvf?|sincospif?|sinpif?|cospif?|exp10f?|fdividef|saturate)$"
        split("min max make_float2 make_float4 __ldg dim3 uint3 tl_emu_configure __fdividef fdividef __fmaf_rn __fadd_rn __fmul_rn __frcp_rn rsqrtf __saturatef __expf __logf __sinf __cosf __powf __float_as_int __int_as_float", l, " ")
        for (i in l) header[l[i]] = 1
        split("abs fabs sqrt cbrt exp exp2 expm1 log log2 log10 log1p pow sin cos tan asin acos atan atan2 sinh cosh tanh asinh acosh atanh floor ceil round lround llround trunc rint lrint llrint nearbyint fmod remainder remquo fma fmin fmax fdim hypot ldexp frexp modf scalbn scalbln ilogb logb nextafter copysign erf erfc tgamma lgamma isnan isinf isfinite isnormal signbit nan", l, " ")
        for (i in l) math[l[i]] = 1
        status = 0
        for (c = 1; c <= ncalls; c++) {
            f = caller[c]; t = callee[c]
            if (!device(f) || index(t, "(") == 0) continue   # host code, or a C function (printf, sqrtf)
            b = base(t)
            if (qualified(t) ~ /^std::/) {
                if (b in math) continue
            } else if (b in kind || b in header || b ~ /^(tl_emu_|__)/ || b ~ cuda_device_names ||
                       qualified(t) ~ /^(cooperative_groups|nvcuda|cuda)::/) continue
            k = kind[base(fname[f])] == "global" ? "__global__" : "__device__"
            key = t SUBSEP fname[f]
            if (key in told) continue
            told[key] = 1
            printf "%s: error: calling a __host__ function(\"%s\") from a %s function(\"%s\") is not allowed: only __device__ functions run on the GPU (nvcc refuses this file)\n", src, shown(t), k, shown(fname[f]) > "/dev/stderr"
            status = 1
        }
        exit status
    }'
