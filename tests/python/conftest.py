"""Shared by the Python module's tests: the nqueens CLI (NQ_CLI) as the oracle."""
import json
import os
import subprocess

import pytest

CLI = os.environ.get("NQ_CLI", "nqueens")


def run_cli(*args, input=None):
    """The CLI's exit code, standard output and standard error."""
    done = subprocess.run([CLI, *map(str, args)], input=input, capture_output=True, text=True,
                          timeout=120)
    return done.returncode, done.stdout, done.stderr


def cli_json(*args):
    """The JSON the CLI prints for args (which must succeed)."""
    code, out, err = run_cli(*args)
    assert code in (0, 1), err
    return json.loads(out)


def cli_error(*args):
    """The exit code and one-line message of a CLI call that fails, without the "nqueens
    command: " prefix."""
    code, _, err = run_cli(*args)
    assert code >= 2, f"expected the CLI to refuse {args}"
    line = err.strip().splitlines()[-1]
    return code, line.split(": ", 1)[1]


def untimed(record):
    """A batch record without the fields that measure time (they differ from run to run)."""
    return {k: v for k, v in record.items() if "seconds" not in k and "per_second" not in k}


@pytest.fixture
def cli():
    return cli_json
