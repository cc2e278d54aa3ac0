#!/usr/bin/env python3
"""The device check for a machine with a GPU (docs/gpu.md), in two parts:

  figures  the GPU-vs-CPU table first: the machine, clocks and power sampled all along, then
           each figure (counts of 18 to 21, restart batches sized for a GPU, huge boards, the
           same workloads on the machine's CPU cores, Nsight Compute on the counter and the
           chain kernel, their SASS) appended to OUTDIR/figures.jsonl the moment it is measured,
           and OUTDIR/summary.md: GPU figure, CPU figure, ratio, and the prediction of
           docs/gpu-costs.md each confirms or refutes. Under 9 minutes on one H100 or H200 with
           its build (or none, given --binary).
  checks   the gpu tests, compute-sanitizer, a stop and resume at n = 21, --device all, the
           --devices cases and MPI with GPUs: OUTDIR/checks.jsonl, checks.log and checks.md.
  summary  OUTDIR/summary.md again from OUTDIR/figures.jsonl (say, after a killed run).

Each step runs under its own time cap, none starts past the deadline (the summary always
runs), and a failed step does not stop the others. With --dry-run, on any machine: every step
of the part at a tiny size on the CPU, with a built nqueens (CI's README build), then a check
that each step ran and passed, each record was appended and parses, and the summary was made.

Usage: bench/gpu_check.py figures|checks|summary OUTDIR [--binary PATH] [--build-dir DIR]
                          [--deadline S] [--dry-run] [--break STEP]
Exit: 0 every step passed or was left at the deadline; 1 a step failed or timed out (the dry
run: or a record or the summary is missing or malformed); 2 usage; 3 no GPU here (not in a dry
run).
"""

import argparse
import json
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import gpu_steps  # noqa: E402
import gpu_summary  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
CUDA = pathlib.Path(os.environ.get("NQ_CUDA_ROOT", "/usr/local/cuda"))
MIN_STEP = 15  # seconds: a step with less left before the deadline is not started
# OEIS A000170, for the MPI counts.
SOLUTIONS = {12: 14200, 16: 14772512, 18: 666090624, 20: 39029188884}
SASS_KERNELS = ("count_frame_pieces", "chain_runs")
SASS_LIMIT = 15 << 20  # bytes: the device machine sends back files of 16 MiB at most
LOGS = ("figures.log", "checks.log")  # the common logs take each command's tail only


def tool(name):
    """The path of an external tool, on the PATH or in the CUDA toolkit, or None."""
    found = shutil.which(name) or shutil.which(name, path=str(CUDA / "bin"))
    if not found and name == "ncu":
        candidates = sorted(pathlib.Path("/opt/nvidia").glob("nsight-compute/*/ncu"))
        found = str(candidates[-1]) if candidates else None
    return found


