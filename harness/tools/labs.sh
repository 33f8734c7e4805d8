# Sourced: the scripts' one reader of the table of labs, the TSV that tl-labs
# writes from labs/labs.mk (harness/tools/labs.c; the Makefile's LABS_TSV).
#
# labs_read FILE: its labs, read through csv-rows (csv.h; CSV_ROWS, else
# $B/csv-rows, else build/csv-rows), into
#   labs        their numbers ("01" "02" ...), in the table's order
#   lab_COLUMN  an associative array for each column: ${lab_dir[03]},
#               ${lab_kind[03]}, ${lab_title[09]} ...
# Says why and returns 1 when the table cannot be read.
labs_read() {
    local rows line i name
    local -a names values
    rows=$("${CSV_ROWS:-${B:-build}/csv-rows}" --header --sep $'\x1f' "$1") || {
        echo "labs_read: cannot read the table of labs ${1:-(none given)}: make writes it (LABS_TSV)" >&2
        return 1
    }
    labs=()
    {
        # A field may be empty: \x1f, unlike a tab, is no blank to read, which would join two.
        IFS=$'\x1f' read -r -a names
        for name in "${names[@]}"; do
            unset "lab_$name"
            declare -gA "lab_$name=()"
        done
        while IFS= read -r line; do
            IFS=$'\x1f' read -r -a values <<<"$line"
            labs+=("${values[0]}")
            for i in "${!names[@]}"; do
                printf -v "lab_${names[i]}[${values[0]}]" '%s' "${values[i]-}"
            done
        done
    } <<<"$rows"
}
