"""Ctrl-C during a long call raises KeyboardInterrupt soon, with the work stopped. Each case
runs in its own interpreter, which sends itself SIGINT while the call runs; the latency is
printed (the issue asks for 0.2 s; the bound here is loose, as the machine may be loaded)."""
import subprocess
import sys

import pytest

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
