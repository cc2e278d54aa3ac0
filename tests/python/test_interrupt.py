"""Ctrl-C during a long call raises KeyboardInterrupt soon, with the work stopped. Each case
runs in its own interpreter, which sends itself SIGINT while the call runs; the latency is
printed (the issue asks for 0.2 s; the bound here is loose, as the machine may be loaded)."""
import json
import subprocess
import sys

import pytest

from conftest import untimed

SCRIPT = r"""
import os, signal, sys, threading, time
import nqueens
sent = []
def interrupt():
    time.sleep(0.5)
    sent.append(time.monotonic())
    os.kill(os.getpid(), signal.SIGINT)
threading.Thread(target=interrupt, daemon=True).start()
start = time.monotonic()
try:
    CALL
    print("finished", time.monotonic() - start)
except KeyboardInterrupt:
    print("interrupted", time.monotonic() - sent[0])
"""

CALLS = {
    "solve": "nqueens.solve(2000, 'sa', max_steps=10**12)",
    "batch": "nqueens.batch(8, 'hc-sideways', runs=10**10, device='cpu')",
    "count": "nqueens.count(21, threads=1, device='cpu')",
    "solutions": "list(nqueens.solutions(60))",
}


@pytest.mark.parametrize("name", CALLS)
def test_keyboard_interrupt(name):
    done = subprocess.run([sys.executable, "-c", SCRIPT.replace("CALL", CALLS[name])],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    outcome, seconds = done.stdout.split()
    print(f"{name}: KeyboardInterrupt {float(seconds):.3f} s after SIGINT")
    assert outcome == "interrupted"
    assert float(seconds) < 5.0


KEPT = SCRIPT.replace("except KeyboardInterrupt:\n", "except KeyboardInterrupt as stop:\n    import json\n    print(json.dumps(stop.result.to_dict()))\n")


def interrupted_result(call):
    """What `call` attached to its KeyboardInterrupt, SIGINT sent 0.5 s into it."""
    done = subprocess.run([sys.executable, "-c", KEPT.replace("CALL", call)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[0])


def test_an_interrupted_batch_hands_back_the_runs_that_finished():
    finished = interrupted_result(
        "nqueens.batch(8, 'hc-sideways', runs=10**10, seed=5, device='cpu', threads=2)")
    assert finished["interrupted"] is True and finished["runs_requested"] == 10**10
    assert 0 < finished["runs"] < 10**10
    # Runs 0..k-1 of the interrupted batch are the batch of k runs.
    import nqueens
    whole = nqueens.batch(8, "hc-sideways", runs=finished["runs"], seed=5, device="cpu",
                          threads=2)
    for name in ("interrupted", "runs_requested"):
        del finished[name]
    assert untimed(finished) == untimed(whole)


def test_an_interrupted_count_hands_back_what_it_counted():
    counted = interrupted_result("nqueens.count(21, threads=1, device='cpu')")
    assert counted["complete"] is False and counted["n"] == 21
    assert 0 <= counted["solutions"] < 314666222712