def gpu_names():
    """The GPUs nvidia-smi (or the toolkit's device query) lists."""
    for command in (["nvidia-smi", "-L"], [str(CUDA / "bin" / "__nvcc_device_query")]):
        try:
            result = subprocess.run(command, capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            continue
        lines = [line for line in result.stdout.splitlines() if line.startswith("GPU ")]
        if result.returncode == 0 and lines:
            return lines
    return []


class Check:
    """One part's run: its steps, their records and logs, the deadline."""

    def __init__(self, part, out, args):
        self.part, self.out, self.args = part, out, args
        self.start = time.monotonic()
        self.deadline = args.deadline
        self.dry = args.dry_run
        self.records = out / ("figures.jsonl" if part == "figures" else "checks.jsonl")
        self.failed = False
        self.scratch = pathlib.Path(tempfile.mkdtemp(prefix="nq-gpu-check-"))

    def elapsed(self):
        return time.monotonic() - self.start

    def say(self, text):
        print(f"[{self.elapsed():4.0f}s] {text}", file=sys.stderr, flush=True)

    def write_log(self, name, text):
        with open(self.out / name, "a", encoding="utf-8") as log:
            log.write(text)

    def append(self, record):
        """One JSON line, written and flushed at once: a killed run keeps what it measured."""
        record = {"part": self.part, "dry_run": self.dry, "at_seconds": round(self.elapsed(), 1),
                  **record}
        with open(self.records, "a", encoding="utf-8") as out:
            out.write(json.dumps(record) + "\n")
            out.flush()

    def run(self, argv, cap, log, env=None, cut=signal.SIGINT, stdout_file=None, whole=False):
        """Runs argv in a session of its own, for `cap` seconds at most (then `cut`, and after
        15 s more SIGKILL, to its whole group). Returns (exit, stdout, stderr, wall, timed out);
        its output is also appended to `log`, its last lines only unless `whole`."""
        environment = dict(os.environ, **(env or {}))
        begin = time.monotonic()
        sink = open(stdout_file, "w") if stdout_file else subprocess.PIPE
        try:
            process = subprocess.Popen(argv, stdout=sink, stderr=subprocess.PIPE, text=True,
                                       start_new_session=True, env=environment,
                                       stdin=subprocess.DEVNULL)
        except OSError as error:
            if stdout_file:
                sink.close()
            return 127, "", f"cannot run {argv[0]}: {error}", 0.0, False
        timed_out = False
        try:
            out, err = process.communicate(timeout=max(cap, 0.1))
        except subprocess.TimeoutExpired:
            timed_out = True
            for sig, wait in ((cut, 15), (signal.SIGKILL, None)):
                try:
                    os.killpg(process.pid, sig)
                except ProcessLookupError:
                    pass
                try:
                    out, err = process.communicate(timeout=wait)
                    break
                except subprocess.TimeoutExpired:
                    continue
        wall = time.monotonic() - begin
        if stdout_file:
            sink.close()
            out = ""
        def tail(text):
            return text or "" if whole else "\n".join((text or "").splitlines()[-60:])
        self.write_log(log, f"\n===== {' '.join(map(str, argv))} (cap {cap:.0f} s, at "
                            f"{self.elapsed() - wall:.0f} s): exit {process.returncode}, "
                            f"{wall:.2f} s{', timed out' if timed_out else ''}\n"
                            f"{tail(out)}\n{tail(err)}\n")
        return process.returncode, out or "", err or "", wall, timed_out

    def left(self):
        return self.deadline - self.elapsed()


def read_figure(step, out, err, wall):
    """The work, engine seconds and kernel seconds a figure's output gives, or an error."""
    if step.read == "solve":
        solved = re.search(r"in ([\d.]+) s", out)
        kernels = re.search(r"kernels ([\d.]+) s", out)
        if not solved or "solved" not in out:
            raise ValueError(f"no 'solved ... in S s' in its output: {out.strip()[:200]!r}")
        return {"work": step.work if step.work else None, "seconds": float(solved.group(1)),
                "kernel_seconds": float(kernels.group(1)) if kernels else None, "output": out.strip()}
    record = json.loads(out.strip().splitlines()[-1])
    if step.read in ("count", "cut"):
        work = record["solutions"]
    elif step.read == "batch":
        work = record["runs"]
    else:  # generations: every step of every run
        solved = record["solved"]
        work = ((record["mean_steps_success"] or 0) * solved +
                (record["mean_steps_failure"] or 0) * (record["runs"] - solved))
    return {"work": work, "seconds": record.get("seconds"),
            "kernel_seconds": record.get("kernel_seconds"), "output": record}


def read_cut(path, wall):
    """A count cut at its cap: how far its checkpoint (at `path`) says it got. A count that
    finished no frame before the cut writes none: no frame done."""
    checkpoint = json.loads(pathlib.Path(path).read_text()) if pathlib.Path(path).exists() \
        else {}
    done = checkpoint.get("done") or []
    return {"frames_done": len(done), "frames": checkpoint.get("subproblems"),
            "solutions_so_far": sum(entry[1] for entry in done),
            "frames_per_second": len(done) / wall if wall > 0 else None}


def filter_sass(dump, keep):
    """The SASS of the functions whose (mangled) names hold one of `keep`, and their names."""
    kept, names, taking = [], [], False
    for line in dump.splitlines():
        if line.strip().startswith("Function : "):
            name = line.strip()[len("Function : "):]
            taking = any(k in name for k in keep)
            if taking:
                names.append(name)
        if taking:
            kept.append(line)
    return "\n".join(kept) + "\n", names


def run_step(check, step, binary, env_for_tools):
    """One step: its records appended, its status returned (PASS, FAIL, TIMEOUT, CUT, SKIP)."""
    base = {"step": step.name, "figure": step.figure, "target": step.target, "unit": step.unit}
    need = step.tool and not env_for_tools.get(step.tool)
    argv = step.argv
    if check.dry:
        if step.dry is None and need:
            check.append({**base, "status": "SKIP", "note": f"no {step.tool} here"})
            return "SKIP"
        argv = step.dry if step.dry is not None else step.argv
    elif need:
        check.append({**base, "status": "SKIP", "note": f"no {step.tool} here"})
        return "SKIP"
    if check.left() < MIN_STEP:
        check.append({**base, "status": "SKIP", "note": "deadline"})
        return "SKIP"
    argv = [binary if a == "{binary}" else str(a) for a in argv]
    if step.binary:
        argv = [binary] + argv
    if check.args.break_step == step.name:  # the check of the check: this step must fail
        argv = argv + ["--no-such-option"]
    cap = step.dry_cap if check.dry else min(step.cap, max(check.left(), 1))
    status = "PASS"
    for repeat in range(1, step.repeats + 1):
        checkpoint = argv[argv.index("--checkpoint") + 1] if step.read == "cut" else None
        if checkpoint:
            pathlib.Path(checkpoint).unlink(missing_ok=True)  # a count from the start
        stdout_file = check.scratch / "sass.dump" if step.read == "sass" else None
        code, out, err, wall, timed_out = check.run(argv, cap, step.log, step.env,
                                                    stdout_file=stdout_file,
                                                    whole=step.log not in LOGS)
        record = {**base, "repeat": repeat, "command": " ".join(argv), "exit": code,
                  "wall_seconds": round(wall, 4), "cap_seconds": cap}
        try:
            if timed_out and step.read == "cut" and code == 130:
                record.update(read_cut(checkpoint, wall))
                record["status"] = "CUT"
            elif timed_out:
                record["status"] = "TIMEOUT"
            elif code != 0:
                record["status"] = "FAIL"
            elif step.figure:
                figure = read_figure(step, out, err, wall)
                work = figure["work"]
                if step.read == "solve" and check.dry:
                    work = int(argv[argv.index("-n") + 1])
                record.update(figure, work=work, rate=work / wall if work and wall else None)
                if figure.get("kernel_seconds"):
                    record["kernel_rate"] = work / figure["kernel_seconds"] if work else None
                record["status"] = "PASS"
            elif step.read == "sass":
                dump = pathlib.Path(stdout_file).read_text(errors="replace")
                text, names = filter_sass(dump, SASS_KERNELS)
                check.write_log("sass.txt", text[:SASS_LIMIT])
                record.update(functions=names, status="PASS" if names else "FAIL")
                if not names:
                    record["note"] = "no function named " + " or ".join(SASS_KERNELS)
            elif step.read == "mpi":
                answer = json.loads(out.strip().splitlines()[-1])
                n = answer["n"]
                ranks = answer.get("by_rank") or []
                gpus_needed = "--device" in argv and argv[argv.index("--device") + 1] != "cpu"
                ok = (answer["solutions"] == SOLUTIONS.get(n) and len(ranks) == 2 and
                      all(r["subproblems"] > 0 and (r["gpus"] > 0 or not gpus_needed)
                          for r in ranks))
                record.update(output=answer, status="PASS" if ok else "FAIL")
            else:
                record["status"] = "PASS"
        except (ValueError, KeyError, IndexError, TypeError, OSError) as error:
            record.update(status="FAIL", note=f"output not understood: {error}")
        if record["status"] in ("FAIL", "TIMEOUT"):
            record["stderr"] = err.strip()[-2000:]
        if step.name == "ctest-gpu" and record["status"] == "PASS" and not check.dry:
            blind = blind_skips(out, binary_dir=check.args.build_dir)
            if blind:
                record.update(status="FAIL", note=f"{len(blind)} tests skipped, seeing no GPU: "
                                                  + ", ".join(blind[:10]))
        check.append(record)
        if record["status"] != "PASS" and status in ("PASS", "CUT"):
            status = record["status"]
    return status


def blind_skips(ctest_output, binary_dir):
    """The gpu tests ctest says were skipped whose reason is that they saw no CUDA device."""
    blind = []
    gpu_test = pathlib.Path(binary_dir) / "tests" / "gpu_test"
    for name in re.findall(r"Test *#\d+: (\S+) .*\*\*\*Skipped", ctest_output):
        result = subprocess.run([str(gpu_test), f"--gtest_filter={name}"], capture_output=True,
                                text=True, timeout=60)
        if "no CUDA device" in result.stdout or "Skipped" not in result.stdout:
            blind.append(name)
    return blind


def describe(check):
    """env.txt, and the first record: the machine, the toolkit, the tools, the checkout."""
    tools = {name: tool(name) for name in ("nvidia-smi", "ncu", "cuobjdump", "nvdisasm",
                                           "compute-sanitizer", "mpiexec", "nvcc", "cmake")}

    def show(argv):
        try:
            result = subprocess.run(argv, capture_output=True, text=True, timeout=30)
            return (result.stdout + result.stderr).strip()
        except (OSError, subprocess.TimeoutExpired) as error:
            return f"({error})"

    git = show(["git", "-C", str(ROOT), "rev-parse", "HEAD"])
    dirty = show(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"])
    fields = ("name,pci.bus_id,driver_version,memory.total,persistence_mode,compute_mode,"
              "mig.mode.current,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,power.limit,"
              "temperature.gpu")
    smi = show([tools["nvidia-smi"], "--format=csv", f"--query-gpu={fields}"]) \
        if tools["nvidia-smi"] else "no nvidia-smi"
    record = {
        "step": "env", "status": "PASS", "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "command": " ".join(sys.argv), "host": " ".join(os.uname()), "cores": os.cpu_count(),
        "git": git if len(git) == 40 else os.environ.get("NQ_GIT_SHA"),
        "tracked_files_changed": bool(dirty) if len(git) == 40 else None,
        "gpus": gpu_names(), "gpu_query": smi, "tools": tools,
        "nvcc": show([tools["nvcc"], "--version"]).splitlines()[-1:] if tools["nvcc"] else None,
        "cpu": gpu_summary.cpu_model(),
    }
    check.append(record)
    text = [f"{key}: {json.dumps(value) if not isinstance(value, str) else value}"
            for key, value in record.items()]
    if tools["nvidia-smi"]:
        text.append(show([tools["nvidia-smi"]]))
    check.write_log("env.txt", "\n".join(text) + "\n")
    return tools


def sampler(check, tools):
    """Clocks, power and use sampled every 200 ms into smi.csv while the part runs."""
    out = open(check.out / "smi.csv", "w")
    if tools.get("nvidia-smi") and not check.dry:
        argv = [tools["nvidia-smi"], "--format=csv", "-lms", "200", "--query-gpu=timestamp,"
                "clocks.sm,clocks.mem,power.draw,utilization.gpu,temperature.gpu,"
                "clocks_event_reasons.active"]
    else:  # the dry run's stand-in: the load average
        argv = ["sh", "-c", "while :; do echo \"$(date +%s.%N), $(cut -d' ' -f1 /proc/loadavg)\";"
                " sleep 0.2; done"]
    return subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)


def version_of(binary):
    result = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=60)
    return result.stdout.strip() or result.stderr.strip()


