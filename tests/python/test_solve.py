"""solve(): the CLI's board, steps and restarts for the same seed and settings."""
import csv

import numpy as np
import pytest

import nqueens
from conftest import cli_json

CASES = [
    (8, "hc-sideways", 3, {}, []),
    (100, "min-conflicts", 7, {}, []),
    (8, "sa", 5, {"cooling": 0.98, "reject_equal": True}, ["--cooling", "0.98", "--reject-equal"]),
    (20, "hc-random-p", 2, {"p": 0.1, "q": 3}, ["--p", "0.1", "--q", "3"]),
    (16, "hc-sideways", 4, {"sideways": 5, "ties": "first"}, ["--sideways", "5", "--ties", "first"]),
    (12, "backtrack", 1, {}, []),
    (10, "dfs", 9, {"randomize": True}, ["--randomize"]),
    (8, "ga", 4, {"population": 40}, ["--population", "40"]),
    (5000, "parallel", 6, {}, ["--device", "auto"]),
    (1, "min-conflicts", 1, {}, []),
    # A switch means its value: 0 and False are off, and accept_equal=False rejects.
    (8, "sa", 5, {"reject_equal": 0}, []),
    (8, "sa", 5, {"reject_equal": 1}, ["--reject-equal"]),
    (8, "sa", 5, {"accept_equal": False}, ["--reject-equal"]),
    (8, "beam", 3, {"stochastic": 0}, []),
]


@pytest.mark.parametrize("n,algo,seed,settings,options", CASES,
                         ids=[f"{c[1]}-n{c[0]}-seed{c[2]}" for c in CASES])
def test_solve_matches_cli(n, algo, seed, settings, options):
    result = nqueens.solve(n, algo, seed=seed, **settings)
    record = cli_json("solve", "-n", n, "--algo", algo, "--seed", seed, *options, "-f", "json", "-q")
    assert result.rows.dtype == np.uint32
    assert result.rows.tolist() == record["rows"]
    for field in ("solved", "conflicts", "steps", "restarts", "device"):
        assert getattr(result, field) == record[field], field
    assert result.trace is None


@pytest.mark.parametrize("n", [2, 3])
def test_no_board_has_no_conflicts_to_count(n):
    result = nqueens.solve(n)
    record = cli_json("solve", "-n", n, "-f", "json")
    assert not result.solved and result.rows.size == 0
    assert result.conflicts is None and record["conflicts"] is None


def test_rows_are_the_solvers_own_board():
    result = nqueens.solve(100000, seed=3)
    assert result.solved
    # A view of the buffer the solver filled, kept alive by its owner: no copy was made.
    assert not result.rows.flags.owndata
    assert result.rows.base is not None
    assert nqueens.verify(result.rows)["valid"]


def test_step_limit_and_unsolved_board():
    result = nqueens.solve(8, "sa", seed=5, max_steps=10)
    record = cli_json("solve", "-n", 8, "--algo", "sa", "--seed", 5, "--max-steps", 10,
                      "-f", "json", "-q")
    assert (result.solved, result.steps, result.conflicts) == (record["solved"], 10,
                                                                record["conflicts"])
    assert result.rows.tolist() == record["rows"]
    assert not result.solved and "step limit" in result.stop_reason


def test_uncounted_pairs_are_none_as_the_cli_says_null():
    # min-conflicts stopped while placing: the CLI's JSON has a null conflicts; so does Python.
    result = nqueens.solve(100000, "min-conflicts", seed=2, max_steps=1000)
    record = cli_json("solve", "-n", 100000, "--algo", "min-conflicts", "--seed", 2,
                      "--max-steps", 1000, "-f", "json", "-q")
    assert record["conflicts"] is None and record["unplaced"] > 0
    assert result.conflicts is None
    assert result.unplaced == record["unplaced"]


def test_trace_matches_cli_csv(tmp_path):
    result = nqueens.solve(8, "sa", seed=5, cooling=0.98, trace=True)
    path = tmp_path / "trace.csv"
    cli_json("solve", "-n", 8, "--algo", "sa", "--seed", 5, "--cooling", 0.98,
             "--trace", path, "-f", "json", "-q")
    with open(path) as f:
        rows = list(csv.DictReader(f))
    trace = result.trace
    assert trace.dtype.names == ("step", "restarts", "cost", "temperature", "best_fitness",
                                 "mean_fitness")
    assert len(trace) == len(rows) == result.steps + 1
    assert trace["step"].tolist() == [int(r["step"]) for r in rows]
    assert trace["cost"].tolist() == [int(r["cost"]) for r in rows]
    assert np.allclose(trace["temperature"], [float(r["temperature"]) for r in rows], rtol=1e-5)


def test_ga_trace_has_fitness():
    result = nqueens.solve(8, "ga", seed=4, population=40, trace=True)
    assert len(result.trace) == result.steps + 1
    assert (result.trace["best_fitness"] >= 0).all()
    assert result.trace["cost"][-1] == result.conflicts


def test_algorithms_match_cli():
    assert nqueens.algorithms() == cli_json("algorithms", "--format", "json")
