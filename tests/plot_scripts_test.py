#!/usr/bin/env python3
"""The plot scripts in bench/: without matplotlib each says what to install in one line (no
traceback); with it, plot_runs.py draws a batch's --runs-csv file.

Usage: plot_scripts_test.py BENCH_DIR NQUEENS
"""

import pathlib
import subprocess
import sys
import tempfile

# Runs a script as python3 would, with matplotlib hidden: importing it raises ImportError.
HIDE_MATPLOTLIB = """
import os, runpy, sys
sys.modules["matplotlib"] = None
sys.argv = sys.argv[1:]
sys.path.insert(0, os.path.dirname(sys.argv[0]))
runpy.run_path(sys.argv[0], run_name="__main__")
"""

failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print(f"FAILED: {what}", file=sys.stderr)


def main():
    bench, nqueens = pathlib.Path(sys.argv[1]), sys.argv[2]
    scripts = sorted(bench.glob("plot_*.py"))
    check(len(scripts) >= 4, f"plot scripts found in {bench}: {scripts}")
    for script in scripts:
        if script.name == "plot_common.py":
            continue
        r = subprocess.run([sys.executable, "-c", HIDE_MATPLOTLIB, str(script), "input.json"],
                           capture_output=True, text=True, timeout=60)
        lines = r.stderr.splitlines()
        check(r.returncode != 0, f"{script.name} without matplotlib exits non-zero")
        check(len(lines) == 1 and "python3-matplotlib" in r.stderr and "Traceback" not in r.stderr,
              f"{script.name} without matplotlib says what to install in one line: {r.stderr!r}")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print("matplotlib is not installed: plot_runs.py not drawn (.ci/deps --tests installs it)")
        return
    with tempfile.TemporaryDirectory() as scratch:
        runs, png = pathlib.Path(scratch) / "runs.csv", pathlib.Path(scratch) / "runs.png"
        subprocess.run([nqueens, "batch", "-n", "8", "--algo", "hc", "--runs", "200", "--device",
                        "cpu", "-q", "--runs-csv", str(runs)], check=True, capture_output=True)
        r = subprocess.run([sys.executable, str(bench / "plot_runs.py"), str(runs), "--log-y",
                            "-o", str(png)], capture_output=True, text=True, timeout=120)
        check(r.returncode == 0, f"plot_runs.py draws a --runs-csv file: {r.stderr}")
        check(png.exists() and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", "a PNG is written")
        bad = pathlib.Path(scratch) / "bad.csv"
        bad.write_text("step,restarts,cost\n0,0,3\n")
        r = subprocess.run([sys.executable, str(bench / "plot_runs.py"), str(bad), "-o",
                            str(png) + ".2"], capture_output=True, text=True, timeout=120)
        check(r.returncode != 0 and len(r.stderr.splitlines()) == 1,
              f"plot_runs.py refuses a trace in one line: {r.stderr!r}")


if __name__ == "__main__":
    main()
    sys.exit(1 if failures else 0)
