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
#
# handin_sum PATH: a checksum of a hand-in's bytes as it lies: a file's, or a folder's
# files' (each one's path in it and its bytes; links not followed), which grade.sh keeps in
# assignment.txt ("hand-in SUM") and grade-slurm.sh compares. By its time, a late hand-in
# copied in with the time it was handed in (cp -p, tar, unzip, an LMS's download) was older
# than the class's results, and kept the first one's grade: "nothing to submit".
handin_sum() {
    if [ -d "$1" ]; then
        (cd "$1" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0r sha256sum --) 2>/dev/null
    else
        sha256sum <"$1" 2>/dev/null
    fi | sha256sum | cut -d' ' -f1
}
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
