#!/usr/bin/env python3
"""The device check's dry run (bench/gpu_check.py --dry-run) with a built nqueens: `figures`
and `checks` walk every step of their part on the CPU and pass; `broken` breaks one step and
sees the dry run fail, naming it, while the other steps still ran and the summary was made.

Usage: gpu_check_test.py figures|checks|broken GPU_CHECK NQUEENS BUILD_DIR
"""

import json
import pathlib
import subprocess
import sys
import tempfile

failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print(f"FAILED: {what}", file=sys.stderr)


def dry_run(script, part, binary, build_dir, out, *extra):
    return subprocess.run([sys.executable, "-B", script, part, str(out), "--dry-run", "--binary",
                           binary, "--build-dir", build_dir, *extra],
                          capture_output=True, text=True, timeout=280)


def records(path):
    lines = path.read_text().splitlines()
    parsed = [json.loads(line) for line in lines]  # a line that does not parse fails the test
    check(len(parsed) > 3, f"{path.name} has records ({len(parsed)})")
    return parsed


def main():
    mode, script, binary, build_dir = sys.argv[1:5]
    with tempfile.TemporaryDirectory() as scratch:
        out = pathlib.Path(scratch)
        if mode in ("figures", "checks"):
            r = dry_run(script, mode, binary, build_dir, out)
            check(r.returncode == 0, f"the {mode} dry run passes: exit {r.returncode}\n{r.stderr}")
            check("every one checked" in r.stderr, f"it says every step was checked: {r.stderr}")
            name = "figures.jsonl" if mode == "figures" else "checks.jsonl"
            steps = {rec["step"]: rec for rec in records(out / name)}
            check(steps.get("env", {}).get("status") == "PASS", "the environment comes first")
            table = out / ("summary.md" if mode == "figures" else "checks.md")
            check(table.exists() and "| --- |" in table.read_text(), f"{table.name} is a table")
            if mode == "figures":
                check(steps["count-21-gpu"]["status"] == "CUT" and
                      steps["count-21-gpu"]["frames_done"] >= 0,
                      "the count cut at its cap says how far its checkpoint got")
                check(all(rec.get("rate", 1) > 0 for rec in steps.values()
                          if rec.get("figure") and rec["status"] == "PASS"), "every rate > 0")
        else:
            r = dry_run(script, "figures", binary, build_dir, out, "--break",
                        "batch-hc-sideways-gpu")
            check(r.returncode == 1, f"a broken step fails the dry run: exit {r.returncode}")
            check("dry run: batch-hc-sideways-gpu: FAIL" in r.stderr,
                  f"the dry run names the broken step: {r.stderr[-2000:]}")
            steps = {rec["step"]: rec for rec in records(out / "figures.jsonl")}
            check(steps["batch-hc-sideways-gpu"]["status"] == "FAIL", "its record says FAIL")
            check(steps.get("placement-1e7-cpu", {}).get("status") == "PASS",
                  "the steps after it still ran")
            check((out / "summary.md").exists(), "the summary was still made")


if __name__ == "__main__":
    main()
    sys.exit(1 if failures else 0)
