#!/usr/bin/env bash
# A documented command is a tested command. Every `make ...` line of a ```sh
# block in README.md, INSTRUCTORS.md and the handouts (labs/*/README.md) is
# taken from the Markdown and run here in a scratch copy of the kit, and what
# it made is checked: a suite's tally, a CSV's rows, a figure that holds the
# student's series, a table. Documenting a command is what puts it under test.
#
# Two copies: the kit as a student gets it (stubs: `make lab1 test` must fail,
# saying what to write), and one whose labs hold the references, as a student
# who has done them (benches, plots and profiles then hold the student's
# series). What is not run as written, and why, is said by the test's line:
#
#   make deps                   installs packages as root, from the network:
#                               .ci/run runs it before make check;
#                               scripts_test.sh checks deps.sh
#   make check                  is what runs this test
#   make grade, grade-all,      covered by the test named on its line, which
#   gradescope, dist, slides,   make check runs on real hand-ins (a grade is
#   slurm-start, slurm-stop     about a minute a hand-in; a cluster is started
#                               once, by slurm_test.sh, with these two)
#   a CPU lab's bench or plot   run with SIZES=64,96 REPS=1 added (a minute
#                               each at the default sizes): the same command,
#                               its CSV named for those sizes
#   a GPU lab's bench, sanitize without a GPU: run as written, and it must refuse
#   or sweep                    at once, saying it needs one
#   a profile, or a GPU lab's   run with PROFILE_SIZE=128 added (a product at
#   plot without a GPU          512^3 takes the emulator minutes; profile_test.sh
#                               holds every lab's at 512 against a GPU's)
#
# Prints TAP; make check counts it.
source "$(dirname "$0")/tap.sh"

