"""dlxsat: pencil puzzles as Knuth's exact-cover problems, solved by DLX, SAT and CP-SAT.

The public API is small and lazy (heavy solver libraries load only when a solver runs)::

    >>> import dlxsat
    >>> text = open("puzzles/sudoku/puzzlium-A.txt").read()
    >>> dlxsat.encode("sudoku", text).splitlines()[0]
    '|sudoku!#.5..#!.4..3.!6.##..!.5.2..!.....1!.3##..'
    >>> report = dlxsat.solve("sudoku", text, backend="dlx")
    >>> report.status, report.count
    ('unique', 1)
    >>> result = dlxsat.solve_problem(dlxsat.parse_dlx("a b\\na\\nb\\n"), "sat")
    >>> result.count, result.exhausted
    (1, True)
"""

from __future__ import annotations

import sys as _sys
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

# When this import is the start of the dlxsat program (``python -m dlxsat``, while Python
# still says "-m", or the ``dlxsat`` script), the process guard goes in before anything else
# is imported, so that Ctrl-C or SIGTERM during start-up ends the run cleanly. A library user's
# ``import dlxsat`` changes no signal handler, and neither does a process that multiprocessing
# spawned from the program (a portfolio member: it was given the program's ``sys.argv``, but
# its own command line says what it is; it sets its own handlers).
if (
    _sys.argv[:1] == ["-m"] or _sys.argv[0].rsplit("/", 1)[-1] == "dlxsat"
) and "--multiprocessing-fork" not in getattr(_sys, "orig_argv", ()):
    import os as _os
    import signal as _signal

    from .exits import Exit as _Exit

    def _early_stop(signum: int, frame: Any) -> None:
        _os.write(
            2, f"dlxsat: interrupted ({_signal.Signals(signum).name}) while starting\n".encode()
        )
        _os._exit(_Exit.of_signal(signum))

    for _s in (_signal.SIGINT, _signal.SIGTERM):
        if _signal.getsignal(_s) is not _signal.SIG_IGN:  # (ignored at start: stays so)
            _signal.signal(_s, _early_stop)
    from .runtime.guard import install as _guard

    _guard()
    # numpy's OpenBLAS starts a thread per core when numpy is imported (the compiled DLX
    # kernels need numpy), and they spin a while: some 0.1 s of CPU a process for linear
    # algebra dlxsat never does (`import numpy` 0.30 s of user CPU against 0.20 with one
    # thread; a Country Road solved by the default 0.45-0.48 against 0.34-0.37; 2 cores). The
    # program's processes, and those it starts, run with one; a user's own setting stays.
    _os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


from .errors import InputError, RuleViolation  # noqa: E402
from .result import MODES, STATUSES, Mode, SearchResult, Status  # noqa: E402

if "IPython" in _sys.modules:  # a notebook: puzzles and reports show their boards
    from . import display as _display  # noqa: E402, F401

if TYPE_CHECKING:
    from .checking import CheckReport
    from .pipeline import SolveReport
    from .roundtrip import CnfExport, Decoded
    from .xcc import Problem

__version__ = "0.1.0"
__all__ = [
    "check",
    "InputError",
    "RuleViolation",
    "SearchResult",
    "SolveReport",
    "Problem",
    "Status",
    "STATUSES",
    "Mode",
    "MODES",
    "encode",
    "read_puzzle",
    "solve",
    "solve_many",
    "parse_dlx",
    "write_dlx",
    "solve_problem",
    "read_dlx",
    "search_dlx",
    "export_cnf",
    "decode_model",
    "convert",
    "generate_masyu",
]


def __getattr__(name: str) -> Any:
    # SolveReport and Problem live in modules that need not load for `import dlxsat`.
    if name == "SolveReport":
        from .pipeline import SolveReport

        return SolveReport
    if name == "Problem":
        from .xcc import Problem

        return Problem
    raise AttributeError(f"module 'dlxsat' has no attribute {name!r}")


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
    from .families import get_spec

    return get_spec(family).encode(read_puzzle(family, text, format))


def solve(
    family: str,
    text: str,
    *,
    backend: str | None = None,
    mode: Mode = "unique",
    timeout: float | None = None,
    format: str | None = None,
    rules: str | None = None,
    argue: bool = True,
    **options: Any,
) -> SolveReport:
    """Solve a puzzle: read, encode, run the solver, decode and rule-check every answer.

    See :func:`dlxsat.pipeline.solve`; ``text`` is in ``format`` (detected when None, see
    :mod:`dlxsat.formats`); ``rules``: which of the family's sets of rules to solve under
    (``--rules``: :attr:`FamilySpec.variants <dlxsat.families.spec.FamilySpec.variants>`,
    None: its default); ``options`` are the solver's declared options
    (:func:`dlxsat.solvers.options_of`). ``argue``: a ``unique`` search may go by the
    family's argument (:class:`~dlxsat.families.spec.Argument`), a ``count`` on ``auto`` by
    its own counter (:class:`~dlxsat.families.spec.Counter`); False: its own problem only.
    """
    from .families.spec import Policy
    from .pipeline import solve as _solve

    policy = None if rules is None else Policy(rules=rules)
    return _solve(
        family,
        text,
        backend=backend,
        mode=mode,
        timeout=timeout,
        format=format,
        policy=policy,
        argue=argue,
        **options,
    )


