#!/usr/bin/env python3
"""Runs the same batches on every CPU thread and on the GPU (`nqueens batch --device cpu|gpu`)
and appends one JSON record per case and device to bench/results/<date>-<gpu>.jsonl: runs per
second (median of repeats after a warm-up), success rate, wall and kernel seconds. One more
case times a single block-per-chain run at N = 1024 to get the time of one full-neighbourhood
step, and single ga runs (n = 1000, population 4096; n = 100, population 200) and a whole-grid
beam (n = 64, width 2048) are timed per generation on the GPU and on one CPU thread. Needs a
CUDA build and a GPU.

Usage: bench/bench_gpu.py [--binary build/nqueens] [--repeats 3] [--output FILE] [--cpu-only]
--cpu-only times the single runs on one CPU thread alone (no GPU needed): the CPU figures to
set beside the GPU's.
"""

import argparse
import json
import os
import pathlib
import re
import statistics
import subprocess
import sys

from bench_common import ROOT, append_records, machine_record, repo_relative

# (algorithm, n, CPU runs, GPU runs, extra options)
CASES = [
    ("hc", 8, 2_000_000, 200_000_000, []),
    ("hc-sideways", 8, 500_000, 50_000_000, []),
    ("sa", 32, 2_000, 1_000_000, []),
    ("sa", 256, 200, 100_000, ["--max-steps", "20000"]),
    ("hc", 1024, 20, 2_000, ["--max-steps", "200"]),
    # Issue 16: many small ga and beam runs, one block each.
    ("ga", 8, 2_000, 100_000, ["--population", "128"]),
    ("beam", 8, 100_000, 1_000_000, []),
]
# Issue 16: single population runs, timed per generation on both devices (CPU: one thread):
# (algorithm, n, extra options, target generations per second on the GPU, target GPU seconds).
SINGLE_RUNS = [
    ("ga", 1000, ["--population", "4096", "--max-steps", "20"], 200, None),
    ("ga", 100, ["--population", "200", "--max-steps", "20000"], None, 0.2),
    # Issue 29: a whole-grid beam (8.3 million successors a generation, the k kept by the radix
    # select); one CPU thread takes about 0.13 s a generation.
    ("beam", 64, ["--beam-width", "2048", "--max-steps", "5"], None, None),
]
# Issue 5's targets on one H100/H200, in runs per second, and the step time at N = 1024.
TARGET_RUNS_PER_SECOND = {("hc", 8): 1e9, ("hc-sideways", 8): 2e8}
TARGET_STEP_SECONDS = 20e-6
TARGET_SPEEDUP = 100


def batch(command):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"bench: {' '.join(command)} exited {result.returncode}:\n{result.stderr}")
    return json.loads(result.stdout)


def total_steps(record):
    solved = record["solved"]
    # A mean over no runs is null.
    return ((record["mean_steps_success"] or 0) * solved
            + (record["mean_steps_failure"] or 0) * (record["runs"] - solved))


