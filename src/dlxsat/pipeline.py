"""The solving pipeline: puzzle text → family → exact-cover problem → backend → checked answers.

Every answer a backend returns is decoded by the family and judged by the family's own rule
checker; an answer that fails it is a bug in dlxsat and raises :class:`RuleViolation` rather
than being reported.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from . import limits
from .answer import Answer, answer_key
from .errors import InputError, RuleViolation
from .families import get_family
from .result import MODES, SearchResult, status_of
from .solvers import check_options, get_solver
from .xcc import Problem, parse

#: The backend ``solve`` uses when none is named: the fastest measured per family, from the
#: command line (benchmarks/loops.py; see the README). SAT wins every hard loop puzzle; for
#: Sudoku the DLX search is faster in-process, but loading its numba kernels costs about a
#: second per process, so a one-off ``dlxsat solve sudoku`` is quicker with SAT.
#:
#: The portfolio backend (``sat,dlx`` racing) does not become a default: measured with
#: ``benchmarks/portfolio.py`` on 2 cores shared with other work (11 puzzles: Masyu up to
#: 36 x 20, Slitherlink 20 x 15 and 30 x 25, hard and 25 x 25 Sudokus, wall time of a cold
#: ``dlxsat solve``), SAT was the fastest single backend on every puzzle solved, and the
#: portfolio took 2.10 times SAT's time on Masyu, 2.01 on Slitherlink and 1.80 on Sudoku
#: (geometric means): its second member halves SAT's share of the two cores. Only when
#: counting, where DLX wins (a Sudoku with 54,620 answers: DLX 0.30 of SAT's time), does the
#: portfolio pay off (0.39 of SAT's time, 1.29 of DLX's) -- use ``--backend portfolio`` there.
DEFAULT_BACKEND = {
    "masyu": "sat",
    "slitherlink": "sat",
    "superslitherlink": "sat",
    "sudoku": "sat",
}

#: The backend :func:`solve_many` uses when none is named, where it differs from
#: ``DEFAULT_BACKEND``. Many 9 x 9 Sudokus in one process: dlx 8,670 puzzles/s (the empty
#: grid laid out once, clues pre-covered), sat 0.029 of that (``benchmarks/batch.py``, 200
#: sgt-solo puzzles, each answer proved unique and rule-checked); the one-off kernel load
#: (about 1 s) is paid once per batch.
BATCH_BACKEND = {"sudoku": "dlx"}


def default_backend(family: str, many: bool = False) -> str:
    """The backend used when none is named: for one puzzle, or for many in one process."""
    if many and family in BATCH_BACKEND:
        return BATCH_BACKEND[family]
    return DEFAULT_BACKEND.get(family, "sat")


#: In ``count`` mode answers are not returned, but this many are still decoded and checked
#: (kept in memory to be checked: counts run into millions); ``stats["checked"]`` says how
#: many were, and the CLI says so when it is fewer than the count.
CHECKED_WHEN_COUNTING = 1000


#: With a time limit, this share of the time left when the search starts (at most 0.5 s) is
#: kept for decoding and checking the answers found.
CHECK_RESERVE = 0.1


def max_workers() -> int:
    """The most search workers (threads or processes) a run may ask for: four per core, and
    at least 64 -- more only slows a search down and can exhaust the machine.

    >>> max_workers() >= 64
    True
    """
    return max(64, 4 * (os.cpu_count() or 1))


@dataclass
class Prepared:
    """A puzzle read and encoded: what every backend starts from."""

    name: str
    family: ModuleType
    puzzle: Any
    dlx_text: str
    problem: Problem


@dataclass
class SolveReport:
    """The outcome of :func:`solve`; :meth:`to_json` gives the object of SPEC.md §5."""

    family: str
    backend: str
    status: str
    count: int | None
    solutions: list[Answer]
    seconds: float
    stats: dict[str, Any] = field(default_factory=dict)
    steps: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "family": self.family,
            "backend": self.backend,
            "status": self.status,
            "count": self.count,
            "solutions": self.solutions,
            "seconds": round(self.seconds, 6),
            "stats": self.stats,
        }


def prepare(family: str, text: Any, format: str | None = None) -> Prepared:
    """Read ``text`` as a puzzle of ``family`` and build Knuth's exact-cover problem for it.

    ``text`` is in ``format`` (see :mod:`dlxsat.formats`; detected when None, Knuth's input
    format when nothing else fits), or is already a puzzle object of the family. A family may
    define ``problem(puzzle, dlx_text)`` when Knuth's data needs a family rule to become a
    problem (SuperSlitherlink's letters of clue 0); otherwise the text is parsed.
    """
    fam = get_family(family)
    if isinstance(text, str):
        from . import formats

        limits.check_fits(
            f"encoding this {family} ({len(text)} characters)",
            limits.estimate_encoding_bytes(family, text),
        )
        limits.set_phase("reading the puzzle")
        puzzle = formats.read(family, text, format)
    else:
        puzzle = text
        rows, cols = getattr(puzzle, "m", None), getattr(puzzle, "n", 0)
        rows = getattr(puzzle, "n", 1) if rows is None else rows  # a Sudoku: n x n
        limits.check_fits(
            f"encoding this {rows}x{cols} {family}",
            limits.estimate_cells_bytes(family, rows * (cols + 1), rows),
        )
    limits.set_phase("encoding")
    dlx_text = fam.encode(puzzle)
    limits.set_phase("reading the exact-cover data")
    to_problem = getattr(fam, "problem", None)
    if to_problem is not None:
        problem = to_problem(puzzle, dlx_text)
    else:
        problem = parse(dlx_text, allow_empty=True)
    return Prepared(family, fam, puzzle, dlx_text, problem)


def check_model_fits(prep: Prepared, backend: str) -> None:
    """Refuse, before building it, a model that cannot fit in the memory limit."""
    entries = sum(len(o) for o in prep.problem.options)
    limits.check_fits(
        f"the {backend} model of this {prep.name} ({len(prep.problem.options)} options x "
        f"{len(prep.problem.items)} items, {entries} entries)",
        limits.estimate_bytes(backend, entries),
    )


def check_answer(prep: Prepared, answer: Answer, backend: str) -> None:
    """Raise :class:`RuleViolation` if ``answer`` breaks the puzzle's rules."""
    problems = prep.family.check(prep.puzzle, answer)
    if problems:
        raise RuleViolation(
            f"backend {backend} returned an answer that breaks the rules: {problems[0]}"
        )


def solve(
    family: str,
    text: str,
    *,
    backend: str | None = None,
    mode: str = "unique",
    timeout: float | None = None,
    format: str | None = None,
    **options: Any,
) -> SolveReport:
    """Solve a puzzle given as text (in ``format``, detected when None; see :func:`prepare`)
    or as a puzzle object.

    ``mode`` is ``unique`` (look for two answers: is there exactly one?), ``count`` (count them
    all) or ``all`` (return them all). ``options`` go to the solver, checked against its declared
    :data:`OPTIONS` (an option it does not take is an :class:`InputError`). ``timeout`` bounds
    the whole run -- reading, encoding, building the model and searching -- not only the search.

    >>> r = solve("sudoku", open("puzzles/sudoku/puzzlium-A.txt").read(), backend="dlx")
    >>> r.status, r.count, r.solutions[0]["grid"][1]
    ('unique', 1, '546132')
    """
    start = time.perf_counter()
    if mode not in MODES:
        raise InputError(f"unknown mode {mode!r} (choose from {', '.join(MODES)})")
    if timeout is not None and not timeout > 0:
        raise InputError(f"time limit must be positive: {timeout}")
    # One deadline for the run: this call's, or the process's (dlxsat.limits), whichever first;
    # this call's own is enforced by the alarm too, and its expiry is reported as a time out.
    scope = limits.Scope(timeout)
    try:
        report = _solve(
            family, text, backend, mode, limits.deadline(scope.mine), options, start, format
        )
        if report.status == "timeout" and timeout is None:
            # The run's deadline, not one this caller asked for: it cannot take a partial
            # answer for a complete one, so the run stops (dlxsat.limits reports the figures).
            limits.found(report.count or 0)
            raise limits.TimeUp()
        return report
    except limits.TimeUp as stop:
        if not scope.owns(stop):
            raise
        limits.resume()
        return SolveReport(
            family,
            backend or DEFAULT_BACKEND.get(family, "sat"),
            "timeout",
            limits.progress.count,
            [],
            time.perf_counter() - start,
            {"stopped": limits.progress.phase},
        )
    finally:
        scope.close()


def _solve(
    family: str,
    text: str,
    backend: str | None,
    mode: str,
    deadline: float | None,
    options: dict[str, Any],
    start: float,
    format: str | None = None,
) -> SolveReport:
    backend = backend or default_backend(family)
    options = check_options(backend, options)
    workers = options.get("workers")
    if isinstance(workers, int) and workers > max_workers():
        raise InputError(f"--workers {workers} is too many (at most {max_workers()})")
    prep = prepare(family, text, format)
    check_model_fits(prep, backend)
    limits.set_phase("searching", backend)
    search_deadline = deadline
    if deadline is not None:  # leave time to decode and check the answers found
        search_deadline = deadline - min(CHECK_RESERVE * (deadline - time.monotonic()), 0.5)
    result = run_solver(prep, backend, mode, search_deadline, options)
    limits.found(result.count or 0)
    limits.set_phase("checking the answers")
    limits.progress.count = result.count or 0
    answers = checked_answers(prep, result, backend, deadline)
    return make_report(prep, backend, mode, result, answers, start)


def checked_answers(
    prep: Prepared, result: SearchResult, backend: str, deadline: float | None = None
) -> list[Answer]:
    """Every answer of ``result``, decoded and checked by the family's rules and checked
    distinct -- until ``deadline``: past it, the answers not yet checked are left out and the
    result is marked timed out (the report's ``stats["checked"]`` says how many were)."""
    answers: list[Answer] = []
    seen: set = set()
    for item in [*result.answers, *result.solutions]:
        if deadline is not None and time.monotonic() >= deadline:
            result.timed_out = True
            break
        if isinstance(item, dict):
            answer = item
        else:
            answer = prep.family.decode(prep.puzzle, prep.problem, item)
        check_answer(prep, answer, backend)
        key = answer_key(answer)
        if key in seen:
            raise RuleViolation(f"backend {backend} returned the same answer twice")
        seen.add(key)
        answers.append(answer)
    return answers


def make_report(
    prep: Prepared,
    backend: str,
    mode: str,
    result: SearchResult,
    answers: list[Answer],
    start: float,
) -> SolveReport:
    """The report of one solve: the status from :func:`status_of`, the checked answers (none
    kept in ``count`` mode) and the solver's figures with ``checked``."""
    stats = dict(result.stats)
    stats["checked"] = len(answers)
    return SolveReport(
        prep.name,
        backend,
        status_of(mode, result),
        result.count,
        answers if mode != "count" else [],
        time.perf_counter() - start,
        stats,
        result.steps,
    )


def run_solver(
    prep: Prepared, backend: str, mode: str, deadline: float | None, options: dict[str, Any]
) -> SearchResult:
    """Run solver ``backend`` on a prepared puzzle until ``deadline`` (``time.monotonic``)."""
    solver = get_solver(backend)
    remaining = None if deadline is None else deadline - time.monotonic()
    if remaining is not None and remaining <= 0:
        return SearchResult(count=0, timed_out=True)
    if solver.KIND == "reasoning":
        result = solver.solve(prep.name, prep.puzzle, mode=mode, timeout=remaining, **options)
    else:
        result = solver.solve(
            prep.problem,
            loop=loop_rule(prep),
            allow_empty_loop=getattr(prep.family, "ALLOW_EMPTY_LOOP", False),
            limit=2 if mode == "unique" else None,
            keep=CHECKED_WHEN_COUNTING if mode == "count" else None,
            timeout=remaining,
            **options,
        )
    # OR-tools' CP-SAT catches SIGINT itself: it stops the search, returns as if out of time,
    # and leaves SIGINT at the default action. So the handlers are put back, and a "time out"
    # with no time limit is what it is: an interrupt. (With a limit the two cannot be told
    # apart from here -- CP-SAT may also give up a little before its limit -- and it is
    # reported as a time out; setting CP-SAT's catch_sigint_signal to false in the backend
    # leaves SIGINT to dlxsat's handlers instead.)
    limits.rearm()
    if backend in CATCHES_SIGINT and result.timed_out and deadline is None:
        limits.found(result.count or 0)
        raise limits.Interrupted()
    return result


def loop_rule(prep: Prepared) -> bool:
    """Whether the single-loop rule applies: the family's (loop puzzles), or, for exact-cover
    data (``xcc``), the puzzle's own (``--loop``)."""
    return bool(getattr(prep.puzzle, "loop", False) or prep.family.LOOP)


#: The backends whose solver library handles SIGINT itself (by stopping the search).
CATCHES_SIGINT = frozenset({"cpsat"})


@dataclass
class Agreement:
    """One backend's re-solve of a puzzle for ``solve --crosscheck``, and whether it agrees."""

    backend: str
    status: str
    count: int | None
    seconds: float
    agree: bool
    difference: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "backend": self.backend,
            "status": self.status,
            "count": self.count,
            "seconds": round(self.seconds, 6),
            "agree": self.agree,
            "difference": self.difference,
        }


