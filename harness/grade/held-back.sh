# Sourced by grade.sh and grade-all.sh. read_held_back FILE: reads an
# instructor's held-back cases into held_seed, held_shapes, held_products
# and held_sides (empty when FILE is), one kind per line, # for comments:
#
#   seed 4242                   every random test again, with this seed
#   shapes 97x1031,4095x33      transposes: rows x cols
#   products 97x65x1031         matrix products (labs 7-8): m x n x k
#   sides 97,1031,4095          in-place transposes (lab 9): n x n matrices
#
# held_for OP: the cases of a lab's operation (labs.mk's labNN_op).
# A line it cannot read is said, with what it should be, and it returns 2.
read_held_back() {
    held_seed= held_shapes= held_products= held_sides=
    [ -n "$1" ] || return 0
    local n=0 key value rest ok
    while read -r key value rest || [ -n "$key" ]; do
        n=$((n + 1))
        case $key in '' | '#'*) continue ;; esac
        ok=
        case $key in
        seed) [[ $value =~ ^[0-9]+$ ]] && ok=1 && held_seed=$value ;;
        shapes) [[ $value =~ ^[0-9]+x[0-9]+(,[0-9]+x[0-9]+)*$ ]] && ok=1 && held_shapes=$value ;;
        products) [[ $value =~ ^[0-9]+x[0-9]+x[0-9]+(,[0-9]+x[0-9]+x[0-9]+)*$ ]] && ok=1 && held_products=$value ;;
        sides) [[ $value =~ ^[0-9]+(,[0-9]+)*$ ]] && ok=1 && held_sides=$value ;;
        esac
        if [ -z "$ok" ] || [ -n "$rest" ]; then
            printf '%s\n' "grade: $1, line $n: '$key $value${rest:+ $rest}' is not one of" \
                "    seed N                 every random test again, with seed N" \
                "    shapes RxC,RxC,...     transposes: rows x cols, no spaces" \
                "    products MxNxK,...     matrix products (labs 7-8): m x n x k" \
                "    sides N,N,...          in-place transposes (lab 9): N x N matrices" >&2
            return 2
        fi
    done <"$1"
}

held_for() {
    case $1 in
    transpose) echo "$held_shapes" ;;
    inplace) echo "$held_sides" ;;
    *) echo "$held_products" ;;
    esac
}
