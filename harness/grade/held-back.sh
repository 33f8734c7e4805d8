# Sourced by grade.sh and grade-all.sh. read_held_back FILE: reads an
# instructor's held-back cases into held_seed and held_cases[KEYWORD] (empty when
# FILE is), one kind per line, # for comments:
#
#   seed 4242                   every random test again, with this seed
#   shapes 97x1031,4095x33      transposes: rows x cols
#   products 97x65x1031         matrix products (labs 7-8): m x n x k
#   sides 97,1031,4095          in-place transposes (lab 9): n x n matrices
#   counts 65537,999983         reductions (lab 10): counts of floats
#
# The keywords beside seed are the operations' (harness/core/ops/NAME.c:
# .held_back, with .held_back_are saying what follows it), read from their
# files as isolate-symbols.sh reads their entry points; a lab's suite reads
# its cases (TILELAB_HIDDEN) and says which it cannot.
# held_for OP: the cases of a lab's operation (labs.mk's labNN_op).
# A line it cannot read is said, with what it should be, and it returns 2.
declare -A held_cases=()

# held_keyword OP: its .held_back; held_keywords: "KEYWORD<TAB>WHAT" for each operation's own.
held_keyword() { sed -n 's/^ *\.held_back = "\([a-z]*\)",.*/\1/p' "harness/core/ops/$1.c"; }
held_keywords() {
    sed -n 's/^ *\.held_back = "\([a-z]*\)",.*/\1/p; s/^ *\.held_back_are = "\(.*\)",.*/\1/p' harness/core/ops/*.c |
        paste - - | awk -F'\t' '!seen[$1]++'
}

# held_item KEYWORD, with held_keywords on its input: a regular expression of one case, from
# the form .held_back_are shows ("RxC,RxC,...": [0-9]+x[0-9]+); nothing for no such keyword.
held_item() {
    awk -F'\t' -v k="$1" '$1 == k { split($2, form, ","); gsub(/[A-Z]/, "[0-9]+", form[1]); print form[1]; exit }'
}

read_held_back() {
    held_seed=
    held_cases=()
    [ -n "$1" ] || return 0
    local n=0 key value rest ok known item
    known=$(held_keywords)
    while read -r key value rest || [ -n "$key" ]; do
        n=$((n + 1))
        case $key in '' | '#'*) continue ;; esac
        ok=
        if [ "$key" = seed ]; then
            [[ $value =~ ^[0-9]+$ ]] && ok=1 && held_seed=$value
        elif item=$(held_item "$key" <<<"$known") && [ -n "$item" ]; then
            [[ $value =~ ^$item(,$item)*$ ]] && ok=1 && held_cases[$key]=$value
        fi
        if [ -z "$ok" ] || [ -n "$rest" ]; then
            printf '%s\n' "grade: $1, line $n: '$key $value${rest:+ $rest}' is not one of" \
                "    seed N                 every random test again, with seed N" >&2
            awk -F'\t' '{ printf "    %s %s\n", $1, $2 }' <<<"$known" >&2
            return 2
        fi
    done <"$1"
}

held_for() {
    local key
    key=$(held_keyword "$1")
    [ -z "$key" ] || echo "${held_cases[$key]:-}"
}
