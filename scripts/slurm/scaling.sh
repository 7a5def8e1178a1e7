#!/usr/bin/env bash
# How a sharded run's wall time falls with the number of parts N, measured
# on the one-node cluster of local-cluster.sh (started and stopped here):
# for each N, the wall time from submitting the `--slurm N` commands to the
# merge's end, each part's wall time and cost estimate (shard.json), and the
# merge alone rerun under /usr/bin/time (wall, peak RSS).
#
#   scripts/slurm/scaling.sh [SPEC] [N...]     # default: experiments/quick.toml 1 2 3
#
# Needs a built binary (target/debug/contact-harness), root, slurm-wlm and munge.
set -euo pipefail
cd "$(dirname "$0")/../.."
spec=${1:-experiments/quick.toml}
shift || true
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(1 2 3)
bin=$PWD/target/debug/contact-harness
D=$(mktemp -d)
W=${SCALING_WORK:-$(mktemp -d)}
echo "parts, logs and results in $W"
trap 'scripts/slurm/local-cluster.sh stop "$D"' EXIT
scripts/slurm/local-cluster.sh start "$D" >/dev/null
export SLURM_CONF=$D/slurm.conf
echo "spec $spec, $(nproc) CPUs, cpus-per-task 1"
for n in "${counts[@]}"; do
  t0=$(date +%s.%N)
  cmds=$("$bin" "$spec" --slurm "$n" --out "$W/out-$n" --report "$W/rep-$n")
  jobs=$(printf 'set -e\n%s\necho "$jid"\n' "$cmds" | bash)
  while [ -n "$(squeue -h -j "$(echo $jobs | tr ' ' ,)")" ]; do sleep 0.2; done
  t1=$(date +%s.%N)
  [ -f "$W/out-$n/manifest.json" ] || { echo "N=$n: no merged results"; cat "$W/out-$n.parts/logs/merge.log"; exit 1; }
  parts=$(python3 - "$W/out-$n.parts" "$n" <<'PY'
import json, sys
d, n = sys.argv[1], int(sys.argv[2])
out = []
for i in range(n):
    f = json.load(open(f"{d}/part-{i}/shard.json"))
    out.append(f"{len(f['jobs'])} jobs {f['wall_s']:.1f} s (cost {f['estimated_cost']:.3g})")
print("; ".join(out))
PY
)
  bytes=$(cat "$W"/out-$n.parts/part-*/jobs.msgpack | wc -c)
  merge=$( { /usr/bin/time -f "%e s, peak RSS %M KB" "$bin" merge "$W"/out-$n.parts/part-* \
      --out "$W/again-$n" --report "$W/again-rep-$n" >/dev/null; } 2>&1 | tail -n 1)
  printf 'N=%s: %.1f s submit to merged | parts: %s | stored %s bytes | merge alone: %s\n' \
    "$n" "$(echo "$t1 - $t0" | bc)" "$parts" "$bytes" "$merge"
done