docs=(README.md INSTRUCTORS.md labs/[0-9]*/README.md)
kit_labs || not_ok "the table of labs"
gpu_labs=" $(for lab in "${labs[@]}"; do [ "${lab_kind[$lab]}" != gpu ] || echo "$((10#$lab))"; done | paste -sd' ') "

# FILE:LINE<TAB>COMMAND for each make line of a sh block: comments dropped,
# continued lines joined, and a loop's variable given its first value.
awk '
    FNR == 1 { inside = 0 }
    /^```/ { if (inside) { inside = 0; cmd = "" } else if ($0 ~ /^```(sh|bash)[ \t]*$/) inside = 1; next }
    !inside { next }
    /^[ \t]*for [A-Za-z_]+ in / { var = $2; first = $4; sub(/;.*/, "", first); next }
    {
        line = $0
        if (cmd == "") at = FILENAME ":" FNR
        sub(/[ \t]+#.*/, "", line)
        if (line ~ /\\$/) { sub(/\\$/, "", line); cmd = cmd line " "; next }
        cmd = cmd line
        if (var != "") { gsub("\\$\\{?" var "\\}?", first, cmd) }
        gsub(/[ \t]+/, " ", cmd); sub(/^ /, "", cmd); sub(/ $/, "", cmd)
        if (cmd ~ /^([A-Z_]+=[^ ]* )*make( |$)/) print at "\t" cmd
        else if (cmd != "" && cmd != "done") print at "\t" cmd >"/dev/stderr"
        cmd = ""
    }' "${docs[@]}" >"$tmp/commands.tsv" 2>"$tmp/others.tsv"
# Each command once, at the first place it is shown.
awk -F'\t' '!seen[$2]++' "$tmp/commands.tsv" >"$tmp/unique.tsv"
total=$(wc -l <"$tmp/commands.tsv") unique=$(wc -l <"$tmp/unique.tsv")
if [ "$unique" -ge 40 ] && awk -F'\t' '$1 ~ /^README.md:/' "$tmp/unique.tsv" | grep -q . &&
    awk -F'\t' '$1 ~ /^INSTRUCTORS.md:/' "$tmp/unique.tsv" | grep -q . && grep -q 'labs/09-gpu-inplace/README.md' "$tmp/unique.tsv"; then
    ok "found $total make commands in ${#docs[@]} documents, $unique distinct"
else
    not_ok "found only $unique distinct make commands in ${docs[*]}" "$tmp/unique.tsv"
fi

# The two kits, each with a build folder of its own.
stubs=$tmp/stubs solved=$tmp/solved
copy_kit "$stubs"
copy_kit "$solved"
for sol in solutions/[0-9]*/*.c solutions/[0-9]*/*.cu; do
    [ -e "$sol" ] && cp "$sol" "$solved/labs/${sol#solutions/}"
done

# run KIT COMMAND: as a student types it in KIT, none of make check's own settings passed on.
run() {
    (cd "$1" && unset B MAKEFLAGS MFLAGS MAKELEVEL GPU && bash -c "$2") >"$tmp/out" 2>&1
}
said() { grep -qE -- "$1" "$tmp/out"; }
have_gpu() { nvidia-smi -L 2>/dev/null | grep -q GPU; }
in_plan() { grep -q "tests/$1" Makefile; }

# wrote_csv: the CSV a bench or profile said it wrote, in the solved kit.
wrote_csv() { sed -n 's/^wrote \(build\/bench\/.*\.csv\)$/\1/p' "$tmp/out" | tail -1; }
# rows_of CSV VARIANT: its rows of VARIANT.
rows_of() {
    awk -F, -v v="$2" '/^#/ || !NF { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["variant"] == v' "$1" | wc -l
}

while IFS=$'\t' read -r at cmd; do
    what="$cmd ($at)"
    # the goals: the words after make that are not NAME=VALUE (a quoted value, LABS="1 2", is one word)
    goals=$(echo "$cmd" | sed -E 's/[A-Za-z_]+="[^"]*"//g' | sed 's/^\([A-Z_]*=[^ ]* \)*make //' | tr ' ' '\n' | grep -v = | paste -sd' ')
    lab=$(echo "$goals" | grep -oE 'lab[0-9]+' | head -1 | sed 's/lab0*//')
    action=$(echo "$goals" | sed 's/lab[0-9]*//' | tr -d ' ')
    gpu=$([[ -n $lab && $gpu_labs == *" $lab "* ]] && echo 1)
    case "$action" in
    deps)
        ok "# SKIP $what: installs packages as root from the network; .ci/run runs it before make check, and scripts_test.sh checks deps.sh" ;;
    check)
        ok "# SKIP $what: it is what runs this test" ;;
    grade | grade-all | gradescope | dist | slides | slurm-start | slurm-stop)
        t=$(case "$action:$cmd" in
            *SCHEDULER=slurm* | slurm-*) echo slurm_test.sh ;; gradescope:*) echo gradescope_test.sh ;;
            grade:* | grade-all:*) echo grader_test.sh ;; dist:*) echo dist_test.sh ;; slides:*) echo slides_test.sh ;; esac)
        # Covered only where that suite passes each setting the command gives (PARTITION=,
        # HIDDEN_VISIBILITY=): a suite that ran the command without them once counted as
        # running INSTRUCTORS.md's Slurm line with a partition and an account (instructor17).
        # GPU= picks the machine, which make check cannot: it runs the GPU labs where it is.
        unpassed=$(for v in $(echo "$cmd" | grep -oE '(^| )[A-Z_]+=' | tr -d ' ' | sort -u); do
            [ "$v" = GPU= ] || grep -qE -- "(^|[^A-Z_])$v" "tests/$t" || echo "${v%=}"; done | paste -sd' ')
        if ! in_plan "$t" || [ ! -f "tests/$t" ]; then
            not_ok "$what: nothing in make check covers it (tests/$t)"
        elif [ -n "$unpassed" ]; then
            not_ok "$what: tests/$t never runs it with $unpassed"
        else
            ok "$what: covered by tests/$t, which make check runs, with the settings it shows"
        fi ;;
    help)
        if run "$stubs" "$cmd" && said 'make labN test' && said 'make handin'; then ok "$what"; else not_ok "$what" "$tmp/out"; fi ;;
    test)
        if [[ $cmd == *SOLUTION=1* ]]; then
            if run "$stubs" "$cmd" && said 'Synthesis: Tested: [1-9][0-9]* \| Passing: [1-9][0-9]* \| Failing: 0 \| Crashing: 0'; then
                ok "$what: the reference passes every test"
            else
                not_ok "$what: the reference does not pass" "$tmp/out"
            fi
        elif ! run "$stubs" "$cmd" && said 'Failing: [1-9]' &&
            awk '/not implemented yet/ { said = 1 } /^\[FAIL\]/ { exit !said } END { exit !said }' "$tmp/out"; then
            ok "$what: the stub fails, its first failure saying what to write"
        else
            not_ok "$what: the stub should fail, its first failure saying what to write" "$tmp/out"
        fi ;;
    bench | sanitize | sweep)
        if [ -n "$gpu" ]; then
            # No GPU here (make check runs the GPU suites on the emulator): refused at once, saying why.
            if have_gpu; then
                ok "# SKIP $what: this machine has a GPU, and this test checks the refusal without one"
            elif ! run "$solved" "$cmd" && said 'needs (an NVIDIA GPU|a GPU)'; then
                ok "$what: refused without a GPU, saying it needs one"
            else
                not_ok "$what: without a GPU it should refuse, saying so" "$tmp/out"
            fi
        elif run "$solved" "$cmd SIZES=64,96 REPS=1" && csv=$(wrote_csv) && [ -s "$solved/$csv" ] &&
            [ "$(rows_of "$solved/$csv" student)" -eq 2 ] && [ "$(rows_of "$solved/$csv" reference)" -eq 2 ] &&
            { [[ $cmd != *OPT=* ]] || grep -q "^# flags: ${cmd##*OPT=}" "$solved/$csv"; } &&
            { [[ $cmd != *BLOCK=* ]] || grep -q "BLOCK=$(echo "$cmd" | sed 's/.*BLOCK=\([0-9]*\).*/\1/')" "$solved/$csv"; }; then
            ok "$what: with SIZES=64,96 REPS=1, $csv holds your code and the reference at both sizes"
        else
            not_ok "$what (run with SIZES=64,96 REPS=1)" "$tmp/out"
        fi ;;
    plot)
        nn=$(printf '%02d' "$lab")
        if [ -n "$gpu" ]; then
            if run "$solved" "$cmd PROFILE_SIZE=128" && grep -q '^your code; ' "$solved/build/plots/lab$nn.csv" &&
                [ -s "$solved/build/plots/lab$nn.png" ] && said 'No bandwidth'; then
                ok "$what: with PROFILE_SIZE=128, your kernels' counted requests drawn beside the reference's, and why no GB/s"
            else
                not_ok "$what: no figure of your kernels" "$tmp/out"
            fi
        elif run "$solved" "$cmd SIZES=64,96 REPS=1" && [ -s "$solved/build/plots/lab$nn.png" ] &&
            grep -q 'your code' "$solved/build/plots/lab$nn.svg"; then
            ok "$what: with SIZES=64,96 REPS=1, build/plots/lab$nn.png draws your code"
        else
            not_ok "$what (run with SIZES=64,96 REPS=1)" "$tmp/out"
        fi ;;
    profile)
        if run "$solved" "$cmd PROFILE_SIZE=128" && said 'Memory requests per launch' && csv=$(wrote_csv) &&
            [ "$(rows_of "$solved/$csv" student)" -ge 1 ] && [ "$(rows_of "$solved/$csv" reference)" -ge 1 ] &&
            { [[ $cmd != *TILE_DIM=* ]] || grep -qE "^# tunables: student .*TILE_DIM=$(echo "$cmd" | sed 's/.*TILE_DIM=\([0-9]*\).*/\1/')( |;)" "$solved/$csv"; }; then
            ok "$what: with PROFILE_SIZE=128, a table, and $csv with your kernels and the reference's"
        else
            not_ok "$what" "$tmp/out"
        fi ;;
    cachegrind)
        # A run with a size, flags or a tunable writes a CSV of its own, which says the
        # tunable: the default run's labNN-cache.csv, which make report draws, stays (a
        # BLOCK=8 run once replaced it, and the report drew BLOCK 8 as lab 2's reference).
        nn=$(printf '%02d' "$lab")
        if run "$solved" "$cmd" && said 'D1 misses per element' && csv=$(sed -n 's/^wrote //p' "$tmp/out" | tail -1) &&
            [ "$(rows_of "$solved/$csv" student)" -eq 1 ] && [ "$(rows_of "$solved/$csv" reference)" -eq 1 ] &&
            { [[ $cmd != *=* ]] || [ "$csv" != "build/bench/lab$nn-cache.csv" ]; } &&
            { [[ $cmd != *BLOCK=* ]] || grep -q "^# tunables: BLOCK=$(echo "$cmd" | sed 's/.*BLOCK=\([0-9]*\).*/\1/') " "$solved/$csv"; }; then
            ok "$what: the misses of your code and the reference's, in $csv"
        else
            not_ok "$what" "$tmp/out"
        fi ;;
    resources)
        if run "$solved" "$cmd" && said 'Used [0-9]+ registers|^emulator:'; then ok "$what: each kernel's registers or the emulator's word on them"; else not_ok "$what" "$tmp/out"; fi ;;
    handin)
        run "$solved" "make lab1 test"
        if run "$solved" "$cmd" && said '^  lab 1 .*passing 11 of 11' && said '^  lab 2 .*edited, never tested: make lab2 test' &&
            [ "$(grep -c '^  lab [0-9]' "$tmp/out")" -eq "$(sed -n 's/^LABS := //p' labs/labs.mk | wc -w)" ] && run "$stubs" "$cmd" && said 'lab 3 .*a stub still' && said '^warning: labs 1, 2, 3'; then
            ok "$what: each lab's state (passing 11 of 11, edited, a stub still) and a warning for the stubs"
        else
            not_ok "$what" "$tmp/out"
        fi ;;
    plots)
        # Every lab with a recorded run is drawn, and the ladder beside them.
        missing=
        run "$solved" "$cmd" && drawn=1 || drawn=
        for f in "$solved"/plots/data/lab[0-9][0-9].csv; do
            [ -s "$solved/build/figures/$(basename "$f" .csv).png" ] || missing="$missing $(basename "$f" .csv)"
        done
        if [ -n "$drawn" ] && said '^figures: [0-9]+ drawn' && [ -s "$solved/build/figures/ladder.png" ] && [ -z "$missing" ]; then
            ok "$what: $(sed -n 's/^figures: //p' "$tmp/out"), every recorded lab's among them"
        else
            not_ok "$what${missing:+ (not drawn:$missing)}" "$tmp/out"
        fi ;;
    report)
        if run "$solved" "$cmd" && [ -s "$solved/build/report/tilelab-report.html" ] && said 'report: step 2 of' &&
            { ! command -v pdflatex >/dev/null || [ -s "$solved/build/report/tilelab-report.pdf" ]; }; then
            ok "$what: $(sed -n 's/^wrote //p' "$tmp/out" | paste -sd' ')"
        else
            not_ok "$what" "$tmp/out"
        fi ;;
    *)
        not_ok "$what: this test does not know how to check '$action': teach tests/docs_test.sh" ;;
    esac
    # Nothing a student runs points them at the references' sources.
    case "$action" in
    test | bench | plot | profile | cachegrind | resources | handin | sanitize | sweep)
        ! grep -q 'solutions/' "$tmp/out" || not_ok "$what: its output points at solutions/: $(grep -m1 'solutions/' "$tmp/out")" ;;
    esac