def agreement(first: SolveReport, other: SolveReport) -> str:
    """Why ``other`` disagrees with ``first`` (the empty string when they agree).

    A timeout agrees with anything (it decided nothing). Two ``multiple`` reports agree even
    with different answers: each found two of the several there are.
    """
    if "timeout" in (first.status, other.status) or "stalled" in (first.status, other.status):
        return ""
    if first.status != other.status:
        return f"{first.backend} says {first.status}, {other.backend} says {other.status}"
    if first.status == "multiple":
        return ""
    if first.count != other.count:
        return f"{first.backend} found {first.count} answers, {other.backend} {other.count}"
    if first.solutions and other.solutions:
        mine = {answer_key(a) for a in first.solutions}
        theirs = {answer_key(a) for a in other.solutions}
        if mine != theirs:
            return f"{first.backend} and {other.backend} found different answers"
    return ""


def crosscheck_report(
    family: str,
    text: str,
    report: SolveReport,
    backends: list[str],
    *,
    mode: str = "unique",
    deadline: float | None = None,
) -> list[Agreement]:
    """Solve again with each of ``backends`` (defaults) within ``deadline`` and compare.

    This is the cross-check dlxsat promises on every ``solve``: the native DLX backend (or the
    backends named) must reach the same status and the same answers.
    """
    rows = []
    for name in backends:
        remaining = None if deadline is None else deadline - time.monotonic()
        if remaining is not None and remaining <= 0:
            rows.append(Agreement(name, "timeout", None, 0.0, True))
            continue
        other = solve(family, text, backend=name, mode=mode, timeout=remaining)
        why = agreement(report, other)
        rows.append(Agreement(name, other.status, other.count, other.seconds, not why, why))
    return rows


