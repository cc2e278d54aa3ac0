"""Bad arguments: ValueError or TypeError with the CLI's own message; refusals of resources
MemoryError or nqueens.DeviceError, as the CLI's exit 3."""
import re

import numpy as np
import pytest

import nqueens
from conftest import cli_error, run_cli


@pytest.mark.parametrize("call,cli", [
    (lambda: nqueens.solve(0), ["solve", "-n", "0"]),
    (lambda: nqueens.solve("lots"), ["solve", "-n", "lots"]),
    (lambda: nqueens.solve(8, "nope"), ["solve", "-n", "8", "--algo", "nope"]),
    (lambda: nqueens.solve(8, "hc", p=0.3), ["solve", "-n", "8", "--algo", "hc", "--p", "0.3"]),
    (lambda: nqueens.solve(8, "sa", cooling=2), ["solve", "-n", "8", "--algo", "sa",
                                                  "--cooling", "2"]),
    (lambda: nqueens.solve(8, "backtrack", threads=2), ["solve", "-n", "8", "--algo",
                                                        "backtrack", "--threads", "2"]),
    (lambda: nqueens.solve(8, "min-conflicts", trace=True),
     ["solve", "-n", "8", "--trace", "never-written.csv"]),
    (lambda: nqueens.solve(8, "sa", max_steps=0), ["solve", "-n", "8", "--algo", "sa",
                                                   "--max-steps", "0"]),
    (lambda: nqueens.batch(8, "backtrack"), ["batch", "-n", "8", "--algo", "backtrack"]),
    (lambda: nqueens.batch(8, "hc", runs=0), ["batch", "-n", "8", "--algo", "hc", "--runs", "0"]),
    (lambda: nqueens.sweep(8, "hc-random-p", 10, "p=0.3:0.1"),
     ["batch", "-n", "8", "--algo", "hc-random-p", "--runs", "10", "--sweep", "p=0.3:0.1"]),
    (lambda: nqueens.count(33), ["count", "-n", "33"]),
    (lambda: nqueens.count(8, device="tpu"), ["count", "-n", "8", "--device", "tpu"]),
    (lambda: list(nqueens.solutions(5001)), ["solutions", "-n", "5001"]),
], ids=lambda v: " ".join(v) if isinstance(v, list) else "")
def test_value_errors_carry_the_cli_message(call, cli):
    code, message = cli_error(*cli)
    assert code == 2
    with pytest.raises(ValueError) as raised:
        call()
    # Each option as Python spells it: max_steps where the command line says --max-steps, n
    # for -n, algo='parallel' for --algo parallel.
    assert str(raised.value) == keywords_of(message)
    assert not re.search(r"(^|[ (])--?[a-z]", str(raised.value)), str(raised.value)


def keywords_of(message):
    """The CLI's message with its options named as the package's keywords."""
    message = re.sub(r"(^|[ (])-n ", r"\1n ", message)

    def keyword(match):
        name = match.group(2).replace("-", "_")
        name = {"queens": "n", "sweep": "grid"}.get(name, name)
        value = match.group(3)
        if value and name in ("algo", "device", "variant", "encoding") and value.strip() not in (
                "is does must applies takes needs and or only to with of for given not "
                "runs".split()):
            return f"{match.group(1)}{name}='{value.strip()}'"
        return f"{match.group(1)}{name}{value or ''}"

    return re.sub(r"(^|[ (])--([a-z0-9][a-z0-9-]*)( [a-z0-9-]+)?", keyword, message)


@pytest.mark.parametrize("call,message", [
    (lambda k: nqueens.count(10, checkpoint=""), "checkpoint needs a file name"),
    (lambda k: nqueens.count(10, checkpoint=k, checkpoint_interval=-1),
     "checkpoint_interval must be a positive number of seconds, got '-1'"),
    (lambda k: nqueens.count(10, checkpoint=k, checkpoint_interval=0),
     "checkpoint_interval must be a positive number of seconds, got '0'"),
    (lambda k: nqueens.count(10, checkpoint=k, checkpoint_interval=float("nan")),
     "checkpoint_interval must be a positive number of seconds, got 'nan'"),
    (lambda k: nqueens.count(10, checkpoint=k, checkpoint_interval=float("inf")),
     "checkpoint_interval must be a positive number of seconds, got 'inf'"),
    (lambda k: nqueens.count(10, threads=5000), "threads must be at most 1024, got 5000"),
    (lambda k: nqueens.bench(time_budget=float("nan")),
     "time_budget must be a positive number of seconds, got 'nan'"),
    (lambda k: nqueens.solve(8, "sa", time_limit=float("inf")),
     "time_limit must be a positive number of seconds, got 'inf'"),
])
def test_python_refuses_what_the_command_line_refuses_and_names_its_keyword(tmp_path, call,
                                                                           message):
    """One validation for both faces (issue 42): a checkpoint that would never be written, or
    a budget that is no number, is refused before any work, the setting named as a keyword."""
    checkpoint = tmp_path / "k.json"
    with pytest.raises(ValueError) as raised:
        call(str(checkpoint))
    assert str(raised.value) == message
    assert not checkpoint.exists()


