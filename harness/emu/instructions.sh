#!/bin/sh
# instructions.sh widths SASS.txt SRC
# instructions.sh sites WIDTHS|- SRC IN.s OUT.s
#
# What nvcc makes of each memory access of a lab file, for the emulator's
# counts: ncu counts instructions, and nvcc merges a thread's neighbouring
# scalar accesses into one wider instruction (four floats of a row into one
# STS.128 or LDS.128) wherever it can prove the alignment; ptxas does some
# of it, so the PTX does not show it all, the SASS does.
#
#   widths  reads `nvdisasm -g` of the file's cubin for sm_90 (compiled
#           with -lineinfo) and prints, for each line of SRC with global or
#           shared loads or stores, "LINE GL GS SL SS": per kind (global
#           load, global store, shared load, shared store) the sizes in
#           bytes of its instructions, one bit each (4 | 16 = 20: LDS and
#           LDS.128). Generic LD/ST count for global and shared alike.
#   sites   adds to g++'s assembly of the instrumented file (IN.s) a table,
#           section tl_sites, that emulator.c reads: for each call of an
#           __asan_load/__asan_store check, its return address (the pc the
#           emulator records), the first check of the same source expression
#           (line and column: copies of one expression that g++ unrolled or
#           inlined are one site), its line and the widths WIDTHS gives that
#           line. A first entry with pc 0 says whether the widths are known
#           (its line is 1) or not (0: WIDTHS is -, and the emulator counts
#           the accesses as written).
set -eu
mode=$1
shift
case "$mode" in
widths)
    sass=$1 src=$2
    awk -v base="${src##*/}" '
        # //## File "/path/to/transpose.cu", line 42
        /^[ \t]*\/\/## File "/ {
            f = $0; sub(/^[^"]*"/, "", f); file = f; sub(/".*/, "", file)
            l = f; sub(/.*, line /, "", l); line = l + 0
            n = split(file, parts, "/"); main = parts[n] == base
            next
        }
        # /*0460*/  @!P1 LDS.U.128 R8, [R17+0x10] ;
        main && /^[ \t]*\/\*[0-9a-f]+\*\// {
            sub(/^[ \t]*\/\*[0-9a-f]+\*\/[ \t]*/, "")
            if ($1 ~ /^@/) $0 = substr($0, index($0, $1) + length($1))
            n = split($1, op, ".")
            kinds = op[1] == "LDG" ? "GL" : op[1] == "STG" ? "GS" : op[1] == "LDS" ? "SL" : op[1] == "STS" ? "SS" : \
                    op[1] == "LD" ? "GL SL" : op[1] == "ST" ? "GS SS" : ""
            if (kinds == "") next
            bytes = 4
            for (i = 2; i <= n; i++)
                if (op[i] == "128") bytes = 16
                else if (op[i] == "64") bytes = 8
                else if (op[i] == "U16" || op[i] == "S16") bytes = 2
                else if (op[i] == "U8" || op[i] == "S8") bytes = 1
            k = split(kinds, kind, " ")
            for (i = 1; i <= k; i++) w[line, kind[i]] = or_bits(w[line, kind[i]], bytes)
            seen[line] = 1
        }
        function or_bits(a, b) { return int(a / b) % 2 ? a : a + b } # b is one bit
        END {
            for (l in seen) printf "%d %d %d %d %d\n", l, w[l, "GL"], w[l, "GS"], w[l, "SL"], w[l, "SS"]
        }' "$sass" | sort -n
    ;;
sites)
    widths=$1 src=$2 in=$3 out=$4
    # Pass 1 reads WIDTHS and the assembly's file table; pass 2 copies the assembly.
    awk -v base="${src##*/}" -v widths="$widths" '
        BEGIN {
            known = widths != "-"
            while (known && (getline w < widths) > 0) {
                split(w, f, " "); masks[f[1]] = f[2] ", " f[3] ", " f[4] ", " f[5]
            }
        }
        # .file 1 "labs/03-gpu-naive/transpose.cu" (a directory may come first, in quotes too)
        FNR == NR { if ($1 == ".file" && $2 ~ /^[0-9]+$/) { name = $NF; gsub(/"/, "", name); n = split(name, p, "/"); if (p[n] == base) main[$2] = 1 }; next }
        $1 == ".loc" { file = $2; line = $3; col = $4 }
        { print }
        /^[ \t]*call[ \t].*__asan_(load|store)/ {
            printf ".Ltl_pc_%d:\n", n_sites
            l = file in main ? line : 0
            key = l ":" col ":" ($0 ~ /__asan_load/ ? "ld" : "st")
            if (!(key in first)) first[key] = n_sites
            site_line[n_sites] = l; site_first[n_sites] = first[key]; n_sites++
        }
        END {
            print "\t.section\ttl_sites,\"aw\""
            print "\t.balign\t8"
            printf "\t.quad\t0, 0\n\t.long\t%d\n\t.byte\t0, 0, 0, 0\n", known
            for (i = 0; i < n_sites; i++) {
                printf ".Ltl_site_%d:\n\t.quad\t.Ltl_pc_%d, .Ltl_site_%d\n", i, i, site_first[i]
                printf "\t.long\t%d\n\t.byte\t%s\n", site_line[i], site_line[i] in masks ? masks[site_line[i]] : "0, 0, 0, 0"
            }
        }' "$in" "$in" >"$out"
    ;;
*)
    echo "usage: instructions.sh widths SASS.txt SRC | sites WIDTHS|- SRC IN.s OUT.s" >&2
    exit 2
    ;;
esac
