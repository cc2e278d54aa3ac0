"""Binary boards: solve -f npy/raw, numpy.load, nqueens.verify(path) and nqueens verify."""
import json

import numpy
import pytest

import nqueens
from conftest import cli_json, run_cli


@pytest.mark.parametrize("n", [1, 4, 5, 8, 97, 1000, 1 << 20])
def test_npy_and_raw_round_trip(n, tmp_path):
    npy, raw = tmp_path / "b.npy", tmp_path / "b.raw"
    for path, form in ((npy, "npy"), (raw, "raw")):
        code, out, err = run_cli("solve", "-n", n, "-f", form, "-o", path, "-q")
        assert code == 0 and out == "", err
    board = numpy.load(npy, mmap_mode="r")
    assert board.dtype == numpy.dtype("<u4") and board.shape == (n,)
    assert (numpy.fromfile(raw, dtype="<u4") == board).all()
    if n < 1 << 20:  # below 2^20 both default to min-conflicts, seed 1: the same board
        assert (nqueens.solve(n).rows == board).all()
    for path in (npy, raw, str(npy)):
        assert nqueens.verify(path) == cli_json("verify", "--json", path)
        assert nqueens.verify(path)["valid"]


def test_verify_reads_what_numpy_saves(tmp_path):
    rows = numpy.array([1, 3, 0, 2], dtype=numpy.int64)  # numpy's default integers
    numpy.save(tmp_path / "good.npy", rows)
    assert nqueens.verify(tmp_path / "good.npy")["valid"]
    numpy.save(tmp_path / "clash.npy", numpy.array([0, 1, 2, 3], dtype=numpy.uint32))
    report = nqueens.verify(tmp_path / "clash.npy")
    assert report == json.loads(run_cli("verify", "--json", tmp_path / "clash.npy")[1])
    assert report["conflicts"] == 6 and report["first_clash"] == {"columns": [0, 1], "line": "diagonal"}


@pytest.mark.parametrize("array,reason", [
    (numpy.zeros(4, dtype=numpy.float64), "npy dtype '<f8' is not a row type"),
    (numpy.zeros((2, 2), dtype=numpy.uint32), "npy shape (2, 2) is not one row per column"),
    (numpy.asfortranarray(numpy.zeros((2, 2), dtype=numpy.uint32)), "Fortran order"),
])
def test_malformed_npy_is_refused_with_exit_2(array, reason, tmp_path):
    path = tmp_path / "bad.npy"
    numpy.save(path, array)
    code, _, err = run_cli("verify", path)
    assert code == 2 and reason in err and err.count("\n") == 1, err
    with pytest.raises(ValueError, match="bad.npy"):
        nqueens.verify(path)


def test_truncated_npy_is_refused(tmp_path):
    path = tmp_path / "cut.npy"
    assert run_cli("solve", "-n", 100, "-f", "npy", "-o", path, "-q")[0] == 0
    path.write_bytes(path.read_bytes()[:-3])
    code, _, err = run_cli("verify", path)
    assert code == 2 and "truncated: 100 rows expected" in err
