#!/usr/bin/env python3
"""Draws a convergence plot (PNG) from one or more `nqueens solve --trace FILE.csv` traces:
attacking pairs per step, with the temperature (sa) or jump probability (hc-anneal-p) on a
second axis, and the mean fitness of the population (beam, ga) in a second panel.

Usage: bench/plot_trace.py TRACE.csv [TRACE.csv ...] [--labels a,b] [-o trace.png] [--title T]
                           [--log-x]
"""

import argparse
import csv
import pathlib
import sys

from plot_common import save_png
import matplotlib.pyplot as plt


def read_trace(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows or "step" not in rows[0] or "cost" not in rows[0]:
        sys.exit(f"plot_trace: {path} is not an nqueens trace (expected step,restarts,cost,...)")
    columns = {key: [float(r[key]) for r in rows] for key in rows[0]}
    # Restarts repeat a step number; plot against the row index so every row shows.
    columns["row"] = list(range(len(rows)))
    return columns


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("traces", nargs="+")
    parser.add_argument("--labels", help="comma separated, one per trace (default: file names)")
    parser.add_argument("-o", "--output", default="trace.png")
    parser.add_argument("--title", default="Convergence")
    parser.add_argument("--log-x", action="store_true", help="steps on a log scale")
    args = parser.parse_args()
    labels = args.labels.split(",") if args.labels else [pathlib.Path(t).stem for t in args.traces]
    if len(labels) != len(args.traces):
        sys.exit("plot_trace: give one label per trace")
    traces = [read_trace(t) for t in args.traces]
    with_fitness = any("mean_fitness" in t for t in traces)
    figure, axes = plt.subplots(2 if with_fitness else 1, 1, figsize=(8, 7 if with_fitness else 4.5),
                                squeeze=False)
    cost_axis = axes[0][0]
    schedule_axis = None
    for trace, label in zip(traces, labels):
        line, = cost_axis.plot(trace["row"], trace["cost"], label=label, linewidth=1)
        for column, name in (("temperature", "temperature"), ("p", "jump probability")):
            if column in trace:
                schedule_axis = schedule_axis or cost_axis.twinx()
                schedule_axis.plot(trace["row"], trace[column], linestyle="--", linewidth=0.8,
                                   color=line.get_color(), label=f"{label}: {name}")
        if "mean_fitness" in trace:
            axes[1][0].plot(trace["row"], trace["best_fitness"], color=line.get_color(),
                            label=f"{label}: best")
            axes[1][0].plot(trace["row"], trace["mean_fitness"], color=line.get_color(),
                            linestyle=":", label=f"{label}: mean")
    if args.log_x:
        for row in axes:
            row[0].set_xscale("symlog")
    cost_axis.set_xlabel("trace row (step; restarts add a row)")
    cost_axis.set_ylabel("attacking pairs (beam, ga: best state)")
    cost_axis.set_title(args.title)
    cost_axis.legend(loc="upper right", fontsize=8)
    if schedule_axis:
        schedule_axis.set_yscale("log")
        schedule_axis.set_ylabel("temperature / probability (dashed, log)")
        schedule_axis.legend(loc="center right", fontsize=8)
    if with_fitness:
        axes[1][0].set_xlabel("generation")
        axes[1][0].set_ylabel("fitness (non-attacking pairs)")
        axes[1][0].legend(fontsize=8)
    save_png(figure, args.output)


if __name__ == "__main__":
    main()
