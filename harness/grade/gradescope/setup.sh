#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image
# (Ubuntu): it installs what the grader needs (harness/tools/deps.sh grade) and builds the grader and
# the compiled references, so that each submission is only graded.
# https://gradescope-autograders.readthedocs.io/en/latest/specs/
set -u
kit=$(cd "$(dirname "$0")" && pwd)/tilelab-student
cd "$kit" || exit 1
# deps.sh says what it could not install: go on, and let the first grading
# below fail loudly if something the grader needs is missing.
# (TILELAB_SKIP_DEPS=1: the kit's own test, on a machine that has them.)
# deps.sh itself, not make deps: a bare image has no make yet.
[ -n "${TILELAB_SKIP_DEPS:-}" ] ||
    bash harness/tools/deps.sh grade || echo "setup.sh: deps.sh could not install everything (above); the grader goes on"
# The labs graded: labs.tsv beside the kit, the table of labs make gradescope wrote,
# read as the kit reads it (harness/tools/labs.sh, through its csv-rows).
make -s build/csv-rows || exit 1
. harness/tools/labs.sh
labs_read "$kit/../labs.tsv" || exit 1
# A first grading of an empty hand-in builds the grader's tools and references.
empty=$(mktemp -d)
trap 'rm -rf "$empty"' EXIT
mkdir -p "$empty/nothing-handed-in"
make -s grade SUBMISSION="$empty/nothing-handed-in" GRADE_DIR="$empty/grade" LABS="${labs[*]}"
