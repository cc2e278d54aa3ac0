"""The steps of the device check (bench/gpu_check.py): what each runs on a GPU machine, what
it runs instead in the dry run on a CPU (the same command with --device cpu at a tiny size),
how long it may take, and how its figure is read.

Figures are grouped by `figure` (the summary's rows): a GPU step and a CPU step of one figure
measure the same workload, at sizes fitted to each (a rate is comparable across sizes).
"""

import dataclasses
import os
import sys

# n = 21's count is cut after this many seconds (SIGINT: its checkpoint says how far it got).
COUNT_21_CAP = 120


@dataclasses.dataclass
class Step:
    name: str             # unique: the records' "step"
    argv: list            # the command on the GPU machine (nqueens' arguments where binary)
    dry: list             # the command in the dry run (None: the step is the same there)
    cap: float            # seconds; the dry run's cap is dry_cap
    figure: str = None    # the summary row it measures (None: not a figure)
    target: str = None    # gpu or cpu (a figure's), or None
    read: str = None      # how the output is read: count, batch, generations, solve, cut,
                          # sass, mpi
    unit: str = None      # the rate's unit
    work: float = None    # solve: queens (its output says no count)
    repeats: int = 1
    binary: bool = True   # argv follows the nqueens binary
    tool: str = None      # an external tool the step needs (ncu, cuobjdump, compute-sanitizer,
                          # mpiexec); without it: SKIP, or in the dry run the dry command alone
    log: str = "figures.log"  # where its output goes (a tool's report: its own file, whole)
    dry_cap: float = 60
    env: dict = None      # extra environment


def count(n, device, threads=None):
    argv = ["count", "-n", str(n), "--device", device, "-f", "json", "-q"]
    return argv + (["--threads", str(threads)] if threads else [])


def batch(algorithm, n, runs, device, *extra):
    return ["batch", "-n", str(n), "--algo", algorithm, "--runs", str(runs), "--device", device,
            "-f", "json", "-q", *map(str, extra)]


def solve(algorithm, n, device, *extra):
    return ["solve", "-n", str(n), "--algo", algorithm, "--device", device, "-f", "summary", "-q",
            *map(str, extra)]


