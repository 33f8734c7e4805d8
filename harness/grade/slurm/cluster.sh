#!/usr/bin/env bash
# cluster.sh start|stop DIR: a Slurm cluster of one node, this machine, to try
# make grade-all SCHEDULER=slurm before a cluster's administrators are asked
# (make slurm-start, make slurm-stop), and for the kit's own test of it.
#
# start: munged, slurmctld and slurmd, with their key, sockets, state, spool
# and logs under DIR and a slurm.conf generated there, on free ports of
# localhost only, left running; their process ids in DIR/daemons.pids. It
# says how to grade on it (SLURM_CONF=DIR/slurm.conf) and exits 1, saying
# why, when they cannot start (Debian: apt-get install munge slurmctld slurmd
# slurm-client, which make deps installs).
# stop: cancels what is left of this user's jobs on it and ends each daemon
# start started, by its process id.
set -u
what=${1:-} dir=${2:-}
[ -n "$dir" ] && { [ "$what" = start ] || [ "$what" = stop ]; } || {
    echo "usage: cluster.sh start|stop DIR" >&2
    exit 2
}
mkdir -p "$dir" && dir=$(cd "$dir" && pwd) || exit 1
pids=$dir/daemons.pids
export SLURM_CONF=$dir/slurm.conf

# A free TCP port of localhost: nothing answers on it.
free_port() {
    local p
    for _ in 1 2 3 4 5 6 7 8 9 10; do
        p=$((20000 + RANDOM % 40000))
        (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return 0; }
    done
    return 1
}

# wait_for SECONDS COMMAND...: until COMMAND succeeds, or SECONDS pass
wait_for() {
    local until=$((SECONDS + $1))
    shift
    until "$@" >/dev/null 2>&1; do
        [ "$SECONDS" -lt "$until" ] || return 1
        sleep 0.5
    done
}

# The daemons start started that still run.
alive() {
    local pid
    [ -f "$pids" ] || return 1
    while read -r pid; do kill -0 "$pid" 2>/dev/null && echo "$pid"; done <"$pids"
}

stop() {
    local pid
    if [ -n "$(alive)" ]; then
        scancel --quiet --user="$(id -un)" 2>/dev/null
        wait_for 20 sh -c '! squeue -h -o %i | grep -q .'
    fi
    for pid in $(alive); do kill "$pid" 2>/dev/null; done
    for _ in $(seq 40); do [ -n "$(alive)" ] && sleep 0.5; done
    for pid in $(alive); do kill -KILL "$pid" 2>/dev/null; done
    rm -f "$pids"
}

# fail WHY: said, what started stopped, exit 1
fail() {
    echo "slurm: the cluster of one node cannot start here: $1" >&2
    stop
    exit 1
}

# daemon COMMAND...: started apart from this shell (it outlives it), its pid kept. Its
# output goes to a file (the caller redirects it): a daemon holding the output of
# make slurm-start would keep a pipe after it (make slurm-start | tail) open for ever.
daemon() {
    setsid "$@" </dev/null &
    echo "$!" >>"$pids"
}

if [ "$what" = stop ]; then
    [ -n "$(alive)" ] && running=1 || running=
    stop
    if [ -n "$running" ]; then
        echo "slurm: the cluster of one node in $dir is stopped"
    else
        echo "slurm: no cluster of one node runs in $dir"
    fi
    exit 0
fi

if [ -n "$(alive)" ]; then
    echo "slurm: a cluster of one node runs in $dir already (stop it with make slurm-stop)"
    exit 0
fi
for tool in munged mungekey slurmctld slurmd sbatch squeue sinfo scancel setsid; do
    command -v "$tool" >/dev/null || fail "$tool is not installed (make deps installs munge, slurmctld, slurmd and slurm-client)"
done
user=$(id -un)
rm -rf "${dir:?}"/{munge,run,state,spool,log} "$pids" "$SLURM_CONF"
# munged checks that its socket's folder can be entered by all and that
# its key and log are private.
mkdir -p "$dir"/{munge,run,state,spool,log} && chmod 700 "$dir/munge" && chmod 755 "$dir/run" "$dir" || exit 1
mungekey --create --keyfile="$dir/munge/munge.key" 2>"$dir/log/mungekey.log" ||
    fail "mungekey could not create a key: $(tail -n 1 "$dir/log/mungekey.log")"
daemon munged -F --key-file="$dir/munge/munge.key" --socket="$dir/run/munge.socket" \
    --pid-file="$dir/run/munged.pid" --log-file="$dir/munge/munged.log" \
    --seed-file="$dir/munge/munged.seed" >>"$dir/log/munged.err" 2>&1
wait_for 10 test -S "$dir/run/munge.socket" ||
    fail "munged did not start: $(tail -n 1 "$dir/log/munged.err" "$dir/munge/munged.log" 2>/dev/null | grep -v '^==' | tail -n 1)"
ctl_port=$(free_port) && d_port=$(free_port) || fail "no free port on localhost"
cat >"$SLURM_CONF" <<CONF
# A cluster of one node, this machine (tilelab: harness/grade/slurm/cluster.sh).
ClusterName=tilelab
SlurmctldHost=localhost
SlurmctldPort=$ctl_port
SlurmdPort=$d_port
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/run/munge.socket
# No cgroups in a container: processes are tracked through /proc.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
KillWait=5
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$(nproc)
PartitionName=grading Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
daemon slurmctld -D -c -f "$SLURM_CONF" >>"$dir/log/slurmctld.err" 2>&1
daemon slurmd -D -N localhost -f "$SLURM_CONF" >>"$dir/log/slurmd.err" 2>&1
wait_for 30 sh -c 'sinfo -h -o %T | grep -qx idle' ||
    fail "slurmctld and slurmd did not bring the node up: $(cat "$dir"/log/*.err "$dir"/log/slurmctld.log 2>/dev/null | grep -i -m 1 -E 'error|fatal' || echo "see $dir/log")"
cat <<SAID
slurm: a cluster of one node runs: this machine, $(nproc) CPUs, partition 'grading' ($SLURM_CONF).
Grade a class on it as on a cluster:
  make grade-all SUBMISSIONS=handins/ SCHEDULER=slurm WAIT=1 SLURM_CONF=$SLURM_CONF
Stop it with: make slurm-stop
SAID
