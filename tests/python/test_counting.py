"""count(), solutions() and verify() against the CLI and OEIS."""
import inspect
import json

import numpy as np
import pytest

import nqueens
from conftest import cli_json, run_cli

# OEIS A000170 and A002562, n = 1..12.
ALL = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200]
UNIQUE = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787]


@pytest.mark.parametrize("n", range(1, 13))
def test_count_oeis(n):
    record = nqueens.count(n, device="cpu")
    assert (record["solutions"], record["unique"]) == (ALL[n - 1], UNIQUE[n - 1])
    assert record["complete"]


def test_count_matches_cli(tmp_path):
    record = nqueens.count(11, threads=1, device="cpu", checkpoint=tmp_path / "c.json")
    cli = cli_json("count", "-n", 11, "--unique", "--threads", 1, "--device", "cpu", "-f", "json")
    for field in ("n", "solutions", "unique", "threads", "device", "subproblems"):
        assert record[field] == cli[field], field
    # The record has unique always (the count finds it either way): no keyword asks for it.
    assert "unique" not in inspect.signature(nqueens.count).parameters
    with pytest.raises(TypeError):
        nqueens.count(11, unique=False)


def test_solutions_match_cli():
    _, out, _ = run_cli("solutions", "-n", 8, "-f", "json")
    expected = [json.loads(line)["rows"] for line in out.splitlines()]
    got = list(nqueens.solutions(8))
    assert len(got) == 92
    assert all(s.dtype == np.uint32 for s in got)
    assert [s.tolist() for s in got] == expected
    assert [s.tolist() for s in nqueens.solutions(10, limit=5)] == \
        [json.loads(line)["rows"] for line in run_cli("solutions", "-n", 10, "--limit", 5,
                                                      "-f", "json")[1].splitlines()]
    assert list(nqueens.solutions(3)) == []


def test_solutions_is_lazy():
    # 365,596 solutions for n = 14: taking three and dropping the rest ends the search.
    stream = nqueens.solutions(14)
    first = [next(stream) for _ in range(3)]
    del stream
    assert [s.tolist() for s in first] == [s.tolist() for s in nqueens.solutions(14, limit=3)]


@pytest.mark.parametrize("rows", [[0], [1, 3, 0, 2], [0, 1, 2, 3], [3, 1, 0, 2, 4],
                                  [4, 2, 0, 3, 1, 1]])
def test_verify_matches_cli(rows):
    positions = " ".join(str(r + 1) for r in rows) + "\n"
    _, out, _ = run_cli("verify", "--json", input=positions)
    assert nqueens.verify(rows) == json.loads(out)
    assert nqueens.verify(np.array(rows, dtype=np.int64)) == json.loads(out)


def test_verify_refuses_rows_off_the_board():
    with pytest.raises(ValueError, match="column 1 has row 2, outside 0..1"):
        nqueens.verify([0, 2])
    with pytest.raises(ValueError, match="outside"):
        nqueens.verify([0, -1])
    with pytest.raises(ValueError, match="one-dimensional"):
        nqueens.verify([[0]])


def test_verify_of_an_empty_board():
    # [] is float64 to numpy: the board is empty, whatever its type.
    for rows in ([], (), np.array([], dtype=np.uint32), np.array([], dtype=np.int64)):
        with pytest.raises(ValueError, match="rows is empty: no board to read"):
            nqueens.verify(rows)
