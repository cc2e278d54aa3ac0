"""Every Python example a user is shown runs as written: the python blocks of README.md and
docs/python.md, and each script in examples/ with the command line its docstring gives (run in
a scratch directory, so its PNG lands there). In CI this also runs against the package installed
by pip into a fresh venv (.ci/run)."""
import pathlib
import re
import shlex
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PAGES = ["README.md", "docs/python.md"]


def python_blocks(page):
    return re.findall(r"^```python\n(.*?)^```", (ROOT / page).read_text(), re.S | re.M)


BLOCKS = [(page, i, code) for page in PAGES for i, code in enumerate(python_blocks(page))]


def test_each_page_shows_python():
    for page in PAGES:
        assert python_blocks(page), f"{page} has no python block"


@pytest.mark.parametrize("page,index,code", BLOCKS, ids=[f"{p}#{i}" for p, i, _ in BLOCKS])
def test_python_block_runs(tmp_path, page, index, code):
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, f"{page} block {index}:\n{code}\n{done.stderr}"
    assert done.stdout.strip(), f"{page} block {index} printed nothing"


SCRIPTS = sorted(p.name for p in (ROOT / "examples").glob("*.py"))


def usage_line(script):
    """The command line the script's docstring gives: `python3 examples/NAME ...`."""
    text = (ROOT / "examples" / script).read_text()
    lines = [line.strip() for line in text.splitlines()
             if line.strip().startswith(f"python3 examples/{script}")]
    assert len(lines) == 1, f"{script}: its docstring should give one 'python3 examples/...' line"
    return shlex.split(lines[0])


@pytest.mark.parametrize("script", SCRIPTS)
def test_example_runs_as_its_docstring_says(tmp_path, script):
    pytest.importorskip("matplotlib")
    words = usage_line(script)
    command = [sys.executable, str(ROOT / words[1]), *words[2:]]
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    written = words[words.index("-o") + 1]
    assert (tmp_path / written).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
