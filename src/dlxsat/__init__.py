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

import sys as _sys
from typing import Any

# When this import is the start of the dlxsat program (``python -m dlxsat``, while Python
# still says "-m", or the ``dlxsat`` script), the process guard goes in before anything else
# is imported, so that Ctrl-C or SIGTERM during start-up ends the run cleanly. A library user's
# ``import dlxsat`` changes no signal handler.
if _sys.argv[:1] == ["-m"] or _sys.argv[0].rsplit("/", 1)[-1] == "dlxsat":
    import os as _os
    import signal as _signal

    def _early_stop(signum: int, frame: Any) -> None:
        _os.write(
            2, f"dlxsat: interrupted ({_signal.Signals(signum).name}) while starting\n".encode()
        )
        _os._exit(128 + signum)

    for _s in (_signal.SIGINT, _signal.SIGTERM):
        _signal.signal(_s, _early_stop)
    from .limits import install_process_guard as _guard

    _guard()


from .errors import InputError, RuleViolation  # noqa: E402

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


def read_puzzle(family: str, text: str) -> Any:
    """Parse and validate a puzzle of ``family`` given in Knuth's input format."""
    from .families import get_family

    return get_family(family).read(text)


def encode(family: str, text: str) -> str:
    """Knuth's exact-cover data for a puzzle, byte for byte as his generator prints it."""
    from .families import get_family

    fam = get_family(family)
    return fam.encode(fam.read(text))


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
