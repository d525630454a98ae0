"""``dlxsat compare``: run a grid of solver settings over a corpus of puzzles, record every job.

Each (puzzle, setting) is one job, run in a worker process with a hard time limit and a memory
limit (:mod:`.worker`: a worker runs jobs one after another, and is replaced when one fails or
passes its limits); its record (docs/store.md) is appended to a JSON Lines store
(:mod:`.store`) as soon as it ends. Running the same command again runs only the jobs the store
lacks. Every run cross-checks the finished jobs of each puzzle, those stored before included
(:mod:`.agreement`): a disagreement is printed on stderr and the command exits 4.

The modules: :mod:`.settings` (the ``--settings`` grid, from the solver registry), :mod:`.corpus`
(puzzle files, folders, globs), :mod:`.jobs` (one job and its record), :mod:`.worker` (jobs in
forked processes, killed at their limits), :mod:`.runner` (local cores or Dask), :mod:`.store`,
:mod:`.agreement`, :mod:`.export` (a corpus as DIMACS files with a manifest), :mod:`.schedule`
(the order the jobs start in: the longest predicted first).
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import InputError
from ..exits import Exit
from ..runtime import guard


@dataclass
class Outcome:
    """What a comparison did: jobs run and skipped, the statuses, and the disagreements."""

    planned: int = 0
    ran: int = 0
    skipped: int = 0
    #: Jobs left to another run on the same store at the same time (it claimed them first).
    elsewhere: int = 0
    statuses: Counter[str] = field(default_factory=Counter)
    notes: list[str] = field(default_factory=list)
    disagreements: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def all_failed(self) -> bool:
        """Whether this run ran jobs and every one of them ended in ``error``."""
        return self.ran > 0 and self.statuses["error"] == self.ran

    @property
    def exit_status(self) -> Exit:
        """The command's exit status (:class:`~dlxsat.exits.Exit`): ``DISAGREE`` (4) on a
        disagreement, ``BUG`` (1) when every job of the run ended in error (nothing was
        compared), ``LIMIT`` (3) when a job reached its time or memory limit, else ``OK``."""
        if self.disagreements:
            return Exit.DISAGREE
        if self.all_failed:
            return Exit.BUG
        return Exit.LIMIT if self.timed_out else Exit.OK

    @property
    def timed_out(self) -> bool:
        """Whether a job of this run was stopped by its time or memory limit."""
        return bool(self.statuses["timeout"] or self.statuses["memout"])


def plan(
    family: str,
    puzzles: Sequence[str],
    specs: Sequence[str],
    presets: Sequence[str] = (),
    *,
    mode: str = "unique",
    timeout: float | None = None,
    memory_mb: float | None = None,
    format: str | None = None,
    loop: bool = False,
) -> tuple[list[Any], list[str]]:
    """The jobs of a comparison, puzzle by puzzle, and notes on the settings skipped; with
    ``loop`` every job asks exact-cover data (``xcc``) for a single loop, as ``dlx --loop``
    does, each setting with its loop mode (an input error naming a file whose data do not
    follow the loop convention, before any job runs)."""
    from .corpus import load
    from .jobs import Job
    from .settings import for_family, grid

    if mode not in ("unique", "count"):
        raise InputError(f"unknown mode {mode!r} (choose from unique, count)")
    from ..families import get_spec
    from ..families.spec import Policy

    spec = get_spec(family)
    spec.prepare([], Policy(loop=loop))  # a policy the family refuses, before any file is read
    copies: list[str] = []
    loaded = load(puzzles, family, format, copies, loop)
    rules = set(spec.rules) | {"loop"} if loop else set(spec.rules)
    if spec.whole_file:  # exact-cover data: the rules each file declares
        rules |= {k for p in loaded for k in p.rules}
    settings, notes = for_family(grid(specs, presets), family, rules)
    if not settings:
        raise InputError(f"no setting applies to {family} ({'; '.join(notes)})")
    jobs = [
        Job(
            puzzle=p.path,
            text=p.text,
            puzzle_sha256=p.sha256,
            family=family,
            backend=s.backend,
            setting=s.text,
            options=dict(s.options),
            keywords=s.keywords(),
            mode=mode,
            timeout=timeout,
            memory_mb=memory_mb,
            format=p.format,
            size=p.size,
            loop=loop,
        )
        for p in loaded
        for s in settings
    ]
    notes = copies + notes
    return jobs, notes


def compare(
    family: str,
    puzzles: Sequence[str],
    specs: Sequence[str],
    presets: Sequence[str] = (),
    *,
    output: str = "results.jsonl",
    mode: str = "unique",
    timeout: float | None = 60.0,
    memory_mb: float | None = None,
    jobs: int | None = None,
    dask: str | None = None,
    redo: bool = False,
    quiet: bool = False,
    format: str | None = None,
    worker_jobs: int | None = None,
    on_plan: Callable[[Outcome], None] | None = None,
    loop: bool = False,
    progress: guard.Progress | None = None,
) -> Outcome:
    """Run the comparison (see the module's docstring); the store at ``output`` grows.

    ``worker_jobs`` bounds the jobs one worker process runs (None: no bound; 1: a fresh
    process for every job). ``loop``: the single-loop rule for exact-cover data (see
    :func:`plan`). ``on_plan`` is called with the outcome so far (jobs planned and
    skipped, notes on the settings skipped) before any job runs. ``progress`` is the run's
    figures (:class:`~dlxsat.runtime.guard.Progress`): from the first job on, the jobs stored.
    """
    from ..runtime.deadline import seconds_of
    from ..runtime.host import cores
    from . import store
    from .agreement import disagreements
    from .runner import Progress as Bar
    from .runner import run_dask, run_local

    timeout = seconds_of(timeout)  # inf: no limit
    if memory_mb is not None and not 0 < memory_mb < 1 << 40:
        raise InputError(f"--memory must be a positive number of megabytes, not {memory_mb}")
    if jobs is not None and jobs < 1:
        raise InputError(f"--jobs must be at least 1, not {jobs}")
    if dask:
        from .runner import check_dask

        check_dask()  # before the store is created: a run that cannot start leaves nothing
    if worker_jobs is not None and worker_jobs < 1:
        raise InputError(f"--worker-jobs must be at least 1, not {worker_jobs}")
    todo, notes = plan(
        family,
        puzzles,
        specs,
        presets,
        mode=mode,
        timeout=timeout,
        memory_mb=memory_mb,
        format=format,
        loop=loop,
    )
    out = Outcome(planned=len(todo), notes=notes)
    figures = progress or guard.Progress()
    # The cross-check covers these puzzles' records, those of earlier runs included.
    planned_puzzles = {j.puzzle_sha256 for j in todo}
    stored = {r["job"]: r for r in store.read(output)}
    created = store.touch(output)
    try:
        job_limits = {"timeout": timeout, "memory_mb": memory_mb}
        if not redo:
            todo = [j for j in todo if not _stored(j, stored.get(j.id), job_limits)]
        out.skipped = out.planned - len(todo)
        # The longest predicted jobs first, from what the store knows of similar ones (a long
        # job started last ends the run alone: :mod:`.schedule`).
        from .schedule import longest_first

        todo = longest_first(todo, stored.values())
        if on_plan is not None:
            on_plan(out)

        def sink(record: dict[str, Any]) -> None:
            store.append(output, record)
            out.ran += 1
            figures.found(out.ran)  # the figures of the line printed if the run is stopped
            out.statuses[record["status"]] += 1
            if record["status"] == "error":
                out.errors.append(f"{record['puzzle']} with {record['setting']}: {record['error']}")

        sharing = store.Sharing(
            output,
            lambda _, r: r.get("family") == family and store.is_done(r, job_limits),
            redo,
        )

        def claim(job: Any) -> bool:
            if sharing.claim(job.id, job.timeout):
                return True
            out.elsewhere += 1
            return False

        bar = Bar(len(todo), quiet)
        # A stopped run says how many jobs it stored (the stop line counts solutions otherwise).
        figures.set_phase("running the jobs")
        figures.found(0)
        figures.unit = ("job stored", "jobs stored")
        try:
            if dask:
                run_dask(todo, dask, sink, bar, worker_jobs, claim)
            else:
                run_local(todo, jobs or cores(), sink, bar, worker_jobs, claim)
        finally:
            bar.close()
            sharing.release()
        records = [
            r
            for r in store.read(output, warn=False)
            if r["puzzle_sha256"] in planned_puzzles and r["mode"] == mode
        ]
        out.disagreements = disagreements(records)
        return out
    finally:
        if created:  # a run that stored nothing (no cluster, a full disk) leaves no store
            store.remove_if_empty(output)


def _stored(job: Any, record: dict[str, Any] | None, limits: dict[str, Any]) -> bool:
    """Whether ``record`` (the store's record with ``job``'s id, if any) makes ``job`` done.

    The job id (docs/store.md) does not name the family: a text read as two families (a grid of
    digits is a Slitherlink and a SuperSlitherlink) has one id, so the family is checked here.
    """
    from . import store

    return (
        record is not None and record.get("family") == job.family and store.is_done(record, limits)
    )


def print_notes(out: Outcome) -> None:
    """The notes on the settings skipped, on stderr (before the jobs run)."""
    for note in out.notes:
        print(f"dlxsat: note: {note}", file=sys.stderr)


def print_outcome(out: Outcome, output: str) -> None:
    """The summary on stdout, errors and (loudly) disagreements on stderr."""
    for e in out.errors[:5]:
        print(f"dlxsat: warning: job failed: {e}", file=sys.stderr)
    if len(out.errors) > 5:
        print(f"dlxsat: warning: ... and {len(out.errors) - 5} more failed", file=sys.stderr)
    for d in out.disagreements:
        print(f"dlxsat: DISAGREEMENT: {d}", file=sys.stderr)
    if out.all_failed:
        print(f"dlxsat: error: all {out.ran} jobs of this run failed (see above)", file=sys.stderr)
    statuses = ", ".join(f"{n} {s}" for s, n in sorted(out.statuses.items()))
    elsewhere = f", {out.elsewhere} run by another compare on it" if out.elsewhere else ""
    print(
        f"{out.planned} jobs: {out.ran} run, {out.skipped} already in {output}{elsewhere}"
        + (f" ({statuses})" if statuses else "")
    )
    if out.disagreements:
        print(f"{len(out.disagreements)} disagreement(s): see stderr")
