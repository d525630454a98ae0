"""The JSON objects of the command line's documented contract (README, *Commands*).

Scripts read these objects, so their keys and the order of the keys are part of the contract;
every command's JSON is shaped here, from the library's results, and nowhere else.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from .answer import Answer
from .result import SearchResult
from .xcc import Problem

if TYPE_CHECKING:
    from .pipeline import Agreement, SolveReport


def line(data: Any) -> str:
    """One JSON value as one line of output.

    >>> line({"count": 1})
    '{"count": 1}\\n'
    """
    return json.dumps(data) + "\n"


def dlx_json(
    problem: Problem, result: SearchResult, checked: int, with_solutions: bool
) -> dict[str, Any]:
    """``dlx --json``: the count and the search's figures; ``complete`` is false when a time
    limit stopped the search or the checks; the solutions (their options' text, the ``checked``
    ones) with ``with_solutions`` (``--all``, ``--first``).

    >>> from dlxsat.xcc import parse
    >>> p = parse("a b\\na\\nb\\na b\\n")
    >>> r = SearchResult(solutions=[[2]], count=1, exhausted=True, stats={"nodes": 3})
    >>> dlx_json(p, r, 1, True)["solutions"]
    [['a b']]
    """
    st = result.stats
    data: dict[str, Any] = {
        "count": result.count,
        "complete": not result.timed_out and checked == len(result.solutions),
        "exhaustive": result.exhausted,
        "checked": checked,
        "nodes": st.get("nodes"),
        "updates": st.get("updates"),
        "seconds": round(st.get("seconds", 0.0), 6),
    }
    if with_solutions:
        data["solutions"] = [
            [problem.option_text(i) for i in c] for c in result.solutions[:checked]
        ]
    return data


def decode_json(
    family: str, answer: Answer | None, held: dict[str, str] | None = None
) -> dict[str, Any]:
    """``decode --json``: the model's answer, or none when the solver found no model; with
    the CNF given (``--cnf``), ``cnf_rules``: how it held each global rule (kind → mode).

    >>> decode_json("sudoku", None)
    {'family': 'sudoku', 'status': 'none', 'count': 0, 'solutions': []}
    >>> decode_json("masyu", None, {"loop": "eager"})["cnf_rules"]
    {'loop': 'eager'}
    """
    if answer is None:
        data: dict[str, Any] = {"family": family, "status": "none", "count": 0, "solutions": []}
    else:
        # The model holds one answer; whether the puzzle has others the solver did not say:
        # ``counted`` (dlxsat.STATUSES), counting the answers of this output.
        data = {"family": family, "status": "counted", "count": 1, "solutions": [answer]}
    if held is not None:
        data["cnf_rules"] = held
    return data


def solve_json(report: SolveReport, checks: list[Agreement] | None = None) -> dict[str, Any]:
    """``solve --json``: the report's object, with a reasoning solver's ``steps`` as data
    (strategy, cells, 1-based) when it gives them, and ``crosscheck`` when ``checks`` were
    asked for (``--crosscheck``; an empty list is still said).

    >>> from dlxsat.pipeline import SolveReport
    >>> r = SolveReport("sudoku", "dlx", "unique", 1, [{"grid": ["1"]}], 0.5, {"nodes": 2})
    >>> line(solve_json(r))
    '{"family": "sudoku", "backend": "dlx", "status": "unique", "count": 1, \
"solutions": [{"grid": ["1"]}], "seconds": 0.5, "stats": {"nodes": 2}}\\n'
    """
    data = report.to_json()
    data["stats"] = dict(data["stats"])
    steps = data["stats"].pop("steps", None)
    if steps or report.steps:
        data["steps"] = steps if isinstance(steps, list) else report.steps
    if checks is not None:
        data["crosscheck"] = [c.to_json() for c in checks]
    return data


def batch_json(k: int, report: SolveReport) -> dict[str, Any]:
    """One line of ``solve --json`` on a file of many puzzles: the ``k``-th (1-based) report."""
    return {"record": k, **report.to_json()}
