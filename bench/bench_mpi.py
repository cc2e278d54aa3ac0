#!/usr/bin/env python3
"""Times `nqueens count -n N -t T` under `mpiexec -n K` for each K (whole process, wall clock,
and the count's own seconds), medians over repeats after one warm-up run, with the
work-distribution figures the count's JSON gives: messages and bytes per frame, summed over the
ranks, and each rank's idle time at the end. The machine's load (1-minute average) is recorded
before each run. Appends one JSON record per K to bench/results/<date>-mpi.jsonl.

Usage: bench/bench_mpi.py [--binary build-rel/nqueens] [--n 18] [--ranks 1,2] [--threads 1]
                          [--repeats 3] [--mpiexec mpiexec] [--output FILE]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

from bench_common import ROOT, append_records, machine_record, repo_relative

# OEIS A000170 from n = 1, to check every count.
SOLUTIONS = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512,
             95815104, 666090624, 4968057848, 39029188884]


def load():
    return os.getloadavg()[0]


def run(command, n):
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"bench_mpi: {' '.join(command)} exited {result.returncode}: {result.stderr}")
    record = json.loads(result.stdout)
    if record["solutions"] != SOLUTIONS[n - 1]:
        sys.exit(f"bench_mpi: n={n} gave {record['solutions']} solutions")
    return wall, record


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=str(ROOT / "build-rel" / "nqueens"))
    parser.add_argument("--n", type=int, default=18)
    parser.add_argument("--ranks", default="1,2")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--mpiexec", default="mpiexec")
    parser.add_argument("--output")
    args = parser.parse_args()
    machine = machine_record(args.binary)
    output = args.output or ROOT / "bench" / "results" / f"{machine['date']}-mpi.jsonl"
    launcher = [args.mpiexec, "--oversubscribe"] + (["--allow-run-as-root"] if os.geteuid() == 0
                                                    else [])
    records = []
    for ranks in [int(k) for k in args.ranks.split(",")]:
        command = launcher + ["-n", str(ranks), args.binary, "count", "-n", str(args.n), "-t",
                              str(args.threads), "-f", "json", "-q"]
        run(command, args.n)  # warm-up
        walls, seconds, loads, runs = [], [], [], []
        for _ in range(args.repeats):
            loads.append(load())
            wall, record = run(command, args.n)
            walls.append(wall)
            seconds.append(record["seconds"])
            runs.append(record)
        frames = runs[0]["subproblems"]
        messages = [sum(r["messages_sent"] for r in run["by_rank"]) for run in runs]
        sent = [sum(r["bytes_sent"] for r in run["by_rank"]) for run in runs]
        idle = [max(r["idle_at_end_seconds"] for r in run["by_rank"]) for run in runs]
        median_run = runs[seconds.index(statistics.median_low(seconds))]
        records.append({
            **machine,
            "workload": "count-mpi",
            "command": repo_relative(" ".join(command)),
            "n": args.n,
            "ranks": ranks,
            "threads_per_rank": args.threads,
            "repeats": args.repeats,
            "wall_seconds": walls,
            "median_wall_seconds": statistics.median(walls),
            "count_seconds": seconds,
            "median_count_seconds": statistics.median(seconds),
            "load_1min": loads,
            "frames": frames,
            "messages_per_frame": statistics.median(messages) / frames,
            "bytes_per_frame": statistics.median(sent) / frames,
            "max_idle_at_end_seconds": statistics.median(idle),
            "by_rank": median_run["by_rank"],
        })
        print(f"n={args.n} ranks={ranks}: wall {statistics.median(walls):.3f} s, count "
              f"{statistics.median(seconds):.3f} s, {records[-1]['messages_per_frame']:.2f} "
              f"messages and {records[-1]['bytes_per_frame']:.1f} bytes a frame, idle at the end "
              f"{records[-1]['max_idle_at_end_seconds'] * 1e3:.1f} ms, load {loads}")
    base = next((r for r in records if r["ranks"] == 1), None)
    for r in records:
        if base and r is not base:
            r["speedup_wall"] = base["median_wall_seconds"] / r["median_wall_seconds"]
            r["speedup_count"] = base["median_count_seconds"] / r["median_count_seconds"]
            print(f"{r['ranks']} ranks against 1: {r['speedup_wall']:.2f}x wall, "
                  f"{r['speedup_count']:.2f}x count")
    append_records(output, records)


if __name__ == "__main__":
    main()
