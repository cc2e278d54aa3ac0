#!/usr/bin/env python3
"""Draws GPU against CPU batch throughput (runs per second, log scale) from the records
bench/bench_gpu.py appends, with the GPU's speed-up written over each pair.

Usage: bench/plot_gpu.py RECORDS.jsonl [...] [-o gpu_vs_cpu.png]
"""

import argparse
import json

from plot_common import save_png
import matplotlib.pyplot as plt


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", nargs="+")
    parser.add_argument("-o", "--output", default="gpu_vs_cpu.png")
    args = parser.parse_args()
    rates, names = {}, {}
    for path in args.records:
        for line in open(path):
            if not line.strip():
                continue
            r = json.loads(line)
            if r.get("workload") != "batch" or r.get("device") not in ("cpu", "gpu"):
                continue
            case = f"{r['algorithm']} n={r['n']}"
            rates.setdefault(case, {})[r["device"]] = r["runs_per_second"]  # the latest wins
            names[r["device"]] = r.get("device_name", r["device"])
    cases = [c for c in rates if {"cpu", "gpu"} <= rates[c].keys()]
    if not cases:
        raise SystemExit("plot_gpu: no case has both a CPU and a GPU record")
    figure, axis = plt.subplots(figsize=(max(6, 1.4 * len(cases)), 4.5))
    width = 0.4
    for offset, device in ((-width / 2, "cpu"), (width / 2, "gpu")):
        axis.bar([i + offset for i in range(len(cases))], [rates[c][device] for c in cases], width,
                 label=f"{device}: {names[device]}")
    for i, case in enumerate(cases):
        speedup = rates[case]["gpu"] / rates[case]["cpu"]
        axis.annotate(f"{speedup:.0f}x", (i + width / 2, rates[case]["gpu"]), ha="center",
                      va="bottom", fontsize=8)
    axis.set_yscale("log")
    axis.set_ylabel("runs per second")
    axis.set_xticks(range(len(cases)))
    axis.set_xticklabels(cases, rotation=20, ha="right")
    axis.legend(fontsize=8)
    axis.set_title("Batch throughput: GPU against every CPU thread")
    save_png(figure, args.output)


if __name__ == "__main__":
    main()
