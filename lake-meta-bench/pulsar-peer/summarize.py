#!/usr/bin/env python3
"""The peer table from run-peer.sh's JMH JSON files: per case the median of each system's rounds,
lake-meta / Pulsar, and each round's ratio (a round's two trials ran back to back)."""
import json
import pathlib
import statistics
import sys

out = pathlib.Path(sys.argv[1])
scores = {}  # (case, system, metric) -> {round: score}
for f in sorted(out.glob("*.json")):
    case, system, round_ = f.name[:-5].rsplit(".", 2)
    try:
        results = json.loads(f.read_text())
    except ValueError:
        print(f"skipped {f.name}: not a finished JMH result", file=sys.stderr)
        continue
    for result in results:
        metrics = {"ops/s": result["primaryMetric"]["score"]}
        for label, m in result.get("secondaryMetrics", {}).items():
            metrics[label + "/s"] = m["score"]
        for metric, score in metrics.items():
            scores.setdefault((case, system, metric), {})[int(round_)] = score

print("| case | metric | lake-meta | Pulsar | lake-meta / Pulsar | rounds |")
print("|---|---|---|---|---|---|")
for (case, system, metric) in sorted(k for k in scores if k[1] == "lake-meta"):
    lake = scores[(case, "lake-meta", metric)]
    peer = scores.get((case, "pulsar", metric), {})
    if not peer:
        continue
    lm, pm = statistics.median(lake.values()), statistics.median(peer.values())
    per_round = ", ".join(f"{lake[r] / peer[r]:.2f}" for r in sorted(lake) if r in peer and peer[r] > 0)
    ratio = f"{lm / pm:.2f}" if pm > 0 else "-"
    print(f"| {case} | {metric} | {lm:,.0f} | {pm:,.0f} | {ratio} | {per_round} |")
for case in sorted({k[0] for k in scores}):
    for system in ("lake-meta", "pulsar"):
        s = scores.get((case, system, "successes/s")); c = scores.get((case, system, "conflicts/s"))
        if s and c:
            print(f"\n{case} {system}: {statistics.median(c.values()) / statistics.median(s.values()):.2f} conflicts per success")
