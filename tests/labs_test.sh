#!/usr/bin/env bash
# The table of labs: what make writes from labs/labs.mk (tl-labs,
# harness/tools/labs.c) and everything else reads (harness/tools/labs.sh,
# csv.h, the slides' filter). In a copy of the kit's Makefile, labs.mk and
# harness: its rows and fields as labs.mk has them, a lab added to labs.mk
# alone with every field (a title with spaces and quotes, an empty field
# between two full ones), LABS= on the command line, and a slip in labs.mk
# stopping make, named. Prints TAP; make check counts it.
source "$(dirname "$0")/tap.sh"

kit=$tmp/kit
mkdir -p "$kit/labs"
cp Makefile "$kit/"
cp labs/labs.mk "$kit/labs/"
cp -R harness "$kit/"
kmake() { make -s -C "$kit" B=build "$@"; }
tsv=$kit/build/labs.tsv
rows() { "$kit/build/csv-rows" "$@"; } # the kit's one reader of its tables (csv.h)

if kmake build/labs.tsv build/csv-rows >"$tmp/make.log" 2>&1; then
    ok "make build/labs.tsv writes the table of labs"
else
    not_ok "make build/labs.tsv failed" "$tmp/make.log"
fi
check "its columns: lab, then each labNN_ field of labs.mk, then its operation's (harness/core/ops/): unit, small sizes" \
    test "$(rows --header "$tsv" | head -1)" = "$(printf 'lab\tdir\tkind\top\tfile\ttunables\ttitle\tbaseline\tchange\tlesson\tunit\tsmall_sizes')"
fields="lab dir kind op file tunables title baseline unit"
check "a product's small sizes are products (MxNxK: make check's held-back cases for lab 7)" \
    grep -Eq '^[0-9]+x[0-9]+x[0-9]+(,[0-9]+(x[0-9]+x[0-9]+)?)*$' <(rows --where lab=07 "$tsv" small_sizes)
