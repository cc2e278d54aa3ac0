#!/usr/bin/env python3
"""The kernels' register and spill budget: compiles each kernels/*.cu for sm_90 as the Release
build does, with -Xptxas -v, and compares every kernel's registers, spill stores, spill loads and
stack bytes with kernels/ptxas_budget.json. A kernel past its budget, or one with none, fails
(exit 1); one under it passes with a note that the budget can be lowered. Without nvcc it says
SKIP and passes. --update writes today's figures as the budget, on purpose.

Usage: ptxas_budget.py [--update] [--nvcc NVCC] [--include DIR]... [--ccbin CXX] [--jobs N]
                       [--budget FILE]
"""

import argparse
import concurrent.futures
import functools
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
BUDGET = ROOT / "kernels" / "ptxas_budget.json"
ARCH = "sm_90"
FIELDS = ("registers", "spill_stores", "spill_loads", "stack")
# The Release build's optimisation; the rest of nvcc's options come from kernels/CMakeLists.txt.
RELEASE_FLAGS = ["-O3", "-DNDEBUG", "-std=c++20"]


def project_flags():
    """nvcc's options for nq_cuda, as kernels/CMakeLists.txt sets them (one list, two users)."""
    text = (ROOT / "kernels" / "CMakeLists.txt").read_text()
    found = re.search(r"set\(nq_cuda_options\s+([^)]*)\)", text)
    if not found:
        raise SystemExit("ptxas_budget.py: no set(nq_cuda_options ...) in kernels/CMakeLists.txt")
    return found.group(1).split()


def find_nvcc(given):
    if given:
        return given if shutil.which(given) else None
    return shutil.which("nvcc") or shutil.which("/usr/local/cuda/bin/nvcc")


def nvcc_version(nvcc):
    out = subprocess.run([nvcc, "--version"], capture_output=True, text=True).stdout
    found = re.search(r"release [\d.]+, V([\d.]+)", out)
    return found.group(1) if found else "unknown"


def compile_report(nvcc, flags, source, includes, ccbin, scratch):
    """ptxas's -v report for one file: device code only (-cubin), no host compilation."""
    command = [nvcc, *RELEASE_FLAGS, f"-arch={ARCH}", "-cubin", *flags, "-Xptxas", "-v",
               "-I", str(ROOT), "-I", str(ROOT / "include"),
               *(f"-I{d}" for d in includes), *(["-ccbin", ccbin] if ccbin else []),
               "-o", str(scratch / (source.stem + ".cubin")), str(source)]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"ptxas_budget.py: nvcc failed on {source.name}:\n"
                         + " ".join(command) + "\n" + result.stdout + result.stderr)
    return result.stdout + result.stderr


def parse_report(text):
    """{mangled entry name: figures} from ptxas -v output. A 'Function properties' block of a
    callee (not the entry being compiled) is left out; the entry's stack is the cumulative one,
    callees included, where ptxas gives it."""
    kernels, entry, properties = {}, None, None
    for line in text.splitlines():
        if m := re.search(r"Compiling entry function '([^']+)'", line):
            entry = m.group(1)
            kernels[entry] = dict.fromkeys(FIELDS, 0)
        elif m := re.search(r"Function properties for (\S+)", line):
            properties = m.group(1)
        elif m := re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, "
                            r"(\d+) bytes spill loads", line):
            if entry and properties == entry:
                kernels[entry].update(stack=int(m.group(1)), spill_stores=int(m.group(2)),
                                      spill_loads=int(m.group(3)))
        elif (m := re.search(r"Used (\d+) registers", line)) and entry:
            kernels[entry]["registers"] = int(m.group(1))
            if s := re.search(r"(\d+) bytes cumulative stack size", line):
                kernels[entry]["stack"] = int(s.group(1))
    return kernels


def demangle(names):
    tool = shutil.which("cu++filt") or shutil.which("c++filt")
    if not tool:
        raise SystemExit("ptxas_budget.py: neither cu++filt nor c++filt found (binutils)")
    out = subprocess.run([tool], input="\n".join(names), capture_output=True, text=True).stdout
    return dict(zip(names, out.splitlines()))


