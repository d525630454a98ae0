"""Backends: solvers of an exact-cover :class:`~dlxsat.xcc.Problem`, knowing nothing of puzzles.

Every search backend is a module exporting ``SPEC`` (a :class:`~dlxsat.solvers.SolverSpec`)
and ``solve(problem, request, options) -> SearchResult``; the arguments are described once, in
:mod:`dlxsat.solvers`. A backend trusts them: the request and the options were checked by the
caller against its ``SPEC``. The ``logic`` solver is different: it reasons on the puzzle itself
(see ``dlxsat.reasoning``).
"""

from __future__ import annotations

from ..result import SearchResult
from ..solvers import MAX_COUNT, Request, SolverSpec

__all__ = ["MAX_COUNT", "Request", "SearchResult", "SolverSpec"]
