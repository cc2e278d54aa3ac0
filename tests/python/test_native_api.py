"""The package as a Python user meets it: signatures, help, version, reprs, pickling, JSON,
progress, a start board, and the spread of a batch's steps."""
import csv
import inspect
import json
import math
import pickle
import pydoc

import numpy as np
import pytest

import nqueens
from conftest import run_cli

PUBLIC_FUNCTIONS = [name for name in nqueens.__all__
                    if inspect.isfunction(getattr(nqueens, name))]


def test_every_public_function_has_a_signature_and_python_help():
    assert set(PUBLIC_FUNCTIONS) == {"algorithms", "batch", "bench", "count", "solutions",
                                     "solve", "sweep", "verify"}
    for name in PUBLIC_FUNCTIONS:
        function = getattr(nqueens, name)
        signature = inspect.signature(function)
        text = pydoc.render_doc(function, renderer=pydoc.plaintext)
        for word in ("handle", "nq::", "pybind11", "kwargs"):
            assert word not in text, f"{name}: {word!r} in help()"
            assert word not in str(signature), f"{name}: {word!r} in its signature"
        assert function.__doc__ and len(function.__doc__) > 40, name
    module_help = pydoc.render_doc(nqueens, renderer=pydoc.plaintext)
    assert "nq::" not in module_help and "handle" not in module_help


def test_the_settings_are_keywords_of_solve_batch_and_sweep():
    settings = {name for name, _, _ in nqueens._native.settings()}
    assert {"sideways", "p", "q", "t0", "cooling", "population", "reject_equal"} <= settings
    for function in (nqueens.solve, nqueens.batch, nqueens.sweep):
        parameters = inspect.signature(function).parameters
        for name in settings:
            assert parameters[name].kind is inspect.Parameter.KEYWORD_ONLY, name
            assert parameters[name].default is None, name
            assert name in function.__doc__, name
    with pytest.raises(TypeError, match="unexpected keyword argument 'sidewayz'"):
        nqueens.batch(8, "hc-sideways", runs=10, sidewayz=3)
    # None is the command's default, as leaving it out is.
    assert (nqueens.batch(8, "hc-sideways", runs=50, sideways=None)["solved"] ==
            nqueens.batch(8, "hc-sideways", runs=50)["solved"])


def test_version_is_the_commands():
    code, out, _ = run_cli("--version")
    assert code == 0
    assert out.split()[1] == nqueens.__version__
    assert all(part.isdigit() for part in nqueens.__version__.split("."))


def test_reprs_tell_the_truth():
    for n in (2, 3):
        text = repr(nqueens.solve(n))
        assert f"n={n} " in text and "no solution exists" in text, text
    text = repr(nqueens.solve(8, "hc", seed=3))
    result = nqueens.solve(8, "hc", seed=3)
    assert "n=8 " in text and "algorithm=hc" in text
    assert ("solved" if result.solved else f"unsolved conflicts={result.conflicts}") in text
    assert repr(nqueens.batch(8, "hc", runs=10)).startswith("nqueens.Record({")


def test_results_pickle_and_turn_into_json():
    result = nqueens.solve(8, "sa", seed=2, trace=True)
    again = pickle.loads(pickle.dumps(result))
    assert np.array_equal(again.rows, result.rows) and again.steps == result.steps
    assert again.trace.dtype == result.trace.dtype and len(again.trace) == len(result.trace)
    record = result.to_dict()
    text = json.dumps(record, allow_nan=False)
    assert json.loads(text)["rows"] == result.rows.tolist()
    assert record["trace"][0]["best_fitness"] is None  # NaN in the array, null in JSON
    assert record["trace"][0]["temperature"] == pytest.approx(result.trace[0]["temperature"])
    batch = nqueens.batch(8, "hc", runs=100)
    assert pickle.loads(pickle.dumps(batch)) == batch
    assert isinstance(batch.to_dict(), dict) and type(batch.to_dict()) is dict
    json.dumps(batch.to_dict(), allow_nan=False)
    assert pickle.loads(pickle.dumps(nqueens.count(8)))["solutions"] == 92


def test_trace_columns_that_do_not_apply_are_nan():
    hc = nqueens.solve(8, "hc", trace=True).trace
    assert np.isnan(hc["temperature"]).all() and np.isnan(hc["mean_fitness"]).all()
    sa = nqueens.solve(8, "sa", trace=True).trace
    assert (sa["temperature"] > 0).all() and np.isnan(sa["best_fitness"]).all()
    ga = nqueens.solve(8, "ga", trace=True).trace
    assert (ga["best_fitness"] >= 0).all() and np.isnan(ga["temperature"]).all()


def test_progress_is_called_on_this_thread_and_can_stop_the_work():
    import threading
    seen = []
    counted = nqueens.count(12, threads=1, device="cpu",
                            progress=lambda p: seen.append((threading.get_ident(), p)))
    assert seen, "the last snapshot comes however short the count"
    assert {ident for ident, _ in seen} == {threading.get_ident()}
    last = seen[-1][1]
    assert set(last) == {"done", "total", "resumed", "solutions", "seconds"}
    assert last["done"] == last["total"] == counted["subproblems"]
    assert last["solutions"] == counted["solutions"] == 14200
    runs = []
    batch = nqueens.batch(8, "hc", runs=300, progress=runs.append)
    assert runs[-1]["done"] == runs[-1]["runs"] == batch["runs"] == 300
    assert all(0 <= p["done"] <= 300 for p in runs)
    steps = []
    solved = nqueens.solve(8, "hc", seed=4, progress=steps.append)
    assert steps[-1]["fraction"] == 1.0 and steps[-1]["steps"] == solved.steps

    class Enough(Exception):
        pass

    def stop(_):
        raise Enough

    with pytest.raises(Enough) as raised:
        nqueens.batch(8, "hc-sideways", runs=10**10, device="cpu", progress=stop)
    assert not hasattr(raised.value, "result")  # the caller's own exception, untouched
    with pytest.raises(TypeError, match="progress must be callable"):
        nqueens.batch(8, "hc", runs=10, progress=5)


