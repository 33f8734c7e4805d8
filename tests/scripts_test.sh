#!/usr/bin/env bash
# Every shell script of the kit parses under this machine's bash (bash -n:
# Debian 12's bash 5.2 once refused an apostrophe inside ${VAR:?...}) and
# passes shellcheck, but for the checks named below, each with the reason it
# does not apply to the kit. Prints TAP; make check counts it.
source "$(dirname "$0")/tap.sh"

# The scripts: every *.sh, and every file whose first line is a #! of a shell.
scripts=$(find . \( -path ./build -o -path "./$build" -o -path ./.git -o -path ./.devlibs \) -prune -o -type f -print |
    sed 's|^\./||' | sort | while read -r f; do
        case $f in
        *.sh) echo "$f" ;;
        *) head -c 64 "$f" 2>/dev/null | head -1 | grep -qE '^#!.*(/|env )(ba)?sh( |$)' && echo "$f" ;;
        esac
    done)
count=$(echo "$scripts" | grep -c .)
if [ "$count" -ge 30 ]; then ok "found $count shell scripts"; else not_ok "found only $count shell scripts: $scripts"; fi

bad=
for f in $scripts; do
    parser=bash
    if head -1 "$f" | grep -q '^#!/bin/sh'; then parser=dash; fi
    "$parser" -n "$f" 2>>"$tmp/parse" || bad="$bad $f"
done
if [ -z "$bad" ]; then ok "all $count scripts parse ($(bash --version | head -1 | sed 's/ (.*//'), and dash for #!/bin/sh)"; else not_ok "scripts that do not parse:$bad" "$tmp/parse"; fi

# The checks left out everywhere, each for a reason that holds for every script:
#   SC1091  a script sources its neighbour by a path computed at run time
#           ("$(dirname "$0")/tap.sh"), which shellcheck cannot follow; the
#           sourced file is checked on its own
#   SC2154  variables come from the environment (the Makefile passes them) or
#           from a file sourced first, which shellcheck does not see
#   SC2317  functions called only from a trap or through a variable: shellcheck
#           0.9 calls their commands unreachable
#   SC1007  "a= b=" declares empty variables on one line, on purpose
#   SC2016  a '$' in single quotes belongs to awk, gnuplot or make, which the
#           shell must not expand
#   SC2086  a list held in a variable (flags, object files, sizes, a command
#           with its arguments) is split into words on purpose; a path is quoted
#   SC2015  "test && action || other" where the action cannot fail (an echo,
#           an assignment): a compact if
#   SC2013  "for w in $(cat f)" reads words, and the files read so hold one
#           word a line
#   SC2001 SC2002 SC2012 SC2116  style only: a sed where ${v//a/b} would do, a
#           cat before a pipe, ls of names the kit made itself, an echo in $( )
exclude=SC1091,SC2154,SC2317,SC1007,SC2016,SC2086,SC2015,SC2013,SC2001,SC2002,SC2012,SC2116
# And in one file each, for a reason of that file:
#   harness/lab/isolate-symbols.sh SC2030,SC2031: the while loop's "sym" inside
#           $( ) is its own variable, not the for loop's
#   a file with no #! line is sourced by a bash script: checked as bash, and
#           SC2034 (unused variable) left out, since it sets variables for the
#           script that sources it
declare -A also=([harness/lab/isolate-symbols.sh]='SC2030,SC2031')

if ! command -v shellcheck >/dev/null; then
    ok "# SKIP shellcheck is not installed: make deps installs it"
else
    failing=
    for f in $scripts; do
        args=(--exclude="$exclude${also[$f]:+,${also[$f]}}")
        if ! head -1 "$f" | grep -q '^#!'; then args=(--shell=bash --exclude="$exclude,SC2034"); fi
        shellcheck -f gcc "${args[@]}" "$f" >>"$tmp/shellcheck" 2>&1 || failing="$failing $f"
    done
    if [ -z "$failing" ]; then
        ok "all $count scripts pass shellcheck $(shellcheck --version | sed -n 's/^version: //p') (but the checks named in tests/scripts_test.sh)"
    else
        not_ok "shellcheck finds faults in:$failing" "$tmp/shellcheck"
    fi
fi

# The test can fail: a script with the apostrophe of the bash 5.2 trap, and
# one with an unquoted path that shellcheck must flag.
printf '#!/usr/bin/env bash\n: "${X:?the flags of valgrind'"'"'s cache}"\necho "(x)"\n' >"$tmp/trap.sh"
if ! bash -n "$tmp/trap.sh" 2>/dev/null; then ok "bash -n refuses the apostrophe inside \${X:?...} that broke cache-table.sh"; else not_ok "bash -n accepts the apostrophe trap: this check cannot fail here"; fi
if command -v shellcheck >/dev/null; then
    printf '#!/usr/bin/env bash\ncd $1\nrm -rf "$1"/*\n' >"$tmp/unsafe.sh"
    if ! shellcheck --exclude="$exclude" "$tmp/unsafe.sh" >/dev/null 2>&1; then ok "shellcheck with these exclusions still flags a cd without a check"; else not_ok "shellcheck with these exclusions passes an unchecked cd"; fi
fi
# make deps's last word on the GPU is true for a machine without one: the GPU
# labs' tests run on the emulator there (they are not skipped). Run with
# stand-ins for the package tools and a nvidia-smi that finds no GPU.
mkdir -p "$tmp/fake"
printf '#!/bin/sh\nexit 0\n' >"$tmp/fake/apt-get"
printf '#!/bin/sh\necho "install ok installed"\n' >"$tmp/fake/dpkg-query"
printf '#!/bin/sh\necho 0\n' >"$tmp/fake/id"
printf '#!/bin/sh\necho "NVIDIA-SMI has failed: no devices were found"; exit 9\n' >"$tmp/fake/nvidia-smi"
chmod +x "$tmp/fake"/*
PATH="$tmp/fake:$PATH" bash harness/tools/deps.sh >"$tmp/deps" 2>&1
if grep -q 'no NVIDIA GPU here: the GPU labs build and run their tests on the kit.s CPU emulator' "$tmp/deps" &&
    grep -q 'only bandwidth (make labN bench) needs a GPU' "$tmp/deps" && ! grep -qi 'tests are skipped' "$tmp/deps"; then
    ok "make deps without a GPU says the GPU labs' tests run on the emulator, and only bandwidth needs a GPU"
else
    not_ok "make deps's words on a machine without a GPU are not what happens there" "$tmp/deps"
fi

tap_plan