def figure_steps(scratch, cores, ncu, cuobjdump):
    """Part 1, most telling first. `scratch`: a folder outside OUTDIR for checkpoints; `cores`:
    the CPU threads of the CPU figures; `ncu`, `cuobjdump`: the tools' paths or None."""
    t = cores
    steps = [
        # The counter: n = 18 three times (start-up and the tail dominate it), 19 and 20.
        Step("count-18-gpu", count(18, "gpu"), count(10, "cpu", 2), 60, "count-18", "gpu",
             "count", "solutions/s", repeats=3),
        Step("count-19-gpu", count(19, "gpu"), count(11, "cpu", 2), 60, "count-19", "gpu",
             "count", "solutions/s"),
        Step("count-20-gpu", count(20, "gpu"), count(12, "cpu", 2), 100, "count-20", "gpu",
             "count", "solutions/s"),
        # The counter's kernel with a look-ahead of 3 rows instead of its 1 (issue 43): fewer
        # nodes, each dearer, twice the step loads.
        Step("count-20-gpu-look-ahead-3", count(20, "gpu"), count(12, "cpu", 2), 100,
             "count-20 look-ahead 3", "gpu", "count", "solutions/s",
             env={"NQ_GPU_LOOK_AHEAD": "3"}),
        # Restart batches sized for a GPU: 2^27 runs is about 0.1 s of kernel at 10^9 runs/s.
        Step("batch-hc-2^27-gpu", batch("hc", 8, 2**27, "gpu"), batch("hc", 8, 20000, "cpu"), 90,
             "batch hc n=8 (2^27 runs)", "gpu", "batch", "runs/s"),
        # Issue 44's goal: 10^9 runs a second in the kernel at 2^30 runs or more (one launch).
        Step("batch-hc-2^30-gpu", batch("hc", 8, 2**30, "gpu"), batch("hc", 8, 20000, "cpu"), 60,
             "batch hc n=8 (2^30 runs)", "gpu", "batch", "runs/s"),
        Step("batch-hc-2^20-gpu", batch("hc", 8, 2**20, "gpu"), batch("hc", 8, 5000, "cpu"), 30,
             "batch hc n=8 (2^20 runs)", "gpu", "batch", "runs/s"),
        Step("batch-hc-sideways-gpu", batch("hc-sideways", 8, 2**24, "gpu"),
             batch("hc-sideways", 8, 2000, "cpu"), 60, "batch hc-sideways n=8", "gpu", "batch",
             "runs/s"),
        Step("batch-sa-32-gpu", batch("sa", 32, 10**6, "gpu"), batch("sa", 32, 20, "cpu"), 60,
             "batch sa n=32", "gpu", "batch", "runs/s"),
        Step("batch-hc-32-gpu", batch("hc", 32, 2**22, "gpu"), batch("hc", 32, 200, "cpu"), 40,
             "batch hc n=32", "gpu", "batch", "runs/s"),
        Step("batch-hc-sideways-32-gpu", batch("hc-sideways", 32, 2**20, "gpu"),
             batch("hc-sideways", 32, 50, "cpu"), 40, "batch hc-sideways n=32", "gpu", "batch",
             "runs/s"),
        # The same on the machine's CPU cores, each about 5 s (rates from 2026-11-25's 16 cores).
        Step("count-18-cpu", count(18, "cpu", t), count(10, "cpu", 2), 60, "count-18", "cpu",
             "count", "solutions/s"),
        Step("batch-hc-cpu", batch("hc", 8, 2**26, "cpu", "--threads", t),
             batch("hc", 8, 20000, "cpu"), 40, "batch hc n=8 (2^27 runs)", "cpu", "batch",
             "runs/s"),
        Step("batch-hc-sideways-cpu", batch("hc-sideways", 8, 2**24, "cpu", "--threads", t),
             batch("hc-sideways", 8, 2000, "cpu"), 40, "batch hc-sideways n=8", "cpu", "batch",
             "runs/s"),
        Step("batch-sa-32-cpu", batch("sa", 32, 60000, "cpu", "--threads", t),
             batch("sa", 32, 20, "cpu"), 40, "batch sa n=32", "cpu", "batch", "runs/s"),
        # n = 21, cut at COUNT_21_CAP s if it runs longer: its checkpoint gives frames a second.
        Step("count-21-gpu", count(21, "gpu") + ["--checkpoint", f"{scratch}/count-21.json",
                                                   "--checkpoint-interval", "5"],
             count(18, "cpu", 1) + ["--checkpoint", f"{scratch}/count-18.json"], COUNT_21_CAP,
             "count-21", "gpu", "cut", "solutions/s", dry_cap=0.6),
        # Huge boards: the lattice at 10^8 and 10^9 on the GPU and on every core.
        Step("lattice-1e8-gpu", solve("lattice", 10**8, "gpu"), solve("lattice", 10**5, "cpu"), 60,
             "lattice 10^8", "gpu", "solve", "queens/s", work=10**8),
        Step("lattice-1e9-gpu", solve("lattice", 10**9, "gpu"), solve("lattice", 10**6, "cpu"), 90,
             "lattice 10^9", "gpu", "solve", "queens/s", work=10**9),
        Step("lattice-1e8-cpu", solve("lattice", 10**8, "cpu", "--threads", t),
             solve("lattice", 10**5, "cpu"), 40, "lattice 10^8", "cpu", "solve", "queens/s",
             work=10**8),
        Step("lattice-1e9-cpu", solve("lattice", 10**9, "cpu", "--threads", t),
             solve("lattice", 10**6, "cpu"), 90, "lattice 10^9", "cpu", "solve", "queens/s",
             work=10**9),
    ]
    # One launch each of the counter and the chain kernel under Nsight Compute.
    sections = ["SpeedOfLight", "Occupancy", "WarpStateStats", "SchedulerStats",
                "ComputeWorkloadAnalysis", "MemoryWorkloadAnalysis_Tables"]
    profile = [ncu or "ncu", "--clock-control", "none", "--kernel-name-base", "demangled",
               "--launch-count", "1", "--metrics",
               "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__thread_inst_executed_per_inst_executed.ratio,"
               "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,smsp__issue_active.avg.pct_of_peak_sustained_active"]
    for s in sections:
        profile += ["--section", s]
    steps += [
        Step("ncu-counter", profile + ["--kernel-name", "regex:count_frame_pieces", "{binary}"] +
             count(16, "gpu"), ["{binary}"] + count(10, "cpu", 1), 90, binary=False, tool="ncu",
             log="ncu.txt"),
        Step("ncu-chains", profile + ["--kernel-name", "regex:chain_runs", "{binary}"] +
             batch("hc", 8, 2**20, "gpu"), ["{binary}"] + batch("hc", 8, 1000, "cpu"), 90,
             binary=False, tool="ncu", log="ncu.txt"),
        # The SASS of the two kernels (cuobjdump on the binary, the rest dropped): read by
        # gpu_check.py itself (read "sass").
        Step("sass", [cuobjdump or "cuobjdump", "-sass", "{binary}"], None, 60, binary=False,
             tool="cuobjdump", read="sass", log="sass.txt"),
    ]
    # The cases of bench/bench_gpu.py: larger boards, populations, single runs (GPU, CPU).
    extras = [
        ("sa n=256", ("sa", 256, 100_000, 6_000, 20, ["--max-steps", 20000])),
        ("hc n=1024", ("hc", 1024, 2_000, 170, 2, ["--max-steps", 200])),
        ("ga n=8 population 128", ("ga", 8, 100_000, 8_000, 20, ["--population", 128])),
        ("beam n=8", ("beam", 8, 1_000_000, 100_000, 100, [])),
    ]
    for figure, (algorithm, n, gpu_runs, cpu_runs, dry_runs, extra) in extras:
        tag = figure.split()[0] + "-" + figure.split()[1][2:]
        dry_n = min(n, 64)
        steps += [
            Step(f"batch-{tag}-gpu", batch(algorithm, n, gpu_runs, "gpu", *extra),
                 batch(algorithm, dry_n, dry_runs, "cpu", *extra), 60, "batch " + figure, "gpu",
                 "batch", "runs/s"),
            Step(f"batch-{tag}-cpu", batch(algorithm, n, cpu_runs, "cpu", "--threads", t, *extra),
                 batch(algorithm, dry_n, dry_runs, "cpu", *extra), 40, "batch " + figure, "cpu",
                 "batch", "runs/s"),
        ]
    singles = [
        ("ga n=1000 population 4096", ("ga", 1000, ["--population", 4096, "--max-steps", 20])),
        ("beam n=64 width 2048", ("beam", 64, ["--beam-width", 2048, "--max-steps", 5])),
    ]
    for figure, (algorithm, n, extra) in singles:
        tag = algorithm + "-single"
        dry = batch(algorithm, 16, 1, "cpu", "--max-steps", 2)
        steps += [
            Step(f"{tag}-gpu", batch(algorithm, n, 1, "gpu", *extra), dry, 60,
                 "one " + figure, "gpu", "generations", "generations/s"),
            Step(f"{tag}-cpu", batch(algorithm, n, 1, "cpu", "--threads", 1, *extra), dry, 60,
                 "one " + figure, "cpu", "generations", "generations/s"),
        ]
    # Parallel placement: 10^7 queens (the device and the host passes).
    steps += [
        Step("placement-1e7-gpu", solve("parallel", 10**7, "gpu"), solve("parallel", 10**4, "cpu"),
             60, "placement 10^7", "gpu", "solve", "queens/s", work=10**7),
        Step("placement-1e7-cpu", solve("parallel", 10**7, "cpu", "--threads", t),
             solve("parallel", 10**4, "cpu"), 40, "placement 10^7", "cpu", "solve", "queens/s",
             work=10**7),
    ]
    return steps


