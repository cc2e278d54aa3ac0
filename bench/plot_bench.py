#!/usr/bin/env python3
"""Draws `nqueens bench` records (PNG) as grouped bars: one panel per unit (log scale), one
group per workload, one bar per record and place it ran on (median; the whisker spans min to
max), with the GPU's speed-up over every core written over its bar. A figure the record calls
unsteady (no three repeats within 5%) is hatched, an indicative one (fewer than three repeats,
as --quick makes) pale and dotted; a note under the panels says so. Figures that did not run
are listed under the panels with the reason the record gives.

Usage: bench/plot_bench.py RECORD.json [MORE.json ...] [-o bench.png] [--title T]
Exit: 0 drawn, 2 a file that is not a bench record (schema 1 or 2) or holds no figure that ran.
"""

import argparse
import json
import math
import pathlib
import sys

from plot_common import save_png
import matplotlib.pyplot as plt
from matplotlib.patches import Patch

SCHEMAS = (1, 2)  # schema 1 records say nothing of their figures' quality
# How a bar of each quality is drawn: (hatch, alpha); steady (or not said) plain.
MARKS = {"unsteady": ("///", 0.85), "indicative": ("..", 0.45)}


def refuse(message):
    print(f"plot_bench: {message}", file=sys.stderr)
    sys.exit(2)


def read_record(path):
    """One `nqueens bench -f json` record, or a one-line refusal."""
    try:
        record = json.loads(pathlib.Path(path).read_text())
    except OSError as error:
        refuse(f"cannot read {path}: {error.strerror}")
    except json.JSONDecodeError as error:
        if error.msg == "Extra data":
            refuse(f"{path} holds more than one JSON value (JSON lines?); a bench record is one "
                   "object")
        refuse(f"{path} is not JSON ({error})")
    except UnicodeDecodeError as error:
        refuse(f"{path} is not JSON ({error})")
    if not isinstance(record, dict) or record.get("workload") != "bench":
        kind = record.get("workload") if isinstance(record, dict) else type(record).__name__
        refuse(f"{path} is not a bench record (workload {kind!r}; `nqueens bench -f json` "
               "writes one)")
    if record.get("schema") not in SCHEMAS:
        refuse(f"{path} is a bench record of schema {record.get('schema')!r}; this script "
               f"reads schemas {SCHEMAS[0]} and {SCHEMAS[1]}")
    if not isinstance(record.get("figures"), list):
        refuse(f"{path} is a bench record without a list of figures")
    return record


def short_gpu_name(name):
    return name.removeprefix("NVIDIA ").removeprefix("GeForce ")


def place(record, figure):
    """What a bar is labelled with: the machine's CPU or GPU, and where on it the figure ran."""
    if figure.get("device") == "gpu":
        names = {g.get("index"): g.get("name") for g in record.get("gpus") or []}
        name = names.get(figure.get("gpu"))
        return f"{short_gpu_name(name)} {figure['on']}" if name else figure["on"]
    cpu = (record.get("machine") or {}).get("cpu")
    return f"{cpu} {figure['on']}" if cpu else figure["on"]


def speedup_note(speedup):
    """"7.8x / 15x": a GPU's speed-up over every CPU core and over one ("-" where not measured)."""
    ratios = [speedup.get(k) for k in ("over_all_cores", "over_one_core")]
    if not any(isinstance(r, (int, float)) for r in ratios):
        return None
    return " / ".join(f"{r:.2g}x" if isinstance(r, (int, float)) else "-" for r in ratios)


def drawable(figure):
    return figure.get("ran") and all(
        isinstance(figure.get(k), (int, float)) and figure[k] > 0 for k in ("median", "min", "max"))


def collect(records, paths):
    """The bars by unit, in the order first seen, and a line for each figure not drawn."""
    labels = [sorted({place(r, f) for f in r["figures"]}) for r in records]
    seen, clashes = set(), set()
    for record_labels in labels:
        clashes |= seen & set(record_labels)
        seen |= set(record_labels)
    # Two records of one machine: each bar says which record it comes from.
    tags = [""] * len(records)
    if clashes:
        tags = [f" ({(r.get('build') or {}).get('git_sha') or pathlib.Path(p).stem}, "
                f"{str(r.get('started', ''))[:10]})" for r, p in zip(records, paths)]
        if len(set(tags)) < len(tags):
            tags = [f" (record {k + 1}: {tag[2:]}" for k, tag in enumerate(tags)]
    units, skipped = {}, []
    for record, tag in zip(records, tags):
        speedups = {(s["workload"], s["on"]): speedup_note(s) for s in record.get("speedups") or []}
        for figure in record["figures"]:
            series = place(record, figure) + tag
            if not drawable(figure):
                why = figure.get("why_not") or "no positive rate recorded"
                skipped.append(f"{figure.get('workload')} on {series}: {why}")
                continue
            unit = units.setdefault(figure["unit"], {"workloads": [], "series": [], "bars": {}})
            if figure["workload"] not in unit["workloads"]:
                unit["workloads"].append(figure["workload"])
            if series not in unit["series"]:
                unit["series"].append(series)
            unit["bars"][(figure["workload"], series)] = (
                figure["median"], figure["min"], figure["max"],
                speedups.get((figure["workload"], figure["on"])), figure.get("quality"))
    return units, skipped


