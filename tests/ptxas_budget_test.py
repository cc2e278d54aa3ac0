#!/usr/bin/env python3
"""kernels/ptxas_budget.py against a stand-in nvcc that prints a fixed ptxas report: the keys it
reads from mangled names, a pass at the budget, a failure one register past it (and for a kernel
with no budget), a note under it, and SKIP without nvcc. Needs no CUDA.

Usage: ptxas_budget_test.py SCRIPT
"""

import json
import pathlib
import subprocess
import sys
import tempfile

# A report as ptxas -v writes it: two of our kernels (one calling a function with a stack of its
# own, which is not the kernel's figure) and one of CUB's, which is not budgeted.
REPORT = r"""ptxas info    : 28 bytes gmem
ptxas info    : Compiling entry function '_ZN2nq4cuda13thread_kernelINS0_41_GLOBAL__N__e7162243_9_chains_cu_b880a8a012local_chainsILNS_15local_algorithmE3EEEEEvT_' for 'sm_90'
ptxas info    : Function properties for _ZN2nq6helperEv
    64 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads
ptxas info    : Function properties for _ZN2nq4cuda13thread_kernelINS0_41_GLOBAL__N__e7162243_9_chains_cu_b880a8a012local_chainsILNS_15local_algorithmE3EEEEEvT_
    4464 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 60 registers, used 0 barriers, 4528 bytes cumulative stack size
ptxas info    : Compile time = 350.249 ms
ptxas info    : Compiling entry function '_ZN2nq4cuda12block_kernelILj128ENS0_46_GLOBAL__N__05f673da_13_population_cu_51c37a8a7ga_runsEEEvT0_' for 'sm_90'
ptxas info    : Function properties for _ZN2nq4cuda12block_kernelILj128ENS0_46_GLOBAL__N__05f673da_13_population_cu_51c37a8a7ga_runsEEEvT0_
    192 bytes stack frame, 72 bytes spill stores, 136 bytes spill loads
ptxas info    : Used 80 registers, used 1 barriers, 192 bytes cumulative stack size, 2736 bytes smem
ptxas info    : Compiling entry function '_ZN3cub17CUB_300001_SM_9006detail11EmptyKernelIvEEvv' for 'sm_90'
ptxas info    : Function properties for _ZN3cub17CUB_300001_SM_9006detail11EmptyKernelIvEEvv
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 4 registers, used 0 barriers
"""

FAKE_NVCC = f"""#!{sys.executable}
import sys
if "--version" in sys.argv:
    print("Cuda compilation tools, release 13.0, V13.0.88")
else:
    sys.stderr.write({REPORT!r})
"""

failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print(f"FAILED: {what}", file=sys.stderr)


def run(script, *args):
    result = subprocess.run([sys.executable, "-B", str(script), *args], capture_output=True,
                            text=True)
    return result.returncode, result.stdout + result.stderr


def main():
    script = pathlib.Path(sys.argv[1]).resolve()
    with tempfile.TemporaryDirectory() as scratch:
        scratch = pathlib.Path(scratch)
        nvcc = scratch / "nvcc"
        nvcc.write_text(FAKE_NVCC)
        nvcc.chmod(0o755)
        budget = scratch / "budget.json"
        common = ("--nvcc", str(nvcc), "--budget", str(budget), "--jobs", "2")

        code, out = run(script, "--nvcc", str(scratch / "absent"), "--budget", str(budget))
        check(code == 0 and out.startswith("SKIP:") and out.count("\n") == 1,
              f"without nvcc: one SKIP line and exit 0, got {code}: {out}")

        code, out = run(script, "--update", *common)
        check(code == 0, f"--update exits 0, got {code}: {out}")
        kernels = json.loads(budget.read_text())["kernels"]
        chains = kernels.get("chains.cu", {})
        check(chains.get("local_chains<first_choice>") ==
              {"registers": 60, "spill_stores": 0, "spill_loads": 0, "stack": 4528},
              f"the entry's figures, cumulative stack, keyed by body and enum name: {chains}")
        check(chains.get("ga_runs") ==
              {"registers": 80, "spill_stores": 72, "spill_loads": 136, "stack": 192},
              f"a block kernel keyed by its body: {chains}")
        check(len(chains) == 2, f"CUB's kernels are not budgeted: {chains}")
        check("CUB/Thrust kernels not budgeted" in out, f"the library kernels are counted: {out}")

        code, out = run(script, *common)
        check(code == 0 and "every kernel within its budget" in out,
              f"at the budget: exit 0, got {code}: {out}")

        grown = json.loads(budget.read_text())
        grown["kernels"]["chains.cu"]["ga_runs"]["registers"] = 79
        del grown["kernels"]["population.cu"]["local_chains<first_choice>"]
        budget.write_text(json.dumps(grown))
        code, out = run(script, *common)
        check(code == 1 and "FAIL: 2 kernels over budget" in out,
              f"growth: exit 1, got {code}: {out}")
        check("79 -> 80 !" in out, f"the grown figure is shown: {out}")
        check("60 (none)" in out, f"a kernel with no budget is shown: {out}")

        grown["kernels"]["chains.cu"]["ga_runs"]["registers"] = 81
        del grown["kernels"]["population.cu"]
        grown["kernels"]["gone.cu"] = {"old": grown["kernels"]["chains.cu"]["ga_runs"]}
        budget.write_text(json.dumps(grown))
        code, out = run(script, *common)
        check(code == 1, f"population.cu's kernels have no budget: exit 1, got {code}: {out}")
        check("can lower the budget" in out and "81 -> 80" in out, f"under budget: a note: {out}")
        check("gone.cu: old has a budget but is no longer built" in out, f"a kernel gone: {out}")
    if failures:
        print(f"{len(failures)} checks failed", file=sys.stderr)
        return 1
    print("ptxas_budget.py: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