def test_switches_and_boards_of_the_wrong_type_are_type_errors():
    for bad in (None, 5, 2.5):
        with pytest.raises(TypeError, match=r"verify\(\) takes a board .* or a path, not"):
            nqueens.verify(bad)
    with pytest.raises(TypeError, match="'trace' is a switch: True or False"):
        nqueens.solve(8, "hc", trace=2)
    with pytest.raises(TypeError, match="'quick' is a switch"):
        nqueens.bench(quick=2)
    assert nqueens.solve(8, "hc", trace=1, max_steps=3).trace is not None


def test_type_errors():
    with pytest.raises(TypeError, match="unexpected keyword argument 'format'"):
        nqueens.solve(8, format="json")
    with pytest.raises(TypeError, match="unexpected keyword argument 'output'"):
        nqueens.batch(8, "hc", output="x")
    # A misspelt setting is no keyword of the function (the CLI says "unrecognised option").
    with pytest.raises(TypeError, match="unexpected keyword argument 'colling'"):
        nqueens.solve(8, "sa", colling=0.9)
    with pytest.raises(TypeError, match="'cooling' takes a number or a string"):
        nqueens.solve(8, "sa", cooling=[0.9])
    with pytest.raises(TypeError, match="'p' takes a number or a string, not a bool"):
        nqueens.solve(8, "hc-random-p", p=True)
    with pytest.raises(TypeError, match="'max_steps' takes a number or a string, not a bool"):
        nqueens.solve(8, "sa", max_steps=True)
    with pytest.raises(TypeError, match=r"'reject_equal' is a switch: True or False \(or 1 or 0\)"):
        nqueens.solve(8, "sa", reject_equal=0.0)
    with pytest.raises(TypeError, match="'stochastic' is a switch"):
        nqueens.batch(8, "beam", runs=2, stochastic=2)
    with pytest.raises(TypeError, match="rows must hold integers"):
        nqueens.verify(np.array([0.5, 1.5]))


def test_checkpoint_paths_and_grid_names_are_typed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(TypeError, match=r"count\(\) checkpoint takes a path .*, not int"):
        nqueens.count(8, checkpoint=5)
    assert not (tmp_path / "5").exists()
    record = nqueens.count(8, checkpoint=tmp_path / "ck.json")
    assert record["solutions"] == 92 and (tmp_path / "ck.json").exists()
    with pytest.raises(TypeError, match=r"grid keys are parameter names \(str\), not int"):
        nqueens.sweep(8, "hc-random-p", 10, {5: (1, 2)})


def test_batch_without_solutions():
    with pytest.raises(ValueError, match="no solution exists for n=3; no runs made"):
        nqueens.batch(3, "hc")


def test_memory_refusal_is_memory_error():
    # The module's default is the command's: lattice from 2^20 queens, min-conflicts below.
    for algo in (None, "min-conflicts"):
        options = ["--algo", algo] if algo else []
        code, message = cli_error("solve", "-n", "1e9", *options, "--memory-limit", "1M")
        assert code == 3
        with pytest.raises(MemoryError) as raised:
            nqueens.solve(10**9, algo=algo, memory_limit="1M")
        assert str(raised.value) == keywords_of(message)


def test_no_gpu_is_device_error():
    code, _, _ = run_cli("batch", "-n", "8", "--algo", "hc", "--runs", "10", "--device", "gpu",
                         "-f", "json")
    if code == 0:
        pytest.skip("a GPU is present")
    _, message = cli_error("batch", "-n", "8", "--algo", "hc", "--runs", "10", "--device", "gpu")
    with pytest.raises(nqueens.DeviceError) as raised:
        nqueens.batch(8, "hc", runs=10, device="gpu")
    assert str(raised.value) == message
    with pytest.raises(nqueens.DeviceError):
        nqueens.count(10, device="gpu")
