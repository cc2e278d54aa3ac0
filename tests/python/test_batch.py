"""batch() and sweep(): the CLI's JSON records, field for field (timings aside)."""
import pytest

import nqueens
from conftest import cli_json, run_cli, untimed


@pytest.mark.parametrize("n,algo,settings,options", [
    (8, "hc", {}, []),
    (8, "sa", {"cooling": 0.9, "accept_equal": True}, ["--cooling", "0.9", "--accept-equal"]),
    (10, "hc-memory", {"q": 3, "max_steps": 300}, ["--q", "3", "--max-steps", "300"]),
    (8, "ga", {"preset": "report", "generations": 50}, ["--preset", "report",
                                                        "--generations", "50"]),
])
def test_batch_matches_cli(n, algo, settings, options):
    record = nqueens.batch(n, algo, runs=300, seed=5, device="cpu", **settings)
    cli = cli_json("batch", "-n", n, "--algo", algo, "--runs", 300, "--seed", 5, "--device", "cpu",
                   *options, "-f", "json", "-q")
    assert untimed(record) == untimed(cli)
    assert record.keys() == cli.keys()


def test_parameters_are_typed():
    """A word setting is its word, a switch a bool, a number a float."""
    sa = nqueens.batch(8, "sa", runs=5, device="cpu", reject_equal=True)["parameters"]
    assert sa["accept-equal"] is False and sa["cooling-per"] == "neighbour"
    assert isinstance(sa["cooling"], float)
    hc = nqueens.batch(8, "hc-sideways", runs=5, device="cpu", ties="last")["parameters"]
    assert (hc["ties"], hc["sideways-limit"], hc["plateau-jump"]) == ("last", "consecutive", False)


def test_sweep_matches_cli():
    grid = {"p": (0.1, 0.3, 0.1), "q": (1, 2)}
    rows = nqueens.sweep(8, "hc-random-p", 200, grid, seed=3, device="cpu", max_steps=200)
    cli = cli_json("batch", "-n", 8, "--algo", "hc-random-p", "--runs", 200, "--seed", 3,
                   "--device", "cpu", "--max-steps", 200, "--sweep", "p=0.1:0.3:0.1,q=1:2",
                   "-f", "json", "-q")
    assert len(rows) == len(cli) == 6
    assert [untimed(r) for r in rows] == [untimed(r) for r in cli]
    # The same grid written as --sweep writes it.
    text = nqueens.sweep(8, "hc-random-p", 200, "p=0.1:0.3:0.1,q=1:2", seed=3, device="cpu",
                         max_steps=200)
    assert [untimed(r) for r in text] == [untimed(r) for r in rows]


def test_every_setting_is_a_keyword_with_the_commands_help():
    """solve, batch and sweep name every setting the command line takes, keyword-only, and
    their docstrings carry each one's --help text."""
    import inspect
    code, usage, _ = run_cli("batch", "--help")
    assert code == 0
    flat_usage = " ".join(usage.split())
    for function in (nqueens.solve, nqueens.batch, nqueens.sweep):
        parameters = inspect.signature(function).parameters
        for name in ("sideways", "cooling", "t_min", "beam_width", "mutation_step", "stochastic",
                     "reject_equal", "ties", "preset", "generations", "variant"):
            assert parameters[name].kind is inspect.Parameter.KEYWORD_ONLY, name
            assert parameters[name].default is None, name
            assert f"    {name}: " in function.__doc__, name
    # The docstring's text is the command's: "cooling" as `nqueens batch --help` words it.
    line = next(l for l in nqueens.batch.__doc__.splitlines() if l.startswith("    cooling: "))
    assert line.split(": ", 1)[1][:60] in flat_usage
