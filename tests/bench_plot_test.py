#!/usr/bin/env python3
"""bench/plot_bench.py on tests/data/bench_record.json (schema 1): `draws` makes a PNG of the
record alone, of it beside a second machine's (no GPU, another CPU), and of a schema 2 copy
whose figures are marked unsteady and indicative, which the bars carry; `refuses` exits 2 with
one line on a batch record (from `nqueens batch -f json`) and on a bench record of another
schema.

Usage: bench_plot_test.py draws|refuses PLOT_BENCH RECORD [NQUEENS]
"""

import json
import pathlib
import subprocess
import sys
import tempfile

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print(f"FAILED: {what}", file=sys.stderr)


def plot(script, *args):
    return subprocess.run([sys.executable, script, *map(str, args)], capture_output=True,
                          text=True, timeout=60)


def draws(script, record, scratch):
    png = scratch / "bench.png"
    r = plot(script, record, "-o", png)
    check(r.returncode == 0, f"plot_bench.py draws {record}: {r.stderr}")
    check(png.exists() and png.stat().st_size > 1000 and png.read_bytes()[:8] == PNG_SIGNATURE,
          "a non-empty PNG is written")
    check(not list(scratch.glob("*.tmp*")), "no temporary file is left")
    # A second machine, without a GPU: its bars beside the first record's.
    other = json.loads(pathlib.Path(record).read_text())
    other["machine"]["cpu"] = "Intel Xeon"
    other["gpus"] = []
    other["figures"] = [f for f in other["figures"] if f["device"] == "cpu"]
    other["speedups"] = []
    second = scratch / "other.json"
    second.write_text(json.dumps(other))
    two = scratch / "two.png"
    r = plot(script, record, second, "-o", two)
    check(r.returncode == 0, f"plot_bench.py draws two machines' records: {r.stderr}")
    check(two.exists() and two.read_bytes()[:8] == PNG_SIGNATURE, "a PNG of two records")
    # Schema 2: each figure's quality, drawn as a mark on its bar.
    marked = json.loads(pathlib.Path(record).read_text())
    marked["schema"] = 2
    qualities = ["steady", "unsteady", "indicative"]
    for k, figure in enumerate(marked["figures"]):
        figure["quality"] = qualities[k % 3] if figure["ran"] else None
    third = scratch / "marked.json"
    third.write_text(json.dumps(marked))
    r = plot(script, third, "-o", scratch / "marked.png")
    check(r.returncode == 0 and (scratch / "marked.png").read_bytes()[:8] == PNG_SIGNATURE,
          f"a schema 2 record with marked figures is drawn: {r.stderr}")
    sys.path.insert(0, str(pathlib.Path(script).parent))
    import plot_bench  # noqa: E402 (the script's own reading of the marks)
    units, _ = plot_bench.collect([marked], [third])
    drawn = {(w, s.split(" ")[-1]): bar[4] for u in units.values()
             for (w, s), bar in u["bars"].items()}
    for figure in marked["figures"]:
        if figure["ran"]:
            check(drawn.get((figure["workload"], figure["on"])) == figure["quality"],
                  f"{figure['workload']} on {figure['on']} is drawn {figure['quality']}")
    check(set(drawn.values()) >= {"unsteady", "indicative"}, "both marks are drawn")


def refuses(script, record, nqueens, scratch):
    batch = scratch / "batch.json"
    with batch.open("w") as out:
        subprocess.run([nqueens, "batch", "-n", "8", "--algo", "hc", "--runs", "100", "--device",
                        "cpu", "-f", "json", "-q"], check=True, stdout=out, timeout=60)
    png = scratch / "batch.png"
    r = plot(script, batch, "-o", png)
    check(r.returncode == 2 and len(r.stderr.splitlines()) == 1 and "not a bench record" in
          r.stderr, f"a batch record is refused in one line, exit 2: {r.returncode} {r.stderr!r}")
    check(not png.exists(), "no PNG for a refused record")
    newer = json.loads(pathlib.Path(record).read_text())
    newer["schema"] = 3
    (scratch / "schema3.json").write_text(json.dumps(newer))
    r = plot(script, scratch / "schema3.json", "-o", png)
    check(r.returncode == 2 and len(r.stderr.splitlines()) == 1 and "schema 3" in r.stderr,
          f"a record of schema 3 is refused in one line, exit 2: {r.returncode} {r.stderr!r}")


def main():
    mode, script, record = sys.argv[1:4]
    with tempfile.TemporaryDirectory() as scratch:
        if mode == "draws":
            draws(script, record, pathlib.Path(scratch))
        else:
            refuses(script, record, sys.argv[4], pathlib.Path(scratch))


if __name__ == "__main__":
    main()
    sys.exit(1 if failures else 0)