def build(check, targets):
    """The nqueens binary: --binary (or the README build's in the dry run), else built; the
    other `targets` (gpu_test) are built for sm_90 in --build-dir in any case but the dry run."""
    if check.args.binary:
        targets = [t for t in targets if t != "nqueens"]
    if check.dry or not targets:
        binary = pathlib.Path(check.args.binary or ROOT / "build" / "nqueens").resolve()
        ok = os.access(binary, os.X_OK) and binary.is_file()
        check.append({"step": "build", "status": "PASS" if ok else "FAIL", "binary": str(binary),
                      "nqueens": version_of(binary) if ok else None,
                      "note": ("given" if check.args.binary else "the README build's (dry run)")
                      if ok else "not an executable file"})
        return str(binary) if ok else None
    build_dir = pathlib.Path(check.args.build_dir)
    configure = ["cmake", "-S", str(ROOT), "-B", str(build_dir), "-DCMAKE_BUILD_TYPE=Release",
                 "-DCMAKE_CUDA_ARCHITECTURES=90"]
    deps = ROOT / ".deps" / "root" / "usr"
    if deps.is_dir():  # the Debian packages, unpacked and carried (docs/gpu.md)
        configure += [f"-DCMAKE_PREFIX_PATH={deps}", f"-DCMAKE_INCLUDE_PATH={deps}/include"]
        os.environ["LD_LIBRARY_PATH"] = f"{deps}/lib/x86_64-linux-gnu:" + \
            os.environ.get("LD_LIBRARY_PATH", "")
    for name, argv, cap in (("configure", configure, 120),
                            ("build", ["cmake", "--build", str(build_dir), "-j",
                                       str(os.cpu_count() or 1), "--target", *targets], 330)):
        code, _, err, wall, timed_out = check.run(argv, min(cap, check.left()), "build.log")
        status = "TIMEOUT" if timed_out else "PASS" if code == 0 else "FAIL"
        check.append({"step": name, "status": status, "wall_seconds": round(wall, 1),
                      **({"stderr": err[-2000:]} if status != "PASS" else {})})
        check.say(f"{name}: {status} in {wall:.0f} s")
        if status != "PASS":
            check.failed = True
            return None
    binary = pathlib.Path(check.args.binary).resolve() if check.args.binary else \
        build_dir / "nqueens"
    check.append({"step": "built", "status": "PASS", "binary": str(binary),
                  "nqueens": version_of(binary)})
    return str(binary)


