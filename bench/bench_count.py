#!/usr/bin/env python3
"""Times `nqueens count -n N --threads T --unique` (whole process, wall clock), medians over
repeats after one warm-up run, next to the mirror-symmetry yardstick (bench/mirror_baseline.cpp)
on the same machine. Appends one JSON record per case to bench/results/<date>-cpu.jsonl.

With --device gpu it times `count --device gpu` instead (wall time including CUDA start-up,
and the kernel time the count reports) and appends to bench/results/<date>-<gpu>.jsonl.

On the CPU, --simd off,avx2,avx512 times each set of vector kernels (default: auto, the
widest the CPU has).

Usage: bench/bench_count.py [--binary build/nqueens] [--sizes 14,15,16] [--threads 1,2]
                            [--repeats 3] [--baseline build/mirror_baseline] [--device cpu|gpu]
                            [--simd auto]
"""

import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import time

from bench_common import ROOT, append_records, default_output, machine_record, repo_relative

# Issue 4's target for a 2-core CI-class machine: count -n 16 --threads 1 within a second.
TARGET_SECONDS = {(16, 1): 1.0}
# Issue 6's targets on one H100/H200, wall time including start-up.
GPU_TARGET_SECONDS = {18: 0.3, 20: 2.0, 21: 12.0, 22: 100.0}


def timed(command):
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"bench: {' '.join(command)} exited {result.returncode}:\n{result.stderr}")
    return wall, json.loads(result.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=str(ROOT / "build" / "nqueens"))
    parser.add_argument("--baseline", default=str(ROOT / "build" / "mirror_baseline"),
                        help="the yardstick; skipped when the file does not exist")
    parser.add_argument("--sizes", default="14,15,16")
    parser.add_argument("--threads", default=f"1,{os.cpu_count()}")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--output", help="JSON lines file (default bench/results/<date>-cpu.jsonl)")
    parser.add_argument("--device", choices=["cpu", "gpu"], default="cpu")
    parser.add_argument("--simd", default="auto", help="comma-separated count --simd values")
    args = parser.parse_args()
    if args.device == "gpu":
        return bench_gpu(args)
    machine = machine_record(args.binary)
    output = pathlib.Path(args.output or default_output(machine["date"]))
    thread_counts = sorted({int(t) for t in args.threads.split(",")})

    records = []
    simd_choices = args.simd.split(",")
    print(f"{'n':>3} {'threads':>7} {'simd':>6} {'wall median':>12} {'solutions/s':>12} "
          f"{'vs mirror':>10} target")
    for n in (int(s) for s in args.sizes.split(",")):
        baseline = None
        if pathlib.Path(args.baseline).exists():
            timed([args.baseline, str(n)])
            baseline = statistics.median(timed([args.baseline, str(n)])[0] for _ in range(args.repeats))
        for threads, simd in ((t, s) for t in thread_counts for s in simd_choices):
            command = [args.binary, "count", "-n", str(n), "--threads", str(threads), "--unique",
                       "--simd", simd, "--format", "json", "-q"]
            timed(command)  # warm-up
            runs = [timed(command) for _ in range(args.repeats)]
            walls = [wall for wall, _ in runs]
            answer = runs[0][1]
            # The target is for what a user gets: the default kernels.
            target = TARGET_SECONDS.get((n, threads)) if simd == "auto" else None
            record = {
                "workload": "count",
                "n": n,
                "threads": threads,
                "simd": answer["simd"],
                "solutions": answer["solutions"],
                "unique": answer["unique"],
                "subproblems": answer["subproblems"],
                "repeats": args.repeats,
                "wall_seconds_median": statistics.median(walls),
                "wall_seconds_min": min(walls),
                "wall_seconds_max": max(walls),
                "count_seconds_median": statistics.median(r["seconds"] for _, r in runs),
                "solutions_per_second": answer["solutions"] / statistics.median(walls),
                "mirror_baseline_seconds": baseline,
                "speedup_vs_mirror_baseline": baseline / statistics.median(walls) if baseline else None,
                "target_wall_seconds": target,
                "meets_target": None if target is None else statistics.median(walls) <= target,
                "command": repo_relative(" ".join(command)),
                **machine,
            }
            records.append(record)
            vs = f"{record['speedup_vs_mirror_baseline']:.2f}x" if baseline else "-"
            verdict = "" if target is None else ("ok" if record["meets_target"] else "MISSED") + f" (<= {target} s)"
            print(f"{n:>3} {threads:>7} {record['simd']:>6} {record['wall_seconds_median']:>11.3f}s "
                  f"{record['solutions_per_second']:>12.3g} {vs:>10} {verdict}", flush=True)
    append_records(output, records)
    return 0 if all(r["meets_target"] is not False for r in records) else 1


def bench_gpu(args):
    machine = machine_record(args.binary)
    records = []
    for n in (int(s) for s in args.sizes.split(",")):
        command = [args.binary, "count", "-n", str(n), "--unique", "--device", "gpu",
                   "--format", "json", "-q"]
        timed(command)  # warm-up
        runs = [timed(command) for _ in range(args.repeats)]
        walls = [wall for wall, _ in runs]
        answer = runs[0][1]
        target = GPU_TARGET_SECONDS.get(n)
        records.append({
            "workload": "count",
            "device": "gpu",
            "device_name": answer["device_name"],
            "n": n,
            "solutions": answer["solutions"],
            "unique": answer["unique"],
            "subproblems": answer["subproblems"],
            "repeats": args.repeats,
            "wall_seconds": statistics.median(walls),
            "wall_seconds_min": min(walls),
            "kernel_seconds": statistics.median(r["kernel_seconds"] for _, r in runs),
            "target_wall_seconds": target,
            "meets_target": None if target is None else statistics.median(walls) <= target,
            "command": repo_relative(" ".join(command)),
            **{k: v for k, v in machine.items() if k not in ("device", "device_name")},
        })
        r = records[-1]
        print(f"n={n}: {r['solutions']} solutions, wall {r['wall_seconds']:.3f} s, kernels "
              f"{r['kernel_seconds']:.3f} s" + ("" if target is None else
              f" ({'ok' if r['meets_target'] else 'MISSED'}, target {target} s)"), flush=True)
    slug = "".join(c if c.isalnum() else "-" for c in records[0]["device_name"].lower()).strip("-")
    append_records(args.output or ROOT / "bench" / "results" / f"{machine['date']}-{slug}.jsonl",
                   records)
    return 0 if all(r["meets_target"] is not False for r in records) else 1


if __name__ == "__main__":
    sys.exit(main())
