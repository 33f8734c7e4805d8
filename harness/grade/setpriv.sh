# setpriv.sh: sourced by grade.sh where bubblewrap cannot run and the grader
# is root (a container without user namespaces, as Gradescope's may be).
# Student code then runs as a user of its own, and sees what that user may
# read: so what bwrap would hide is closed to every user but root, and each
# hand-in graded at the same time (grade-all) has a uid of its own, so that
# one's code reads nothing of another's and ending one's processes ends no
# other's.

# No account: nothing on the machine belongs to these. (Not 64000, the one uid
# of every grader before these: its cleanups would end these uids' processes.)
SETPRIV_UID_BASE=64001
SETPRIV_UIDS=1000

# setpriv_take_uid: GRADE_UID, a uid no other grader on this machine holds
# while this one runs (a lock per uid, held until the grader ends; grade-run
# passes a command no descriptor but its output's, so no student code holds it).
setpriv_take_uid() {
    local dir=/run/tilelab-grade-uids i
    if ! { mkdir -p "$dir" 2>/dev/null && [ -O "$dir" ] && chmod 700 "$dir"; }; then
        dir=$TOOLS/.setpriv-uids
        mkdir -p "$dir" && chmod 700 "$dir" || return 1
    fi
    for ((i = 0; i < SETPRIV_UIDS; i++)); do
        exec {uid_lock}>"$dir/$i" || return 1
        if flock -n "$uid_lock"; then
            GRADE_UID=$((SETPRIV_UID_BASE + i))
            return 0
        fi
        exec {uid_lock}>&-
    done
    return 1
}

# setpriv_close MODE PATH...: chmod MODE each, its mode kept to be put back
# by setpriv_reopen when the last grader that closed anything ends (grade-all
# runs several: the first to close records a mode, the last puts it back).
setpriv_close() {
    local mode=$1 p state=$TOOLS/.setpriv
    shift
    mkdir -p "$state" && chmod 700 "$state" && exec {state_lock}>"$state/lock" && flock "$state_lock" || return 1
    touch "$state/modes" "$state/graders"
    for p in "$@"; do
        cut -f2- "$state/modes" | grep -qxF -- "$p" || printf '%s\t%s\n' "$(stat -c %a "$p")" "$p" >>"$state/modes"
        chmod "$mode" "$p"
    done
    grep -qx "$$" "$state/graders" || echo "$$" >>"$state/graders"
    exec {state_lock}>&-
}

setpriv_reopen() {
    local state=$TOOLS/.setpriv pid mode path alive=()
    [ -f "$state/graders" ] && exec {state_lock}>"$state/lock" && flock "$state_lock" || return 0
    while read -r pid; do
        [ "$pid" = "$$" ] || ! kill -0 "$pid" 2>/dev/null || alive+=("$pid")
    done <"$state/graders"
    printf '%s\n' ${alive[@]+"${alive[@]}"} >"$state/graders"
    if [ ${#alive[@]} -eq 0 ]; then
        while IFS=$'\t' read -r mode path; do chmod "$mode" "$path"; done <"$state/modes"
        rm -f "$state/modes" "$state/graders"
    fi
    exec {state_lock}>&-
}

# setpriv_start: this hand-in's uid, and what bwrap would hide closed.
setpriv_start() {
    setpriv_take_uid || return 1
    trap setpriv_reopen EXIT
    local hidden=()
    # What bwrap's view leaves out (grade-sandbox --closed: harness/grade/grade_sandbox.h).
    mapfile -d '' hidden < <("$TOOLS/grade-sandbox" --root "$root" --out "$out" --closed "$submission")
    setpriv_close go-rwx ${hidden[@]+"${hidden[@]}"} &&
        setpriv_close 711 "$out" # other hand-ins' results: not listed, each closed to all once graded
    # This hand-in's folder: its own group's alone (grade-all's second pass opens it again).
    chgrp -R "$GRADE_UID" "$work" && chmod -R g+rX,o-rwx "$work" && chmod 750 "$work"
}