def figures(check):
    tools = describe(check)
    samples = sampler(check, tools)
    try:
        binary = build(check, ["nqueens"])
        if binary is None:
            check.failed = True
            return
        steps = gpu_steps.figure_steps(check.scratch, os.cpu_count() or 1, tools["ncu"],
                                       tools["cuobjdump"])
        for step in steps:
            status = run_step(check, step, binary, tools)
            check.say(f"{step.name}: {status}")
            check.failed |= status in ("FAIL", "TIMEOUT")
    finally:
        os.killpg(samples.pid, signal.SIGTERM)
        samples.wait()
    summary_status(check, gpu_summary.write(check.out, ROOT))
    if check.dry:
        dry_run_verdict(check, steps)


def summary_status(check, rows):
    check.append({"step": "summary", "status": "PASS" if rows else "FAIL", "rows": rows})
    check.say(f"summary: {rows} figures in {check.out / 'summary.md'}")
    check.failed |= not rows


def checks(check):
    tools = describe(check)
    binary = build(check, ["nqueens", "gpu_test"])
    if binary is None:
        check.failed = True
        return
    build_dir = str(ROOT / "build") if check.dry and not check.args.binary else \
        check.args.build_dir
    check.args.build_dir = build_dir
    mpi_built = "NQ_ENABLE_MPI:BOOL=ON" in (pathlib.Path(build_dir) / "CMakeCache.txt").read_text(
        errors="replace") if (pathlib.Path(build_dir) / "CMakeCache.txt").exists() else False
    if not mpi_built:
        tools["mpiexec"] = None
    steps = gpu_steps.check_steps(str(ROOT), build_dir, binary, len(gpu_names()),
                                  tools["compute-sanitizer"] or "compute-sanitizer", check.out)
    for step in steps:
        status = run_step(check, step, binary, tools)
        check.say(f"{step.name}: {status}")
        check.failed |= status in ("FAIL", "TIMEOUT")
    rows = gpu_summary.write_checks(check.out)
    check.say(f"checks.md: {rows} steps")
    if check.dry:
        dry_run_verdict(check, steps)


