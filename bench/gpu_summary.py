#!/usr/bin/env python3
"""The device check's tables (bench/gpu_check.py): summary.md from figures.jsonl, one row per
figure with its GPU and CPU rates, their ratio, and the prediction of docs/gpu-costs.md it
confirms or refutes; checks.md from checks.jsonl, one row per step.

Usage: bench/gpu_summary.py OUTDIR   (summary.md again, e.g. from a killed run's records)
"""

import json
import math
import pathlib
import re
import statistics
import sys

from bench_common import cpu_model  # noqa: F401 (gpu_check.py's env record reads it here)

MARKER = "<!-- predictions: bench/gpu_summary.py reads the table below -->"
PREFIXES = ["", " k", " M", " G", " T", " P"]


def si(value, unit=""):
    """35.3 M runs/s; '-' for nothing."""
    if value is None or not math.isfinite(value):
        return "-"
    prefix = 0
    while abs(value) >= 999.5 and prefix + 1 < len(PREFIXES):
        value /= 1000
        prefix += 1
    digits = "%.0f" if abs(value) >= 99.95 else "%.1f" if abs(value) >= 9.995 else "%.2f"
    if prefix == 0 and 0 < abs(value) < 1:
        digits = "%.3g"
    return (digits % value) + PREFIXES[prefix] + (" " + unit if unit else "")


def seconds(value):
    return "-" if value is None else f"{value:.3g} s"


def read_records(path):
    """The records that parse, and the numbers of the lines that do not."""
    records, bad = [], []
    if not path.exists():
        return records, bad
    for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            bad.append(number)
    return records, bad


