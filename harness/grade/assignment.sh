# assignment.sh: sourced by grade.sh and grade-slurm.sh.
#
# assignment: what a hand-in is graded for, one item a line, as grade.sh
# keeps it beside the result (OUT_DIR/NAME/assignment.txt): the labs (LABS=,
# the table read into $labs), the held-back cases (the file's checksum, or
# none), where GPU labs are graded (BACKEND) and the points each part is worth
# (WEIGHTS, labs/grading.conf's checksum: a gradebook once kept a lab's old
# points after the file changed, "nothing to submit"). grade-slurm.sh submits again
# a hand-in whose result was graded for another assignment: a gradebook of
# LABS="1 2 3" once merged results of labs 1-6 graded earlier, without a word.
assignment() {
    printf 'labs %s\n' "${labs[*]}"
    if [ -n "${HIDDEN:-}" ]; then
        printf 'held back %s\n' "$(sha256sum <"$HIDDEN" | cut -d' ' -f1)"
    else
        printf 'held back none\n'
    fi
    printf 'GPU labs on %s\n' "$BACKEND"
    printf 'points %s\n' "$(sha256sum <"$WEIGHTS" | cut -d' ' -f1)"
}
