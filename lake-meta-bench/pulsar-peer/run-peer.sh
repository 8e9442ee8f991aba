#!/usr/bin/env bash
# The peer comparison: the same cases on lake-meta (lake-meta-bench's benchmarks, backend
# LAKE_META) and on Pulsar's RocksdbMetadataStore (PulsarPeerBenchmark), each in its own JVM,
# alternating case by case and round by round (odd rounds run Pulsar first), then a table of the
# medians and ratios (summarize.py). Needs the CLI's jar (./lake-meta builds it) and this
# project's jar and classpath:
#   (cd lake-meta-bench/pulsar-peer && mvn -B package dependency:build-classpath -Dmdep.outputFile=target/cp.txt)
# Usage: lake-meta-bench/pulsar-peer/run-peer.sh [ROUNDS] [OUT_DIR] [CASE_REGEX]
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
root="$(cd "$here/../.." && pwd -P)"
rounds="${1:-3}"
out="${2:-$here/target/peer-run}"
only="${3:-.}"
mkdir -p "$out"
lake_jar="$(ls -t "$root"/lake-meta-cli/target/lake-meta-cli-*-all.jar | head -n 1)"
pulsar_cp="$here/target/lake-meta-bench-pulsar-peer-0.1.0-SNAPSHOT.jar:$(cat "$here/target/cp.txt")"
jmh_opts=(-f 1 -wi 1 -w 1s -i 3 -r 1s -foe true)

# case name | lake-meta benchmark (regex) and params | Pulsar benchmark and params
cases=(
  "cas1-synced|WriteBenchmark\.cas1\$ -p backend=LAKE_META -p durability=SYNCED_WAL|PulsarPeerBenchmark\.cas1\$ -p durability=SYNCED_WAL"
  "cas16-synced|WriteBenchmark\.cas16\$ -p backend=LAKE_META -p durability=SYNCED_WAL|PulsarPeerBenchmark\.cas16\$ -p durability=SYNCED_WAL"
  "create16-synced|WriteBenchmark\.create16\$ -p backend=LAKE_META -p durability=SYNCED_WAL|PulsarPeerBenchmark\.create16\$ -p durability=SYNCED_WAL"
  "cas1-unsynced|WriteBenchmark\.cas1\$ -p backend=LAKE_META -p durability=UNSYNCED_WAL|PulsarPeerBenchmark\.cas1\$ -p durability=UNSYNCED_WAL"
  "cas16-unsynced|WriteBenchmark\.cas16\$ -p backend=LAKE_META -p durability=UNSYNCED_WAL|PulsarPeerBenchmark\.cas16\$ -p durability=UNSYNCED_WAL"
  "hotkey-synced|HotKeyBenchmark\.readThenCas\$ -p durability=SYNCED_WAL|PulsarPeerBenchmark\.readThenCas\$ -p durability=SYNCED_WAL"
  "get1|ReadBenchmark\.get1\$ -p backend=LAKE_META|PulsarPeerBenchmark\.get1\$ -p durability=UNSYNCED_WAL"
  "get4|ReadBenchmark\.get4\$ -p backend=LAKE_META|PulsarPeerBenchmark\.get4\$ -p durability=UNSYNCED_WAL"
)

run_one() { # system case round args...
  local system="$1" name="$2" round="$3"; shift 3
  local cp; [ "$system" = lake-meta ] && cp="$lake_jar" || cp="$pulsar_cp"
  echo "$(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg) round $round $system $name" >> "$out/load.log"
  # shellcheck disable=SC2086
  java -cp "$cp" org.openjdk.jmh.Main $1 "${jmh_opts[@]}" -rf json -rff "$out/$name.$system.$round.json" \
      >> "$out/jmh-$system.log" 2>&1
}

for round in $(seq 1 "$rounds"); do
  for c in "${cases[@]}"; do
    IFS='|' read -r name lake pulsar <<< "$c"
    [[ "$name" =~ $only ]] || continue
    if (( round % 2 == 1 )); then order=(pulsar lake-meta); else order=(lake-meta pulsar); fi
    for system in "${order[@]}"; do
      if [ "$system" = lake-meta ]; then run_one lake-meta "$name" "$round" "$lake"; else run_one pulsar "$name" "$round" "$pulsar"; fi
    done
  done
done
echo "$(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg) done" >> "$out/load.log"
python3 "$here/summarize.py" "$out"
