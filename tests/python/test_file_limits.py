"""A file-size limit (ulimit -f) on the module's one file, a count's checkpoint: the write fails
with MemoryError, as the CLI exits 3, rather than SIGXFSZ ending the interpreter. CPython ignores
SIGXFSZ at start-up; this checks that it still does, and that the module leaves it so."""
import os
import resource
import subprocess
import sys

CHILD = """
import sys, nqueens
try:
    nqueens.count(12, device="cpu", checkpoint=sys.argv[1])
except MemoryError as e:
    print(e)
    sys.exit(3)
"""


def limit_file_size():
    resource.setrlimit(resource.RLIMIT_FSIZE, (2048, resource.RLIM_INFINITY))


def test_a_file_size_limit_is_a_memory_error_not_a_signal(tmp_path):
    checkpoint = tmp_path / "ck.json"
    done = subprocess.run([sys.executable, "-c", CHILD, str(checkpoint)], capture_output=True,
                          text=True, timeout=120, preexec_fn=limit_file_size, env=os.environ)
    assert done.returncode == 3, (done.returncode, done.stderr)
    assert "File too large" in done.stdout
    assert not checkpoint.exists()
    assert [p.name for p in tmp_path.iterdir()] == []