def mpi_count(binary, n, device):
    """Two ranks counting n queens on `device`; read as "mpi" (the total, every rank's share)."""
    as_root = ["--allow-run-as-root"] if os.geteuid() == 0 else []
    return ["mpiexec", "--oversubscribe", *as_root, "-n", "2", binary, "count", "-n", str(n),
            "--device", device, "--threads", "2", "-f", "json", "-q"]


def check_steps(root, build_dir, binary, gpus, sanitizer, out):
    """Part 2: the gpu tests, compute-sanitizer, stops and resumes, every device, MPI. `out`:
    the folder bench_count.py's records go to (counts.jsonl)."""
    filters = sanitizer_filters()
    gpu_test = f"{build_dir}/tests/gpu_test"
    python = sys.executable
    bench = f"{root}/bench"
    steps = [
        Step("ctest-gpu", ["ctest", "--test-dir", build_dir, "-L", "gpu", "--output-on-failure",
                           "-j4", "--timeout", "60", "--no-tests=error"],
             ["ctest", "--test-dir", build_dir, "-L", "gpu", "-R",
              "^(GpuDiscovery|Gpu\\.KernelClock)", "--output-on-failure", "--no-tests=error"],
             180, binary=False, log="checks.log"),
    ]
    for tool, cap in (("memcheck", 75), ("racecheck", 45), ("synccheck", 30)):
        steps.append(Step(tool, [sanitizer, "--tool", tool, "--error-exitcode", "1", gpu_test,
                                 "--gtest_filter=" + filters[tool]],
                          [gpu_test, "--gtest_filter=" + filters[tool]], cap, binary=False,
                          tool="compute-sanitizer", log="checks.log",
                          env={"NQ_TEST_SIZES": "host"}))
    records = ["--output", f"{out}/counts.jsonl"]
    count_py = [python, f"{bench}/bench_count.py", "--binary", binary]
    # A stop on one thread 0.3 s into n = 17: the dry run's stand-in for a stop at n = 21.
    dry_stop = count_py + ["--device", "cpu", "--threads", "1", "--sizes", "17", "--stop-after",
                           "0.3"] + records
    steps += [
        # A SIGINT 3 s into n = 21 (out within 1 s, the resume exact); then --device all.
        Step("stop-resume", count_py + ["--device", "gpu", "--sizes", "21", "--stop-after", "3"] +
             records, dry_stop, 120, binary=False, log="checks.log"),
        Step("count-all", count_py + ["--device", "all", "--sizes", "18,20", "--repeats", "1"] +
             records, count_py + ["--device", "cpu", "--threads", "2", "--sizes", "12",
                                  "--repeats", "1"] + records, 90, binary=False,
             log="checks.log"),
        Step("stop-all", count_py + ["--device", "all", "--resume-device", "gpu", "--sizes", "21",
                                     "--stop-after", "3"] + records, dry_stop, 120, binary=False,
             log="checks.log"),
        Step("count-devices", ["bash", f"{bench}/count_devices.sh", binary, str(gpus)],
             ["bash", f"{bench}/count_devices.sh", binary, "0", "12"], 120, binary=False,
             log="checks.log"),
        # Every rank's GPUs under mpiexec (two ranks sharing the machine's GPUs): n = 18 on each
        # rank's GPUs, then with the CPUs too; the dry run: n = 12 on the ranks' CPUs.
        Step("mpi-gpu", mpi_count(binary, 18, "gpu"), mpi_count(binary, 16, "cpu"), 60,
             binary=False, tool="mpiexec", read="mpi", log="checks.log"),
        Step("mpi-all", mpi_count(binary, 18, "all"), mpi_count(binary, 16, "cpu"), 60,
             binary=False, tool="mpiexec", read="mpi", log="checks.log"),
    ]
    return steps


