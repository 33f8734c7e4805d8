#!/usr/bin/env bash
# gradescope.sh KIT OUT_DIR: OUT_DIR/autograder.zip for Gradescope, in its
# documented layout (https://gradescope-autograders.readthedocs.io/en/latest/specs/):
# setup.sh and run_autograder at the root (harness/grade/gradescope/), beside the
# student kit KIT (make dist: no reference source, references compiled
# only) and labs.txt, the labs it grades (LAB_SPEC from the Makefile: LABS=
# narrows it, for an assignment of one lab). Gradescope unpacks it into
# /autograder/source.
set -u
kit=$1 out=$2
: "${LAB_SPEC:?}"
command -v zip >/dev/null || { echo "make gradescope needs zip: run make deps" >&2; exit 2; }
stage=$out/autograder
rm -rf "$stage" "$out/autograder.zip"
mkdir -p "$stage"
cp -R "$kit" "$stage/tilelab-student"
cp harness/grade/gradescope/setup.sh harness/grade/gradescope/run_autograder "$stage/"
for spec in $LAB_SPEC; do
    IFS=: read -r n dir file _ <<<"$spec"
    printf '%s %s %s\n' "$n" "$dir" "$file"
done >"$stage/labs.txt"
(cd "$stage" && zip -qr ../autograder.zip setup.sh run_autograder labs.txt tilelab-student) || exit 1
echo "wrote $out/autograder.zip: upload it as the assignment's autograder (Docker image: Ubuntu);"
echo "  it grades labs $(cut -d' ' -f1 "$stage/labs.txt" | tr '\n' ' ')with the student kit's grader and no reference source"
