"""The solving pipeline: puzzle text → family → exact-cover problem → backend → checked answers.

Every answer a backend returns is decoded by the family and judged by the family's own rule
checker; an answer that fails it is a bug in dlxsat and raises :class:`RuleViolation` rather
than being reported.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from .answer import Answer, AnswerKey, answer_key
from .errors import InputError, RuleViolation
from .families import canonical, get_spec
from .families.spec import Batch, FamilySpec, Policy
from .result import MODES, SearchResult, Settled, status_of
from .runtime import collector, guard, memory
from .runtime.deadline import Deadline
from .runtime.guard import Progress
from .solvers import CHECKED_WHEN_COUNTING, Request, max_workers, rule_kinds, spec_of
from .solvers import solve_many as solve_many_with
from .xcc import Problem

__all__ = ["CHECKED_WHEN_COUNTING", "max_workers"]  # (their home is dlxsat.solvers)

#: The default backend of every family (its spec's ``default_backend``) is ``auto``, which picks
#: DLX or SAT per puzzle (a short DLX trial, then Knuth's estimate of the DLX tree; see
#: ``dlxsat.backends.auto`` and ``docs/auto.md``). Measured with ``benchmarks/auto.py``: no
#: single engine is best on every family -- DLX wins most Sudokus and small loop puzzles and
#: every count, SAT the hard loop puzzles and the minimal 25 x 25 Sudoku, where DLX runs for
#: hours. The portfolio (engines racing on all cores) is not a default: on 2 cores it costs
#: 1.8-2.1 x SAT alone (``benchmarks/portfolio.py``). Many Sudokus in one process run ``auto``
#: on DLX's batch path (the spec's ``batch.backend``; :func:`dlxsat.backends.auto.solve_many`),
#: each within a trial; a puzzle that outgrows it goes to ``auto``'s own choice. A count on
#: ``auto`` of a family with a counter of its own goes by that counter after a short DLX
#: trial (:func:`counted`).


def default_backend(family: str, many: bool = False) -> str:
    """The backend used when none is named: for one puzzle, or for many in one process."""
    spec = get_spec(family)
    if many and spec.batch is not None and spec.batch.backend is not None:
        return spec.batch.backend
    return spec.default_backend


#: A count on ``auto`` of a family with its own counter gives DLX this many seconds on the
#: exact problem first (:func:`counted`): the corpus's NumberLinks up to 8 x 8 are counted by
#: DLX in 6-30 ms (three of 16 in 0.13-1.4 s), where the sweep costs 0.03-0.5 s interpreted and
#: about 0.8 s to load compiled; from 9 x 9 on DLX mostly runs out of seconds, and the sweep
#: counts every 9 x 9 and 10 x 10 in about a second (2026-11-29).
COUNT_TRIAL_SECONDS = 0.1

#: With a time limit, this share of the time left when the search starts (at most 0.5 s) is
#: kept for decoding and checking the answers found.
CHECK_RESERVE = 0.1


@dataclass
class Prepared:
    """A puzzle read and encoded: what every backend starts from. ``text`` is its exact-cover
    data in Knuth's format, None until asked for (:attr:`dlx_text`): a family that builds its
    problem directly (``FamilySpec.build``) is not encoded to text for a solve."""

    name: str
    family: FamilySpec
    puzzle: Any
    text: str | None
    problem: Problem

    @property
    def dlx_text(self) -> str:
        """The puzzle's exact-cover data (the family's ``encode``), written on first use."""
        if self.text is None:
            self.text = self.family.encode(self.puzzle)
        return self.text


@dataclass
class SolveReport:
    """The outcome of :func:`solve`; :meth:`to_json` gives the object of docs/conventions.md §5.

    ``puzzle`` is the puzzle object solved (None when the run stopped before reading it); in
    Jupyter a report shows its figures and the board with its first answer
    (:mod:`dlxsat.display`).
    """

    family: str
    backend: str
    status: str
    count: int | None
    solutions: list[Answer]
    seconds: float
    stats: dict[str, Any] = field(default_factory=dict)
    steps: list[str] = field(default_factory=list)
    puzzle: Any = field(default=None, repr=False, compare=False)

    def _repr_html_(self) -> str:
        from .display import report_html

        return report_html(self)

    def _repr_svg_(self) -> str | None:
        from .display import report_svg

        return report_svg(self)

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


def prepare(
    family: str,
    text: Any,
    format: str | None = None,
    policy: Policy | None = None,
    *,
    progress: Progress | None = None,
) -> Prepared:
    """Read ``text`` as a puzzle of ``family`` and build its exact-cover problem, with the
    problem's global rules; each phase is recorded in ``progress``, the run's figures (see
    :class:`~dlxsat.runtime.guard.Progress`; None: nobody watches).

    ``text`` is in ``format`` (see :mod:`dlxsat.formats`; detected when None, the family's own
    form when nothing else fits), or is already a puzzle object of the family (or, for
    ``xcc``, a :class:`~dlxsat.xcc.Problem` built in Python). ``policy`` is applied by the
    family (:meth:`FamilySpec.prepare <dlxsat.families.spec.FamilySpec.prepare>`: Sudoku's
    boxes, the loop rule of exact-cover data); its notes are the puzzle's warnings.
    """
    progress = progress or Progress()
    spec = get_spec(family)
    if spec.from_problem is not None and isinstance(text, Problem):  # xcc: built in Python
        text = spec.from_problem(text)
    if isinstance(text, str):
        from . import formats

        memory.check_fits(
            f"encoding this {spec.name} ({len(text)} characters)",
            spec.cells_bytes(len(text), max(1, text.count("\n"))),
        )
        progress.set_phase("reading the puzzle")
        puzzle = formats.read(spec.name, text, format)
    elif spec.encoding_bytes is not None:  # not a board (xcc)
        puzzle = text
        memory.check_fits(f"encoding this {spec.name}", spec.encoding_bytes(puzzle))
    else:
        puzzle = text
        if spec.picture is not None:
            height, width = spec.picture.size(puzzle)
            memory.check_fits(
                f"encoding this {height}x{width} {spec.name}",
                spec.cells_bytes(height * (width + 1), height),
            )
    if policy is not None and policy != Policy():
        puzzle = spec.prepare([puzzle], policy)[0][0]
    progress.set_phase("encoding")
    if spec.build is not None:
        # The problem built directly: the same as its data written and read (tests/test_batch.py),
        # without either -- a third to a half of a 10 x 10 Masyu's solve went there.
        return Prepared(spec.name, spec, puzzle, None, spec.build(puzzle))
    dlx_text = spec.encode(puzzle)
    progress.set_phase("reading the exact-cover data")
    return Prepared(spec.name, spec, puzzle, dlx_text, spec.problem(puzzle, dlx_text))


def check_model_fits(prep: Prepared, backend: str) -> None:
    """Refuse, before building it, a model that cannot fit in the memory limit (``backend``
    is a solver, or ``export``: the DIMACS text of ``dlxsat export``)."""
    entries = sum(len(o) for o in prep.problem.options)
    memory.check_fits(
        f"the {backend} model of this {prep.name} ({len(prep.problem.options)} options x "
        f"{len(prep.problem.items)} items, {entries} entries)",
        memory.estimate_bytes(backend, entries),
    )


#: The phase of a run while a backend searches (:class:`~dlxsat.runtime.guard.Progress`).
SEARCHING = "searching"


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
    deadline: Deadline | None = None,
    policy: Policy | None = None,
    progress: Progress | None = None,
    argue: bool = True,
    **options: Any,
) -> SolveReport:
    """Solve a puzzle given as text (in ``format``, detected when None; see :func:`prepare`)
    or as a puzzle object; ``policy`` is the family's (:class:`~dlxsat.families.spec.Policy`:
    Sudoku's boxes, the loop rule of exact-cover data).

    ``mode`` is ``unique`` (look for two answers: is there exactly one?), ``count`` (count them
    all) or ``all`` (return them all). ``options`` go to the solver, checked against its declared
    :data:`OPTIONS` (an option it does not take is an :class:`InputError`). ``timeout`` bounds
    the whole run -- reading, encoding, building the model and searching -- not only the search.
    ``deadline`` is the deadline of the run this call is part of (the CLI's), if any, and
    ``progress`` its figures (:class:`~dlxsat.runtime.guard.Progress`), which this call keeps
    up to date (None: figures of its own, which only a time out reports). ``argue``: a
    ``unique`` search may go by the family's argument (:func:`argued`), and a ``count`` on
    ``auto`` by the family's own counter (:func:`counted`); False: by its own problem only.

    >>> r = solve("sudoku", open("puzzles/sudoku/puzzlium-A.txt").read(), backend="dlx")
    >>> r.status, r.count, r.solutions[0]["grid"][1]
    ('unique', 1, '546132')
    """
    start = time.perf_counter()
    progress = progress or Progress()
    family = canonical(family)
    if mode not in MODES:
        raise InputError(f"unknown mode {mode!r} (choose from {', '.join(MODES)})")
    if timeout is not None and not timeout > 0:
        raise InputError(f"time limit must be positive: {timeout}")
    # One deadline: this call's, or the run's (the CLI's), whichever first; this call's own
    # is enforced by the alarm too, and its expiry is reported as a time out.
    scope = guard.Scope(deadline or Deadline.never(), Deadline.after(timeout))
    # A time limit of the run (the CLI's) is on everything, loading libraries included, and so
    # is one the alarm enforces; a library caller's own is on the work, as for the backends.
    loading_counts = (deadline is not None and deadline.at is not None) or scope.active
    try:
        with collector.fewer_collections():
            report = _solve(
                family,
                text,
                backend,
                mode,
                scope.deadline,
                options,
                start,
                format,
                loading_counts,
                policy,
                progress,
                argue,
            )
        if report.status == "timeout" and timeout is None:
            # The run's deadline, not one this caller asked for: it cannot take a partial
            # answer for a complete one, so the run stops (the guard reports the figures).
            progress.found(report.count or 0)
            raise guard.TimeUp()
        return report
    except guard.TimeUp as stop:
        # A caller that takes time-out reports (``timeout`` given, as the CLI's solve does)
        # gets one also when the alarm stops a search that overran its deadline: the figures
        # go where a backend that stops itself at the deadline puts them.
        overran = timeout is not None and progress.phase == SEARCHING
        if scope.owns(stop):
            guard.resume()
        elif overran:
            guard.overran()
        else:
            raise
        return SolveReport(
            family,
            backend or default_backend(family),
            "timeout",
            progress.count,
            [],
            time.perf_counter() - start,
            {"stopped": progress.phase},
        )
    finally:
        scope.close()


def _solve(
    family: str,
    text: str,
    backend: str | None,
    mode: str,
    deadline: Deadline,
    options: dict[str, Any],
    start: float,
    format: str | None = None,
    loading_counts: bool = True,
    policy: Policy | None = None,
    progress: Progress | None = None,
    argue: bool = True,
) -> SolveReport:
    progress = progress or Progress()
    backend = backend or default_backend(family)
    spec = spec_of(backend)
    options = spec.check(options, family=family)  # (each option, before reading the puzzle)
    prep = prepare(family, text, format, policy, progress=progress)
    spec.check(options, rules=rule_kinds(prep.problem))  # (a rule's mode, with its rule)
    spec.check_rules(prep.problem)
    check_model_fits(prep, backend)
    progress.set_phase(SEARCHING, backend)
    # Leave time to decode and check the answers found.
    search_deadline = deadline.reserve(CHECK_RESERVE, 0.5)
    result = None
    gave_up: dict[str, Any] | None = None
    if argue and mode == "unique" and spec.kind != "reasoning":
        result = argued(prep, backend, search_deadline, options, loading_counts, progress)
    elif argue and mode == "count" and backend == "auto":
        result, gave_up = counted(prep, search_deadline, loading_counts, progress)
    if result is None:
        result = run_solver(
            prep, backend, mode, search_deadline, options, loading_counts, progress=progress
        )
        if gave_up is not None:  # (the counter's figures beside the engine's)
            result.stats.update({f"counter_{k}": v for k, v in gave_up.items()})
        prep, result = widened(prep, result, backend, mode, search_deadline, options, progress)
    progress.found(result.count or 0)
    progress.set_phase("checking the answers")
    progress.count = result.count or 0
    answers = checked_answers(prep, result, backend, deadline)
    guard.finishing()
    return make_report(prep, backend, mode, result, answers, start)


def widened(
    prep: Prepared,
    result: SearchResult,
    backend: str,
    mode: str,
    deadline: Deadline,
    options: dict[str, Any],
    progress: Progress,
) -> tuple[Prepared, SearchResult]:
    """The puzzle solved again, wider, for as long as its family says the covers found show
    its model's bound too low (:class:`~dlxsat.families.spec.Bounded`: a Fillomino whose
    larger regions share a label); the last puzzle and its result. A count keeps no covers: the
    covers that use the bound are listed by a second search, of the family's probe."""
    bounded = prep.family.bounded
    while bounded is not None and not result.timed_out:
        covers = result.solutions
        if mode == "count":
            probe = bounded.probe(prep.puzzle, prep.problem)
            if probe is None:
                break
            probed = run_solver(replace(prep, problem=probe), backend, "all", deadline, options)
            if probed.timed_out:
                result.timed_out = True
                break
            covers = probed.solutions
        wider = bounded.wider(prep.puzzle, prep.problem, covers)
        if wider is None:
            break
        progress.set_phase("encoding a wider model")
        prep = prepare(prep.name, wider, progress=progress)
        check_model_fits(prep, backend)
        progress.set_phase("searching", backend)
        result = run_solver(prep, backend, mode, deadline, options, progress=progress)
    return prep, result


