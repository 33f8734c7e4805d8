#!/usr/bin/env bash
# The decks build, each from the kit's own figures; a new recorded run
# changes them; a deck that would not be readable in a lecture hall fails
# the build. Prints TAP; make check counts it (when pandoc and LaTeX are
# installed: otherwise the plan skips it and says why).
source "$(dirname "$0")/tap.sh"

# ---------------------------------------------------------------- every deck
# Built as a student builds them at the end of the course: in a copy of the
# kit whose labs hold complete solutions (long lines, their own kernels).
kit=$tmp/kit
copy_kit "$kit"
for sol in solutions/[0-9]*/*.c solutions/[0-9]*/*.cu; do
    [ -e "$sol" ] && cp "$sol" "$kit/labs/${sol#solutions/}"
done
if make -s -C "$kit" slides B="$tmp/b" >"$tmp/log" 2>&1; then
    ok "make slides builds every deck, with complete solutions in labs/"
else
    not_ok "make slides failed with complete solutions in labs/" "$tmp/log"
fi
for md in slides/*.md; do
    name=$(basename "$md" .md)
    pdf=$tmp/b/slides/$name.pdf
    if [ -s "$pdf" ] && pages=$(pdfinfo "$pdf" 2>/dev/null | awk '/^Pages:/ { print $2 }') && [ "${pages:-0}" -gt 3 ]; then
        ok "$name.pdf: $pages pages"
    else
        not_ok "$name.pdf missing, unreadable or nearly empty"
    fi
done
[ -e slides/overview.md ] || not_ok "no overview deck (slides/overview.md)"

# After the student's own runs: a deck draws them beside the recorded ones, and its tables
# grow a row for each ("lab 3; yours"). With make lab3 profile and make lab5 profile run,
# lab 4's table of requests ran off its slide, and make slides failed.
# (At 128 x 128, quicker, and as if at the default size: the decks draw the default run's
# CSV, never one of another size.)
for n in 3 5 6; do
    make -s -C "$kit" "lab$n" profile PROFILE_SIZE=128 B="$tmp/bp" >>"$tmp/logp" 2>&1
    cp "$tmp/bp/bench/lab0$n-profile-SIZE128.csv" "$tmp/bp/bench/lab0$n-profile.csv" 2>>"$tmp/logp"
done
if make -s -C "$kit" slides LABS="3 4 5 6" B="$tmp/bp" >"$tmp/logp2" 2>&1 &&
    grep -q 'lab 5; yours' "$tmp/bp/slides/tex/lab04.tex"; then
    ok "make slides builds labs 3 to 6's decks with the student's own profiles of labs 3, 5 and 6 in their tables"
else
    cat "$tmp/logp" "$tmp/logp2" >"$tmp/logp3" 2>/dev/null
    not_ok "make slides fails once the student has profiled labs 3, 5 and 6 (their rows in the tables)" "$tmp/logp3"
fi

# LABS= builds those labs' decks alone, without the overview (which draws every lab's run).
if make -s -C "$kit" slides LABS=8 B="$tmp/b8" >"$tmp/log8" 2>&1 &&
    [ -s "$tmp/b8/slides/lab08.pdf" ] && [ "$(cd "$tmp/b8/slides" && ls ./*.pdf)" = "./lab08.pdf" ]; then
    ok "make slides LABS=8 builds lab 8's deck alone"
else
    not_ok "make slides LABS=8 did not build lab 8's deck alone: $(ls "$tmp/b8/slides" 2>/dev/null | tr '\n' ' ')" "$tmp/log8"
fi

# Under a measured figure or table, the tunables each side ran with.
if grep -q 'reference BLOCK=128' "$tmp/b/slides/tex/lab02.tex"; then
    ok "the lab 2 deck names the BLOCK each side of its measurements ran with"
else
    not_ok "the lab 2 deck does not say with which BLOCK its numbers were measured"
fi

# The overview's ladder of ideas has a row for every lab of the table of labs, with
# what labs.mk says it changes (labs 9 and 10 were once missing from a hand-written one).
kit_labs || not_ok "the table of labs"
ideas=$(awk '/The ladder: one idea per lab/ { on = 1 } on && /end\{frame\}/ { exit } on' "$tmp/b/slides/tex/overview.tex")
missing=
for n in "${labs[@]}"; do
    grep -qF -- "$((10#$n)) ${lab_title[$n]%% (*}" <<<"$ideas" || missing="$missing $n"
done
if [ -n "$ideas" ] && [ -z "$missing" ]; then
    ok "the overview's ladder of ideas has a row for each of the ${#labs[@]} labs"
else
    printf '%s\n' "$ideas" >"$tmp/ideas"
    not_ok "the overview's ladder of ideas lacks lab(s)$missing" "$tmp/ideas"
fi

# Under a figure of several runs, only what they share: the ladder's come from
# several machines, each named in the figure, and a sweep's each ran with its own
# tunables, none of which is the figure's (the last run's stood for all of them).
ladder=$(grep -h 'tlsource{data: plots/data/lab01.csv, lab02.csv, .*lab10.csv' "$tmp/b/slides/tex/overview.tex")
sweep=$(grep -h 'tlsource{data: plots/data/lab02-BLOCK4.csv' "$tmp/b/slides/tex/lab02.tex")
if [[ $ladder == *"from several machines: the figure names each"* ]] && [[ $ladder != *BLOCK* ]] && [[ $ladder != *"recorded on"* ]] &&
    [[ $sweep == *"recorded on AMD EPYC"* ]] && [[ $sweep != *"BLOCK=256"* ]]; then
    ok "under a figure of several runs, the machine and tunables they share and no one run's"
else
    printf '%s\n%s\n' "$ladder" "$sweep" >"$tmp/captions"
    not_ok "a figure of several runs is captioned with one run's machine or tunables" "$tmp/captions"
fi

# "What you write" shows the stub, never the student's code in labs/: each
# {.cpp stub=FILE} block's lines are lines of that stub as the kit ships it,
# and the built deck shows them although labs/ now holds solutions.
stubs=0 drift=0 shown=0
while IFS=$'\t' read -r md file line; do
    if [ "$line" = "<end>" ]; then
        stubs=$((stubs + 1))
        continue
    fi
    [ -n "$line" ] || continue
    if ! grep -qxF -- "$line" "$file"; then
        drift=$((drift + 1))
        echo "# $md: not a line of $file: $line"
    fi
    case "$line" in
    *TODO*)
        if pdftotext "$tmp/b/slides/$(basename "$md" .md).pdf" - 2>/dev/null | grep -qF -- "$(echo "$line" | sed 's/^ *//')"; then
            shown=$((shown + 1))
        else
            echo "# $md: the built deck lacks the stub's line: $line"
            drift=$((drift + 1))
        fi
        ;;
    esac
