"""DRAT proofs of unsatisfiability from CaDiCaL 1.9.5 (PySAT's ``cadical195``), in the
binary DRAT that CaDiCaL writes: what ``solve --certify`` writes (:mod:`dlxsat.certify`, from
the search's own solver) and the sat backend's ``proof`` option measures.

PySAT's ``get_proof`` decodes the proof into text lines (``python-sat >= 1.9.dev16``: earlier
versions lost its last line); :func:`proof_bytes` reads CaDiCaL's file as it is instead --
half the size, and no decoding, which took longer than the search on a 16 x 16 Sudoku.
A proof across incremental calls can fail to check with its deletions applied, once
CaDiCaL's inprocessing has deleted a clause that it later brings back (issue 33's notes: 11 of
35 incremental enumerations so, with variable elimination forced early): it is checked with
deletions ignored, which is sound (:func:`dlxsat.certify.check_proof`).
"""

from __future__ import annotations

import time
from typing import Any

from ..errors import SolverFailure
from ..runtime.deadline import Deadline

#: The solver that writes the proof (PySAT's name).
PROOF_SOLVER = "cadical195"
#: A proof solve runs in conflict budgets, the clock read between them (CaDiCaL in PySAT
#: cannot be interrupted), as the sat backend's budgeted calls do.
_FIRST_BUDGET, _MAX_BUDGET, _SLICE = 2000, 1 << 20, 0.05


def proof_bytes(solver: Any) -> bytes:
    """The binary DRAT proof that ``solver`` (a PySAT ``Solver`` of :data:`PROOF_SOLVER` made
    ``with_proof``) has written over all its calls so far, read from the temporary file
    CaDiCaL writes it to (PySAT's private attributes: its ``get_proof`` reads it so too).

    >>> from pysat.solvers import Solver
    >>> both = [[1, 2], [-1, 2], [1, -2], [-1, -2]]
    >>> s = Solver(PROOF_SOLVER, bootstrap_with=both, with_proof=True)
    >>> s.solve(), proof_bytes(s)[-2:]  # ('a', no literal, the end: the empty clause)
    (False, b'a\\x00')
    """
    from pysat.solvers import pysolvers  # (PySAT's C module)

    raw = getattr(solver, "solver", solver)  # (the Solver's own Cadical195)
    if getattr(raw, "prfile", None) is None:
        raise SolverFailure("this solver writes no proof")
    pysolvers.flushpr(raw.prfp)
    raw.prfile.seek(0)
    data: bytes = raw.prfile.read()
    return data


def prove(clauses: list[list[int]], deadline: Deadline | None = None) -> bytes | None:
    """The binary DRAT proof of a fresh :data:`PROOF_SOLVER` that ``clauses`` have no
    model, or None when ``deadline`` came first; a :class:`~dlxsat.errors.SolverFailure` if
    they have a model.

    >>> prove([[1, 2], [-1, 2], [1, -2], [-1, -2]]).endswith(b"a\\x00")
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
        return proof_bytes(solver)
    finally:
        solver.delete()
