#!/bin/sh
# callgrind-totals.sh CALLGRIND.out
#
# Prints the data accesses and simulated misses of a callgrind run with
# --cache-sim=yes, in this order: Dr Dw D1mr D1mw DLmr DLmw. Printed with
# %.0f: mawk prints a number past 2^31 as 2.14748e+09 (print) or clamps it (%d).
exec awk '/^events:/ { for (i = 2; i <= NF; i++) col[$i] = i - 1 }
          /^(totals|summary):/ { for (i = 2; i <= NF; i++) v[i - 1] = $i }
          END { printf "%.0f %.0f %.0f %.0f %.0f %.0f\n", v[col["Dr"]], v[col["Dw"]], v[col["D1mr"]],
                       v[col["D1mw"]], v[col["DLmr"]], v[col["DLmw"]] }' "$1"
