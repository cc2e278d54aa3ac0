#!/usr/bin/env python3
"""How precisely `--time-limit` holds: runs cases that would run for minutes under a limit of
LIMIT seconds and records the whole process's wall time past the limit (median of repeats).
The target (issue 14) is 0.2 s past the limit. Appends one JSON record per case to
bench/results/<date>-time-limit.jsonl and prints a table.

Usage: bench/bench_time_limit.py [--binary build/nqueens] [--limit 1] [--repeats 3] [--only TEXT]
"""

import argparse
import os
import pathlib
import statistics
import subprocess
import sys
import time

from bench_common import ROOT, append_records, machine_record, repo_relative

TARGET_OVERSHOOT = 0.2

# Each runs far longer than the limit without it.
CASES = [
    ["solve", "-n", "5000", "--algo", "backtrack"],
    ["solve", "-n", "5000", "--algo", "backtrack-opt"],
    ["solve", "-n", "5000", "--algo", "dfs"],
    ["solve", "-n", "40", "--algo", "bfs", "--max-memory", "64G"],
    ["solve", "-n", "1e8", "--algo", "min-conflicts"],
    ["solve", "-n", "1e8", "--algo", "lattice"],  # every core (issue 15: within 0.2 s at 10^8)
    ["solve", "-n", "5000", "--algo", "hc-restart"],
    ["solve", "-n", "20000", "--algo", "hc"],
    ["solve", "-n", "5000", "--algo", "sa", "--max-steps", "1e12"],
    ["solve", "-n", "60000", "--algo", "random", "--max-steps", "1e12"],
    ["solve", "-n", "60000", "--algo", "min-conflicts", "--variant", "column"],
    ["solve", "-n", "2000", "--algo", "ga", "--max-steps", "1e9"],
    ["solve", "-n", "1000", "--algo", "beam", "--max-steps", "1e9"],
    ["solve", "-n", "3000", "--algo", "beam", "--max-steps", "1e9"],
    ["solutions", "-n", "60"],
]


def run_once(binary, case, limit):
    command = [binary, *case, "--time-limit", str(limit)]
    if case[0] == "solve":
        command += ["-f", "summary", "-q"]
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    wall = time.perf_counter() - start
    if result.returncode not in (0, 1):
        sys.exit(f"bench: {' '.join(command)} exited {result.returncode}:\n{result.stderr}")
    return wall, " ".join(command)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=str(ROOT / "build" / "nqueens"))
    parser.add_argument("--limit", type=float, default=1.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--output", type=pathlib.Path)
    parser.add_argument("--only", help="run only the cases whose command contains TEXT")
    args = parser.parse_args()
    machine = machine_record(args.binary)
    output = args.output or ROOT / "bench" / "results" / f"{machine['date']}-time-limit.jsonl"
    records = []
    print(f"{'case':60} {'wall s':>8} {'past limit':>10}  target")
    for case in CASES:
        if args.only and args.only not in " ".join(case):
            continue
        load_before = os.getloadavg()[0]
        walls = []
        for _ in range(args.repeats):
            wall, command = run_once(args.binary, case, args.limit)
            walls.append(wall)
        median = statistics.median(walls)
        over = median - args.limit
        met = over <= TARGET_OVERSHOOT
        print(f"{' '.join(case):60} {median:8.3f} {over:10.3f}  {'met' if met else 'MISSED'}")
        records.append({
            **machine,
            "workload": "time-limit",
            "command": repo_relative(command),
            "time_limit": args.limit,
            "repeats": args.repeats,
            "median_wall_seconds": median,
            "min_wall_seconds": min(walls),
            "median_seconds_past_limit": over,
            "target_seconds_past_limit": TARGET_OVERSHOOT,
            "target_met": met,
            # Other work on the machine stretches the wall time: the 1-minute load before.
            "load_average_1m": round(load_before, 2),
        })
    append_records(output, records)


if __name__ == "__main__":
    main()
