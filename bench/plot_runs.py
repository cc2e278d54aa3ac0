#!/usr/bin/env python3
"""Draws the per-run distribution of a batch (PNG) from one or more `nqueens batch --runs-csv
FILE.csv` files: the steps of every solved run, sorted, against the run's rank, and those of
the failed runs as a dashed line, so the spread (and a heavy tail) shows at a glance.

Usage: bench/plot_runs.py RUNS.csv [RUNS.csv ...] [--labels a,b] [-o runs.png] [--title T]
                          [--log-y]
"""

import argparse
import csv
import pathlib
import sys

from plot_common import save_png
import matplotlib.pyplot as plt


def read_runs(path):
    """The steps of the solved and of the failed runs, each sorted."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows or not {"solved", "steps"} <= rows[0].keys():
        sys.exit(f"plot_runs: {path} is not an nqueens --runs-csv file "
                 "(expected run,solved,steps,restarts,cost)")
    solved = sorted(int(r["steps"]) for r in rows if r["solved"] == "1")
    failed = sorted(int(r["steps"]) for r in rows if r["solved"] != "1")
    return solved, failed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", help="CSV files from nqueens batch --runs-csv")
    parser.add_argument("--labels", help="comma separated, one per file (default: file names)")
    parser.add_argument("-o", "--output", default="runs.png")
    parser.add_argument("--title", default="Steps per run, sorted")
    parser.add_argument("--log-y", action="store_true", help="steps on a log scale")
    args = parser.parse_args()
    labels = args.labels.split(",") if args.labels else [pathlib.Path(r).stem for r in args.runs]
    if len(labels) != len(args.runs):
        sys.exit("plot_runs: give one label per file")
    figure, axis = plt.subplots(figsize=(8, 4.5))
    for path, label in zip(args.runs, labels):
        solved, failed = read_runs(path)
        runs = len(solved) + len(failed)
        line = None
        if solved:
            line, = axis.step(range(1, len(solved) + 1), solved, where="post", linewidth=1.2,
                              label=f"{label}: {len(solved)} of {runs} solved")
        if failed:
            axis.step(range(1, len(failed) + 1), failed, where="post", linewidth=1,
                      linestyle="--", color=line.get_color() if line else None,
                      label=f"{label}: {len(failed)} failed")
    axis.set_xlabel("run, by rank (fewest steps first)")
    axis.set_ylabel("steps (the algorithm's unit)")
    if args.log_y:
        axis.set_yscale("log")
    axis.set_title(args.title)
    axis.legend(fontsize=8)
    save_png(figure, args.output)


if __name__ == "__main__":
    main()
