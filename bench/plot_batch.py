#!/usr/bin/env python3
"""Draws success rate (with its 95% interval) and mean steps per algorithm (PNG) from
`nqueens batch --format json` output: single records, sweep arrays, or JSON lines.

Usage: bench/plot_batch.py BATCH.json [BATCH.json ...] [-o batch.png] [--title T]
"""

import argparse
import json
import sys

from plot_common import save_png
import matplotlib.pyplot as plt


def read_records(path):
    text = open(path).read().strip()
    try:
        data = json.loads(text)
        records = data if isinstance(data, list) else [data]
    except json.JSONDecodeError:
        records = [json.loads(line) for line in text.splitlines() if line.strip()]
    records = [r for r in records if "success_rate" in r and "algorithm" in r]
    if not records:
        sys.exit(f"plot_batch: {path} holds no batch records")
    return records


def labels_for(records):
    """The algorithm, and for sweeps the parameters that vary among its records."""
    varying = {}
    for r in records:
        for key, value in r.get("parameters", {}).items():
            varying.setdefault((r["algorithm"], key), set()).add(value)
    labels = []
    for r in records:
        name = r["algorithm"] + (f" ({r['variant']})" if "variant" in r else "")
        # Numbers as %g; words (ties "first") and switches (true) as they are.
        swept = [f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}"
                 for k, v in r.get("parameters", {}).items()
                 if len(varying[(r["algorithm"], k)]) > 1]
        labels.append(" ".join([name, *swept]))
    return labels


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("batches", nargs="+")
    parser.add_argument("-o", "--output", default="batch.png")
    parser.add_argument("--title", default=None)
    args = parser.parse_args()
    records = [r for path in args.batches for r in read_records(path)]
    labels = labels_for(records)
    positions = range(len(records))
    figure, (rate_axis, steps_axis) = plt.subplots(2, 1, figsize=(max(8, 0.6 * len(records)), 8))
    rates = [100 * r["success_rate"] for r in records]
    low = [max(0.0, 100 * (r["success_rate"] - r.get("success_rate_low", r["success_rate"])))
           for r in records]
    high = [max(0.0, 100 * (r.get("success_rate_high", r["success_rate"]) - r["success_rate"]))
            for r in records]
    rate_axis.bar(positions, rates, yerr=[low, high], capsize=3, color="tab:blue")
    rate_axis.set_ylabel("success rate, % (95% interval)")
    sizes = sorted({r["n"] for r in records})
    runs = sorted({r["runs"] for r in records})
    rate_axis.set_title(args.title or f"n = {', '.join(map(str, sizes))}; "
                                      f"{', '.join(map(str, runs))} runs per bar")
    width = 0.4
    steps_axis.bar([p - width / 2 for p in positions], [r["mean_steps_success"] or 0 for r in records],
                   width, label="solved runs")
    steps_axis.bar([p + width / 2 for p in positions], [r["mean_steps_failure"] or 0 for r in records],
                   width, label="failed runs")
    steps_axis.set_yscale("symlog")
    steps_axis.set_ylabel("mean steps (each algorithm's unit)")
    steps_axis.legend(fontsize=8)
    for axis in (rate_axis, steps_axis):
        axis.set_xticks(list(positions))
        axis.set_xticklabels(labels, rotation=40, ha="right", fontsize=8)
    save_png(figure, args.output)


if __name__ == "__main__":
    main()