def argued(
    prep: Prepared,
    backend: str,
    deadline: Deadline,
    options: dict[str, Any],
    loading_counts: bool,
    progress: Progress,
) -> SearchResult | None:
    """The verdict of a ``unique`` search by the family's argument
    (:class:`~dlxsat.families.spec.Argument`), its two problems solved by ``backend``: up to
    two covers of the narrow one, then, after exactly one, one cover of the rest. The answers
    are decoded here (each problem names its own options) and checked by the caller as any
    other. None when the family has no argument, it does not apply, or the narrow problem
    has no cover (then the family's own problem decides)."""
    argument = prep.family.argument
    if argument is None:
        return None
    progress.set_phase("encoding the argument")
    pair = argument.problems(prep.puzzle)
    if pair is None:
        return None
    narrow, rest = pair
    figures: dict[str, Any] = {"argument": argument.name}
    answers: list[Answer] = []
    for phase, problem, limit in (("narrow", narrow, 2), ("rest", rest, 1)):
        part = replace(prep, problem=problem)
        check_model_fits(part, backend)
        progress.set_phase(SEARCHING, backend)
        found = run_solver(
            part,
            backend,
            "unique",
            deadline,
            options,
            loading_counts,
            progress=progress,
            limit=limit,
        )
        figures[phase] = {"count": found.count, "seconds": found.stats.get("seconds")}
        answers += [prep.family.decode(prep.puzzle, problem, c) for c in found.solutions]
        done = SearchResult(count=len(answers), stats={**found.stats, **figures}, answers=answers)
        if found.timed_out:
            done.timed_out = True
            return done
        if phase == "narrow" and not answers:
            return None  # every answer leaves what the narrow problem asks: no verdict here
        if len(answers) >= 2:
            return done  # two answers: multiple
    done.exhausted = True  # one answer, A, and nothing else reduces: the argument's proof
    done.steps = [f"{argument.name}: one answer of the narrow problem and none of the rest"]
    return done