done <"$tmp/unique.tsv"

# The other commands of the sh blocks, each run as written in the solved kit
# (after the make commands above, whose builds some of them read), and what it
# made checked. Said apart, and why: ncu needs an NVIDIA GPU, and so does a GPU
# lab's bench CSV that a cp copies; time-class.sh grades 20 hand-ins of seven
# labs, so here 1 hand-in of lab 1, the same script.
while IFS=$'\t' read -r at cmd; do
    what="$cmd ($at)"
    case "$cmd" in
    "for "* | "done"*) continue ;;
    ncu\ *)
        if ! have_gpu; then
            ok "# SKIP $what: Nsight Compute needs an NVIDIA GPU, which this machine lacks"
        elif run "$solved" "$cmd" && said '^==PROF=='; then
            ok "$what: ncu's table"
        else
            not_ok "$what" "$tmp/out"
        fi ;;
    harness/tools/time-class.sh\ *)
        if run "$solved" 'harness/tools/time-class.sh 1 "01"' && said '^time-class: all 1 graded, every point'; then
            ok "$what: run with 1 hand-in of lab 1, every point"
        else
            not_ok "$what (run with 1 hand-in of lab 1)" "$tmp/out"
        fi ;;
    "cp build/bench/lab0"[3-9]*)
        if ! have_gpu; then
            ok "# SKIP $what: it copies a GPU lab's bench CSV, which only a GPU's bench writes"
        elif run "$solved" "$cmd"; then
            ok "$what"
        else
            not_ok "$what" "$tmp/out"
        fi ;;
    *)
        made=$(echo "$cmd" | sed -n 's/.* -o \([^ ]*\).*/\1/p;s/^cp .* \([^ ]*\)$/\1/p' | head -1)
        if run "$solved" "$cmd" && { [ -z "$made" ] || [ -s "$solved/$made" ]; } && { [ -n "$made" ] || [ -s "$tmp/out" ]; }; then
            ok "$what: $([ -n "$made" ] && echo "$made made" || echo "it printed $(wc -l <"$tmp/out") lines")"
        else
            not_ok "$what" "$tmp/out"
        fi ;;
    esac