done < <(awk '/^```\{\.cpp stub=/ { f = $0; sub(/.*stub=/, "", f); sub(/[ }].*/, "", f); inside = 1; next }
              inside && /^```/ { print FILENAME "\t" f "\t<end>"; inside = 0; next }
              inside { print FILENAME "\t" f "\t" $0 }' slides/*.md)
if [ "$stubs" -gt 0 ] && [ "$drift" -eq 0 ] && [ "$shown" -gt 0 ]; then
    ok "the decks' $stubs stub blocks are the stubs' own lines, shown although labs/ holds solutions"
else
    not_ok "$drift lines of the decks' $stubs stub blocks are not the stub's, or not shown"
fi

# Every figure a deck shows is one make slides drew, never a file in slides/.
stray=$(find slides -type f \( -name '*.png' -o -name '*.pdf' -o -name '*.jpg' -o -name '*.svg' \) | head -3)
if [ -z "$stray" ]; then ok "slides/ holds no pasted images"; else not_ok "images pasted into slides/: $stray"; fi
outside=$(grep -hoE '\\includegraphics(\[[^]]*\])?\{[^}]+\.(pdf|png|jpg)\}' "$tmp"/b/slides/tex/*.tex |
    grep -v "{$(cd "$tmp/b/slides/figures" && pwd)/" | head -3)
if [ -z "$outside" ] && grep -q includegraphics "$tmp"/b/slides/tex/*.tex; then
    ok "every figure in the decks comes from the drawn figures"
else
    not_ok "a deck includes a figure from elsewhere: ${outside:-none at all}"
fi

# ---------------------------------------------------------------- a new recorded run
# A recorded lab 3 run (made up here, with a rate no real run has) replaces
# the "measure it" slide with its figure and table.
cp -r plots/data "$tmp/data"
{
    echo "# machine: test fixture GPU"
    echo "lab,variant,rows,cols,depth,reps,median_s,min_s,max_s,rate,unit,share_of_ceiling,ratio_to_reference,tag"
    for s in 1024x1024 2048x2048 4096x4096 8192x8192 4097x8191; do
        r=${s%x*} c=${s#*x}
        echo "3,memcpy,$r,$c,$r,9,0.001,0.001,0.001,900.5,GB/s,1.0000,2.0,"
        echo "3,reference,$r,$c,$r,9,0.002,0.002,0.002,432.123,GB/s,0.4799,1.0,"
    done
} >"$tmp/data/lab03.csv"
if make -s slides B="$tmp/new" PLOTS_DATA="$tmp/data" SLIDE_DECKS="slides/lab03.md slides/overview.md" \
    >"$tmp/new.log" 2>&1; then
    tex=$tmp/new/slides/tex/lab03.tex
    if grep -q 'figures/lab03.pdf' "$tex" && grep -q '432' "$tex" && grep -q 'test fixture GPU' "$tex" &&
        ! grep -q 'Measure it' "$tex"; then
        ok "a new recorded run of lab 3 shows in its deck: figure, table and machine"
    else
        not_ok "the lab 3 deck does not show the new recorded run"
    fi
    if grep -q '432' "$tmp/new/slides/tex/overview.tex"; then ok "and in the overview's ladder"; else not_ok "the overview's ladder misses the new run"; fi
else
    not_ok "make slides failed with a recorded lab 3 run" "$tmp/new.log"
fi
if grep -q 'Measure it' "$tmp/b/slides/tex/lab03.tex" || [ -s plots/data/lab03.csv ]; then
    ok "without a recorded run, the lab 3 deck says how to measure one"
else
    not_ok "the lab 3 deck has neither a run nor a way to make one"
fi

# A student's own run at sizes the deck does not name still builds, showing its sizes.
# A run with SIZES= writes a CSV of its own (lab01-SIZES64_33x65-REPS2.csv): put where
# the whole bench's run goes, as if it had been that one (which takes a minute).
if make -s B="$tmp/small" lab1 bench SIZES=64,33x65 REPS=2 >"$tmp/small.log" 2>&1 &&
    cp "$tmp/small/bench/lab01-SIZES64_33x65-REPS2.csv" "$tmp/small/bench/lab01.csv" &&
    make -s slides B="$tmp/small" SLIDE_DECKS="slides/lab01.md" >>"$tmp/small.log" 2>&1 &&
    grep -q '33x65' "$tmp/small/slides/tex/lab01.tex"; then
    ok "a run of lab 1 at SIZES=64,33x65 builds its deck, with those sizes"
else
    not_ok "make slides after make lab1 bench SIZES=64,33x65" "$tmp/small.log"
fi

# ---------------------------------------------------------------- unreadable decks fail
mkdir -p "$tmp/bad"
ln -s "$(cd "$tmp/b/slides/figures" && pwd)" "$tmp/bad/figures"
deck() { # NAME: a deck from stdin, built alone; prints its errors
    cat >"$tmp/$1.md"
    # shellcheck disable=SC2069 # the errors to the caller, the deck's own output dropped
    slides/build.sh "$tmp/bad" "$tmp/$1.md" 2>&1 >/dev/null
}
wide=$(printf '# Code\n\n```c\nfloat x = 0; /* %s */\n```\n' "$(printf 'x%.0s' $(seq 70))" | deck wide)
if [ -n "$wide" ] && ! [ -e "$tmp/bad/wide.pdf" ] && echo "$wide" | grep -q 'lecture size'; then
    ok "a code line too wide for a slide fails the build"
else
    not_ok "a 90-column code line was accepted"
fi
tall=$(printf '# Text\n\n' && for i in $(seq 30); do echo "- line $i of a slide that says far too much"; done)
tall=$(echo "$tall" | deck tall)
if [ -n "$tall" ] && ! [ -e "$tmp/bad/tall.pdf" ] && echo "$tall" | grep -q 'does not fit'; then
    ok "a slide taller than the page fails the build"
else
    not_ok "30 bullets on one slide were accepted"
fi
missing=$(printf '# A figure\n\n![](figure:no-such-figure)\n' | deck missing)
if [ -n "$missing" ] && echo "$missing" | grep -q 'no-such-figure'; then
    ok "a figure that was not drawn fails the build, by name"
else
    not_ok "a deck showing a figure nobody drew was accepted"
fi
student=$(printf '# Code\n\n```{.c include=labs/01-cpu-naive/transpose.c from="^void"}\n```\n' | deck student)
if [ -n "$student" ] && ! [ -e "$tmp/bad/student.pdf" ] && echo "$student" | grep -q 'stub='; then
    ok "a deck reading code from labs/ (the student's own file) fails the build"
else
    not_ok "a deck was allowed to show whatever the student's labs/ file holds"
fi
broken=$(printf '# Broken\n\n```{=latex}\n\\begin{tikzpicture}\n```\n' | deck broken)
if [ -n "$broken" ] && echo "$broken" | grep -q 'pdflatex failed'; then
    ok "a LaTeX error fails the build, with LaTeX's message"
else
    not_ok "a LaTeX error was not reported"
fi
tap_plan
