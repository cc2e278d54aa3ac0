#!/usr/bin/env python3
"""Times `nqueens solve --algo parallel` (or `--algo lattice`) for huge N on 1 and 2 (or more)
threads, or on the GPU: wall time, peak memory of the whole process (bytes per queen) and the solver's own
seconds. One run per case by default (a 10^9 board needs about 5 GB); records the load average,
since a shared machine's timings depend on it. Appends one JSON record per case to
bench/results/<date>-huge-boards.jsonl as each case ends, and prints a table.

Usage: bench/bench_placement.py [--binary build/nqueens] [--sizes 1e6,1e7,1e8,1e9]
                                [--threads 1,2] [--device cpu] [--repeats 1]
                                [--algo parallel|lattice]
"""

import argparse
import datetime
import os
import re
import statistics
import subprocess
import sys
import time

from bench_common import ROOT, append_records, machine_record, repo_relative

# Targets of issue 15 (2 threads on the 2-core VM; one H100 for the GPU, threads 0: end to end
# within 5 s, the kernels within 2 s).
TARGET_SECONDS = {(10**8, 2): 3.0, (10**9, 2): 35.0, (10**9, 0): 5.0}
TARGET_KERNEL_SECONDS = {10**9: 2.0}
TARGET_BYTES_PER_QUEEN = 5.0


def run_once(binary, algo, n, threads, device, seed):
    command = [binary, "solve", "-n", str(n), "--algo", algo, "--device", device,
               "--format", "summary", "--seed", str(seed), "-q"]
    if device == "cpu":
        command += ["--threads", str(threads)]
    load = os.getloadavg()[0]
    start = time.perf_counter()
    result = subprocess.run(["/usr/bin/time", "-v", *command], capture_output=True, text=True)
    wall = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"bench: {' '.join(command)} exited {result.returncode}:\n{result.stderr}")
    rss_kib = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", result.stderr).group(1))
    user = float(re.search(r"User time \(seconds\): ([\d.]+)", result.stderr).group(1))
    system = float(re.search(r"System time \(seconds\): ([\d.]+)", result.stderr).group(1))
    solved = re.search(r"in ([\d.]+) s \(seed \d+, (\d+) steps?, (\d+) restarts?", result.stdout)
    kernels = re.search(r"kernels ([\d.]+) s", result.stdout)  # lattice on the GPU
    return {"wall": wall, "rss": rss_kib * 1024, "user_seconds": user, "system_seconds": system,
            "kernel_seconds": float(kernels.group(1)) if kernels else None,
            "solver_seconds": float(solved.group(1)), "steps": int(solved.group(2)),
            "restarts": int(solved.group(3)), "load_average_1min": load,
            "command": repo_relative(" ".join(command))}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=str(ROOT / "build" / "nqueens"))
    parser.add_argument("--sizes", default="1e6,1e7,1e8")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--device", default="cpu", choices=["cpu", "gpu"])
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--algo", default="parallel", choices=["parallel", "lattice"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--output")
    args = parser.parse_args()
    sizes = [int(float(s)) for s in args.sizes.split(",")]
    thread_counts = [int(t) for t in args.threads.split(",")] if args.device == "cpu" else [0]
    machine = machine_record(args.binary)
    machine["device"] = args.device
    date = datetime.date.today().isoformat()
    output = args.output or ROOT / "bench" / "results" / f"{date}-huge-boards.jsonl"
    records = []
    print(f"{'n':>12} {'threads':>7} {'wall s':>8} {'solver s':>8} {'user s':>8} {'B/queen':>7} "
          f"{'load':>5}")
    for n in sizes:
        # The thread counts alternate, repeat by repeat, so that a change in the machine (its
        # load, or how fast this VM's host hands out memory) falls on every count alike.
        by_threads = {threads: [] for threads in thread_counts}
        for _ in range(args.repeats):
            for threads in thread_counts:
                by_threads[threads].append(
                    run_once(args.binary, args.algo, n, threads, args.device, args.seed))
        for threads in thread_counts:
            runs = by_threads[threads]
            wall = statistics.median(r["wall"] for r in runs)
            rss = max(r["rss"] for r in runs)
            record = dict(machine, benchmark="solve-" + args.algo, n=n, threads=threads or None,
                          repeats=args.repeats, wall_median_s=wall,
                          wall_min_s=min(r["wall"] for r in runs),
                          solver_seconds_median=statistics.median(r["solver_seconds"] for r in runs),
                          user_seconds_median=statistics.median(r["user_seconds"] for r in runs),
                          wall_s=[r["wall"] for r in runs],
                          system_seconds=[r["system_seconds"] for r in runs],
                          peak_rss_bytes=rss, bytes_per_queen=rss / n,
                          queens_per_second=n / wall,
                          load_average_1min=[r["load_average_1min"] for r in runs],
                          steps=runs[0]["steps"], restarts=runs[0]["restarts"],
                          command=runs[0]["command"],
                          kernel_seconds=[r["kernel_seconds"] for r in runs],
                          target_seconds=TARGET_SECONDS.get((n, threads)),
                          target_kernel_seconds=(TARGET_KERNEL_SECONDS.get(n)
                                                 if args.device == "gpu" else None),
                          target_bytes_per_queen=TARGET_BYTES_PER_QUEEN)
            records.append(record)
            append_records(output, [record])  # at once: a later case may time out
            print(f"{n:>12} {threads or '-':>7} {wall:>8.2f} {record['solver_seconds_median']:>8.2f} "
                  f"{record['user_seconds_median']:>8.2f} {rss / n:>7.2f} "
                  f"{record['load_average_1min'][0]:>5.1f}", flush=True)


if __name__ == "__main__":
    main()
