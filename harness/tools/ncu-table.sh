#!/usr/bin/env bash
# ncu-table.sh OUT.csv ROWS COLS DEPTH VARIANT=NCU.csv...
#
# Turns what `ncu --csv --metrics ...` printed while the bench ran each
# variant (one row per kernel launch and metric) into the CSV the
# emulator's profile writes, one row per variant and kernel, and shows it
# with profile-table.sh: the same table on a GPU as on the emulator. Of
# each kernel's launches it keeps the largest grid, the one at the
# profile's size (the bench also checks its result at smaller shapes).
#
# Requests and sectors are ncu's own. A global atomic or reduction counts, as on
# the emulator, as a load and a store of its sectors, where ncu counts it apart
# (the Makefile's NCU_ATOMICS). What the threads of an atomic asked for, in
# bytes, is not among ncu's counts (its bytes of reductions are their sectors',
# its count of their threads n/a on an H200): where a kernel ran atomics its
# bytes, and so its global efficiency, are left unknown. Global efficiency needs
# smsp__sass_average_data_bytes_per_sector_mem_global_op_{ld,st}.pct and
# shared requests smsp__sass_inst_executed_op_shared_{ld,st}.sum; without
# them the table says "?" and counts shared requests as the passes a
# conflict-free request would take (l1tex wavefronts less bank conflicts).
set -eu
out=$1 rows=$2 cols=$3 depth=$4
shift 4
{
    echo "# tilelab profile measured by Nsight Compute (ncu)"
    sed -n 's/^# machine: /# machine: /p' "${1#*=}" | head -1
    echo "variant,kernel,rows,cols,depth,launches,blocks,threads,global_load_requests,global_load_sectors,global_store_requests,global_store_sectors,shared_load_requests,shared_load_wavefronts,shared_store_requests,shared_store_wavefronts,global_load_bytes,global_store_bytes,shared_load_ideal,shared_store_ideal"
    for pair in "$@"; do
        awk -F'","' -v variant="${pair%%=*}" -v shape="$rows,$cols,$depth" '
            { gsub(/^"|"$/, "") }
            /Metric Name/ { for (i = 1; i <= NF; i++) col[$i] = i; next }
            !("Metric Name" in col) || NF < 5 { next }
            function product(dims,    d, n, i, p) {
                gsub(/[() ]/, "", dims); n = split(dims, d, ","); p = 1
                for (i = 1; i <= n; i++) p *= d[i]
                return p
            }
            # A kernel by its name alone, as profile.c writes the emulator'"'"'s: no
            # return type, parameters or template arguments.
            {
                id = $col["ID"]; name = $col["Kernel Name"]; sub(/\(.*/, "", name); sub(/^void /, "", name); sub(/<.*/, "", name)
                v = $col["Metric Value"]; gsub(/,/, "", v)
                m[id, $col["Metric Name"]] = v; has[id, $col["Metric Name"]] = 1
                if (!(id in kernel)) {
                    kernel[id] = name; blocks[id] = product($col["Grid Size"]); threads[id] = blocks[id] * product($col["Block Size"])
                    if (!(name in best) || blocks[id] > blocks[best[name]]) best[name] = id
                    if (!(name in seen)) { seen[name] = 1; order[n++] = name }
                }
            }
            # Counts pass through as text: printed as numbers, mawk would round them to 6 digits.
            function get(id, metric) { return has[id, metric] ? m[id, metric] : "" }
            # Of the atomics and reductions: their requests or sectors.
            function atomic(id, what,    p) {
                p = "l1tex__t_" what "_pipe_lsu_mem_global_op_"
                return get(id, p "red.sum") + get(id, p "atom.sum")
            }
            function global(id, what, dir) {
                return sprintf("%.0f", get(id, "l1tex__t_" what "_pipe_lsu_mem_global_op_" dir ".sum") + atomic(id, what))
            }
            function bytes(id, dir,    pct, sectors) {
                pct = get(id, "smsp__sass_average_data_bytes_per_sector_mem_global_op_" dir ".pct")
                sectors = get(id, "l1tex__t_sectors_pipe_lsu_mem_global_op_" dir ".sum")
                return pct == "" || atomic(id, "requests") > 0 ? "" : sprintf("%.0f", pct / 100 * 32 * sectors)
            }
            function shared(id, dir,    waves, ideal, req) {
                waves = get(id, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_" dir ".sum")
                ideal = sprintf("%.0f", waves - get(id, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_" dir ".sum"))
                req = get(id, "smsp__sass_inst_executed_op_shared_" dir ".sum")
                s_req[dir] = req == "" ? ideal : req; s_waves[dir] = waves; s_ideal[dir] = ideal
            }
            END {
                for (k = 0; k < n; k++) {
                    id = best[order[k]]; p = "l1tex__t_"
                    shared(id, "ld"); shared(id, "st")
                    printf "%s,%s,%s,1,%.0f,%.0f,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", variant, order[k], shape, blocks[id], threads[id],
                        global(id, "requests", "ld"), global(id, "sectors", "ld"),
                        global(id, "requests", "st"), global(id, "sectors", "st"),
                        s_req["ld"], s_waves["ld"], s_req["st"], s_waves["st"],
                        bytes(id, "ld"), bytes(id, "st"), s_ideal["ld"], s_ideal["st"]
                }
            }' "${pair#*=}"
    done
} >"$out"
"$(dirname "$0")/profile-table.sh" "$out"
