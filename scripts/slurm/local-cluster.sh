#!/usr/bin/env bash
# A one-node Slurm cluster on localhost for the tests and CI (Debian's
# slurm-wlm and munge, no systemd, run as root), every file under DIR.
#
#   scripts/slurm/local-cluster.sh start DIR   # munged, slurmctld, slurmd; waits for the node
#   export SLURM_CONF=DIR/slurm.conf           # then sbatch, squeue, sinfo use it
#   scripts/slurm/local-cluster.sh stop DIR    # stops the three daemons by their pid files
#
# Ports: SLURMCTLD_PORT (default 16817) and SLURMD_PORT (16818), away from
# Slurm's defaults. Accounting is off (no sacct): use the job logs and
# squeue. slurmd logs an error about the PMIx MPI plugin; it is harmless
# (MpiDefault=none). Install: apt-get install -y slurm-wlm munge.
set -euo pipefail
cmd=${1:?usage: local-cluster.sh start|stop DIR}
D=${2:?usage: local-cluster.sh start|stop DIR}

stop() {
  for pidfile in "$D/slurmd.pid" "$D/slurmctld.pid" "$D/munge/munged.pid"; do
    if [ -s "$pidfile" ]; then
      pid=$(cat "$pidfile")
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      rm -f "$pidfile"
    fi
  done
}

start() {
  for prog in munged slurmctld slurmd sbatch; do
    command -v "$prog" >/dev/null || { echo "local-cluster: $prog not found (apt-get install slurm-wlm munge)" >&2; exit 3; }
  done
  mkdir -p "$D/state" "$D/spool" "$D/log" "$D/munge/run"
  D=$(cd "$D" && pwd)
  if [ ! -s "$D/munge/munge.key" ]; then
    dd if=/dev/urandom of="$D/munge/munge.key" bs=1024 count=1 status=none
    chmod 400 "$D/munge/munge.key"
  fi
  munged --key-file="$D/munge/munge.key" --socket="$D/munge/run/munge.socket" \
    --pid-file="$D/munge/munged.pid" --log-file="$D/munge/munged.log" \
    --seed-file="$D/munge/seed" --force
  H=$(hostname -s)
  cat > "$D/slurm.conf" <<CONF
ClusterName=local
SlurmctldHost=$H
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$D/munge/run/munge.socket
CredType=cred/munge
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.pid
SlurmctldLogFile=$D/log/slurmctld.log
SlurmdLogFile=$D/log/slurmd.log
SlurmctldPort=${SLURMCTLD_PORT:-16817}
SlurmdPort=${SLURMD_PORT:-16818}
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
SchedulerType=sched/backfill
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$H CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=$H Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF=$D/slurm.conf
  slurmctld -f "$SLURM_CONF"
  sleep 1
  slurmd -f "$SLURM_CONF"
  for _ in $(seq 60); do
    if sinfo -h -o %T 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then
      echo "local-cluster: node $H up (SLURM_CONF=$SLURM_CONF)"
      return 0
    fi
    sleep 0.5
  done
  echo "local-cluster: the node did not come up; logs in $D/log" >&2
  sinfo >&2 || true
  stop
  exit 1
}

case $cmd in
  start) start ;;
  stop) stop ;;
  *) echo "usage: local-cluster.sh start|stop DIR" >&2; exit 2 ;;
esac
