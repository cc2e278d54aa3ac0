"""N-Queens solvers, counters and statistics: the ``nqueens`` command's work as functions.

Each function builds the engine's request from its keywords, checked by the rules and messages
of the command line (a keyword where the command has an option: ``max_steps`` for
``--max-steps``): ``ValueError`` for a value the command refuses with exit code 2,
``MemoryError`` where it would exit 3 for memory, ``DeviceError`` where ``device="gpu"`` finds
no usable GPU, ``TypeError`` for a value of the wrong kind. Long calls release the GIL, and
Ctrl-C raises ``KeyboardInterrupt`` soon (batch and sweep attach what finished as its
``result``). Every run is reproducible from its seed.
"""
from __future__ import annotations

import inspect
from typing import Any, Callable, Iterator, TypeVar

from . import _native
from ._native import DeviceError, __version__
from ._results import Record, SolveResult

__all__ = ["DeviceError", "Record", "SolveResult", "__version__", "algorithms", "batch", "bench",
           "count", "solutions", "solve", "sweep", "verify"]

# The algorithms' settings, from the engine's table: (keyword, --help text, kind).
_SETTINGS: list[tuple[str, str, str]] = [tuple(s) for s in _native.settings()]  # type: ignore[misc]
_ANNOTATION = {"switch": "bool | None", "word": "str | None", "number": "float | None"}

_SOLVE_OWN = [
    ("chains", "local search: run this many chains at once and keep the best", "number"),
    ("chain", "local search: run this chain alone (its replay)", "number"),
    ("memory_limit", "refuse boards needing more memory than this, e.g. \"8G\"", "word"),
    ("max_memory", "bfs: the frontier's bound, e.g. \"512M\" (default 1G)", "word"),
    ("randomize", "backtrack, backtrack-opt, dfs: shuffle each node's rows", "switch"),
]
_BATCH_OWN = [
    ("threads", "worker threads (default: every core); the statistics do not depend on them",
     "number"),
    ("max_steps", "per run: give up after this many steps (default: the algorithm's)", "number"),
    ("time_limit", "per run: give up after this many seconds", "number"),
]

_F = TypeVar("_F", bound=Callable[..., Any])


def _with_settings(own: list[tuple[str, str, str]]) -> Callable[[_F], _F]:
    """Gives a function taking **settings a keyword-only parameter (None by default: the
    command's default) for each of `own` and each algorithm setting, in its signature and its
    docstring (the command's --help text)."""

    def give(function: _F) -> _F:
        keywords = own + _SETTINGS
        signature = inspect.signature(function)
        head = [p for p in signature.parameters.values() if p.kind is not p.VAR_KEYWORD]
        tail = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None,
                                  annotation=_ANNOTATION[kind]) for name, _, kind in keywords]
        function.__signature__ = signature.replace(parameters=head + tail)  # type: ignore[attr-defined]
        lines = "\n".join(f"    {name}: {text}" for name, text, _ in keywords)
        function.__doc__ = (f"{function.__doc__}\n\n    Keyword settings (None: the command's "
                            f"default; an algorithm refuses those it does not read):\n\n{lines}\n")
        function._keywords = frozenset(name for name, _, _ in keywords)  # type: ignore[attr-defined]
        return function

    return give


def _given(function: Callable[..., Any], settings: dict[str, Any]) -> dict[str, Any]:
    """The settings given (not None), a keyword the function does not have being a TypeError
    as Python's own."""
    known: frozenset[str] = function._keywords  # type: ignore[attr-defined]
    for name in settings:
        if name not in known:
            raise TypeError(f"{function.__name__}() got an unexpected keyword argument '{name}'")
    return {name: value for name, value in settings.items() if value is not None}


def _start(start: Any) -> list[int] | None:
    """A start board as a list of rows; a row below 0 is a ValueError here (the engine checks
    the rest: the length, rows past n)."""
    if start is None:
        return None
    if isinstance(start, (str, bytes, dict, set)) or not hasattr(start, "__len__"):
        raise TypeError(f"start takes a board (a sequence or an array of rows), not "
                        f"{type(start).__name__}")
    rows = []
    for col, row in enumerate(start):
        if isinstance(row, bool) or not hasattr(row, "__index__"):
            raise TypeError(f"start must hold integers, not {type(row).__name__}")
        if not 0 <= int(row) < 2**32:
            raise ValueError(f"the start board's column {col} has row {int(row)}, outside "
                             "0..n-1 (rows are 0-based)")
        rows.append(int(row))
    return rows


@_with_settings(_SOLVE_OWN)
def solve(n: int | float | str, algo: str | None = None, seed: int = 1, threads: int = 0,
          device: str = "auto", max_steps: int | None = None, time_limit: float | None = None,
          trace: bool = False, *, start: Any = None,
          progress: Callable[[dict[str, Any]], Any] | None = None,
          **settings: Any) -> SolveResult:
    """Solve one board of n queens, as ``nqueens solve``: a SolveResult.

    algo: None for the command's default (lattice on every core from 2^20 queens, min-conflicts
    below), or a name from algorithms(). seed: every run is reproducible from it. threads:
    parallel and lattice (0: every core). device: "cpu", "gpu" or "auto". max_steps,
    time_limit: give up after so many steps or seconds. trace: a row per step of a local
    search (SolveResult.trace). start: a board (n rows, 0-based) one chain of a local search
    starts from instead of a random one. progress: called on this thread with a dict
    (fraction, steps, restarts, seconds), a few times a second by min-conflicts, parallel and
    lattice and once at the end by every algorithm; an exception it raises stops the solve and
    propagates."""
    report = _native.solve(n, algo, seed, threads, device, max_steps, time_limit, trace,
                           _start(start), progress, **_given(solve, settings))
    return SolveResult(**report)