def counted(
    prep: Prepared,
    deadline: Deadline,
    loading_counts: bool = True,
    progress: Progress | None = None,
) -> tuple[SearchResult | None, dict[str, Any] | None]:
    """A ``count`` on ``auto`` of a family with its own counter
    (:class:`~dlxsat.families.spec.Counter`): DLX on the exact problem for
    :data:`COUNT_TRIAL_SECONDS`, then, if it has not ended, the counter. (the result, None);
    or (None, the counter's figures) when it gave up on this puzzle and an engine must count;
    or (None, None) when the family has no counter. The counter's result lists no answer; its
    ``stats["counter"]`` names the counter, beside its figures."""
    counter = prep.family.counter
    if counter is None:
        return None, None
    trial_deadline = deadline.sooner(Deadline.after(COUNT_TRIAL_SECONDS))
    trial = run_solver(prep, "dlx", "count", trial_deadline, {}, loading_counts, progress=progress)
    if deadline.expired():
        return trial, None
    if not trial.timed_out:
        trial.stats["auto"] = {"engine": "dlx", "reason": "DLX ended within its trial"}
        return trial, None
    count, figures = counter.count(prep.puzzle, deadline)
    trial_seconds = trial.stats.get("seconds", 0.0)
    stats = {"counter": counter.name, **figures, "trial_seconds": trial_seconds}
    if count is not None:
        return SearchResult(count=count, exhausted=True, stats=stats), None
    if deadline.expired():
        return SearchResult(count=0, timed_out=True, stats=stats), None
    return None, {"name": counter.name, "gave_up": figures.get("gave_up")}


