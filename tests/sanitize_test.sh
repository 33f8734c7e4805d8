#!/usr/bin/env bash
# `make labN sanitize` on a real GPU: compute-sanitizer's four tools find
# nothing in the references and each finds its planted mistake
# (tests/sanitize/NAME/ holds a lab file a student could write). Without an
# NVIDIA GPU compute-sanitizer cannot run at all: every case says so and is
# counted as skipped.
source "$(dirname "$0")/tap.sh"

kit_labs || not_ok "the table of labs"
gpu_labs=$(for lab in "${labs[@]}"; do [ "${lab_kind[$lab]}" != gpu ] || echo "$lab"; done | paste -sd' ')
# name, lab, the tool that must report it
planted="missing-sync 7 racecheck
row-past-in 4 memcheck
divergent-barrier 5 synccheck"

if ! nvidia-smi -L 2>/dev/null | grep -q GPU || [ -z "$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null)" ]; then
    for lab in $gpu_labs; do ok "lab $lab reference under compute-sanitizer # SKIP needs an NVIDIA GPU and compute-sanitizer"; done
    while read -r name lab tool; do
        ok "$name under $tool # SKIP needs an NVIDIA GPU and compute-sanitizer"
    done <<<"$planted"
    tap_plan
    exit 0
fi

for lab in $gpu_labs; do
    make -s B="$tmp/build" "lab$lab" sanitize SOLUTION=1 >"$tmp/out" 2>&1
    rc=$?
    if [ $rc -eq 0 ] && [ "$(grep -c ' clean: ' "$tmp/out")" -eq 4 ]; then
        ok "lab $lab reference: four tools, nothing found"
    else
        not_ok "lab $lab reference under compute-sanitizer (exit $rc)" "$tmp/out"
    fi
done
while read -r name lab tool; do
    make -s B="$tmp/build-$name" STUDENT_DIR="tests/sanitize/$name" "lab$lab" sanitize >"$tmp/out" 2>&1
    rc=$?
    if [ $rc -ne 0 ] && grep -q "^$tool  *FOUND" "$tmp/out" && grep -q "\.cu:[0-9]" "$tmp/out"; then
        ok "$name: $tool finds it and names the line"
    else
        not_ok "$name: $tool did not report it (exit $rc)" "$tmp/out"
    fi
done <<<"$planted"
tap_plan