def test_a_start_board_is_where_the_chain_starts():
    solution = [0, 4, 7, 5, 2, 6, 1, 3]
    for start in (solution, np.array(solution, dtype=np.uint32), np.array(solution)):
        result = nqueens.solve(8, "hc", start=start)
        assert result.solved and result.steps == 0 and result.rows.tolist() == solution
    # One queen moved: hc takes it back in one step, from there.
    start = solution.copy()
    start[3] = 0
    moved = nqueens.solve(8, "hc", start=start, trace=True)
    assert moved.trace[0]["cost"] == nqueens.verify(start)["conflicts"]
    with pytest.raises(ValueError, match="start board has 7 rows, not n = 8"):
        nqueens.solve(8, "hc", start=solution[:7])
    with pytest.raises(ValueError, match="column 2 has row 8, outside 0..7"):
        nqueens.solve(8, "hc", start=[0, 1, 8, 3, 4, 5, 6, 7])
    with pytest.raises(ValueError, match="column 0 has row -1, outside 0..n-1"):
        nqueens.solve(8, "hc", start=[-1, 1, 2, 3, 4, 5, 6, 7])
    with pytest.raises(ValueError, match="applies to one chain of a local search"):
        nqueens.solve(8, "backtrack", start=solution)
    with pytest.raises(ValueError, match="not to chains .chains, or device, which races them"):
        nqueens.solve(8, "hc", start=solution, device="cpu")
    with pytest.raises(TypeError, match="start takes a board"):
        nqueens.solve(8, "hc", start=5)


def test_batch_steps_spread_is_numpys_quantiles_of_the_runs(tmp_path):
    runs_csv = tmp_path / "runs.csv"
    code, _, err = run_cli("batch", "-n", "8", "--algo", "hc-sideways", "--runs", "2000",
                           "--seed", "9", "--runs-csv", runs_csv, "-q")
    assert code == 0, err
    with open(runs_csv) as f:
        rows = list(csv.DictReader(f))
    record = nqueens.batch(8, "hc-sideways", runs=2000, seed=9)
    for solved, field in (("1", "steps_success"), ("0", "steps_failure")):
        steps = np.array([int(r["steps"]) for r in rows if r["solved"] == solved])
        spread = record[field]
        assert spread["min"] == steps.min() and spread["max"] == steps.max()
        for name, q in (("p25", 0.25), ("p50", 0.5), ("p75", 0.75), ("p90", 0.9)):
            assert math.isclose(spread[name], np.quantile(steps, q)), (field, name)
        median = record["median_steps_success" if solved == "1" else "median_steps_failure"]
        assert spread["p50"] == median
    none_failed = nqueens.batch(8, "hc-restart", runs=20)
    assert none_failed["solved"] == 20 and none_failed["steps_failure"] is None


def test_verify_of_a_path_named_dash_reads_that_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "-").write_text("2 4 1 3\n")
    record = nqueens.verify("-")
    assert record["n"] == 4 and record["valid"] is True


def test_numpy_numbers_are_numbers():
    # numpy 2 writes repr(np.float64(0.06)) as "np.float64(0.06)": the value is what counts.
    plain = nqueens.batch(8, "hc-random-p", runs=50, p=0.06, q=2)
    given = nqueens.batch(np.int64(8), "hc-random-p", runs=np.int32(50), p=np.float64(0.06),
                          q=np.int64(2))
    assert given["solved"] == plain["solved"] and given["parameters"] == plain["parameters"]
    points = nqueens.sweep(8, "hc-random-p", 20, {"p": (np.float64(0.05), np.float64(0.1),
                                                        np.float64(0.05))})
    assert [point["parameters"]["p"] for point in points] == [0.05, 0.1]


@pytest.mark.parametrize("call", [
    lambda: nqueens.solve(8, threads=-1), lambda: nqueens.solve(8, "hc", algo_unknown=1),
    lambda: nqueens.solve(8, algo=5), lambda: nqueens.solve(8, device=None),
    lambda: nqueens.solve(8, "sa", start=[2**32] * 8), lambda: nqueens.batch(8, None),
    lambda: nqueens.count(8.5), lambda: nqueens.count(2**70), lambda: nqueens.count(True),
    lambda: nqueens.count(8, threads=-1), lambda: nqueens.count(8, devices=[0.5]),
    lambda: nqueens.count(8, devices=5), lambda: nqueens.bench(workloads=5),
    lambda: nqueens.batch(8, "hc", t0=np.bool_(True)), lambda: nqueens.batch(8, "sa", t0=1j),
], ids=lambda f: "")
def test_bad_arguments_say_so_in_python_terms(call):
    with pytest.raises((TypeError, ValueError)) as raised:
        call()
    message = str(raised.value)
    for word in ("incompatible function arguments", "handle", "List[", "Optional[", "--"):
        assert word not in message, message


def test_the_same_values_of_other_types_are_the_same_settings():
    assert nqueens.count("8")["solutions"] == nqueens.count(8.0)["solutions"] == 92
    assert nqueens.count(8, devices=None, threads=2.0)["solutions"] == 92
    plain = nqueens.batch(8, "sa", runs=30, t0=3.5)
    assert nqueens.batch(8, "sa", runs=30, t0=np.float32(3.5))["solved"] == plain["solved"]