done < <(awk -F'\t' '!seen[$2]++' "$tmp/others.tsv")
# A technique check's shape is drawn (gpu_technique.h: sides of 32 x [lo, hi] and a tail of 8 to
# 24), and the handout says from what: labs 4-6 once said "a 192 x 128 matrix", lab 7 "a 64 x 64
# x 64 product", fixed shapes the checks had left. One of the suite's ranges, "MIN to MAX".
for suite in tests/lab[0-9][0-9]_test.c; do
    nn=${suite#tests/lab} nn=${nn%_test.c}
    ranges=$(sed -n 's/.*tl_technique_shape(\([0-9]*\), *\([0-9]*\),.*/\1 \2/p' "$suite" |
        while read -r lo hi; do echo "$((32 * lo + 8)) to $((32 * hi + 24))"; done | sort -u)
    [ -n "$ranges" ] || continue
    handout=$(ls labs/"$nn"-*/README.md)
    said_range=$(while read -r range; do
        ! tr '\n' ' ' <"$handout" | tr -s ' ' | grep -qF -- "$range" || echo "$range"
    done <<<"$ranges" | head -1)
    if [ -n "$said_range" ]; then
        ok "$handout says from what its technique check's shape is drawn: $said_range"
    else
        not_ok "$handout does not say from what its technique check's shape is drawn ($(paste -sd, <<<"$ranges" | sed 's/,/ or /g'), $suite)"
    fi
done

# The emulator's words that a handout or a deck quotes for a mistake are the words it prints:
# a corpus file of that mistake names them (emulator-says:, run by make emu-corpus) and the
# documents that quote them (documented-in:). Labs 4 to 6 once told of a missing barrier as
# "shared memory nobody wrote", after the emulator had come to name it "a race on shared memory".
for src in tests/emu_corpus/*.cu; do
    says=$(sed -n 's|^// emulator-says: *||p' "$src" | head -1)
    for doc in $(sed -n 's|^// documented-in: *||p' "$src"); do
        # Markdown wraps a quote over lines and may set it in backticks: one line, as read.
        if [ -n "$says" ] && tr '\n' ' ' <"$doc" | tr -d '`' | tr -s ' ' | grep -qiF -- "$says"; then
            ok "$doc tells of ${src##*/}'s mistake as the emulator does: \"$says\""
        else
            not_ok "$doc does not quote what the emulator says of ${src##*/}'s mistake: \"$says\""
        fi
    done
done
tap_plan
