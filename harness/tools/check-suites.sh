#!/usr/bin/env bash
# check-suites.sh [-j N] < PLAN
#
# Runs the suites of `make check`, whose outcomes are known in advance, and
# counts the expected ones. Each line of PLAN is
#
#   pass NAME [after=A,B] COMMAND...   every test of the Criterion suite must pass
#   fail NAME [after=A,B] COMMAND...   the suite (a stub's) must fail: its tests can fail
#   cli  NAME [after=A,B] COMMAND...   a script printing TAP ("ok"/"not ok" lines)
#   step NAME [after=A,B] COMMAND...   no test: what suites after it need (the build);
#                                      where it fails, make check stops there
#   skip NAME REASON...                counted as skipped, with the reason shown
#
# With -j N, up to N suites (and steps) run at once (most of a suite's time
# is one core, or waiting): the first in the plan's order that may start
# starts, that is one whose after= suites (before it in the plan) have
# ended, since it reads what they write; a suite that waits for one holds
# back none after it that need not (the suites that build nothing of build/
# run beside the build). A suite's result is printed when it and every
# suite before it have ended, so that the output is in the plan's order
# whatever ends first; its "running" line as it starts. The last line is
# the tally: "check: N passed, N failed, N skipped"; the exit status is 0
# when nothing failed.
set -u
jobs=1
while getopts j: opt; do
    case $opt in
    j) jobs=$OPTARG ;;
    *) echo "usage: check-suites.sh [-j N] < PLAN" >&2; exit 2 ;;
    esac
done
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "check-suites.sh: -j wants a number of suites, not '$jobs'" >&2; exit 2; }
passed=0 failed=0 skipped=0
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
# Each suite runs in a process group of its own (job control), which an
# interrupt ends whole: without it, suites started in the background would
# ignore the terminal's ^C and run on.
set -m
trap 'for group in $(jobs -p); do kill -TERM -- "-$group" 2>/dev/null; done; exit 130' INT TERM

count() { grep -c -E "$1" "$2" || true; }
# A suite's wall time and the CPU time of what it ran, as its PASS/FAIL line
# ends: "(9m41s, 5m2s of CPU)", "(41s, 12s of CPU)". Run side by side on a
# machine's few cores, the CPU time says where make check's time goes.
# CPU_OF (the Makefile's build/cpu-of, harness/tools/cpu_of.c) counts every
# process a suite started, those whose parent did not wait for them too (a
# sandbox's, a lab process); without it, bash's times counts only the
# children waited for.
minutes() { [ "$1" -lt 60 ] && echo "${1}s" || echo "$(($1 / 60))m$(($1 % 60))s"; }
took() { echo "($(minutes $(($(date +%s) - $1))), $(minutes "$2") of CPU)"; }
# cpu TIMES: the seconds of CPU, user and system, of the children that have ended, from bash's times's output
cpu() { tail -n 1 "$1" | tr 'ms' '  ' | awk '{ printf "%d", $1 * 60 + $2 + $3 * 60 + $4 }'; }
counted=()
[ -z "${CPU_OF:-}" ] || counted=("$CPU_OF")

