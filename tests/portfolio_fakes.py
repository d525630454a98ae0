"""A search backend that misbehaves on purpose, as a portfolio member in the tests.

Tests register it in the solver registry (``SOLVERS["fake"] = "portfolio_fakes"``); the
portfolio's spawned workers import it by that module path, and find it because ``spawn`` hands
the parent's ``sys.path`` (which holds ``tests/``) on to them. ``act`` says how it misbehaves:

``sleep``      never answers (ignores the time limit): a member forced to be slow;
``stubborn``   like ``sleep`` but ignores SIGTERM too, so only SIGKILL stops it;
``miscount``   the SAT backend's answer with one solution dropped from the count and the list;
``twice``      the SAT backend's answer with its first solution listed (and counted) twice;
``nonsolution`` claims option 0 alone is the only solution;
``crash``      raises an exception; ``exit`` ends its process without a report;
``timeout``    reports a timed-out search with no solutions; ``right`` is the SAT backend,
``late`` the same a second later.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from dlxsat.backends import cnf
from dlxsat.options import Option
from dlxsat.result import SearchResult
from dlxsat.solvers import Request, SolverSpec

ACTS = (
    "sleep",
    "stubborn",
    "miscount",
    "twice",
    "nonsolution",
    "crash",
    "exit",
    "timeout",
    "right",
    "late",
)
OPTIONS = (Option("act", str, "sleep", "how to misbehave", ACTS),)
SPEC = SolverSpec(
    name="fake",
    kind="search",
    summary="a misbehaving backend for the portfolio's tests",
    options=OPTIONS,
)


def solve(problem: Any, request: Request, options: Mapping[str, Any]) -> SearchResult:
    act = options.get("act", "sleep")
    if act in ("sleep", "stubborn"):
        if act == "stubborn":
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
        time.sleep(600)
    if act == "crash":
        raise ZeroDivisionError("fake member crashed")
    if act == "exit":
        os._exit(7)
    if act == "timeout":
        return SearchResult(count=0, timed_out=True)
    if act == "nonsolution":
        return SearchResult([[0]], 1, exhausted=True)
    if act == "late":
        time.sleep(1)
    right = cnf.solve(problem, replace(request, limit=None, keep=None), {})
    if act == "miscount":
        return SearchResult(right.solutions[1:], right.count - 1, exhausted=True)
    if act == "twice":
        return SearchResult([*right.solutions, right.solutions[0]], right.count + 1, exhausted=True)
    return right
