#!/bin/sh
# callgrind-totals.sh CALLGRIND.out
#
# Prints the data accesses and simulated misses of a callgrind run with
# --cache-sim=yes, in this order: Dr Dw D1mr D1mw DLmr DLmw.
exec awk '/^events:/ { for (i = 2; i <= NF; i++) col[$i] = i - 1 }
          /^(totals|summary):/ { for (i = 2; i <= NF; i++) v[i - 1] = $i }
          END { print v[col["Dr"]] + 0, v[col["Dw"]] + 0, v[col["D1mr"]] + 0, v[col["D1mw"]] + 0,
                      v[col["DLmr"]] + 0, v[col["DLmw"]] + 0 }' "$1"