# The plan read first, so that each suite can say which of how many it is as it starts:
# some take minutes.
kinds=() names=() cmds=() afters=()
declare -A index_of=()
mapfile -t plan
for line in "${plan[@]}"; do
    read -r kind name cmd <<<"$line"
    [ -n "$kind" ] || continue
    case "$kind" in
    pass|fail|cli|step|skip) ;;
    *) echo "check-suites.sh: unknown kind '$kind' in the plan" >&2; exit 2 ;;
    esac
    after=
    if [ "$kind" != skip ] && [[ $cmd == after=* ]]; then
        read -r after cmd <<<"$cmd"
        after=${after#after=}
        for a in ${after//,/ }; do
            [ -n "${index_of[$a]:-}" ] || { echo "check-suites.sh: $name runs after '$a', which is not before it in the plan" >&2; exit 2; }
        done
    fi
    index_of[$name]=${#names[@]}
    kinds+=("$kind") names+=("$name") cmds+=("$cmd") afters+=("$after")
done
total=${#names[@]}

# run_suite I: suite I, in the background; $logs/I.end says its exit status and time once it has ended.
run_suite() {
    local i=$1 start rc seconds
    start=$(date +%s)
    local run=()
    [ ${#counted[@]} -eq 0 ] || run=("${counted[@]}" "$logs/$i.cpu")
    if [ "${kinds[i]}" = cli ]; then
        ${run[@]+"${run[@]}"} ${cmds[i]} >"$logs/$i.tap" 2>"$logs/$i.log" </dev/null
    elif [ "${kinds[i]}" = step ]; then
        ${run[@]+"${run[@]}"} ${cmds[i]} >"$logs/$i.log" 2>&1 </dev/null
    else
        ${run[@]+"${run[@]}"} ${cmds[i]} --tap="$logs/$i.tap" >"$logs/$i.log" 2>&1 </dev/null
    fi
    rc=$?
    if [ -s "$logs/$i.cpu" ]; then
        seconds=$(cat "$logs/$i.cpu")
    else
        times >"$logs/$i.times" # in this shell: a pipe or $() would ask a subshell, whose children are none
        seconds=$(cpu "$logs/$i.times")
    fi
    echo "$seconds" >"$logs/$i.seconds"
    echo "$rc $(took "$start" "$seconds")" >"$logs/$i.ending" && mv "$logs/$i.ending" "$logs/$i.end"
}
ended() { [ -e "$logs/$1.end" ]; }
may_start() { # I: every suite it runs after has ended, and every step of them done
    local a i rc
    for a in ${afters[$1]//,/ }; do
        i=${index_of[$a]}
        ended "$i" || return 1
        [ "${kinds[i]}" != step ] || { read -r rc _ <"$logs/$i.end" && [ "$rc" = 0 ]; } || return 1
    done
}

# report I: suite I's result, counted.
report() {
    local i=$1 name=${names[$1]} kind=${kinds[$1]} rc took ok bad skip synthesis
    local tap=$logs/$i.tap log=$logs/$i.log
    if [ "$kind" = skip ]; then
        echo "SKIP  $name: ${cmds[i]}"
        skipped=$((skipped + 1))
        return
    fi
    read -r rc took <"$logs/$i.end"
    if [ "$kind" = step ]; then
        if [ "$rc" -eq 0 ]; then
            echo "DONE  $name $took"
        else
            echo "FAIL  $name (exit $rc) $took; its output's end:"
            tail -n 40 "$log" | sed 's/^/      /'
        fi
        return
    fi
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
}

# stop_all REASON: a step failed; what runs is ended, and nothing more starts.
stop_all() {
    local groups group
    groups=$(jobs -p)
    disown -a # ended here, and not reported as "Terminated" by the shell
    for group in $groups; do kill -TERM -- "-$group" 2>/dev/null; done
    echo
    echo "check: stopped, $1"
    echo "check: $passed passed, $((failed + 1)) failed, $skipped skipped"
    exit 1
}

started=() shown=0 running=0
while [ "$shown" -lt "$total" ]; do
    # Start what may start, the first in the plan's order first.
    for ((i = 0; i < total && running < jobs; i++)); do
        [ -z "${started[i]:-}" ] && may_start "$i" || continue
        started[i]=1
        if [ "${kinds[i]}" = skip ]; then
            echo "0 -" >"$logs/$i.end"
        else
            echo "....  ${names[i]}: running ($((i + 1)) of $total, $(date +%H:%M:%S))"
            run_suite "$i" &
            running=$((running + 1))
        fi
    done
    # Print what has ended, in the plan's order.
    while [ "$shown" -lt "$total" ] && ended "$shown"; do
        report "$shown"
        if [ "${kinds[shown]}" = step ] && [ "$(cut -d' ' -f1 "$logs/$shown.end")" != 0 ]; then
            stop_all "${names[shown]} failed"
        fi
        shown=$((shown + 1))
    done
    [ "$shown" -lt "$total" ] || break
    # Wait for a suite to end (the loop above may then start another).
    wait -n
    running=$(jobs -rp | wc -l)
done

echo
# What it all took, for the machine's cores to share: make check's least wall time is about this over their number.
echo "time: $(minutes "$(cat "$logs"/*.seconds 2>/dev/null | awk '{ s += $1 } END { print s + 0 }')") of CPU in all, which the cores share"
echo "check: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
