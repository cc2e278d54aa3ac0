"""The scripts in examples/ run and write a PNG (scaled down here; their defaults take a few
seconds each)."""
import os
import pathlib
import subprocess
import sys

import pytest

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize("script,args", [
    ("pq_heatmap.py", ["--runs", "20", "--max-steps", "100"]),
    ("ga_histogram.py", ["--runs", "50"]),
])
def test_example_writes_png(tmp_path, script, args):
    pytest.importorskip("matplotlib")
    output = tmp_path / "out.png"
    done = subprocess.run([sys.executable, str(EXAMPLES / script), "-o", str(output), *args],
                          capture_output=True, text=True, timeout=60, env=os.environ)
    assert done.returncode == 0, done.stderr
    assert output.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert str(output) in done.stdout