# ---------------------------------------------------------------------------------------------
# Many puzzles of one family in one process


def solve_many(
    family: str,
    texts: Iterable[Any],
    *,
    backend: str | None = None,
    mode: str = "unique",
    timeout: float | None = None,
    **options: Any,
) -> Iterator[SolveReport]:
    """Solve many puzzles of ``family``; one :class:`SolveReport` per puzzle, in order.

    ``texts`` are puzzle texts (in any format of :mod:`dlxsat.formats`, detected), or puzzles
    already read (the objects ``read_puzzle`` returns), or a mix. Every input is read and
    checked, and the arguments too, *before* the first puzzle is solved: a bad one is an
    :class:`InputError` naming it (``puzzle 3: ...``), raised by this call itself, not half-way
    through the reports. ``timeout`` bounds each puzzle's solve, not the whole batch; ``mode``
    and ``options`` are those of :func:`solve`.

    The problem of each puzzle is built directly (the family's ``build``: the same
    :class:`~dlxsat.xcc.Problem` as parsing its DLX text, without writing that text). Sudokus
    on the dlx backend go faster still, when there are many of them (``dlxsat.sudoku_batch``):
    the empty grid's problem is laid out once per shape, each puzzle's clues are pre-covered
    and the compiled kernel searches the rest. Either way every answer is decoded and judged
    by the family's rule checker, as in :func:`solve`.

    >>> texts = [open("puzzles/sudoku/puzzlium-A.txt").read()] * 2
    >>> [(r.status, r.solutions[0]["grid"][1]) for r in solve_many("sudoku", texts, backend="dlx")]
    [('unique', '546132'), ('unique', '546132')]
    """
    fam = get_family(family)
    if mode not in MODES:
        raise InputError(f"unknown mode {mode!r} (choose from {', '.join(MODES)})")
    if timeout is not None and not timeout > 0:
        raise InputError(f"time limit must be positive: {timeout}")
    backend = backend or default_backend(family, many=True)
    options = check_options(backend, options)
    # A family may read many puzzles faster than one by one (sudoku: shared box groups).
    read = fam.many_reader() if hasattr(fam, "many_reader") else fam.read
    puzzles = [_read_input(fam, family, read, x, k) for k, x in enumerate(texts, 1)]
    return _solve_each(family, fam, puzzles, backend, mode, timeout, options)


