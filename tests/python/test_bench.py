"""bench(): the record nqueens bench -f json writes, as a dict (figures measured afresh)."""
import math

import pytest

import nqueens
from conftest import cli_json


def shape(record):
    """What two runs of the same benchmark share: every field but the measured and the dated."""
    measured = {"work", "median", "min", "max", "spread", "seconds_median", "per_core"}
    return {
        "keys": list(record),
        # The clock is read as each run starts: the rest of the machine is the same.
        "machine": {k: v for k, v in record["machine"].items() if k != "cpu_mhz"},
        # The commit is each binary's at its build (a module built before the last commit and a
        # command after it differ); the rest of the build is the same.
        "build": {k: v for k, v in record["build"].items() if k != "git_sha"},
        "figures": [{k: v for k, v in f.items() if k not in measured} for f in record["figures"]],
    }


def test_bench_returns_the_commands_record():
    record = nqueens.bench(quick=True, workloads=["batch-hc", "count-12"], device="cpu")
    cli = cli_json("bench", "--quick", "--workloads", "batch-hc,count-12", "--device", "cpu",
                   "-f", "json", "-q")
    assert shape(record) == shape(cli)
    assert record["command"] == "nqueens.bench()"
    assert [(f["workload"], f["on"]) for f in record["figures"]] == [
        ("batch-hc", "one-core"), ("batch-hc", "all-cores"),
        ("count-12", "one-core"), ("count-12", "all-cores")]
    for f in record["figures"]:
        assert f["ran"] and math.isfinite(f["median"]) and f["median"] > 0
    assert record["figures"][2]["work"] == 14200  # count-12's solutions


@pytest.mark.parametrize("settings,message", [
    ({"suite": "huge"}, "unknown suite 'huge'"),
    ({"quick": True, "workloads": ["count-99"]}, "unknown workload 'count-99'"),
    ({"device": "auto"}, "device must be cpu, gpu or all, got 'auto'"),
    ({"time_budget": float("nan")}, "time_budget must be a positive number of seconds, got 'nan'"),
    ({"time_budget": -1}, "time_budget must be a positive number of seconds, got '-1'"),
    ({"quick": True, "workloads": []}, "workloads is empty"),
])
def test_bench_refuses_what_the_command_refuses(settings, message):
    with pytest.raises(ValueError, match=message):
        nqueens.bench(**settings)


def test_bench_takes_keywords_only():
    with pytest.raises(TypeError):
        nqueens.bench(True)  # pylint: disable=too-many-function-args
