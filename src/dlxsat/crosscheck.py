"""Solve each puzzle with several backends and compare what they found.

Every backend enumerates all answers (``mode="all"``), so agreement means the same count and the
same set of answers, not just the same first answer. A disagreement is the most important thing
dlxsat can report: it means one backend (or an encoding) is wrong.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from .answer import AnswerKey, answer_key
from .errors import InputError
from .families import get_spec
from .families.spec import Policy
from .inputs import puzzle_text
from .pipeline import solve
from .runtime.guard import Progress


@dataclass
class CrossRow:
    """One puzzle's results: per backend count, seconds and answer set; do they agree?"""

    file: str
    counts: dict[str, int | None] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    answers: dict[str, set[AnswerKey]] = field(default_factory=dict)
    timed_out: bool = False
    agree: bool = True
    difference: str = ""
    load_seconds: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "load_seconds": {b: round(s, 6) for b, s in self.load_seconds.items()},
            "counts": self.counts,
            "seconds": {b: round(s, 6) for b, s in self.seconds.items()},
            "agree": self.agree,
            "timed_out": self.timed_out,
            "difference": self.difference,
        }


def compare(row: CrossRow) -> None:
    """Set ``row.agree`` and ``row.difference`` from the backends' results (every one ran in
    ``all`` mode: a count is the total), judged by :func:`dlxsat.agreement.difference`."""
    from .agreement import Outcome, difference

    done = [b for b in row.counts if row.counts[b] is not None]
    outcomes = [Outcome(b, "counted", row.counts[b], frozenset(row.answers[b])) for b in done]
    for other in outcomes[1:]:
        why = difference(outcomes[0], other)
        if why:
            row.agree, row.difference = False, why
            return


def crosscheck(
    family: str,
    files: list[str],
    backends: list[str],
    timeout: float | None = None,
    format: str | None = None,
    loop: bool = False,
    progress: Progress | None = None,
    rules: str | None = None,
) -> list[CrossRow]:
    """Run every backend on every file (in ``format``, detected when None); a row per file.
    With ``loop``, exact-cover data (``xcc``) obey the single-loop rule (``dlx --loop``'s),
    each backend with its default loop mode. Every file is read first: a bad one (or, with
    ``loop``, one whose data do not follow the loop convention) is an input error naming it,
    before any backend runs. ``progress``: the run's figures
    (:class:`~dlxsat.runtime.guard.Progress`); ``rules``: which of the family's sets of rules
    (``--rules``)."""
    if len(backends) < 2:
        raise InputError("crosscheck needs at least two backends (e.g. --backends dlx,sat)")
    from .solvers import search_solvers

    searchers = search_solvers()
    for b in backends:
        if b not in searchers:
            raise InputError(f"unknown backend {b!r} (choose from {', '.join(searchers)})")
    rows = []
    spec = get_spec(family)
    policy = Policy(loop=loop, rules=rules)
    spec.prepare([], policy)  # a policy the family refuses is refused before any file is read
    # Every input read and checked before any work; an error names its file.
    puzzles = [(f, read_puzzle(family, f, puzzle_text(f), format, policy)) for f in files]
    load_seconds = load_backends(backends)
    for path, puzzle in puzzles:
        row = CrossRow(path)
        for b in backends:
            report = solve(
                family, puzzle, backend=b, mode="all", timeout=timeout, progress=progress
            )
            row.seconds[b] = report.seconds
            if report.status == "timeout":
                row.timed_out = True
                row.counts[b] = None
                continue
            row.counts[b] = report.count
            row.answers[b] = {answer_key(a) for a in report.solutions}
        compare(row)
        rows.append(row)
    for row in rows[:1]:
        row.load_seconds = load_seconds
    return rows


def read_puzzle(family: str, path: str, text: str, format: str | None, policy: Policy) -> Any:
    """The puzzle of ``text`` (from file ``path``) as the family's ``policy`` makes it (the
    single-loop rule of exact-cover data), or an input error naming the file."""
    from .formats import read

    try:
        return get_spec(family).prepare([read(family, text, format)], policy)[0][0]
    except InputError as e:
        raise InputError(f"{path}: {e}") from None


def load_backends(backends: list[str]) -> dict[str, float]:
    """Load each backend's libraries and compiled code, timed apart from solving.

    Without this the first puzzle's row would carry the import of OR-tools or numba's kernel
    loading (a second or more) and make the first backend look slow.
    """
    from .solvers import get_solver

    seconds = {}
    for b in backends:
        start = time.perf_counter()
        load = getattr(get_solver(b), "load", None)
        if load is not None:
            load()
        seconds[b] = time.perf_counter() - start
    return seconds


def format_table(rows: list[CrossRow]) -> str:
    """A small text table: one line per puzzle, count and time per backend, verdict."""
    if not rows:
        return ""
    backends = list(rows[0].counts)
    width = max(len("(libraries, once)"), *(len(r.file) for r in rows))
    head = f"{'puzzle':<{width}}  " + "  ".join(f"{b:>16}" for b in backends) + "  verdict"
    lines = [head]
    loads = rows[0].load_seconds
    if loads:
        load = "  ".join(f"{'load ' + format(loads[b], '.3f') + 's':>16}" for b in backends)
        lines.append(f"{'(libraries, once)':<{width}}  {load}")
    for r in rows:
        cells = []
        for b in backends:
            n = r.counts[b]
            cells.append(f"{'timeout' if n is None else n:>7} {r.seconds[b]:7.3f}s")
        verdict = "agree" if r.agree else f"DISAGREE: {r.difference}"
        if r.agree and r.timed_out:
            verdict = "agree (some timed out)"
        lines.append(f"{r.file:<{width}}  " + "  ".join(f"{c:>16}" for c in cells) + f"  {verdict}")
    return "\n".join(lines) + "\n"


def backend_list(text: str) -> list[str]:
    """A comma-separated list of search backends, each checked against the registry.

    >>> backend_list("dlx, sat")
    ['dlx', 'sat']
    """
    from .solvers import search_solvers

    names = [b.strip() for b in text.split(",") if b.strip()]
    known = search_solvers()
    for b in names:
        if b not in known:
            raise InputError(f"unknown backend {b!r} (choose from {', '.join(known)})")
    if not names:
        raise InputError("no backend named (e.g. dlx,sat)")
    return names