def checked_answers(
    prep: Prepared, result: SearchResult, backend: str, deadline: Deadline | None = None
) -> list[Answer]:
    """Every answer of ``result``, decoded and checked by the family's rules and checked
    distinct -- until ``deadline``: past it, the answers not yet checked are left out and the
    result is marked timed out (the report's ``stats["checked"]`` says how many were)."""
    answers: list[Answer] = []
    seen: set[AnswerKey] = set()
    for item in [*result.answers, *result.solutions]:
        if deadline is not None and deadline.expired():
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
        puzzle=prep.puzzle,
    )


def run_solver(
    prep: Prepared,
    backend: str,
    mode: str,
    deadline: Deadline,
    options: dict[str, Any],
    loading_counts: bool = True,
    *,
    progress: Progress | None = None,
    limit: int | None = None,
) -> SearchResult:
    """Run solver ``backend`` on a prepared puzzle in ``mode`` until ``deadline``, with
    ``options`` already checked against its spec (:meth:`SolverSpec.check`); ``limit``: stop
    after that many solutions (None: as ``mode`` says). The answers found go to
    ``progress``, the run's figures for its stop line (:mod:`dlxsat.runtime.guard`)."""
    progress = progress or Progress()
    spec = spec_of(backend)
    if deadline.expired():
        return SearchResult(count=0, timed_out=True)
    request = Request.for_mode(
        mode, deadline=deadline, on_found=progress.found, loading_counts=loading_counts
    )
    if limit is not None:
        request = replace(request, limit=limit)
    solver = spec.module()
    result: SearchResult
    if spec.kind == "reasoning":
        result = solver.solve(prep.name, prep.puzzle, request, options)
    else:
        result = solver.solve(prep.problem, request, options)
    # A library that catches SIGINT itself (``SPEC.catches_sigint``; OR-tools' CP-SAT) stops
    # the search, returns as if out of time, and leaves SIGINT at the default action. So the
    # handlers are put back, and a "time out" with no time limit is what it is: an interrupt.
    # (With a limit the two cannot be told apart from here -- CP-SAT may also give up a little
    # before its limit -- and it is reported as a time out.)
    guard.rearm()
    if spec.catches_sigint and result.timed_out and deadline.at is None:
        progress.found(result.count or 0)
        raise guard.Interrupted()
    return result


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
    """Why ``other`` disagrees with ``first`` (the empty string when they agree), judged by
    :func:`dlxsat.agreement.difference`."""
    from .agreement import difference

    return difference(_outcome(first), _outcome(other))


