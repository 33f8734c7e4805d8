#!/usr/bin/env bash
# check-suites.sh < PLAN
#
# Runs the suites of `make check`, whose outcomes are known in advance, and
# counts the expected ones. Each line of PLAN is
#
#   pass NAME COMMAND...   every test of the Criterion suite must pass
#   fail NAME COMMAND...   the suite (a stub's) must fail: its tests can fail
#   cli  NAME COMMAND...   a script printing TAP ("ok"/"not ok" lines)
#   skip NAME REASON...    counted as skipped, with the reason shown
#
# The last line is the tally: "check: N passed, N failed, N skipped".
set -u
passed=0 failed=0 skipped=0
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

count() { grep -c -E "$1" "$2" || true; }
# A suite's wall time, as its PASS/FAIL line ends: "(9m41s)", "(41s)".
took() { local s=$(($(date +%s) - $1)); [ "$s" -lt 60 ] && echo "(${s}s)" || echo "($((s / 60))m$((s % 60))s)"; }

# The plan read first, so that each suite can say which of how many it is as it starts:
# some take minutes.
mapfile -t plan
k=0
for line in "${plan[@]}"; do
    read -r kind name cmd <<<"$line"
    [ -n "$kind" ] || continue
    k=$((k + 1))
    case "$kind" in
    pass|fail|cli|skip) ;;
    *) echo "check-suites.sh: unknown kind '$kind' in the plan" >&2; exit 2 ;;
    esac
    if [ "$kind" = skip ]; then
        echo "SKIP  $name: $cmd"
        skipped=$((skipped + 1))
        continue
    fi
    tap=$logs/$name.tap log=$logs/$name.log
    echo "....  $name: running ($k of ${#plan[@]}, $(date +%H:%M:%S))"
    start=$(date +%s)
    if [ "$kind" = cli ]; then
        $cmd >"$tap" 2>"$log"
    else
        $cmd --tap="$tap" >"$log" 2>&1
    fi
    rc=$?
    took=$(took "$start")
    ok=$(count '^ok ' "$tap") bad=$(count '^not ok' "$tap") skip=$(count '^ok .*# SKIP' "$tap")
    ok=$((ok - skip))
    synthesis=$(grep -h 'Synthesis' "$log" | sed 's/.*Synthesis: //')
    case "$kind" in
    pass|cli)
        # A suite must run something: tests that pass, or tests that say why they cannot run here.
        if [ "$bad" -eq 0 ] && [ $((ok + skip)) -gt 0 ] && { [ "$rc" -eq 0 ] || [ "$kind" = cli ]; }; then
            echo "PASS  $name: $ok passed$( [ "$skip" -eq 0 ] || echo ", $skip skipped") $took${synthesis:+   [$synthesis]}"
        else
            echo "FAIL  $name: $bad of $((ok + bad)) failed (exit $rc) $took; its output:"
            sed 's/^/      /' "$log" | head -80
            grep -A12 '^not ok' "$tap" | sed 's/^/      /' | head -60
            [ "$bad" -gt 0 ] || bad=1
        fi
        passed=$((passed + ok)) failed=$((failed + bad)) skipped=$((skipped + skip))
        ;;
    fail)
        if [ "$bad" -gt 0 ]; then
            echo "PASS  $name: fails its suite as a stub must ($bad of $((ok + bad)) tests fail) $took   [$synthesis]"
            passed=$((passed + 1))
        else
            echo "FAIL  $name: the stub PASSES its suite ($ok passed, $skip skipped, exit $rc) $took: these tests cannot fail"
            failed=$((failed + 1))
        fi
        skipped=$((skipped + skip))
        ;;
    esac
    if [ "$skip" -gt 0 ]; then
        echo "      $skip skipped: $(grep -m1 '# SKIP' "$tap" | sed 's/.*# SKIP *//')"
    fi
done

echo
echo "check: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
