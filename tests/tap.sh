# tap.sh: what the kit's shell tests share, sourced first by each. It moves
# to the kit's root, makes a scratch folder $tmp (gone on exit) and gives the
# TAP helpers; make check counts the "ok" and "not ok" lines. A test ends
# with tap_plan.
set -u
cd "$(dirname "${BASH_SOURCE[1]}")/.." || exit 1
build=${B:-build}
root=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0

ok() { n=$((n + 1)); echo "ok $n - $1"; }

# not_ok WHAT [LOG]: a failed check, with the end of LOG as TAP comments.
not_ok() {
    n=$((n + 1))
    echo "not ok $n - $1"
    [ $# -lt 2 ] || sed 's/^/#   /' "$2" 2>/dev/null | tail -30
}

# check WHAT COMMAND...: ok when COMMAND succeeds; fails: when it fails.
check() {
    local what=$1
    shift
    if "$@" >"$tmp/out" 2>&1; then ok "$what"; else not_ok "$what" "$tmp/out"; fi
}
fails() {
    local what=$1
    shift
    if "$@" >"$tmp/out" 2>&1; then not_ok "$what" "$tmp/out"; else ok "$what"; fi
}

# kit_labs: the kit's labs, read as every script reads them (harness/tools/labs.sh:
# $labs, lab_dir, lab_kind, lab_file ...), from the table of labs make writes, in a
# folder of the test's own: never where make check's build step builds.
kit_labs() {
    make -s B="$tmp/labs" "$tmp/labs/labs.tsv" "$tmp/labs/csv-rows" >/dev/null || return 1
    . harness/tools/labs.sh
    CSV_ROWS=$tmp/labs/csv-rows labs_read "$tmp/labs/labs.tsv"
}

# copy_kit DIR: the kit as a student has it (no build folder, no history) in DIR.
copy_kit() {
    mkdir -p "$1"
    tar -cf - --exclude=./build --exclude=./.git --exclude="./$build" . | tar -xf - -C "$1"
}

# endless_lab3 KIT: lab 3's reference with its bounds check turned into a
# loop that never ends, as the student's file of KIT; fails, saying so, when
# the reference no longer has that check.
endless_lab3() {
    sed 's|if (r < rows && c < cols)|while (r < rows \&\& c < cols)|' solutions/03-gpu-naive/transpose.cu \
        >"$1/labs/03-gpu-naive/transpose.cu"
    cmp -s solutions/03-gpu-naive/transpose.cu "$1/labs/03-gpu-naive/transpose.cu" || return 0
    not_ok "the lab 3 reference no longer has the bounds check the endless-loop test turns into a loop"
    return 1
}

tap_plan() { echo "1..$n"; }