def _outcome(report: SolveReport) -> Any:
    from .agreement import Outcome

    answers = frozenset(answer_key(a) for a in report.solutions) if report.solutions else None
    return Outcome(report.backend, report.status, report.count, answers)


def crosscheck_report(
    family: str,
    text: str,
    report: SolveReport,
    backends: list[str],
    *,
    mode: str = "unique",
    deadline: Deadline | None = None,
    progress: Progress | None = None,
) -> list[Agreement]:
    """Solve again with each of ``backends`` (defaults) within ``deadline`` and compare
    (``progress``: the run's figures, as :func:`solve` has them).

    This is the cross-check dlxsat promises on every ``solve``: the native DLX backend (or the
    backends named) must reach the same status and the same answers.
    """
    rows = []
    for name in backends:
        remaining = None if deadline is None else deadline.remaining()
        if remaining is not None and remaining <= 0:
            rows.append(Agreement(name, "timeout", None, 0.0, True))
            continue
        other = solve(
            family,
            text,
            backend=name,
            mode=mode,
            timeout=remaining,
            deadline=deadline,
            progress=progress,
        )
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
    progress: Progress | None = None,
    **options: Any,
) -> Iterator[SolveReport]:
    """Solve many puzzles of ``family``; one :class:`SolveReport` per puzzle, in order.

    ``texts`` are puzzle texts (in any format of :mod:`dlxsat.formats`, detected), or puzzles
    already read (the objects ``read_puzzle`` returns), or a mix. Every input is read and
    checked, and the arguments too, *before* the first puzzle is solved: a bad one is an
    :class:`InputError` naming it (``puzzle 3: ...``), raised by this call itself, not half-way
    through the reports. ``timeout`` bounds each puzzle's solve, not the whole batch; ``mode``
    and ``options`` are those of :func:`solve`, ``progress`` the run's figures (the answers
    of a search that runs alone).

    The problem of each puzzle is built directly (the family's ``build``: the same
    :class:`~dlxsat.xcc.Problem` as parsing its DLX text, without writing that text). Sudokus
    on dlx or auto go faster still, when there are many of them: texts in the common forms of
    a file are read as arrays (the family's ``read_bulk``), and the puzzles of one shape go to
    the solver's batch path (:func:`dlxsat.solvers.solve_many`, with the family's template of
    the shape, :class:`dlxsat.solvers.Template`): the empty grid's problem laid out once per
    shape, chunks of puzzles in one call of the compiled kernel each, their clues pre-covered
    (:mod:`dlxsat.backends.dlx.batch`; under ``auto`` that is each puzzle's DLX trial, then
    ``auto``'s choice: :func:`dlxsat.backends.auto.solve_many`). Either way every answer is
    decoded and judged by the family's rules (on the batch path by its template, on the
    chunks as arrays; a failure by its checker), as in :func:`solve`.

    >>> texts = [open("puzzles/sudoku/puzzlium-A.txt").read()] * 2
    >>> [(r.status, r.solutions[0]["grid"][1]) for r in solve_many("sudoku", texts, backend="dlx")]
    [('unique', '546132'), ('unique', '546132')]
    """
    fam = get_spec(family)
    family = fam.name
    if mode not in MODES:
        raise InputError(f"unknown mode {mode!r} (choose from {', '.join(MODES)})")
    if timeout is not None and not timeout > 0:
        raise InputError(f"time limit must be positive: {timeout}")
    backend = backend or default_backend(family, many=True)
    rules = None if fam.whole_file else fam.rules  # (exact-cover data: their own)
    options = spec_of(backend).check(options, rules=rules, family=family)
    # A family may read many puzzles faster than one by one: all at once, the texts in its
    # common forms (sudoku: a file's one-line or 9 x 9 texts, as arrays), then the others one
    # by one, with shared work (sudoku: box groups read once).
    given = list(texts)
    batch = fam.batch or Batch()
    bulk_reader = batch.read_bulk
    read_already = bulk_reader(given) if bulk_reader is not None else [None] * len(given)
    read = batch.many_reader() if batch.many_reader is not None else fam.read
    puzzles = [
        p if p is not None else _read_input(fam, family, read, x, k)
        for k, (x, p) in enumerate(zip(given, read_already, strict=True), 1)
    ]
    return _solve_each(family, fam, puzzles, backend, mode, timeout, options, progress)


