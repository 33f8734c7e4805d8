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

# A kit for some labs (make dist LABS=) holds their references alone: another lab's
# SOLUTION=1 says so in a sentence, where make said "No rule to make target
# 'solutions/prebuilt/lab04-emu.o'" (an instructor's trial, 2026-11-28).
check "make dist LABS=\"1 2 3\" builds a kit of those labs" make -s dist LABS="1 2 3"
check "... which unpacks" tar -xzf "$build/tilelab-student-labs-01-02-03.tar.gz" -C "$tmp"
some=$tmp/tilelab-student-labs-01-02-03
check "... where lab 1's reference passes its suite" make -s -C "$some" lab1 test SOLUTION=1
make -s -C "$some" lab4 test SOLUTION=1 GPU=emu >"$tmp/lab4.log" 2>&1
rc=$?
if [ "$rc" -ne 0 ] && grep -q "This kit has no reference solution of lab 4: it was made for labs 1 2 3 alone" "$tmp/lab4.log" &&
    ! grep -q "No rule to make target" "$tmp/lab4.log"; then
    ok "... and lab 4's SOLUTION=1 fails, saying the kit was made for labs 1 2 3"
else
    not_ok "lab 4's SOLUTION=1 in a kit of labs 1-3 (exit $rc) does not say why" "$tmp/lab4.log"
fi

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