def median_batch(binary, algorithm, n, runs, device, extra, repeats):
    command = [binary, "batch", "-n", str(n), "--algo", algorithm, "--runs", str(runs),
               "--device", device, "--format", "json", "-q", *extra]
    batch(command)  # warm-up (and, on the GPU, CUDA start-up)
    results = [batch(command) for _ in range(repeats)]
    results.sort(key=lambda r: r["runs_per_second"])
    return results[len(results) // 2], command


def single_runs(args, machine, devices):
    """The single population runs, timed per generation (CPU: one thread)."""
    records = []
    for algorithm, n, extra, target_rate, target_seconds in SINGLE_RUNS:
        for device in devices:
            threads = ["--threads", "1"] if device == "cpu" else []
            one, command = median_batch(args.binary, algorithm, n, 1, device, extra + threads,
                                        args.repeats)
            generations = max(1.0, total_steps(one))
            seconds = one["kernel_seconds"] if device == "gpu" else one["seconds"]
            record = {
                "workload": "generations", "device": device, "device_name": one["device_name"],
                "n": n, "algorithm": algorithm, "generations": generations,
                "solved": one["solved"], "seconds": seconds,
                "layout": one.get("layout"),
                "generations_per_second": generations / seconds if seconds else None,
                "command": repo_relative(" ".join(command)),
                **{k: v for k, v in machine.items() if k not in ("device", "device_name")},
            }
            if device == "gpu":
                record["target_generations_per_second"] = target_rate
                record["target_seconds"] = target_seconds
                record["meets_target"] = (
                    (target_rate is None or (record["generations_per_second"] or 0) >= target_rate)
                    and (target_seconds is None or seconds <= target_seconds))
            records.append(record)
            print(f"{algorithm:>12} n={n:<5} {device}: {generations:.0f} generations in "
                  f"{seconds:.4g} s ({'solved' if one['solved'] else 'unsolved'})", flush=True)
    return records


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=str(ROOT / "build" / "nqueens"))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--output", help="JSON lines file (default bench/results/<date>-<gpu>.jsonl)")
    parser.add_argument("--cpu-only", action="store_true",
                        help="only the single runs, on one CPU thread (no GPU needed)")
    args = parser.parse_args()
    machine = machine_record(args.binary)
    if args.cpu_only:
        records = single_runs(args, machine, ("cpu",))
        output = pathlib.Path(args.output or ROOT / "bench" / "results" / f"{machine['date']}-cpu.jsonl")
        append_records(output, records)
        return 0
    if "0 devices visible" in machine["version"] or "without CUDA" in machine["version"]:
        sys.exit("bench_gpu: needs a CUDA build of nqueens on a machine with a GPU")
    records, cpu_rate = [], {}
    for algorithm, n, cpu_runs, gpu_runs, extra in CASES:
        for device, runs in (("cpu", cpu_runs), ("gpu", gpu_runs)):
            result, command = median_batch(args.binary, algorithm, n, runs, device, extra,
                                           args.repeats)
            record = {
                "workload": "batch",
                "device": device,
                "device_name": result["device_name"],
                "n": n,
                "algorithm": algorithm,
                "runs": runs,
                "runs_per_second": result["runs_per_second"],
                "success_rate": result["success_rate"],
                "seconds": result["seconds"],
                "kernel_seconds": result.get("kernel_seconds"),
                "layout": result.get("layout"),
                "threads": result["threads"],
                "repeats": args.repeats,
                "command": repo_relative(" ".join(command)),
                **{k: v for k, v in machine.items() if k not in ("device", "device_name")},
            }
            if device == "cpu":
                cpu_rate[(algorithm, n)] = record["runs_per_second"]
            else:
                record["speedup_vs_cpu"] = record["runs_per_second"] / cpu_rate[(algorithm, n)]
                target = TARGET_RUNS_PER_SECOND.get((algorithm, n))
                record["target_runs_per_second"] = target
                record["meets_target"] = (record["speedup_vs_cpu"] >= TARGET_SPEEDUP and
                                          (target is None or record["runs_per_second"] >= target))
            records.append(record)
            print(f"{algorithm:>12} n={n:<5} {device}: {record['runs_per_second']:.4g} runs/s "
                  f"({100 * record['success_rate']:.1f}% solved)", flush=True)
    # One chain at N = 1024: the kernel time per full-neighbourhood step.
    single, command = median_batch(args.binary, "hc-sideways", 1024, 1, "gpu",
                                   ["--max-steps", "500"], args.repeats)
    step_seconds = single["kernel_seconds"] / max(1.0, total_steps(single))
    records.append({
        "workload": "step", "device": "gpu", "device_name": single["device_name"], "n": 1024,
        "algorithm": "hc-sideways", "moves_per_step": 1024 * 1023,
        "seconds_per_step": step_seconds, "target_seconds_per_step": TARGET_STEP_SECONDS,
        "meets_target": step_seconds <= TARGET_STEP_SECONDS,
        "command": repo_relative(" ".join(command)),
        **{k: v for k, v in machine.items() if k not in ("device", "device_name")},
    })
    print(f"one step at n=1024: {step_seconds * 1e6:.1f} us (target {TARGET_STEP_SECONDS * 1e6:.0f} us)")
    records += single_runs(args, machine, ("cpu", "gpu"))
    slug = re.sub(r"[^a-z0-9]+", "-", single["device_name"].lower()).strip("-")
    output = pathlib.Path(args.output or ROOT / "bench" / "results" / f"{machine['date']}-{slug}.jsonl")
    append_records(output, records)
    return 0 if all(r.get("meets_target") is not False for r in records) else 1


if __name__ == "__main__":
    sys.exit(main())