def _read_input(fam: FamilySpec, family: str, read: Any, given: Any, k: int) -> Any:
    """Input ``k`` (1-based) of :func:`solve_many` as a puzzle of ``fam`` (``read``: its
    reader of texts)."""
    if isinstance(given, str):
        from . import formats

        try:
            name = formats.detect(family, given)
            return read(given) if name == "knuth" else formats.read(family, given, name)
        except InputError as e:
            raise InputError(f"puzzle {k}: {e}") from None
    if not _is_puzzle_of(fam, given):
        raise InputError(
            f"puzzle {k}: a {type(given).__name__} is neither a text nor a {family} puzzle"
        )
    return given


def _is_puzzle_of(fam: FamilySpec, given: Any) -> bool:
    from .families import family_of

    try:
        return family_of(given) is fam
    except InputError:
        return False


def build_problem(fam: FamilySpec, puzzle: Any) -> Problem:
    """The exact-cover problem of ``puzzle``: the family's direct builder when it has one, else
    its DLX text read (the two agree: tests/test_batch.py)."""
    return fam.build_problem(puzzle)


def _solve_each(
    family: str,
    fam: FamilySpec,
    puzzles: list[Any],
    backend: str,
    mode: str,
    timeout: float | None,
    options: dict[str, Any],
    progress: Progress | None,
) -> Iterator[SolveReport]:
    """The reports of :func:`solve_many`, in order: each puzzle solved alone, or -- when the
    solver has a batch path (its ``SPEC.batch``: from that many puzzles on, no options) and
    the family a template of the puzzle's shape (its ``batch.template``) -- each run of puzzles
    of one shape handed to the solver's batch path (:func:`dlxsat.solvers.solve_many`), what it
    settles checked here. No name of either is asked."""
    spec = spec_of(backend)
    template_of = fam.batch.template if fam.batch is not None else None
    if template_of is None or not spec.batch or options or len(puzzles) < spec.batch:
        for puzzle in puzzles:
            yield _solve_alone(family, fam, puzzle, backend, mode, timeout, options, progress)
        return
    counting = mode == "count"
    k = 0
    while k < len(puzzles):
        template = template_of(puzzles[k])  # None: not a shape for the batch path
        if template is None:
            yield _solve_alone(family, fam, puzzles[k], backend, mode, timeout, options, progress)
            k += 1
            continue
        end = template.fitting(puzzles, k + 1, len(puzzles))
        on_found = progress.found if progress is not None else None
        for settled in solve_many_with(backend, template, puzzles[k:end], mode, timeout, on_found):
            # (The common case, one answer the template judged right, costs nothing more:
            # this runs for every puzzle of a file of Sudokus, some 25 microseconds each.)
            answers = settled.answers
            if settled.problem is not None or not settled.obeys or len(answers) > 1:
                answers = _checked_settled(family, fam, backend, settled)
            stats = settled.stats
            stats["checked"] = len(answers)
            yield SolveReport(
                family,
                backend,
                status_of(mode, settled),
                settled.count,
                [] if counting else answers,
                settled.seconds,
                stats,
                settled.steps,
                settled.puzzle,
            )
        k = end


