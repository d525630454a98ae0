"""dlxsat: pencil puzzles as Knuth's exact-cover problems, solved by DLX, SAT and CP-SAT.

The public API is small and lazy (heavy solver libraries load only when a backend runs)::

    >>> import dlxsat
    >>> text = open("puzzles/sudoku/puzzlium-A.txt").read()
    >>> dlxsat.encode("sudoku", text).splitlines()[0]
    '|sudoku!#.5..#!.4..3.!6.##..!.5.2..!.....1!.3##..'
    >>> dlxsat.solve("sudoku", text, backend="dlx").status
    'unique'
"""

from __future__ import annotations

from typing import Any

from .errors import InputError, RuleViolation

__version__ = "0.1.0"
__all__ = [
    "InputError",
    "RuleViolation",
    "encode",
    "read_puzzle",
    "solve",
    "parse_dlx",
    "write_dlx",
    "solve_problem",
]


def read_puzzle(family: str, text: str, format: str | None = None) -> Any:
    """Parse and validate a puzzle of ``family`` given as text in ``format`` (Knuth's input
    format, ``puzzlink``, ``tatham``, ``grid``, ``oneline``; detected when None)."""
    from . import formats

    return formats.read(family, text, format)


def encode(family: str, text: str, format: str | None = None) -> str:
    """Knuth's exact-cover data for a puzzle, byte for byte as his generator prints it.

    >>> encode("sudoku", "4..3.3....1.1..2").splitlines()[0]
    '|sudoku!4..3!.3..!..1.!1..2'
    """
    from .families import get_family

    return get_family(family).encode(read_puzzle(family, text, format))


def solve(family: str, text: str, **kwargs: Any) -> Any:
    """Solve a puzzle; see :func:`dlxsat.pipeline.solve` for the options."""
    from .pipeline import solve as _solve

    return _solve(family, text, **kwargs)


def parse_dlx(text: str) -> Any:
    """Read Knuth's DLX text into a :class:`dlxsat.xcc.Problem`."""
    from .xcc import parse

    return parse(text)


def write_dlx(problem: Any) -> str:
    """Write a :class:`dlxsat.xcc.Problem` as DLX text."""
    from .xcc import write

    return write(problem)


def solve_problem(problem: Any, backend: str = "dlx", **kwargs: Any) -> Any:
    """Solve an exact-cover problem directly with a search backend (see ``dlxsat.backends``)."""
    from .solvers import get_solver

    return get_solver(backend).solve(problem, **kwargs)