def sanitizer_filters():
    """compute-sanitizer's gtest filters: memcheck on all but the slow statistics, OEIS and long
    serial tests; racecheck and synccheck on the block-collective kernels."""
    block = ("GpuBlockChains*:GpuRace*:GpuEdges.Races*:GpuEdges.TimeLimits*"
             ":GpuFrameCount.CountsAnySubset*:Searches/GpuPopulation.Traces*:GpuPopulationControl.*"
             ":Searches/GpuPopulationGrid.Traces*:Searches/GpuBeamGrid.Traces*")
    memcheck = ("-*BatchesMatch*:GpuCount.MatchesOeis*:GpuFrameCount.MatchesOeis*"
                ":GpuFrameCount.EveryFrame*:GpuFrameCheckpoint*:*GpuPopulation.MatchesTheCpu*"
                ":GpuDevices.OneTwoOrThree*:*GpuPopulationGrid*.MatchesTheCpu*"
                ":*GpuBeamGrid*.MatchesTheCpu*:*GpuBeamGrid*.LargeBoards*"
                ":GpuLattice.SameBoardAsTheCpu:GpuLattice.ATimeLimitWhile*"
                ":GpuPlacement.SameBoardAsTheCpu:GpuEdges.ScratchChainsMatchTheCpuOnLargeBoards")
    return {"memcheck": memcheck, "racecheck": block, "synccheck": block}