def split_args(text):
    """Top-level template arguments of 'a, b<c, d>, e'."""
    args, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "<(":
            depth += 1
        elif c in ">)":
            depth -= 1
        elif c == "," and depth == 0:
            args.append(text[start:i].strip())
            start = i + 1
    return args + [text[start:].strip()]


@functools.cache
def enumerators(name):
    """The names of enum `name`'s values, from the project's headers, for readable keys."""
    pattern = re.compile(r"enum\s+(?:class|struct)?\s*" + name + r"\b[^{;]*\{([^}]*)\}")
    for folder in ("include", "kernels", "src"):
        for header in sorted([*(ROOT / folder).rglob("*.h*"), *(ROOT / folder).rglob("*.cuh")]):
            if found := pattern.search(header.read_text(errors="replace")):
                body = re.sub(r"//[^\n]*|/\*.*?\*/", "", found.group(1), flags=re.S)
                values, next_value = {}, 0
                for item in filter(None, (part.strip() for part in body.split(","))):
                    label, _, value = (s.strip() for s in item.partition("="))
                    next_value = int(value, 0) if value else next_value
                    values[next_value] = label
                    next_value += 1
                return values
    return {}


def readable(body):
    """A body type as a key: no namespaces, enum values by name (local_chains<first_choice>)."""
    body = re.sub(r"\b(?:nq::cuda::|nq::)|\(anonymous namespace\)::", "", body)
    return re.sub(r"\((?:\w+::)*(\w+)\)(-?\d+)",
                  lambda m: enumerators(m.group(1)).get(int(m.group(2)), m.group(0)), body)


def kernel_key(demangled):
    """(body, launch shape): ('block_climb', ' [256 threads]') for void nq::cuda::block_kernel<
    256u, (anonymous namespace)::block_climb>(...), as the body names the kernel; None for the
    kernels outside namespace nq (CUB's and Thrust's)."""
    if not demangled.startswith("void nq::"):
        return None
    m = re.match(r"void (nq::[\w:]+)<(.*)>\(.*\)$", demangled)
    if not m:
        return readable(demangled[len("void "):].split("(")[0]), ""
    launcher, args = m.group(1), split_args(m.group(2))
    if launcher == "nq::cuda::thread_kernel":
        return readable(args[0]), ""
    if launcher == "nq::cuda::block_kernel":
        return readable(args[1]), f" [{args[0].rstrip('u')} threads]"
    if launcher == "nq::cuda::block_kernel_resident":  # <threads, resident blocks, body>
        return readable(args[2]), f" [{args[0].rstrip('u')} threads]"
    return readable(f"{launcher}<{m.group(2)}>"), ""


def measure(nvcc, includes, ccbin, jobs):
    """{file: {key: figures}} for every kernels/*.cu, and how many library kernels were left."""
    sources, flags = sorted((ROOT / "kernels").glob("*.cu")), project_flags()
    with tempfile.TemporaryDirectory() as scratch, \
            concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        reports = list(pool.map(lambda source: compile_report(
            nvcc, flags, source, includes, ccbin, pathlib.Path(scratch)), sources))
    parsed = [parse_report(r) for r in reports]
    names = demangle([name for kernels in parsed for name in kernels])
    figures, library = {}, 0
    for source, kernels in zip(sources, parsed):
        keyed = [(kernel_key(names[name]), f) for name, f in kernels.items()]
        library += sum(1 for key, _ in keyed if key is None)
        keyed = [(key, f) for key, f in keyed if key is not None]
        bodies = [key[0] for key, _ in keyed]
        # One body under several launch shapes keeps the shape in its key.
        for (body, shape), f in keyed:
            key = body + (shape if bodies.count(body) > 1 else "")
            figures.setdefault(source.name, {})[key] = f
    return figures, library


def write_budget(path, figures, version):
    """The budget as JSON, one kernel a line, so that a change reads as one line in a diff."""
    lines = ['{', f'  "arch": "{ARCH}",', f'  "nvcc": "{version}",', '  "kernels": {']
    files = sorted(figures)
    for i, name in enumerate(files):
        lines.append(f'    "{name}": {{')
        keys = sorted(figures[name])
        for j, key in enumerate(keys):
            row = json.dumps({field: figures[name][key][field] for field in FIELDS})
            lines.append(f'      {json.dumps(key)}: {row}' + ("," if j + 1 < len(keys) else ""))
        lines.append("    }" + ("," if i + 1 < len(files) else ""))
    path.write_text("\n".join(lines + ["  }", "}"]) + "\n")


