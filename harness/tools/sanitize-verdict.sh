#!/bin/sh
# sanitize-verdict.sh TOOL LOG
#
# One line on what compute-sanitizer's TOOL found in LOG (its whole output),
# then, when it found something, the first finding's lines: what, where in
# the source, which thread. Exits 1 when it found something or did not finish.
tool=$1 log=$2
case $tool in
memcheck)  looks_for="accesses outside an allocation, misaligned accesses, CUDA errors" ;;
racecheck) looks_for="shared-memory races (threads reading what others write, with no __syncthreads() between)" ;;
synccheck) looks_for="__syncthreads() that some threads of a block never reach" ;;
initcheck) looks_for="reads of device memory that nothing wrote" ;;
*) echo "sanitize-verdict.sh: unknown tool '$tool'" >&2; exit 2 ;;
esac
# racecheck counts hazards, the others errors.
found=$(sed -n 's/.*RACECHECK SUMMARY: \([0-9]*\) hazard.*/\1/p; s/.*ERROR SUMMARY: \([0-9]*\) error.*/\1/p' "$log" | head -n 1)
if [ -z "$found" ]; then
    printf '%-10s did not finish: see %s\n' "$tool" "$log"
    exit 1
fi
if [ "$found" -eq 0 ]; then
    printf '%-10s clean: no %s\n' "$tool" "$looks_for"
    exit 0
fi
printf '%-10s FOUND %s: %s. The first:\n' "$tool" "$found" "$looks_for"
grep -E '^========= +(Invalid|Uninitialized|Barrier|Error|Race|Warning|Divergent|Program hit|at |by thread|Address|Saved host|Write|Read)' "$log" |
    head -n 8 | sed 's/^========= */    /'
exit 1