def _keep_finished(call: Callable[[], Any], wrap: Callable[[Any], Any]) -> Any:
    """call(), its interrupted result (a KeyboardInterrupt's `result`) wrapped too."""
    try:
        return wrap(call())
    except KeyboardInterrupt as stop:
        if getattr(stop, "result", None) is not None:
            stop.result = wrap(stop.result)  # type: ignore[attr-defined]
        raise


@_with_settings(_BATCH_OWN)
def batch(n: int | float | str, algo: str, runs: int | float | str = 1000, seed: int = 1,
          device: str = "auto", *, progress: Callable[[dict[str, Any]], Any] | None = None,
          **settings: Any) -> Record:
    """Many independent runs of one local search (run i from stream (seed, i)) and their
    statistics: the record of ``nqueens batch -f json``, with the success rate and its 95%
    interval, and the steps of the solved and the failed runs (mean, median, and
    steps_success / steps_failure: min, p25, p50, p75, p90, max). progress: called a few times a
    second, and once at the end, with {done, runs, seconds}. Ctrl-C stops it; the KeyboardInterrupt's ``result`` is
    the record of the runs that finished (runs 0..k-1, "interrupted": true)."""
    given = _given(batch, settings)
    return _keep_finished(lambda: _native.batch(n, algo, runs, seed, device, progress, **given),
                          Record)  # type: ignore[no-any-return]


@_with_settings(_BATCH_OWN)
def sweep(n: int | float | str, algo: str, runs: int | float | str, grid: str | dict[str, Any],
          seed: int = 1, device: str = "auto", *,
          progress: Callable[[dict[str, Any]], Any] | None = None,
          **settings: Any) -> list[Record]:
    """A batch per point of grid: a string as ``--sweep`` writes it ("p=0.05:0.3:0.05,q=1:4")
    or a dict of name: value, "first:last[:step]" or (first, last[, step]). A list of batch
    records, in grid order. progress: as batch's, for the point running. Ctrl-C: the
    KeyboardInterrupt's ``result`` holds the points that finished."""
    given = _given(sweep, settings)
    return _keep_finished(  # type: ignore[no-any-return]
        lambda: _native.sweep(n, algo, runs, grid, seed, device, progress, **given),
        lambda records: [Record(r) for r in records])


def count(n: int, threads: int = 0, device: str = "auto",
          devices: list[int] | None = None, checkpoint: Any = None,
          checkpoint_interval: float = 10.0, simd: str = "auto", *,
          progress: Callable[[dict[str, Any]], Any] | None = None) -> Record:
    """Count every solution of n queens (1 to 28) and the fundamental ones (``unique``: those
    distinct under the board's 8 symmetries): the record of ``nqueens count -f json`` plus
    ``complete``. threads: 0 for every core. device:
    "cpu", "gpu", "all" or "auto"; devices: GPU numbers. checkpoint: a path (str, bytes or
    os.PathLike) to resume from and record to, every checkpoint_interval seconds. simd:
    "auto", "off", "avx2" or "avx512". progress: called a few times a second, and once at the
    end, with {done, total, resumed, solutions, seconds}. Ctrl-C stops it; the
    KeyboardInterrupt's ``result`` is the record so far ("complete": false; the checkpoint, if
    any, holds it too)."""
    return _keep_finished(  # type: ignore[no-any-return]
        lambda: _native.count(n, True, threads, device, devices, checkpoint,
                              checkpoint_interval, simd, progress), Record)


def verify(rows: Any) -> Record:
    """Attacking pairs and the first clash of a board (a sequence or an array of 0-based
    rows; uint32 arrays are read in place), or of a board file (a path: text, npy or raw),
    as ``nqueens verify --json``: {n, valid, conflicts, first_clash}."""
    return Record(_native.verify(rows))


def solutions(n: int | float | str, limit: int | None = None) -> Iterator[Any]:
    """Every solution of n queens (or the first `limit`) in lexicographic order, lazily, as
    uint32 arrays of 0-based rows."""
    return _native.solutions(n, limit)  # type: ignore[no-any-return]


def algorithms() -> list[Record]:
    """The algorithms solve() takes, as ``nqueens algorithms --format json``: name, summary
    and what a step is."""
    return [Record(a) for a in _native.algorithms()]


def bench(*, quick: bool = False, suite: str | None = None,
          workloads: list[str] | str | None = None,
          device: str = "all", time_budget: float = 0.0, threads: int = 0) -> Record:
    """Time the benchmark suite as ``nqueens bench -f json`` does and return its record
    (schema in docs/bench.md): quick (each workload once, small), suite ("standard" or
    "full"), workloads (names from the suite), device ("cpu", "gpu" or "all"), time_budget
    (seconds for the whole run; 0: the suite's), threads (the all-cores figures'; 0: every
    core)."""
    return Record(_native.bench(quick, suite, workloads, device, time_budget, threads))
