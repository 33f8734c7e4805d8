#!/usr/bin/env bash
# gradescope.sh KIT OUT_DIR: OUT_DIR/autograder.zip for Gradescope, in its
# documented layout (https://gradescope-autograders.readthedocs.io/en/latest/specs/):
# setup.sh and run_autograder at the root (harness/grade/gradescope/), beside the
# student kit KIT (make dist: no reference source, references compiled
# only) and labs.tsv, the table of the labs it grades (LABS_TSV from the
# Makefile: LABS= narrows it, for an assignment of one lab; the kit's
# harness/tools/labs.sh reads it). Gradescope unpacks it into
# /autograder/source. HIDDEN, an instructor's file of held-back cases, goes
# beside the kit as held-back.txt, out of the students' kit; their tests show
# in results.json with the visibility HIDDEN_VISIBILITY (hidden, the default:
# never shown to students; after_due_date; after_published: once the
# instructor publishes the grades), kept in held-back-visibility.txt.
set -u
kit=$1 out=$2
: "${LABS_TSV:?} ${TOOLS:?}"
. harness/tools/labs.sh
labs_read "$LABS_TSV" || exit 2
HIDDEN=${HIDDEN:-} HIDDEN_VISIBILITY=${HIDDEN_VISIBILITY:-hidden}
command -v zip >/dev/null || { echo "make gradescope needs zip: run make deps" >&2; exit 2; }
case $HIDDEN_VISIBILITY in
hidden | after_due_date | after_published) ;;
*) echo "HIDDEN_VISIBILITY=$HIDDEN_VISIBILITY: held-back tests are hidden, after_due_date or after_published (Gradescope's words)" >&2; exit 2 ;;
esac
# A line the grader cannot read stops it here, not at each submission.
[ -z "$HIDDEN" ] || "$TOOLS/grade-held-back" "$HIDDEN" || exit 2
stage=$out/autograder
rm -rf "$stage" "$out/autograder.zip"
mkdir -p "$stage"
cp -R "$kit" "$stage/tilelab-student"
cp harness/grade/gradescope/setup.sh harness/grade/gradescope/run_autograder "$stage/"
cp "$LABS_TSV" "$stage/labs.tsv" || exit 1
held=()
if [ -n "$HIDDEN" ]; then
    cp "$HIDDEN" "$stage/held-back.txt" && echo "$HIDDEN_VISIBILITY" >"$stage/held-back-visibility.txt" || exit 1
    held=(held-back.txt held-back-visibility.txt)
fi
(cd "$stage" && zip -qr ../autograder.zip setup.sh run_autograder labs.tsv ${held[@]+"${held[@]}"} tilelab-student) || exit 1
echo "wrote $out/autograder.zip: upload it as the assignment's autograder (Docker image: Ubuntu);"
echo "  it grades labs ${labs[*]} with the student kit's grader and no reference source"
# results.json gives a score, never its maximum: Gradescope shows it out of the assignment's
# points, which the instructor sets (a perfect lab 3 read 10 of 100 there).
points=$(LABS_TSV=$LABS_TSV "$TOOLS/grade-report" points "${WEIGHTS:-labs/grading.conf}") || exit 1
echo "  out of $points points: give the assignment $points points on Gradescope, which shows each score out of them"
[ -z "$HIDDEN" ] || echo "  and the held-back cases of $(basename "$HIDDEN"), out of the kit, as tests of visibility $HIDDEN_VISIBILITY"
