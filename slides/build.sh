#!/usr/bin/env bash
# build.sh OUT_DIR DECK.md...
#
# Turns each deck into OUT_DIR/DECK.pdf: pandoc (beamer, with the filter
# slides/tilelab.lua filling in figures, tables and code from the kit), then
# pdflatex. The figures must already be in OUT_DIR/figures (make slides draws
# them), and LABS_TSV (the Makefile's table of labs) in the environment for
# the blocks that name labs by what they compute. A deck fails, with LaTeX's
# own words, on an error, on anything that runs off a slide (an overfull box)
# and on a missing character.
set -u
out=$1
shift
figures=$(cd "$out/figures" && pwd) || { echo "slides: no $out/figures: make slides draws them first" >&2; exit 1; }
work=$out/tex
mkdir -p "$work"
status=0
for md in "$@"; do
    name=$(basename "$md" .md)
    if ! pandoc "$md" --from markdown --to beamer --standalone --slide-level 1 \
        --lua-filter slides/tilelab.lua --metadata figures="$figures" --metadata deck="$md" \
        --include-in-header slides/preamble.tex --highlight-style slides/code.theme \
        --variable aspectratio=169 --variable fontsize=11pt \
        --output "$work/$name.tex"; then
        echo "slides: $md: pandoc failed" >&2
        status=1
        continue
    fi
    # Two passes: the second knows the number of pages for the footer.
    ok=1
    for pass in 1 2; do
        if ! (cd "$work" && pdflatex -interaction=nonstopmode -halt-on-error "$name.tex" >/dev/null 2>&1); then
            echo "slides: $md: pdflatex failed (pass $pass):" >&2
            grep -A6 '^!' "$work/$name.log" | head -20 >&2
            ok=0
            break
        fi
    done
    if [ $ok -eq 1 ]; then
        # Overfull boxes are text running off a slide (or past its foot).
        problems=$(grep -E '^(Overfull|Missing character)' "$work/$name.log" | sort | uniq -c)
        if [ -n "$problems" ]; then
            echo "slides: $md: something does not fit on its slide ($work/$name.log, near these lines of $work/$name.tex):" >&2
            grep -E -A1 '^(Overfull|Missing character)' "$work/$name.log" | head -20 >&2
            ok=0
        fi
    fi
    if [ $ok -eq 1 ]; then
        cp "$work/$name.pdf" "$out/$name.pdf"
        pages=$(grep -c -E '^\\(begin\{frame\}|frame\{)' "$work/$name.tex")
        echo "slides: $out/$name.pdf ($pages slides)"
    else
        rm -f "$out/$name.pdf"
        status=1
    fi
done
exit $status