def dry_run_verdict(check, steps):
    """The dry run's own check: every step has a record that parses and passed (a tool step
    without its tool and without a stand-in may skip), and the summary holds every figure."""
    problems, seen = [], {}
    for number, line in enumerate(check.records.read_text().splitlines(), 1):
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            problems.append(f"{check.records.name} line {number} does not parse: {error}")
            continue
        seen.setdefault(record.get("step"), []).append(record)
    for step in steps:
        records = seen.get(step.name)
        if not records:
            problems.append(f"{step.name}: no record")
            continue
        for record in records:
            fine = record["status"] in ("PASS", "CUT") or (
                record["status"] == "SKIP" and step.dry is None and step.tool)
            if not fine:
                problems.append(f"{step.name}: {record['status']} "
                                f"({record.get('note') or record.get('stderr', '')[-200:]})")
            if step.figure and record["status"] == "PASS" and not (record.get("rate") or 0) > 0:
                problems.append(f"{step.name}: no rate in its record")
        if len(records) != step.repeats and records[0]["status"] != "SKIP":
            problems.append(f"{step.name}: {len(records)} records for {step.repeats} repeats")
    if check.part == "figures":
        summary = (check.out / "summary.md")
        text = summary.read_text() if summary.exists() else ""
        for figure in sorted({s.figure for s in steps if s.figure}):
            if f"| {figure} |" not in text:
                problems.append(f"summary.md has no row for {figure}")
    for problem in problems:
        check.say(f"dry run: {problem}")
    check.say(f"dry run: {len(steps)} steps, {'every one checked' if not problems else 'FAILED'}")
    check.failed |= bool(problems)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("part", choices=["figures", "checks", "summary"])
    parser.add_argument("outdir")
    parser.add_argument("--binary", help="a built nqueens (figures: skips the build)")
    parser.add_argument("--build-dir", default=os.environ.get("NQ_GPU_BUILD_DIR", "build-gpu"))
    parser.add_argument("--deadline", type=float, default=None,
                        help="seconds after which no step starts (default 500; dry run 300)")
    parser.add_argument("--dry-run", action="store_true",
                        help="every step on the CPU at tiny sizes, records and summary checked")
    parser.add_argument("--break", dest="break_step", metavar="STEP",
                        help="make STEP's command fail (to see the check catch it)")
    args = parser.parse_args()
    out = pathlib.Path(args.outdir)
    out.mkdir(parents=True, exist_ok=True)
    if args.part == "summary":
        rows = gpu_summary.write(out, ROOT)
        print(f"summary.md: {rows} figures", file=sys.stderr)
        return 0 if rows else 1
    if args.deadline is None:
        args.deadline = 300 if args.dry_run else 500
    if not args.dry_run and not gpu_names():
        print("gpu_check: no GPU found (neither nvidia-smi -L nor __nvcc_device_query sees one); "
              "--dry-run walks the steps on a CPU", file=sys.stderr)
        return 3
    # An earlier run's files would be appended to.
    names = {"figures": ["env.txt", "figures.jsonl", "figures.log", "smi.csv", "ncu.txt",
                         "sass.txt", "summary.md", "build.log"],
             "checks": ["env.txt", "checks.jsonl", "checks.log", "counts.jsonl", "checks.md",
                        "build.log"]}[args.part]
    for name in names:
        (out / name).unlink(missing_ok=True)
    check = Check(args.part, out, args)
    check.say(f"gpu_check {args.part}{' (dry run)' if args.dry_run else ''}: writing to {out}, "
              f"deadline {args.deadline:.0f} s")
    try:
        (figures if args.part == "figures" else checks)(check)
    finally:
        shutil.rmtree(check.scratch, ignore_errors=True)
    check.say(f"total {check.elapsed():.0f} s, "
              f"{'some step failed or timed out' if check.failed else 'no step failed'}")
    return 1 if check.failed else 0


if __name__ == "__main__":
    sys.exit(main())
