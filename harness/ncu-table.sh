#!/usr/bin/env bash
# ncu-table.sh NCU.csv
#
# Turns the CSV of `ncu --csv --metrics ...` (one row per kernel launch and
# metric) into one line per launch: sectors per global request and shared
# wavefronts per request, the figures the emulator's profile shows too.
# The bench runs the reference first, then the student's code; each checks
# its result once and then runs the timed launch.
set -eu
awk -F'","' '
    { gsub(/^"|"$/, "") }
    /Metric Name/ {
        for (i = 1; i <= NF; i++) col[$i] = i
        next
    }
    !("Metric Name" in col) { next }
    {
        id = $col["ID"]; name[id] = $col["Kernel Name"]
        v = $col["Metric Value"]; gsub(/,/, "", v)
        m[id, $col["Metric Name"]] = v + 0
        if (!(id in seen)) { seen[id] = 1; order[n++] = id }
    }
    function per(a, b) { return b > 0 ? sprintf("%6.1f", a / b) : "     -" }
    END {
        printf "%-4s %-32s %10s %6s %10s %6s %10s %6s %10s %6s\n", "id", "kernel",
               "ld req", "sect", "st req", "sect", "sh ld", "ways", "sh st", "ways"
        for (k = 0; k < n; k++) {
            id = order[k]
            p = "l1tex__t_"; s = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_"
            lr = m[id, p "requests_pipe_lsu_mem_global_op_ld.sum"]; ls = m[id, p "sectors_pipe_lsu_mem_global_op_ld.sum"]
            sr = m[id, p "requests_pipe_lsu_mem_global_op_st.sum"]; ss = m[id, p "sectors_pipe_lsu_mem_global_op_st.sum"]
            shl = m[id, s "ld.sum"]; shs = m[id, s "st.sum"]
            bl = m[id, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"]
            bs = m[id, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"]
            printf "%-4s %-32.32s %10d %s %10d %s %10d %s %10d %s\n", id, name[id], lr, per(ls, lr),
                   sr, per(ss, sr), shl - bl, per(shl, shl - bl), shs - bs, per(shs, shs - bs)
        }
    }' "$1"
echo
echo "Sectors per request: 4 is perfect for 32 floats. Ways: shared wavefronts per request,"
echo "1 without bank conflicts. The reference's launches come first, then yours."
