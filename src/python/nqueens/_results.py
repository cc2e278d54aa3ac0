"""What the package's functions return: SolveResult for solve(), Record (a dict) for the rest."""
from __future__ import annotations

import dataclasses
import json
import math
from typing import Any


class Record(dict):  # type: ignore[type-arg]
    """A record of the command's JSON (``nqueens batch -f json`` and the like) as a dict:
    indexed by field name, picklable, and ``to_dict()`` gives a plain dict that ``json.dumps``
    writes as the command would."""

    def to_dict(self) -> dict[str, Any]:
        """A plain dict (a deep copy), JSON-safe."""
        copy: dict[str, Any] = json.loads(json.dumps(self))
        return copy

    def __repr__(self) -> str:
        return f"nqueens.Record({dict.__repr__(self)})"


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class SolveResult:
    """What solve() found, and how: the board (``rows``, 0-based, a uint32 numpy array) and the
    fields of ``nqueens solve -f json``."""

    n: int
    """the board's size, as asked"""
    algorithm: str
    """the algorithm that ran (None asked for the command's default, resolved here)"""
    seed: int
    rows: Any
    """the row of each column's queen, 0-based: a uint32 numpy array (array.array('I') in an
    interpreter without numpy); empty where no board was made (n = 2 or 3)"""
    solved: bool
    conflicts: int | None
    """attacking pairs left; None where they were not counted (as JSON's null)"""
    unplaced: int
    """parallel: queens a stop left out"""
    steps: int
    restarts: int
    seconds: float
    device: str
    """where it ran: cpu or gpu"""
    stop_reason: str
    """why an unsolved run stopped ("" when solved, or when no board exists)"""
    trace: Any = None
    """with trace=True: a numpy structured array, a row per step (step, restarts, cost,
    temperature, best_fitness, mean_fitness; NaN in a column the algorithm does not have)"""

    def __repr__(self) -> str:
        if self.solved:
            outcome = "solved"
        elif self.n in (2, 3):
            outcome = "no solution exists"
        else:
            outcome = "unsolved"
        conflicts = "" if self.solved or self.conflicts is None else f" conflicts={self.conflicts}"
        return (f"<nqueens.SolveResult n={self.n} algorithm={self.algorithm} {outcome}"
                f"{conflicts} steps={self.steps} seconds={self.seconds:.3g} device={self.device}>")

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON-safe values: rows a list of ints, the trace a list of dicts with
        None where a column does not apply."""
        out: dict[str, Any] = {}
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if field.name == "rows":
                value = value.tolist()  # numpy's or array.array's: a list of ints
            elif field.name == "trace" and value is not None:
                names = value.dtype.names
                value = [{name: _json_number(row[name]) for name in names} for row in value]
            out[field.name] = value
        return out


def _json_number(value: Any) -> int | float | None:
    """A numpy scalar as a JSON-safe Python number: NaN as None."""
    number = value.item()
    if isinstance(number, float) and math.isnan(number):
        return None
    return number  # type: ignore[no-any-return]