want_labs=$(sed -n 's/^LABS := //p' labs/labs.mk) # the one place a test reads labs.mk: what it checks the table against
# The lab added below: the number after the kit's last.
new=$(printf '%02d' $((10#${want_labs##* } + 1)))
check "a row for each lab of labs.mk's LABS, in its order" test "$(rows "$tsv" lab | paste -sd' ')" = "$want_labs"
check "lab 1: its folder, kind, file, no tunables, its title, the default operation" \
    test "$(rows --where lab=01 --sep '|' "$tsv" $fields)" = "01|01-cpu-naive|cpu|transpose|transpose.c||CPU naive||GB/s"
check "lab 9: its operation, its tunables (a space between), its baseline lab, a title with spaces and parentheses" \
    test "$(rows --where lab=09 --sep '|' "$tsv" $fields)" = "09|09-gpu-inplace|gpu|inplace|transpose.cu|TILE_DIM BLOCK_ROWS|GPU in-place (extension)|06|GB/s"

# A lab added to labs.mk alone, every field set, a title with quotes, no tunables.
sed "s/@N@/$new/g" >>"$kit/labs/labs.mk" <<'MK'

LABS += @N@
lab@N@_dir := @N@-gpu-scratch
lab@N@_kind := gpu
lab@N@_op := matmul
lab@N@_file := scratch.cu
lab@N@_tunables :=
lab@N@_title := GPU scratch: it's "new"
lab@N@_baseline := 07
MK
kmake build/labs.tsv >"$tmp/added.log" 2>&1
check "a lab added to labs.mk alone has its row, every field as labs.mk has it (quotes and spaces in the title)" \
    test "$(rows --where lab=$new --sep '|' "$tsv" $fields)" = "$new|$new-gpu-scratch|gpu|matmul|scratch.cu||GPU scratch: it's \"new\"|07|GFLOP/s"

# The scripts' reader: every field by its column's name, an empty one between two full ones kept.
. harness/tools/labs.sh
if CSV_ROWS=$kit/build/csv-rows labs_read "$tsv" &&
    [ "${labs[*]}" = "$want_labs $new" ] && [ "${lab_title[$new]}" = "GPU scratch: it's \"new\"" ] &&
    [ "${lab_tunables[$new]}" = "" ] && [ "${lab_baseline[$new]}" = 07 ] && [ "${lab_file[$new]}" = scratch.cu ] &&
    [ "${lab_tunables[06]}" = "TILE_DIM BLOCK_ROWS" ] && [ "${lab_op[08]}" = sgemm ]; then
    ok "labs_read (harness/tools/labs.sh) gives each lab's fields by name: an empty field stays empty, the next in its place"
else
    not_ok "labs_read: labs=(${labs[*]}) title[$new]='${lab_title[$new]-}' tunables[$new]='${lab_tunables[$new]-}' baseline[$new]='${lab_baseline[$new]-}'" "$tsv"
fi
fails "labs_read of no table fails" env CSV_ROWS="$kit/build/csv-rows" bash -c '. harness/tools/labs.sh && labs_read "$1"' - "$tmp/nothing.tsv"
cp "$tmp/out" "$tmp/unread"
check "... and names it" grep -q "cannot read the table of labs $tmp/nothing.tsv" "$tmp/unread"

# LABS on the command line: a table of its own, in the order given, the full one untouched.
cp "$tsv" "$tmp/full.tsv"
kmake "build/labs-$new-02.tsv" LABS="lab$new 2" >"$tmp/picked.log" 2>&1
check "LABS=\"lab$new 2\" writes build/labs-$new-02.tsv: labs $new and 2, in that order" \
    test "$(rows "$kit/build/labs-$new-02.tsv" lab dir 2>&1 | paste -sd' ')" = "$(printf '%s\t%s-gpu-scratch 02\t02-cpu-blocked' "$new" "$new")"
check "... and leaves build/labs.tsv as it was" cmp "$tsv" "$tmp/full.tsv"

# A slip in labs.mk stops make, naming the variable and what it should be.
slip() { # WHAT LINE TEXT: labs.mk with LINE added fails to make the table, saying TEXT
    cp "$kit/labs/labs.mk" "$tmp/labs.mk.good"
    echo "$2" >>"$kit/labs/labs.mk"
    if kmake build/labs.tsv >"$tmp/slip.log" 2>&1; then
        not_ok "$1: make wrote the table anyway" "$tmp/slip.log"
    elif grep -qF -- "$3" "$tmp/slip.log"; then
        ok "$1 stops make, saying: $3"
    else
        not_ok "$1: make failed without saying '$3'" "$tmp/slip.log"
    fi
    cp "$tmp/labs.mk.good" "$kit/labs/labs.mk"
}
slip "a misspelt field" "lab${new}_tunable := TILE_DIM" "labs/labs.mk, lab${new}_tunable"
slip "a kind that is neither cpu nor gpu" "lab${new}_kind := xpu" "is cpu (host pointers, built with gcc) or gpu"
slip "an operation the kit does not have" "lab${new}_op := rowsum" "'rowsum' is no operation of the kit's (harness/core/ops/): they are"
slip "a lab without a title" "lab${new}_title :=" "labs/labs.mk, lab${new}_title"
slip "a baseline that is no lab number" "lab${new}_baseline := 6" "labs/labs.mk, lab${new}_baseline"
slip "a field that starts with a quote" "lab${new}_title := \"quoted\"" "starts with a quote"
check "... and then, labs.mk mended, the table is written again" kmake build/labs.tsv
check "tl-labs alone refuses a lab given twice" sh -c "! '$kit/build/tl-labs' 01 dir=a kind=cpu file=f title=t 01 dir=a kind=cpu file=f title=t 2>'$tmp/twice'"
check "... saying so" grep -q "a lab given twice" "$tmp/twice"

tap_plan
