"""A search backend for the tests only: it finds one answer's worth of figures and then never
looks at its deadline, as a library call that overruns its time limit does (CP-SAT building
its model, a portfolio waiting for its members). The run's alarm has to stop it; registered
by the tests with one line of ``dlxsat.solvers.SOLVERS`` (``"late": "late_solver"``)."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from dlxsat.result import SearchResult
from dlxsat.solvers import Request, SolverSpec
from dlxsat.xcc import Problem

SPEC = SolverSpec(name="late", kind="search", summary="test only: ignores its deadline")


def solve(problem: Problem, request: Request, options: Mapping[str, Any]) -> SearchResult:
    """Report one answer found, then wait far past the deadline (a minute at most)."""
    request.found(1)
    until = time.monotonic() + 60
    while time.monotonic() < until:
        time.sleep(0.01)
    return SearchResult(count=1, timed_out=True)
