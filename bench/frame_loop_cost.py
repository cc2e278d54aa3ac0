#!/usr/bin/env python3
"""The GPU frame counter's cost model, without a GPU: warp-instructions per node (queen placed).

Each path of the counter's loop (kernels/frame_count.cu) is compiled to PTX for sm_90 by
bench/frame_loop_probe.cu, which repeats it in a loop of its own: the instructions of that loop's
body are what a warp issues for the path once an iteration, whichever of its branches its lanes
take (a warp runs the union of its lanes' paths). The lanes' play on the host (frame_loop_stats,
the host execution in lockstep, one block of 4 warps) says how many warp iterations ran each
path and how many nodes they placed. The model:

    warp-instructions a node = (plain iterations x plain path + fixed iterations x fixed path
                                + take iterations x take path) / nodes

with iterations counted per warp (one lane on the path is enough to issue it). PTX register
copies (mov) are counted apart: register allocation removes most. ptxas fuses more (three-input
logic, compare chains), so SASS is shorter still; no SASS is read here (no disassembler).

Usage: frame_loop_cost.py --stats BUILD/frame_loop_stats [--nvcc NVCC] [--n 16 17]
                          [--look-ahead 3 1] [--json FILE] [--check MAX]
--check MAX exits 1 when the figure of any n and look-ahead passes MAX warp-instructions a node.
Without nvcc it says SKIP and exits 0.
"""

import argparse
import json
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
PROBE = ROOT / "bench" / "frame_loop_probe.cu"
PATHS = ("plain", "fixed", "take")
LABEL = re.compile(r"^(\$L__\w+):$")
BRANCH = re.compile(r"\bbra(?:\.uni)?\s+(\$L__\w+);")


def nvcc_flags():
    text = (ROOT / "kernels" / "CMakeLists.txt").read_text()
    found = re.search(r"set\(nq_cuda_options\s+([^)]*)\)", text)
    return found.group(1).split() if found else []


def compile_probe(nvcc, look_ahead, scratch):
    out = scratch / f"probe{look_ahead}.ptx"
    command = [nvcc, "-O3", "-DNDEBUG", "-std=c++20", "-arch=sm_90", "-ptx", *nvcc_flags(),
               f"-DNQ_PROBE_LOOK_AHEAD={look_ahead}", "-I", str(ROOT),
               "-I", str(ROOT / "include"), "-o", str(out), str(PROBE)]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"frame_loop_cost.py: nvcc failed:\n{done.stderr}")
    return out.read_text()


def entry_body(ptx, name):
    """The lines of the .entry whose mangled name holds `name`."""
    found = re.search(r"^\.entry\s+\S*" + name + r"\S*\($", ptx, re.M)
    if not found:
        raise SystemExit(f"frame_loop_cost.py: no probe {name} in the PTX")
    start = ptx.index("{\n", found.end())
    end = ptx.index("\n}\n", start)
    return [line.strip() for line in ptx[start + 2:end].splitlines()]


def is_instruction(line):
    return (line.endswith(";") and not line.startswith((".", "//", "{", "}"))
            and not LABEL.match(line))


def loop_body(lines):
    """The instructions of the widest loop (from a label to the last branch back to it), less
    the stop check's block (it reads the mapped stop flag, ld.relaxed.sys, once every 16,384
    iterations)."""
    labels = {}
    widest = None
    for i, line in enumerate(lines):
        found = LABEL.match(line)
        if found:
            labels[found.group(1)] = i
        branch = BRANCH.search(line)
        if branch and branch.group(1) in labels:
            first = labels[branch.group(1)]
            if widest is None or i - first > widest[1] - widest[0]:
                widest = (first, i)
    if widest is None:
        raise SystemExit("frame_loop_cost.py: a probe without a loop")
    blocks, block = [], []
    for line in lines[widest[0]:widest[1] + 1]:
        if LABEL.match(line) and block:
            blocks.append(block)
            block = []
        if is_instruction(line):
            block.append(line)
            if BRANCH.search(line):  # a block ends at its branch
                blocks.append(block)
                block = []
    blocks.append(block)
    body = [line for b in blocks if not any("ld.relaxed.sys" in line for line in b) for line in b]
    movs = sum(1 for line in body if re.match(r"(@!?%p\d+\s+)?mov\.", line))
    memory = sum(1 for line in body if re.search(r"\b(ld|st|atom)\.", line))
    return {"instructions": len(body) - movs, "movs": movs, "memory": memory}