def _read_input(fam: ModuleType, family: str, read: Any, given: Any, k: int) -> Any:
    """Input ``k`` (1-based) of :func:`solve_many` as a puzzle of ``fam`` (``read``: its
    reader of texts)."""
    if isinstance(given, str):
        from . import formats

        try:
            name = formats.detect(family, given)
            return read(given) if name == "knuth" else formats.read(family, given, name)
        except InputError as e:
            raise InputError(f"puzzle {k}: {e}") from None
    if type(given).__module__ != fam.__name__:
        raise InputError(
            f"puzzle {k}: a {type(given).__name__} is neither a text nor a {family} puzzle"
        )
    return given


def build_problem(fam: ModuleType, puzzle: Any) -> Problem:
    """The exact-cover problem of ``puzzle``: the family's direct builder when it has one, else
    its DLX text parsed (the two agree: tests/test_batch.py)."""
    builder = getattr(fam, "build", None)
    if builder is not None:
        return builder(puzzle)
    return parse(fam.encode(puzzle), allow_empty=True)


def _solve_each(
    family: str,
    fam: ModuleType,
    puzzles: list[Any],
    backend: str,
    mode: str,
    timeout: float | None,
    options: dict[str, Any],
) -> Iterator[SolveReport]:
    fast = family == "sudoku" and backend == "dlx" and len(puzzles) >= _sudoku_batch_min()
    shapes: dict[tuple, Any] = {}
    shape = None
    limit = 2 if mode == "unique" else None
    keep = CHECKED_WHEN_COUNTING if mode == "count" else None
    for puzzle in puzzles:
        start = time.perf_counter()
        deadline = None if timeout is None else time.monotonic() + timeout
        prep = Prepared(family, fam, puzzle, "", Problem([], []))  # no DLX text on this path
        if fast and (shape is None or not shape.fits(puzzle)):
            from .sudoku_batch import Shape, shape_key

            key = shape_key(puzzle)
            if key not in shapes:
                shapes[key] = Shape.of(puzzle)  # None: not a shape for the fast path
            shape = shapes[key]
        if fast and shape is not None:
            from .answer import grid_answer

            result = shape.solve(puzzle, limit, keep, deadline)
            answers = [grid_answer(shape.grid(puzzle, chosen)) for chosen in result.solutions]
            # The same judgement as check_answer's, faster; only a failure asks check_answer.
            for answer in answers:
                if not shape.obeys_rules(puzzle, answer["grid"]):
                    check_answer(prep, answer, backend)
        else:
            prep.problem = build_problem(fam, puzzle)
            result = run_solver(prep, backend, mode, deadline, options)
            answers = checked_answers(prep, result, backend)
        yield make_report(prep, backend, mode, result, answers, start)


def _sudoku_batch_min() -> int:
    from .sudoku_batch import MIN_PUZZLES

    return MIN_PUZZLES
