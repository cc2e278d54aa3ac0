#!/usr/bin/env python3
"""Times `nqueens batch` throughput (runs per second, as the batch reports it, median over
repeats after one warm-up) for the local-search algorithms on the CPU, at 1 thread and at every
core. Appends one JSON record per case to bench/results/<date>-cpu.jsonl.

Usage: bench/bench_batch.py [--binary build/nqueens] [--cases hc:8:2000000,hc-sideways:8:500000]
                            [--threads 1,2] [--repeats 3]
"""

import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys

from bench_common import ROOT, append_records, default_output, machine_record, repo_relative

# Issue 3's targets for a 2-core CI-class machine, one thread: runs per second.
TARGET_RUNS_PER_SECOND = {("hc", 8, 1): 1.5e6, ("hc-sideways", 8, 1): 0.4e6}

DEFAULT_CASES = "hc:8:2000000,hc-sideways:8:500000,first-choice:8:200000,sa:32:2000,hc-memory:8:20000"


def batch(command):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"bench: {' '.join(command)} exited {result.returncode}:\n{result.stderr}")
    return json.loads(result.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=str(ROOT / "build" / "nqueens"))
    parser.add_argument("--cases", default=DEFAULT_CASES, help="algorithm:n:runs, comma separated")
    parser.add_argument("--threads", default=f"1,{os.cpu_count()}")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--output", help="JSON lines file (default bench/results/<date>-cpu.jsonl)")
    args = parser.parse_args()
    machine = machine_record(args.binary)
    output = pathlib.Path(args.output or default_output(machine["date"]))
    thread_counts = sorted({int(t) for t in args.threads.split(",")})

    records = []
    print(f"{'algorithm':>14} {'n':>5} {'threads':>7} {'runs/s median':>14} {'success':>8} target")
    for case in args.cases.split(","):
        algorithm, n, runs = case.split(":")
        for threads in thread_counts:
            command = [args.binary, "batch", "-n", n, "--algo", algorithm, "--runs", runs,
                       "--threads", str(threads), "--format", "json", "-q"]
            batch(command)  # warm-up
            results = [batch(command) for _ in range(args.repeats)]
            rates = [r["runs_per_second"] for r in results]
            target = TARGET_RUNS_PER_SECOND.get((algorithm, int(n), threads))
            first = results[0]
            record = {
                "workload": "batch",
                "algorithm": algorithm,
                "n": int(n),
                "threads": threads,
                "runs": int(runs),
                "repeats": args.repeats,
                "runs_per_second": statistics.median(rates),
                "runs_per_second_min": min(rates),
                "runs_per_second_max": max(rates),
                "seconds_median": statistics.median(r["seconds"] for r in results),
                "success_rate": first["success_rate"],
                "mean_steps_success": first["mean_steps_success"],
                "mean_steps_failure": first["mean_steps_failure"],
                "target_runs_per_second": target,
                "meets_target": None if target is None else statistics.median(rates) >= target,
                "command": repo_relative(" ".join(command)),
                **machine,
            }
            records.append(record)
            verdict = "" if target is None else ("ok" if record["meets_target"] else "MISSED") + f" (>= {target:.3g})"
            print(f"{algorithm:>14} {n:>5} {threads:>7} {record['runs_per_second']:>14.4g} "
                  f"{100 * record['success_rate']:>7.2f}% {verdict}", flush=True)
    append_records(output, records)
    return 0 if all(r["meets_target"] is not False for r in records) else 1


if __name__ == "__main__":
    sys.exit(main())