def stats(program, look_ahead, sizes):
    out = subprocess.run([program, str(look_ahead), *map(str, sizes)], capture_output=True,
                         text=True, check=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def model(paths, s):
    issued = sum(s[f"{p}_warp_steps"] * paths[p]["instructions"] for p in PATHS)
    return {
        "n": s["n"], "look_ahead": s["look_ahead"], "nodes": s["nodes"], "pieces": s["pieces"],
        "iterations_per_node": s["lane_steps"] / s["nodes"],
        "idle_lanes": s["idle_lane_steps"] / (s["lane_steps"] + s["idle_lane_steps"]),
        "lanes_per_warp_iteration": s["lane_steps"] / s["warp_steps"],
        "take_share": s["take_warp_steps"] / s["warp_steps"],
        "fixed_share": s["fixed_warp_steps"] / s["warp_steps"],
        "warp_instructions_per_node": issued / s["nodes"],
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stats", required=True, help="the frame_loop_stats program")
    parser.add_argument("--nvcc", default=None)
    parser.add_argument("--n", type=int, nargs="+", default=[16, 17])
    parser.add_argument("--look-ahead", type=int, nargs="+", default=[3, 1])
    parser.add_argument("--json", help="write the figures here too")
    parser.add_argument("--check", type=float, help="fail past this many")
    args = parser.parse_args()
    nvcc = args.nvcc or shutil.which("nvcc") or shutil.which("/usr/local/cuda/bin/nvcc")
    if not nvcc:
        print("SKIP: no nvcc, no PTX to count")
        return 0
    figures = {"paths": {}, "rows": []}
    with tempfile.TemporaryDirectory() as scratch:
        for look_ahead in args.look_ahead:
            ptx = compile_probe(nvcc, look_ahead, pathlib.Path(scratch))
            paths = {p: loop_body(entry_body(ptx, f"probe_{p}")) for p in PATHS}
            figures["paths"][look_ahead] = paths
            for s in stats(args.stats, look_ahead, args.n):
                figures["rows"].append(model(paths, s))
    print("PTX instructions a warp issues per iteration of each path (movs apart; loads/stores):")
    for look_ahead, paths in figures["paths"].items():
        print(f"  look-ahead {look_ahead}: " + ", ".join(
            f"{p} {v['instructions']} (+{v['movs']} mov; {v['memory']} memory)"
            for p, v in paths.items()))
    print(f"{'n':>3} {'LA':>3} {'nodes':>14} {'pieces':>9} {'it/node':>8} {'idle':>6} "
          f"{'take':>6} {'fixed':>6} {'warp-instr/node':>16}")
    for r in figures["rows"]:
        print(f"{r['n']:>3} {r['look_ahead']:>3} {r['nodes']:>14,} {r['pieces']:>9,} "
              f"{r['iterations_per_node']:>8.4f} {r['idle_lanes']:>6.2%} {r['take_share']:>6.2%} "
              f"{r['fixed_share']:>6.2%} {r['warp_instructions_per_node']:>16.3f}")
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(figures, indent=1) + "\n")
    if args.check is not None:
        worst = max((r["warp_instructions_per_node"] for r in figures["rows"]), default=0.0)
        if worst > args.check:
            print(f"FAIL: {worst:.3f} warp-instructions a node, budget {args.check}")
            return 1
        print(f"OK: at most {worst:.3f} warp-instructions a node, budget {args.check}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