def compare(budget, figures):
    """Rows (file, kernel, budget, now) over budget and under it, and the kernels gone."""
    over, under, gone = [], [], []
    for name, kernels in sorted(figures.items()):
        for key, now in sorted(kernels.items()):
            allowed = budget.get(name, {}).get(key)
            if allowed is None:
                over.append((name, key, None, now))
            elif any(now[f] > allowed[f] for f in FIELDS):
                over.append((name, key, allowed, now))
            elif any(now[f] < allowed[f] for f in FIELDS):
                under.append((name, key, allowed, now))
    for name, kernels in sorted(budget.items()):
        gone += [(name, key) for key in sorted(kernels) if key not in figures.get(name, {})]
    return over, under, gone


def cell(allowed, now, field):
    if allowed is None:
        return f"{now[field]} (none)"
    if now[field] == allowed[field]:
        return str(now[field])
    return f"{allowed[field]} -> {now[field]}" + (" !" if now[field] > allowed[field] else "")


def table(rows):
    header = ("file", "kernel", "registers", "spill stores", "spill loads", "stack B")
    body = [(name, key, *(cell(allowed, now, f) for f in FIELDS))
            for name, key, allowed, now in rows]
    widths = [max(len(r[i]) for r in [header, *body]) for i in range(len(header))]
    return "\n".join("  " + "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip()
                     for r in [header, *body])


def kernel_count(count):
    return f"{count} kernel" + ("" if count == 1 else "s")


def totals(kernels_by_file):
    return {f: sum(k[f] for ks in kernels_by_file.values() for k in ks.values()) for f in FIELDS}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--update", action="store_true", help="write today's figures as the budget")
    parser.add_argument("--nvcc", help="the nvcc to use (default: nvcc on PATH, /usr/local/cuda)")
    parser.add_argument("--include", action="append", default=[], help="another include folder")
    parser.add_argument("--ccbin", help="nvcc's host compiler, as the build's")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--budget", type=pathlib.Path, default=BUDGET)
    args = parser.parse_args()

    nvcc = find_nvcc(args.nvcc)
    if not nvcc:
        print(f"SKIP: ptxas budget not checked: no nvcc ({args.nvcc or 'not on PATH'})")
        return 0
    start = time.monotonic()
    figures, library = measure(nvcc, args.include, args.ccbin, args.jobs)
    count = sum(len(k) for k in figures.values())
    seconds = time.monotonic() - start
    version = nvcc_version(nvcc)
    print(f"ptxas budget: {count} kernels in {len(figures)} files for {ARCH} with nvcc {version} "
          f"in {seconds:.0f} s ({library} CUB/Thrust kernels not budgeted)")
    if args.update:
        write_budget(args.budget, figures, version)
        print(f"wrote {args.budget}: commit it with the reason the kernels changed")
        return 0

    saved = json.loads(args.budget.read_text())
    budget = saved["kernels"]
    if saved.get("nvcc") != version:
        print(f"note: the budget was measured with nvcc {saved.get('nvcc')}; figures may differ")
    over, under, gone = compare(budget, figures)
    now, allowed = totals(figures), totals(budget)
    print("totals (budget -> now): " + ", ".join(
        f"{f.replace('_', ' ')} {allowed[f]} -> {now[f]}" for f in FIELDS))
    if under:
        print(f"{kernel_count(len(under))} under budget (--update can lower the budget):")
        print(table(under))
    for name, key in gone:
        print(f"note: {name}: {key} has a budget but is no longer built (--update drops it)")
    if over:
        print(f"FAIL: {kernel_count(len(over))} over budget ('none': no budget yet); if the "
              "growth is meant, run kernels/ptxas_budget.py --update and commit why:")
        print(table(over))
        return 1
    print("ptxas budget: every kernel within its budget")
    return 0


if __name__ == "__main__":
    sys.exit(main())
