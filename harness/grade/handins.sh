# handins.sh: sourced by grade-all.sh and grade-slurm.sh, so that a class
# graded on one machine and on a cluster has the same names, row for row.
#
# list_handins DIR: the hand-ins in DIR (every file but hidden ones, and
# folders), sorted, in the arrays paths and names. A name is the file's
# without its suffix (.tar.gz, .tgz, .tar, or its last one: ivan.zip is
# ivan), or the folder's; names made of other characters than
# letters, digits, . _ - are changed, and two hand-ins of one name
# (bob.tar.gz, bob.tgz) become bob and bob-2: each change is said. Returns 2
# when DIR holds no hand-in.
list_handins() {
    local path base name safe unique k
    local -A taken=([gradebook.csv]=1 [anomalies.txt]=1 [logs]=1 [slurm]=1)
    paths=() names=()
    while IFS= read -r -d '' path; do
        base=$(basename "$path")
        if [ -d "$path" ]; then
            name=$base
        else
            case "$base" in
            *.tar.gz) name=${base%.tar.gz} ;;
            *.tgz) name=${base%.tgz} ;;
            *.tar) name=${base%.tar} ;;
            .*) echo "grade-all: $base: a hidden file, not a hand-in: skipped" >&2; continue ;;
            # Any other file a student uploaded is graded too, so that it has its row and its
            # status (a .zip: "nothing gradable: not a tar archive (it is a zip archive)").
            *) name=${base%.*} ;;
            esac
        fi
        safe=$(printf '%s' "$name" | LC_ALL=C tr -c 'A-Za-z0-9._-' '_')
        safe=${safe#.}; safe=${safe:-handin}
        unique=$safe k=2
        while [ -n "${taken[$unique]:-}" ]; do unique=$safe-$k; k=$((k + 1)); done
        taken[$unique]=1
        [ "$unique" = "$name" ] || echo "grade-all: $base is graded as '$unique'" >&2
        paths+=("$path") names+=("$unique")
    done < <(find "$1" -mindepth 1 -maxdepth 1 -print0 | sort -z)
    [ ${#paths[@]} -gt 0 ] || { echo "grade-all: no hand-ins (files or folders) in $1" >&2; return 2; }
}

# merge_gradebook OUT: OUT/gradebook.csv from the results of every hand-in
# in names (grade-report gradebook), each row saying whether it was graded.
merge_gradebook() {
    local book=() name
    for name in "${names[@]}"; do book+=("$name" "$1/$name"); done
    # (the instructor's alone: every hand-in's score)
    (umask 077 && "$TOOLS/grade-report" gradebook "$WEIGHTS" "$1/gradebook.csv" "${book[@]}")
}