def _solve_alone(
    family: str,
    fam: FamilySpec,
    puzzle: Any,
    backend: str,
    mode: str,
    timeout: float | None,
    options: dict[str, Any],
    progress: Progress | None = None,
) -> SolveReport:
    """One puzzle of a batch solved as :func:`solve` solves it (its problem built directly)."""
    start = time.perf_counter()
    deadline = Deadline.after(timeout)
    prep = Prepared(family, fam, puzzle, None, build_problem(fam, puzzle))
    result = run_solver(prep, backend, mode, deadline, options, progress=progress)
    answers = checked_answers(prep, result, backend)
    return make_report(prep, backend, mode, result, answers, start)


def _checked_settled(family: str, fam: FamilySpec, backend: str, settled: Settled) -> list[Answer]:
    """The answers of a puzzle the solver's batch path settled, checked: decoded and checked
    as :func:`solve`'s when they are options of the puzzle's own problem; else as the family's
    template read them back, the family's checker asked for the message of one the template
    judged wrong (:attr:`Settled.obeys <dlxsat.result.Settled.obeys>`), and none twice."""
    if settled.problem is not None:
        prep = Prepared(family, fam, settled.puzzle, None, settled.problem)
        return checked_answers(prep, settled, backend)
    answers = settled.answers
    if not settled.obeys:
        prep = Prepared(family, fam, settled.puzzle, None, Problem([], []))
        for answer in answers:
            check_answer(prep, answer, backend)  # the family's own message
    if len(answers) > 1 and len({answer_key(a) for a in answers}) < len(answers):
        raise RuleViolation(f"backend {backend} returned the same answer twice")
    return answers


def solved_answer(
    family: str,
    puzzle: Any,
    where: str = "",
    timeout: float | None = None,
    progress: Progress | None = None,
) -> tuple[Any, str]:
    """The answer ``convert --with-answer`` writes, and a warning ("" when none): the puzzle
    solved with the default backend; a puzzle with no answer is an error, one with several
    gets the first found. ``where`` heads the messages (``record K: ``); ``progress``: the
    run's figures."""
    report = solve(family, puzzle, timeout=timeout, progress=progress)
    if report.status == "timeout":
        raise InputError(f"{where}the time limit was reached before an answer was found")
    if not report.solutions:
        raise InputError(f"{where}the puzzle has no answer to write")
    warning = ""
    if report.status == "multiple":
        warning = f"{where}the puzzle has more than one answer; writing the first found"
    return report.solutions[0], warning
