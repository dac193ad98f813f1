#!/usr/bin/env bash
# A one-machine Slurm cluster from Debian 12's packages (slurmctld, slurmd,
# munge; scripts/install_deps.sh --with-slurm), for the Slurm recipe tests
# (tests/slurm/). No systemd: munged, slurmctld and slurmd are started by
# hand as root, this machine is both controller and compute node, and all
# state (key, config, spool, logs) lives under one folder.
#   scripts/slurm_cluster.sh up      start it; waits until the node is idle
#   scripts/slurm_cluster.sh down    stop the daemons, remove the folder
#   scripts/slurm_cluster.sh status  sinfo
# Clients find the cluster through SLURM_CONF:
#   export SLURM_CONF=${QFORGE_SLURM_DIR:-/tmp/qforge-slurm}/slurm.conf
# Exit codes: 0 ok; 1 usage or a failure after the daemons started;
# 3 a cluster cannot run here (not root, packages missing, a daemon does not
# start): one line says why, and the tests turn it into a skip.
set -euo pipefail
dir=${QFORGE_SLURM_DIR:-/tmp/qforge-slurm}
conf=$dir/slurm.conf
export SLURM_CONF=$conf

cannot() {
  echo "slurm_cluster: cannot run a cluster here: $*" >&2
  exit 3
}

kill_pidfile() {
  local f=$1 pid
  [ -f "$f" ] || return 0
  pid=$(cat "$f" 2>/dev/null || true)
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$f"
}

down() {
  kill_pidfile "$dir/slurmd.pid"
  kill_pidfile "$dir/slurmctld.pid"
  kill_pidfile "$dir/munged.pid"
  rm -rf "$dir"
}

log_tails() {
  local f
  for f in "$dir"/slurmctld.log "$dir"/slurmd.log "$dir"/munged.log; do
    [ -f "$f" ] || continue
    echo "--- tail of $f" >&2
    tail -n 15 "$f" >&2
  done
}

# The line of the logs that says what went wrong: the first fatal one, else
# the last error (slurmd logs harmless ones about hwloc and PMIx at start).
first_error() {
  local logs=("$dir"/slurmd.log "$dir"/slurmctld.log "$dir"/munged.log)
  { grep -h -i "fatal" "${logs[@]}" 2>/dev/null | head -n 1
    grep -h -i "error" "${logs[@]}" 2>/dev/null | tail -n 1; } | head -n 1
}

up() {
  [ "$(id -u)" -eq 0 ] || cannot "needs root (slurmd runs jobs as their user)"
  local b
  for b in munged mungekey slurmctld slurmd sinfo sbatch; do
    command -v "$b" >/dev/null 2>&1 \
      || cannot "$b is not installed (scripts/install_deps.sh --with-slurm)"
  done
  if [ -f "$dir/slurmctld.pid" ] && kill -0 "$(cat "$dir/slurmctld.pid")" 2>/dev/null; then
    echo "slurm_cluster: already up ($dir); 'down' first" >&2
    exit 1
  fi
  down
  mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
  chmod 700 "$dir/munge"
  mungekey --create --keyfile="$dir/munge/munge.key" >/dev/null 2>&1 \
    || cannot "mungekey could not create a key"
  chmod 600 "$dir/munge/munge.key"
  local socket=$dir/munge/munge.socket
  munged --force --socket="$socket" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" \
    --seed-file="$dir/munge/munged.seed" >/dev/null 2>&1 \
    || { log_tails; down; cannot "munged does not start"; }

  local host cpus mem_mb real_mb
  host=$(hostname -s)
  cpus=$(nproc)
  mem_mb=$(awk '/^MemTotal:/ {print int($2 / 1024)}' /proc/meminfo)
  # Half the memory, at most 4 GB: CR_CPU does not schedule memory, and a
  # RealMemory above what slurmd finds drains the node.
  real_mb=$((mem_mb / 2))
  [ "$real_mb" -gt 4096 ] && real_mb=4096
  cat > "$conf" <<EOF
ClusterName=qforge
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SlurmctldPort=${QFORGE_SLURMCTLD_PORT:-6817}
SlurmdPort=${QFORGE_SLURMD_PORT:-6818}
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=300
KillWait=5
Waittime=0
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$real_mb State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
  slurmctld -c -f "$conf" >/dev/null 2>&1 \
    || { log_tails; down; cannot "slurmctld does not start"; }
  slurmd -f "$conf" >/dev/null 2>&1 || {
    local why
    why=$(first_error)
    log_tails
    down
    cannot "slurmd does not start${why:+: $why}"
  }
  local state=""
  for _ in $(seq 60); do
    state=$(sinfo -h -N -o %t 2>/dev/null | head -n 1 || true)
    [ "$state" = idle ] && break
    if ! kill -0 "$(cat "$dir/slurmd.pid" 2>/dev/null || echo 0)" 2>/dev/null; then
      local why
      why=$(first_error)
      log_tails
      down
      cannot "slurmd exited${why:+: $why}"
    fi
    sleep 0.5
  done
  if [ "$state" != idle ]; then
    log_tails
    down
    cannot "the node is not idle after 30 s (state '${state:-none}')"
  fi
  echo "slurm_cluster: up ($host, $cpus CPUs; export SLURM_CONF=$conf)"
}

case "${1:-}" in
  up) up ;;
  down) down; echo "slurm_cluster: down" ;;
  status)
    [ -f "$conf" ] || { echo "slurm_cluster: not up"; exit 1; }
    sinfo
    ;;
  *) echo "usage: scripts/slurm_cluster.sh up|down|status" >&2; exit 1 ;;
esac
