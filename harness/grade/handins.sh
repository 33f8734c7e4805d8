# handins.sh: sourced by grade-all.sh and grade-slurm.sh, so that a class
# graded on one machine and on a cluster has the same names, row for row.
#
# list_handins DIR: the hand-ins in DIR (every file but hidden ones, and
# folders), sorted byte by byte, in the arrays paths, names and handed (what
# each was handed in as: its file's or folder's own name). A name is the
# file's without its suffix (.tar.gz, .tgz, .tar, or its last one: ivan.zip
# is ivan), or the folder's; names made of other characters than letters,
# digits, . _ - are cleaned (each other character becomes _: $TOOLS/grade-name,
# as grade.sh cleans the name it is given). A name is a
# gradebook row and a folder, so two hand-ins never share one, and no
# student can take another's by the name they give their file: a name that
# is clean as handed in is kept (bob.tar.gz and bob.tgz: the first keeps
# bob), and each other hand-in whose name is taken gets the first free of
# NAME-2, NAME-3... ("x y" and "x_y": x_y keeps x_y, "x y" is x_y-2,
# whichever sorts first). Every change is said, each name that several
# hand-ins clean up to plainly; every output that names a hand-in names
# what it was handed in as too (grade.sh, the gradebook). Returns 2 when DIR
# holds no hand-in.
list_handins() {
    local path base name safe unique k i j others shown=()
    local -A taken=([gradebook.csv]=1 [anomalies.txt]=1 [logs]=1 [slurm]=1) claims=() said=()
    local bases=() safes=()
    paths=() names=() handed=()
    while IFS= read -r -d '' path; do
        base=$(basename "$path")
        if [ -d "$path" ]; then
            name=$base
        else
            case "$base" in
            *.tar.gz) name=${base%.tar.gz} ;;
            *.tgz) name=${base%.tgz} ;;
            *.tar) name=${base%.tar} ;;
            .*) echo "grade-all: $(as_shown "$base"): a hidden file, not a hand-in: skipped" >&2; continue ;;
            # Any other file a student uploaded is graded too, so that it has its row and its
            # status (a .zip: "nothing gradable: not a tar archive (it is a zip archive)").
            *) name=${base%.*} ;;
            esac
        fi
        safe=$("$TOOLS/grade-name" "$name")
        paths+=("$path") handed+=("$base") bases+=("$name") safes+=("$safe") shown+=("$(as_shown "$base")")
        claims[$safe]=$((${claims[$safe]:-0} + 1))
    done < <(find "$1" -mindepth 1 -maxdepth 1 -print0 | LC_ALL=C sort -z)
    [ ${#paths[@]} -gt 0 ] || { echo "grade-all: no hand-ins (files or folders) in $1" >&2; return 2; }
    # Clean names first, then the others, each in the order of the list.
    for i in "${!paths[@]}"; do
        [ "${bases[$i]}" = "${safes[$i]}" ] && [ -z "${taken[${safes[$i]}]:-}" ] || continue
        names[i]=${safes[$i]}
        taken[${safes[$i]}]=1
    done
    for i in "${!paths[@]}"; do
        [ -z "${names[$i]:-}" ] || continue
        safe=${safes[$i]} unique=${safes[$i]} k=2
        while [ -n "${taken[$unique]:-}" ]; do unique=$safe-$k; k=$((k + 1)); done
        taken[$unique]=1
        names[i]=$unique
    done
    for i in "${!paths[@]}"; do
        [ "${names[$i]}" = "${bases[$i]}" ] || echo "grade-all: ${shown[$i]} is graded as '${names[$i]}'" >&2
        safe=${safes[$i]}
        [ "${claims[$safe]}" -gt 1 ] && [ -z "${said[$safe]:-}" ] || continue
        said[$safe]=1 others=
        for j in "${!paths[@]}"; do
            [ "${safes[$j]}" = "$safe" ] && others+="${others:+, }'${shown[$j]}' as '${names[$j]}'"
        done
        echo "grade-all: WARNING: several hand-ins have names that clean up to '$safe': $others; each row of the gradebook, each summary.txt and results.json name the hand-in as it was handed in" >&2
    done
}

# as_shown NAME: NAME as the gradebook and the end report show it, each control
# character (a line break, a tab, an escape) a '?': on one line of the log, and
# no terminal sequences a student's file name chose.
as_shown() { printf '%s' "$1" | LC_ALL=C tr '\000-\037\177' '?'; }

# merge_gradebook OUT: OUT/gradebook.csv from the results of every hand-in
# in names, each handed in as in handed (grade-report gradebook), each row
# saying whether it was graded.
merge_gradebook() {
    local book=() i
    for i in "${!names[@]}"; do book+=("${names[$i]}" "${handed[$i]}" "$1/${names[$i]}"); done
    # (the instructor's alone: every hand-in's score)
    (umask 077 && "$TOOLS/grade-report" gradebook "$WEIGHTS" "$1/gradebook.csv" "${book[@]}")
}