def check(
    family: str,
    puzzle: Any,
    answer: Any = None,
    *,
    unique: bool = False,
    format: str | None = None,
    answer_format: str | None = None,
    timeout: float | None = None,
    rules: str | None = None,
) -> CheckReport:
    """Is ``answer`` a correct answer to ``puzzle``, and if not, which rule does it break?

    ``answer`` is an answer in dlxsat's form, a text holding one (the puzzlekit corpus's
    answer grid, a pzprv3 file, a Penpa+ URL), or None when ``puzzle``'s own text holds it;
    ``unique`` also proves no other answer exists; ``rules``: which of the family's sets of
    rules judge it (``--rules``, None: its default). See :func:`dlxsat.checking.check`.

    >>> check("sudoku", "4..3.3....1.1..2", {"grid": ["4123", "2341", "3214", "1432"]}).correct
    True
    """
    from .checking import check as _check

    return _check(
        family,
        puzzle,
        answer,
        unique=unique,
        format=format,
        answer_format=answer_format,
        timeout=timeout,
        rules=rules,
    )


def solve_many(
    family: str,
    texts: Iterable[Any],
    *,
    backend: str | None = None,
    mode: Mode = "unique",
    timeout: float | None = None,
    **options: Any,
) -> Iterator[SolveReport]:
    """Solve many puzzles of one family in one go, a report for each, in order.

    ``texts`` may be puzzle texts or puzzles already read; all are read and checked before the
    first is solved. ``timeout`` is per puzzle. See :func:`dlxsat.pipeline.solve_many`.
    """
    from .pipeline import solve_many as _solve_many

    return _solve_many(family, texts, backend=backend, mode=mode, timeout=timeout, **options)


def parse_dlx(text: str) -> Problem:
    """Read Knuth's DLX text into a :class:`dlxsat.xcc.Problem`, as ``dlxsat dlx`` reads it.

    Data printed by Knuth's SUPERSLITHERLINK-GENERAL-DLX (and by ``dlxsat.encode`` for that
    family) names letters of clue 0 it does not declare: it is read by that family's rule
    (:func:`dlxsat.families.superslitherlink.problem_from_data`), so that ``encode`` ->
    ``parse_dlx`` -> ``solve_problem`` works for every family; any other unknown item is an
    input error of the general reader.

    >>> parse_dlx(encode("superslitherlink", "aa\\n.b\\n!a=0\\n!b=2\\n")).n_primary
    20
    """
    from .families import superslitherlink
    from .xcc import parse

    return superslitherlink.problem_from_data(text) or parse(text)


def write_dlx(problem: Problem) -> str:
    """Write a :class:`dlxsat.xcc.Problem` as DLX text."""
    from .xcc import write

    return write(problem)


def solve_problem(problem: Problem, backend: str = "dlx", **kwargs: Any) -> SearchResult:
    """Solve an exact-cover problem directly with a search solver: ``loop``,
    ``allow_empty_loop``, ``limit``, ``keep`` (by default the solutions asked for: up to
    ``limit``, none when counting; None keeps all), ``timeout`` (seconds) and the solver's
    options, checked once (see :func:`dlxsat.solvers.solve_problem`)."""
    from .solvers import solve_problem as _solve_problem

    return _solve_problem(problem, backend, **kwargs)


def read_dlx(text: str) -> Problem:
    """Read DLX text as ``dlxsat dlx`` does (Knuth's SuperSlitherlink data by its family's rule;
    see :func:`dlxsat.dlxdata.read_data`). Check and list the solutions of a search with
    :mod:`dlxsat.xcc.listing`."""
    from .dlxdata import read_data

    return read_data(text)


def search_dlx(problem: Problem, **kwargs: Any) -> SearchResult:
    """Search a problem with dancing links as ``dlxsat dlx`` does (``loop``, ``limit``,
    ``keep``, ``deadline``: see :func:`dlxsat.dlxdata.search`)."""
    from .dlxdata import search

    return search(problem, **kwargs)


def export_cnf(
    family: str,
    text: Any,
    *,
    loop: str | None = None,
    modes: dict[str, str | None] | None = None,
    format: str | None = None,
) -> CnfExport:
    """A puzzle's DIMACS export, ready to ``write`` (see :func:`dlxsat.roundtrip.export_cnf`):
    each global rule in its mode (``modes``, by kind; ``loop`` the loop rule's), ``eager`` or
    ``none``."""
    from .roundtrip import export_cnf as _export

    return _export(family, text, modes={"loop": loop, **(modes or {})}, format=format)


def decode_model(family: str, text: Any, solver_output: str, **kwargs: Any) -> Decoded:
    """A SAT solver's model of an exported puzzle as a checked answer
    (see :func:`dlxsat.roundtrip.decode_model`)."""
    from .roundtrip import decode_model as _decode

    return _decode(family, text, solver_output, **kwargs)


def convert(family: str, text: str, to: str, format: str | None = None) -> str:
    """Every puzzle of ``text`` written in the format ``to`` (see :func:`dlxsat.formats.convert`).

    >>> url = "https://puzz.link/p?mashu/6/6/1063000i3000"
    >>> convert("masyu", url, "knuth").splitlines()[:2]
    ['..0...', '.1..0.']
    >>> convert("masyu", convert("masyu", url, "knuth"), "puzzlink") == url + "\\n"
    True
    """
    from .formats import convert as _convert

    return _convert(family, text, to, format)


def generate_masyu(
    rows: int, cols: int, seed: int | None = None, timeout: float | None = None
) -> str:
    """A new Masyu with exactly one answer (see :func:`dlxsat.generators.masyu.generate_masyu`)."""
    from .generators.masyu import generate_masyu as _generate

    return _generate(rows, cols, seed=seed, timeout=timeout)
