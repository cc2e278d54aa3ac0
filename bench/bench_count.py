#!/usr/bin/env python3
"""Times `nqueens count -n N --threads T --unique` (whole process, wall clock), medians over
repeats after one warm-up run, next to the mirror-symmetry yardstick (bench/mirror_baseline.cpp)
on the same machine. Appends one JSON record per case to bench/results/<date>-cpu.jsonl.

With --device gpu (every GPU, or those --devices lists) or all (the GPUs and the CPU's
threads) it times that count instead (wall time including CUDA start-up, and the kernel time
the count reports, summed over the GPUs) and appends to bench/results/<date>-<gpu>.jsonl.
With --stop-after S it checks a stop instead of timing: each count gets SIGINT S seconds in,
must exit 130 within 1 s with its checkpoint saved, and the same command (or, with
--resume-device D, the count on device D) must then resume to the exact OEIS totals (records
with "workload": "count-stop").

On the CPU, --simd off,avx2,avx512 times each set of vector kernels (default: auto, the
widest the CPU has).

Usage: bench/bench_count.py [--binary build/nqueens] [--sizes 14,15,16] [--threads 1,2]
                            [--repeats 3] [--baseline build/mirror_baseline]
                            [--device cpu|gpu|all] [--devices LIST] [--simd auto]
                            [--stop-after S [--resume-device cpu|gpu|all]]
"""

import argparse
import json
import os
import pathlib
import signal
import statistics
import subprocess
import sys
import tempfile
import time

from bench_common import ROOT, append_records, default_output, machine_record, repo_relative

# Issue 4's target for a 2-core CI-class machine: count -n 16 --threads 1 within a second.
TARGET_SECONDS = {(16, 1): 1.0}
# Issue 6's targets on one H100/H200, wall time including start-up.
GPU_TARGET_SECONDS = {18: 0.3, 20: 2.0, 21: 12.0, 22: 100.0}
# Issue 17: a stop lands within this many seconds at any n.
STOP_TARGET_SECONDS = 1.0
# OEIS A000170 and A002562, from n = 1.
SOLUTIONS = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512,
             95815104, 666090624, 4968057848, 39029188884, 314666222712, 2691008701644,
             24233937684440, 227514171973736]
UNIQUE = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752, 285053, 1846955, 11977939,
          83263591, 621012754, 4878666808, 39333324973, 336376244042, 3029242658210,
          28439272956934]


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
    parser.add_argument("--device", choices=["cpu", "gpu", "all"], default="cpu")
    parser.add_argument("--devices", help="count --devices LIST (with --device gpu or all)")
    parser.add_argument("--simd", default="auto", help="comma-separated count --simd values")
    parser.add_argument("--stop-after", type=float,
                        help="check a SIGINT this many seconds in, then the resume, instead")
    parser.add_argument("--resume-device", choices=["cpu", "gpu", "all"],
                        help="with --stop-after: resume on this device (default: --device)")
    args = parser.parse_args()
    if args.devices and args.device == "cpu":
        parser.error("--devices needs --device gpu or all")
    if args.stop_after is not None:
        return bench_stop(args)
    if args.device != "cpu":
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


def device_list(args):
    """The --devices part of a count command, when asked for."""
    return ["--devices", args.devices] if args.devices else []


def bench_gpu(args):
    machine = machine_record(args.binary)
    records = []
    for n in (int(s) for s in args.sizes.split(",")):
        command = [args.binary, "count", "-n", str(n), "--unique", "--device", args.device,
                   "--format", "json", "-q"] + device_list(args)
        timed(command)  # warm-up
        runs = [timed(command) for _ in range(args.repeats)]
        walls = [wall for wall, _ in runs]
        answer = runs[0][1]
        target = GPU_TARGET_SECONDS.get(n)
        records.append({
            "workload": "count",
            "device": args.device,
            "device_name": answer["device_name"],
            "devices": answer.get("devices"),
            "subproblems_by_device": answer.get("subproblems_by_device"),
            "subproblems_on_cpu": answer.get("subproblems_on_cpu"),
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


def bench_stop(args):
    """SIGINT S seconds into each count: the exit within STOP_TARGET_SECONDS, then the resume."""
    machine = machine_record(args.binary)
    records = []
    for n in (int(s) for s in args.sizes.split(",")):
        with tempfile.TemporaryDirectory() as scratch:
            checkpoint = str(pathlib.Path(scratch) / "count.json")
            command = [args.binary, "count", "-n", str(n), "--unique", "--device", args.device,
                       "--checkpoint", checkpoint, "--format", "json", "-q"] + device_list(args)
            resume_device = args.resume_device or args.device
            resume = [args.binary, "count", "-n", str(n), "--unique", "--device", resume_device,
                      "--checkpoint", checkpoint, "--format", "json", "-q"]
            if resume_device == args.device:
                resume = command
            process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       text=True)
            try:
                process.wait(timeout=args.stop_after)
                stop_seconds = None  # finished before the stop
            except subprocess.TimeoutExpired:
                process.send_signal(signal.SIGINT)
                raised = time.perf_counter()
                process.wait()
                stop_seconds = time.perf_counter() - raised
            stderr = process.stderr.read()
            stopped_code = process.returncode
            wall, answer = timed(resume)  # the resume (or a rerun of a finished count)
        exact = (answer["solutions"] == SOLUTIONS[n - 1] and answer.get("unique") == UNIQUE[n - 1])
        stop_ok = stop_seconds is not None and stopped_code == 130 and \
            stop_seconds <= STOP_TARGET_SECONDS
        records.append({
            "workload": "count-stop",
            "device": args.device,
            "resume_device": resume_device,
            "device_name": answer["device_name"],
            "n": n,
            "stop_after_seconds": args.stop_after,
            "stop_seconds": stop_seconds,
            "stopped_exit_code": stopped_code,
            "stop_target_seconds": STOP_TARGET_SECONDS,
            "resumed_subproblems": answer["resumed_subproblems"],
            "subproblems": answer["subproblems"],
            "resume_wall_seconds": wall,
            "solutions": answer["solutions"],
            "unique": answer.get("unique"),
            "exact": exact,
            "meets_target": stop_ok and exact,
            "command": repo_relative(" ".join(command)),
            "resume_command": repo_relative(" ".join(resume)),
            **{k: v for k, v in machine.items() if k not in ("device", "device_name")},
        })
        r = records[-1]
        said = "finished before the stop" if stop_seconds is None else \
            f"exit {stopped_code} {stop_seconds:.3f} s after SIGINT"
        print(f"n={n}: {said}; resumed {r['resumed_subproblems']} of {r['subproblems']} "
              f"subproblems, {'exact' if exact else 'WRONG'} totals "
              f"({'ok' if r['meets_target'] else 'MISSED'})", flush=True)
        if stopped_code not in (0, 130):
            print(stderr, file=sys.stderr)
    slug = "".join(c if c.isalnum() else "-" for c in records[0]["device_name"].lower()).strip("-")
    append_records(args.output or ROOT / "bench" / "results" / f"{machine['date']}-{slug}.jsonl",
                   records)
    return 0 if all(r["meets_target"] for r in records) else 1


if __name__ == "__main__":
    sys.exit(main())
