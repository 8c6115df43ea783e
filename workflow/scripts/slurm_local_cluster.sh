#!/usr/bin/env bash
# A single-node SLURM cluster on this machine, from Debian packages, to run the workflow through its SLURM profile
# (workflow/profiles/slurm) for real: tests/test_slurm.py and .ci/run use it. Needs root (CI runs as root).
#
#   workflow/scripts/slurm_local_cluster.sh start    # install slurm-wlm and munge if missing, configure, start
#   workflow/scripts/slurm_local_cluster.sh status   # sinfo
#   workflow/scripts/slurm_local_cluster.sh stop     # stop the daemons this script started (by their pid files)
#
# No systemd, cgroups or accounting database: processes are tracked through /proc (ProctrackType=proctrack/linuxproc),
# tasks are not bound (TaskPlugin=task/none), there is no accounting storage (so `sacct` has nothing to report: the
# profile queries job states with squeue, and MinJobAge keeps finished jobs visible to squeue for 300 s, more than 3x
# the plugin's initial status delay), and no mail (MailProg=/bin/true). The node offers the CPUs and memory that
# `slurmd -C` reports (RealMemory no larger than that). Daemon logs: /var/log/slurm/.
set -euo pipefail

CONF=/etc/slurm/slurm.conf
RUN=/run/privtest-slurm
LOGDIR=/var/log/slurm
MIN_JOB_AGE=300

die() { echo "slurm_local_cluster: $*" >&2; exit 1; }

install() {
  if command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v munged >/dev/null; then
    return
  fi
  [ "$(id -u)" -eq 0 ] || die "slurm-wlm and munge are not installed and this is not root"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
}

start_munge() {
  mkdir -p /etc/munge /run/munge /var/lib/munge /var/log/munge
  if [ ! -s /etc/munge/munge.key ]; then
    dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key status=none
  fi
  chown -R munge:munge /etc/munge /run/munge /var/lib/munge /var/log/munge
  chmod 0700 /etc/munge
  chmod 0400 /etc/munge/munge.key
  if [ -f "$RUN/munged.pid" ] && kill -0 "$(cat "$RUN/munged.pid")" 2>/dev/null; then
    return
  fi
  su -s /bin/sh munge -c "munged --pid-file=/run/munge/privtest-munged.pid"
  cp /run/munge/privtest-munged.pid "$RUN/munged.pid"
  munge -n | unmunge >/dev/null || die "munge does not work"
}

write_conf() {
  local host node cpus boards sockets cores threads mem
  host=$(hostname -s)
  node=$(slurmd -C | head -n 1)  # NodeName=... CPUs=... Boards=... SocketsPerBoard=... ... RealMemory=...
  field() { echo "$node" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
  cpus=$(field CPUs); boards=$(field Boards); sockets=$(field SocketsPerBoard)
  cores=$(field CoresPerSocket); threads=$(field ThreadsPerCore); mem=$(field RealMemory)
  [ -n "$cpus" ] && [ -n "$mem" ] || die "cannot read the node's resources from 'slurmd -C': $node"
  mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd "$LOGDIR"
  cat >"$CONF" <<EOF
# Written by workflow/scripts/slurm_local_cluster.sh: a single-node cluster for testing (see that script).
ClusterName=privtest
SlurmctldHost=$host
AuthType=auth/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=$RUN/slurmctld.pid
SlurmdPidFile=$RUN/slurmd.pid
SlurmctldLogFile=$LOGDIR/slurmctld.log
SlurmdLogFile=$LOGDIR/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MailProg=/bin/true
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
MinJobAge=$MIN_JOB_AGE
NodeName=$host CPUs=$cpus Boards=$boards SocketsPerBoard=$sockets CoresPerSocket=$cores ThreadsPerCore=$threads RealMemory=$mem State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
}

running() { [ -f "$RUN/$1.pid" ] && kill -0 "$(cat "$RUN/$1.pid")" 2>/dev/null; }

start() {
  [ "$(id -u)" -eq 0 ] || die "start needs root (it writes $CONF and starts slurmctld, slurmd and munged)"
  install
  mkdir -p "$RUN"
  start_munge
  write_conf
  running slurmctld || slurmctld -i  # -i: ignore state files of an earlier cluster
  running slurmd || slurmd
  local host
  host=$(hostname -s)
  for _ in $(seq 1 60); do
    state=$(sinfo -h -n "$host" -o %T 2>/dev/null || true)
    case "$state" in
      idle*|mixed*|allocated*) echo "slurm_local_cluster: node $host is $state"; sinfo; return 0 ;;
      down*|drain*) scontrol update nodename="$host" state=resume >/dev/null 2>&1 || true ;;
    esac
    sleep 1
  done
  die "the node did not become idle in 60 s; see $LOGDIR/slurmctld.log and $LOGDIR/slurmd.log"
}

stop() {
  for d in slurmd slurmctld munged; do
    if running "$d"; then kill "$(cat "$RUN/$d.pid")"; fi
    rm -f "$RUN/$d.pid"
  done
  echo "slurm_local_cluster: stopped"
}

case "${1:-start}" in
  start) start ;;
  stop) stop ;;
  status) sinfo ;;
  *) die "usage: $0 start|stop|status" ;;
esac
