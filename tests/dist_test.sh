#!/usr/bin/env bash
# The student kit: built by make dist, it must work where it is unpacked
# (tests and bench against the compiled references) and hold no reference
# source. Prints TAP; make check counts it.
source "$(dirname "$0")/tap.sh"

check "make dist builds the student kit" make -s dist
check "it unpacks" tar -xzf "$build/tilelab-student.tar.gz" -C "$tmp"
kit=$tmp/tilelab-student
check "lab 1's reference passes its suite there, compiled" make -s -C "$kit" lab1 test SOLUTION=1
fails "lab 1's stub fails it" make -s -C "$kit" lab1 test
check "lab 4's reference passes on the emulator there" make -s -C "$kit" lab4 test SOLUTION=1 GPU=emu
check "the bench runs there, the reference beside the ceiling" \
    sh -c "make -s -C '$kit' lab2 bench SIZES=64,33x65 REPS=2 | grep -E '^ +reference +[0-9.]+'"

# No line of any reference source may be in the kit, but for lines the kit
# shows anyway (a prototype, the contract's index formula in a handout). The
# lecture decks may show a kernel's shape (a loop header, a launch's block)
# but never a line that indexes memory: that arithmetic is the answer.
leaks=0
for f in solutions/*/*.c solutions/*/*.cu; do
    while read -r line; do # (read trims the indentation)
        [ ${#line} -ge 30 ] || continue
        ! grep -rIqF --exclude-dir=solutions --exclude-dir=slides --exclude-dir=build --exclude-dir=.git -- "$line" . || continue
        if grep -rIqF --exclude-dir=slides -- "$line" "$kit" ||
            { [[ $line == *"["* ]] && grep -rIqF -- "$line" "$kit/slides"; }; then
            leaks=$((leaks + 1))
            echo "# $f leaked: $line"
        fi
    done <"$f"
done
if [ "$leaks" -eq 0 ]; then ok "no line of reference source is in the kit"; else not_ok "$leaks lines of reference source are in the kit"; fi
fails "no reference source is in the kit" sh -c "ls '$kit'/solutions/*/*.c '$kit'/solutions/*/*.cu 2>/dev/null | grep -q ."
# The emulator's corpus marks the kernels that pass a lab's suite: answers too.
fails "no working answer from the emulator's corpus is in the kit" grep -rlq -- '// expect: pass' "$kit"
tap_plan