def title_of(records):
    if len(records) == 1:
        r = records[0]
        build = r.get("build") or {}
        return (f"{r.get('command', 'nqueens bench')}\n{str(r.get('started', ''))[:10]}, "
                f"nqueens {build.get('version', '?')} {build.get('git_sha') or ''} "
                f"{build.get('build_type', '?')}, CUDA {build.get('cuda') or 'none'}")
    return f"nqueens bench: {len(records)} records"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", nargs="+", help="JSON files from nqueens bench -f json")
    parser.add_argument("-o", "--output", default="bench.png")
    parser.add_argument("--title", default=None)
    args = parser.parse_args()
    records = [read_record(path) for path in args.records]
    try:
        units, skipped = collect(records, args.records)
    except KeyError as missing:
        refuse(f"a figure in {', '.join(args.records)} has no field {missing}")
    if not units:
        refuse("no figure in " + ", ".join(args.records) + " ran")
    every_series = list(dict.fromkeys(s for u in units.values() for s in u["series"]))
    colours = {s: plt.cm.tab10(i % 10) for i, s in enumerate(every_series)}
    widest = max(len(u["workloads"]) * (len(u["series"]) + 1) for u in units.values())
    rows = len(units) + (1 if skipped else 0)
    heights = [3.4] * len(units) + ([0.25 * len(skipped) + 0.3] if skipped else [])
    figure, axes = plt.subplots(rows, 1, figsize=(max(7, 0.32 * widest + 2), sum(heights)),
                                gridspec_kw={"height_ratios": heights}, squeeze=False)
    for axis, (name, unit) in zip((row[0] for row in axes), units.items()):
        width = 0.8 / len(unit["series"])
        for k, series in enumerate(unit["series"]):
            xs, medians, low, high, notes, qualities = [], [], [], [], [], []
            for i, workload in enumerate(unit["workloads"]):
                bar = unit["bars"].get((workload, series))
                if bar is None:
                    continue
                median, least, most, speedup, quality = bar
                xs.append(i - 0.4 + width * (k + 0.5))
                medians.append(median)
                low.append(max(0.0, median - least))
                high.append(max(0.0, most - median))
                notes.append(speedup)
                qualities.append(quality)
            bars = axis.bar(xs, medians, width, yerr=[low, high], capsize=2,
                            color=colours[series], label=series)
            for drawn, quality in zip(bars, qualities):
                if quality in MARKS:
                    hatch, alpha = MARKS[quality]
                    drawn.set_hatch(hatch)
                    drawn.set_alpha(alpha)
                    drawn.set_edgecolor("black")
            for x, median, most, note in zip(xs, medians, high, notes):
                if note:
                    axis.annotate(note, (x, median + most), ha="center", va="bottom", fontsize=7)
        axis.set_yscale("log")
        # Bars on a log scale start somewhere: from a whole decade under the slowest figure, and
        # a decade's room over the fastest for the speed-ups.
        least = min(bar[1] for bar in unit["bars"].values())
        most = max(bar[2] for bar in unit["bars"].values())
        axis.set_ylim(10 ** math.floor(math.log10(least) - 0.3), most * 4)
        axis.set_ylabel(f"{name}, median")
        axis.set_xticks(range(len(unit["workloads"])))
        axis.set_xticklabels(unit["workloads"], fontsize=8)
        axis.grid(axis="y", which="major", alpha=0.3)
        # Plain swatches: a series' first bar may carry a quality's mark.
        axis.legend(handles=[Patch(color=colours[s], label=s) for s in unit["series"]],
                    fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    axes[0][0].set_title(args.title or title_of(records), fontsize=9)
    labels = []
    if any(bar[3] for u in units.values() for bar in u["bars"].values()):
        labels.append("over a GPU's bar: its speed-up over every CPU core / over one core")
    marked = {bar[4] for u in units.values() for bar in u["bars"].values()} & set(MARKS)
    if "unsteady" in marked:
        labels.append("hatched: unsteady (no three repeats agreed within 5%)")
    if "indicative" in marked:
        labels.append("pale, dotted: indicative (fewer than three repeats)")
    if labels:
        axes[len(units) - 1][0].set_xlabel("\n".join(labels), fontsize=7)
    if skipped:
        notes_axis = axes[-1][0]
        notes_axis.axis("off")
        notes_axis.text(0, 1, "Not run:\n" + "\n".join(skipped), va="top", fontsize=7,
                        transform=notes_axis.transAxes)
    save_png(figure, args.output)


if __name__ == "__main__":
    main()
