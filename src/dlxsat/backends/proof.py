"""DRAT proofs of unsatisfiability from a fresh CaDiCaL 1.9.5 (PySAT's ``cadical195``): what
``solve --certify`` writes (:mod:`dlxsat.certify`) and the sat backend's ``proof`` option
measures.

One non-incremental call on the whole formula: a proof across incremental calls can fail to
check once CaDiCaL's inprocessing has deleted a clause that it later brings back (issue 33's
notes: 11 of 35 incremental enumerations so). PySAT returns the proof as text lines
(``python-sat >= 1.9.dev16``: earlier versions lost its last line).
"""

from __future__ import annotations

import time

from ..errors import SolverFailure
from ..runtime.deadline import Deadline

#: The solver that writes the proof (PySAT's name).
PROOF_SOLVER = "cadical195"
#: A proof solve runs in conflict budgets, the clock read between them (CaDiCaL in PySAT
#: cannot be interrupted), as the sat backend's budgeted calls do.
_FIRST_BUDGET, _MAX_BUDGET, _SLICE = 2000, 1 << 20, 0.05


def prove(clauses: list[list[int]], deadline: Deadline | None = None) -> list[str] | None:
    """The DRAT proof (text lines) of a fresh :data:`PROOF_SOLVER` that ``clauses`` have no
    model, or None when ``deadline`` came first; a :class:`~dlxsat.errors.SolverFailure` if
    they have a model.

    >>> "0" in prove([[1, 2], [-1, 2], [1, -2], [-1, -2]])
    True
    """
    from pysat.solvers import Solver

    solver = Solver(name=PROOF_SOLVER, bootstrap_with=clauses, with_proof=True)
    try:
        budget = _FIRST_BUDGET
        while True:
            if deadline is not None and deadline.expired():
                return None
            solver.conf_budget(budget)
            t0 = time.perf_counter()
            result = solver.solve_limited()
            if result is not None:
                break
            if time.perf_counter() - t0 < _SLICE:
                budget = min(2 * budget, _MAX_BUDGET)
        if result:
            raise SolverFailure("the formula to refute has a model after all")
        lines: list[str] = solver.get_proof()
        return lines
    finally:
        solver.delete()
