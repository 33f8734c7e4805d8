#!/bin/sh
# profile-table.sh PROFILE.csv
#
# The table of `make labN profile`, from the CSV the emulator's profile
# writes or the one ncu-table.sh makes of Nsight Compute's: the same
# columns, the same table, so a count on the emulator and a measure on a
# GPU read side by side. Per kernel and per launch: requests (one load or
# store instruction run by a warp), 32-byte sectors or shared-memory passes
# (wavefronts) per request, and the efficiency of each.
set -eu
CSV_ROWS=${CSV_ROWS:-${B:-build}/csv-rows}
# The columns it shows, read by csv-rows (the kit's reader of its CSVs); a count
# the profile lacks (ncu's without its efficiency metrics) is empty, and shown as "?".
"$CSV_ROWS" --header "$1" variant kernel rows cols 'depth?' 'launches?' \
    'global_load_requests?' 'global_load_sectors?' 'global_load_bytes?' \
    'global_store_requests?' 'global_store_sectors?' 'global_store_bytes?' \
    'shared_load_requests?' 'shared_load_wavefronts?' 'shared_load_ideal?' \
    'shared_store_requests?' 'shared_store_wavefronts?' 'shared_store_ideal?' \
    'blocks?' 'barriers?' 'warp_shuffles?' 'warp_syncs?' 'divergent_requests?' \
    'global_atomic_requests?' 'shared_atomic_requests?' |
machine=$("$CSV_ROWS" --fact machine "$1") awk -F'\t' '
    NR == 1 { machine = ENVIRON["machine"]; for (i = 1; i <= NF; i++) col[$i] = i; next }
    function v(name) { return $col[name] != "" ? $col[name] + 0 : -1 }
    function cells(req, cost, eff, launches,    r) {
        if (req <= 0) return sprintf(" %9s %6s %5s", "0", "-", "-")
        r = req / launches
        return sprintf(" %9.0f %6.1f %5s", r, cost / req, eff < 0 ? "?" : sprintf("%.0f%%", eff))
    }
    # Global: the bytes the threads asked for over the bytes of the sectors moved.
    function global_eff(bytes, sectors) { return bytes < 0 || sectors <= 0 ? -1 : 100 * bytes / (32 * sectors) }
    # Shared: the passes the request needs at best over the passes it took.
    function shared_eff(ideal, waves) { return ideal < 0 || waves <= 0 ? -1 : 100 * ideal / waves }
    {
        n++
        launches = v("launches"); if (launches < 1) launches = 1
        line[n] = sprintf("%-10s %-22.22s%s%s%s%s", $col["variant"] == last ? "" : $col["variant"], $col["kernel"],
            cells(v("global_load_requests"), v("global_load_sectors"), global_eff(v("global_load_bytes"), v("global_load_sectors")), launches),
            cells(v("global_store_requests"), v("global_store_sectors"), global_eff(v("global_store_bytes"), v("global_store_sectors")), launches),
            cells(v("shared_load_requests"), v("shared_load_wavefronts"), shared_eff(v("shared_load_ideal"), v("shared_load_wavefronts")), launches),
            cells(v("shared_store_requests"), v("shared_store_wavefronts"), shared_eff(v("shared_store_ideal"), v("shared_store_wavefronts")), launches))
        # What a block did besides moving memory, where the profile counts it (the emulator does).
        blocks = v("blocks")
        if (blocks > 0 && v("barriers") >= 0) {
            per = blocks
            blockline[n] = sprintf("%-10s %-22.22s %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f",
                $col["variant"] == blocklast ? "" : $col["variant"], $col["kernel"],
                v("divergent_requests") / per, v("barriers") / per, v("warp_shuffles") / per,
                v("warp_syncs") / per, v("shared_load_wavefronts") / per + v("shared_store_wavefronts") / per,
                (v("global_atomic_requests") + v("shared_atomic_requests")) / per, v("global_store_requests") / per)
            blockrows++
            blocklast = $col["variant"]
        }
        last = $col["variant"]
        shape = $col["rows"] " x " $col["cols"] ($col["depth"] > 0 && $col["depth"] != $col["cols"] ? " (x " $col["depth"] ")" : "")
    }
    END {
        if (!n) { print "no kernel ran: nothing to show"; exit 1 }
        printf "Memory requests per launch, at %s, on %s.\n\n", shape, machine
        printf "%-10s %-22s %22s %22s %22s %22s\n", "", "", "global loads", "global stores", "shared loads", "shared stores"
        printf "%-10s %-22s %9s %6s %5s %9s %6s %5s %9s %6s %5s %9s %6s %5s\n", "variant", "kernel",
               "requests", "sector", "eff", "requests", "sector", "eff", "requests", "passes", "eff", "requests", "passes", "eff"
        for (i = 1; i <= n; i++) print line[i]
        print ""
        print "A request is one load or store instruction run by a warp (32 threads), as Nsight"
        print "Compute counts them. sector: 32-byte sectors it moved; passes: shared-memory"
        print "wavefronts it took. eff: for global memory, the bytes the threads asked for over"
        print "the bytes of those sectors; for shared memory, the passes it needs at best (one"
        print "per 128 bytes) over the passes it took. 100% is perfect for float, float2 and"
        print "float4 alike: 32 floats move 4 sectors, 32 float4s 16; a float per thread in a"
        print "sector of its own is 12%, and a column of a 32 x 32 float tile takes 32 passes (3%)."
        if (!blockrows) exit
        print ""
        print "What a block did, on average over the launch'"'"'s blocks."
        print ""
        printf "%-10s %-22s %9s %9s %9s %9s %9s %9s %9s\n", "variant", "kernel",
               "divergent", "barriers", "shuffles", "syncwarps", "sh.passes", "atomics", "g.stores"
        for (i = 1; i <= n; i++) if (i in blockline) print blockline[i]
        print ""
        print "divergent: memory requests that only some lanes of a warp made, the others having"
        print "taken the other side of a branch (a divergent warp). barriers: __syncthreads() the"
        print "block passed. shuffles: warp shuffles (and __reduce_*_sync); syncwarps: __syncwarp()s,"
        print "each once a warp. sh.passes: shared-memory passes, loads and stores. atomics: atomic"
        print "requests. g.stores: global store requests, atomics among them: the partial results"
        print "a block stored."
    }'
