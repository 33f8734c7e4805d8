# slurm_cluster.sh: a Slurm cluster of one node, this machine, for the tests
# (sourced). cluster_start DIR starts munged, slurmctld and slurmd with their
# key, sockets, state, spool and logs under DIR and a slurm.conf generated
# there, on free ports of localhost only, and exports SLURM_CONF for sbatch,
# squeue and scancel; it returns 1 with $cluster_why set when they cannot
# start. cluster_stop cancels what is left of the jobs and ends each daemon
# it started, by its process id; the caller traps it.
cluster_pids=() cluster_why= cluster_up=

# A free TCP port of localhost: nothing answers on it.
free_port() {
    local p
    for _ in 1 2 3 4 5 6 7 8 9 10; do
        p=$((20000 + RANDOM % 40000))
        (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return 0; }
    done
    return 1
}

# cluster_wait SECONDS COMMAND...: until COMMAND succeeds, or SECONDS pass
cluster_wait() {
    local until=$((SECONDS + $1))
    shift
    until "$@" >/dev/null 2>&1; do
        [ "$SECONDS" -lt "$until" ] || return 1
        sleep 0.5
    done
}

cluster_start() {
    local dir=$1 tool user ctl_port d_port
    for tool in munged mungekey slurmctld slurmd sbatch squeue sinfo scancel; do
        command -v "$tool" >/dev/null || { cluster_why="$tool is not installed (make deps installs munge, slurmctld, slurmd)"; return 1; }
    done
    user=$(id -un)
    rm -rf "$dir"
    # munged checks that its socket's folder can be entered by all and that
    # its key and log are private.
    mkdir -p "$dir"/{munge,run,state,spool,log} && chmod 700 "$dir/munge" && chmod 755 "$dir/run" "$dir" || return 1
    mungekey --create --keyfile="$dir/munge/munge.key" 2>"$dir/log/mungekey.log" ||
        { cluster_why="mungekey could not create a key: $(tail -n 1 "$dir/log/mungekey.log")"; return 1; }
    munged -F --key-file="$dir/munge/munge.key" --socket="$dir/run/munge.socket" \
        --pid-file="$dir/run/munged.pid" --log-file="$dir/munge/munged.log" \
        --seed-file="$dir/munge/munged.seed" 2>>"$dir/log/munged.err" &
    cluster_pids+=($!)
    cluster_wait 10 test -S "$dir/run/munge.socket" ||
        { cluster_why="munged did not start: $(tail -n 1 "$dir/log/munged.err" "$dir/munge/munged.log" 2>/dev/null | grep -v '^==' | tail -n 1)"; return 1; }
    ctl_port=$(free_port) && d_port=$(free_port) || { cluster_why="no free port on localhost"; return 1; }
    cat >"$dir/slurm.conf" <<CONF
# A cluster of one node, this machine, for tilelab's tests (tests/slurm_cluster.sh).
ClusterName=tilelab-test
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
    export SLURM_CONF=$dir/slurm.conf
    slurmctld -D -c -f "$SLURM_CONF" >>"$dir/log/slurmctld.err" 2>&1 &
    cluster_pids+=($!)
    slurmd -D -N localhost -f "$SLURM_CONF" >>"$dir/log/slurmd.err" 2>&1 &
    cluster_pids+=($!)
    if ! cluster_wait 30 sh -c 'sinfo -h -o %T | grep -qx idle'; then
        cluster_why="slurmctld and slurmd did not bring the node up: $(cat "$dir"/log/*.err "$dir"/log/slurmctld.log 2>/dev/null | grep -i -m 1 -E 'error|fatal' || echo 'see their logs')"
        return 1
    fi
    cluster_up=1
}

cluster_stop() {
    local pid
    if [ -n "$cluster_up" ]; then
        scancel --quiet --user="$(id -un)" 2>/dev/null
        cluster_wait 20 sh -c '! squeue -h -o %i | grep -q .'
    fi
    for pid in ${cluster_pids[@]+"${cluster_pids[@]}"}; do kill "$pid" 2>/dev/null; done
    for pid in ${cluster_pids[@]+"${cluster_pids[@]}"}; do wait "$pid" 2>/dev/null; done
    cluster_pids=() cluster_up=
}