def predictions(root):
    """docs/gpu-costs.md's predictions: (figure, measure) -> (low, high, where from)."""
    text = (root / "docs" / "gpu-costs.md").read_text()
    if MARKER not in text:
        return {}
    table = {}
    for line in text.split(MARKER, 1)[1].strip().splitlines()[2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 5:
            continue
        low, high = (None if c in ("-", "") else float(c) for c in cells[2:4])
        table[(cells[0], cells[1])] = (low, high, cells[4])
    return table


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def measured(records):
    """One target's repeats of a figure, reduced: medians of the passes, or the cut."""
    passed = [r for r in records if r.get("status") == "PASS"]
    cut = [r for r in records if r.get("status") == "CUT"]
    if passed:
        return {"rate": median(r.get("rate") for r in passed),
                "wall": median(r.get("wall_seconds") for r in passed),
                "kernel": median(r.get("kernel_seconds") for r in passed),
                "kernel_rate": median(r.get("kernel_rate") for r in passed),
                "repeats": len(passed), "command": passed[0].get("command")}
    if cut:
        r = cut[0]
        return {"cut": r, "wall": r.get("wall_seconds"), "repeats": 0}
    if records:
        return {"status": records[-1].get("status"), "note": records[-1].get("note")}
    return None


def verdict(value, measure, low, high, cut_after=None):
    """Whether `value` (or a run cut after `cut_after` s) lies where the prediction says."""
    faster_is_lower = measure.endswith("seconds")
    if value is None and cut_after is not None and faster_is_lower:
        if high is not None and cut_after > high:
            return "refuted: slower than predicted (cut)"
        return "undecided (cut)"
    if value is None:
        return "not measured"
    if low is not None and value < low:
        return "refuted: " + ("faster" if faster_is_lower else "slower") + " than predicted"
    if high is not None and value > high:
        return "refuted: " + ("slower" if faster_is_lower else "faster") + " than predicted"
    return "confirmed"


def measure_value(measure, gpu, cpu):
    if not gpu or "rate" not in gpu:
        return None
    return {"gpu kernel seconds": gpu.get("kernel"), "gpu wall seconds": gpu.get("wall"),
            "gpu rate": gpu.get("rate"), "gpu kernel rate": gpu.get("kernel_rate"),
            "gpu/cpu": gpu["rate"] / cpu["rate"] if cpu and cpu.get("rate") else None}.get(measure)


def describe_figure(m, unit):
    if m is None:
        return "-"
    if "cut" in m:
        r = m["cut"]
        return (f"cut at {r['wall_seconds']:.0f} s: {r.get('frames_done')} of {r.get('frames')} "
                f"frames, {si(r.get('frames_per_second'), 'frames/s')}")
    if "rate" not in m:
        return f"{m.get('status')}{': ' + m['note'] if m.get('note') else ''}"
    text = f"{si(m['rate'], unit)} ({seconds(m['wall'])}"
    if m.get("kernel") is not None:
        text += f", kernels {seconds(m['kernel'])}: {si(m.get('kernel_rate'), unit)}"
    return text + (f", median of {m['repeats']}" if m["repeats"] > 1 else "") + ")"


def write(out, root):
    """summary.md from out/figures.jsonl; returns how many figures it has rows for."""
    records, bad = read_records(out / "figures.jsonl")
    env = next((r for r in records if r.get("step") == "env"), {})
    built = next((r for r in records if r.get("nqueens")), {})
    dry = any(r.get("dry_run") for r in records)
    table = predictions(root)
    figures = {}
    for r in records:
        if r.get("figure"):
            figures.setdefault(r["figure"], {"unit": r.get("unit"), "gpu": [], "cpu": []})
            figures[r["figure"]][r.get("target") or "gpu"].append(r)
    gpus = "; ".join(env.get("gpus") or []) or "no GPU"
    lines = [f"# Device check: figures{' (dry run: CPU, tiny sizes)' if dry else ''}", "",
             f"- date: {env.get('date')}; commit {env.get('git')}"
             f"{' (tracked files changed)' if env.get('tracked_files_changed') else ''}",
             f"- machine: {gpus}; {env.get('cpu')}, {env.get('cores')} cores; {env.get('host')}",
             f"- nqueens: {built.get('nqueens') or '(no binary)'}",
             "- GPU rates are per second of the whole command (process start-up included);"
             " kernels: CUDA events around the launches. The CPU ran on every core.", ""]
    if bad:
        lines += [f"- {len(bad)} lines of figures.jsonl did not parse: {bad[:10]}", ""]
    lines += ["| figure | GPU | CPU (every core) | GPU / CPU | prediction (docs/gpu-costs.md) |"
              " verdict |", "| --- | --- | --- | --- | --- | --- |"]
    rows = 0
    for name, f in figures.items():
        gpu, cpu = measured(f["gpu"]), measured(f["cpu"])
        ratio = gpu["rate"] / cpu["rate"] if gpu and cpu and gpu.get("rate") and \
            cpu.get("rate") else None
        said, verdicts = [], []
        for (figure, measure), (low, high, source) in table.items():
            if figure != name:
                continue
            shown = (lambda v: f"{v:g}") if measure.endswith("seconds") else si
            bounds = " to ".join("-" if v is None else shown(v) for v in (low, high))
            said.append(f"{measure} {bounds} ({source})")
            if dry:
                verdicts.append("dry run")
            else:
                cut = gpu["cut"]["wall_seconds"] if gpu and "cut" in gpu else None
                verdicts.append(verdict(measure_value(measure, gpu, cpu), measure, low, high,
                                        cut))
        cpu_text = "-" if cpu is None else describe_figure(cpu, f["unit"])
        lines.append(f"| {name} | {describe_figure(gpu, f['unit'])} | {cpu_text} | "
                     f"{'-' if ratio is None else f'{ratio:.3g}x'} | {'; '.join(said) or '-'} | "
                     f"{'; '.join(verdicts) or '-'} |")
        rows += 1
    steps = {}
    for r in records:
        if r.get("step") and r["step"] != "env":
            steps.setdefault(r["step"], []).append(r)
    lines += ["", "| step | status | seconds | note |", "| --- | --- | --- | --- |"]
    for name, rs in steps.items():
        statuses = sorted({r.get("status") for r in rs})
        wall = sum(r.get("wall_seconds") or 0 for r in rs)
        note = "; ".join(sorted({r.get("note") or (r.get("stderr") or "")[-160:]
                                 for r in rs} - {""}))[:200].replace("\n", " ").replace("|", "/")
        lines.append(f"| {name} | {'/'.join(statuses)} | {wall:.1f} | {note} |")
    (out / "summary.md").write_text("\n".join(lines) + "\n")
    return rows


def write_checks(out):
    """checks.md from out/checks.jsonl; returns how many steps it lists."""
    records, bad = read_records(out / "checks.jsonl")
    env = next((r for r in records if r.get("step") == "env"), {})
    lines = ["# Device check: checks", "",
             f"- date: {env.get('date')}; commit {env.get('git')}; "
             f"{'; '.join(env.get('gpus') or []) or 'no GPU'}", "",
             "| step | status | seconds | note |", "| --- | --- | --- | --- |"]
    rows = 0
    for r in records:
        if r.get("step") in (None, "env"):
            continue
        note = r.get("note") or (r.get("stderr") or "")[-160:].replace("\n", " ")
        lines.append(f"| {r['step']} | {r.get('status')} | {r.get('wall_seconds') or 0:.1f} | "
                     f"{re.sub(r'[|]', '/', note)} |")
        rows += 1
    if bad:
        lines.append(f"\n{len(bad)} lines of checks.jsonl did not parse: {bad[:10]}")
    (out / "checks.md").write_text("\n".join(lines) + "\n")
    return rows


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    root = pathlib.Path(__file__).resolve().parent.parent
    count = write(pathlib.Path(sys.argv[1]), root)
    print(f"summary.md: {count} figures", file=sys.stderr)
    sys.exit(0 if count else 1)
