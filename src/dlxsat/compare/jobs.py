"""One job of a comparison -- a puzzle solved with one setting -- and the record it makes.

:func:`run_job` is what a worker process executes; it goes through the same pipeline as
``dlxsat solve`` (:func:`dlxsat.pipeline.prepare`, :func:`~dlxsat.pipeline.run_solver`, the
family's ``decode`` and ``check``, :func:`dlxsat.result.status_of`), so a comparison measures
what users run. It never raises: whatever happens becomes the record's ``status`` (``error`` with
a one-line message, ``memout`` after a :class:`MemoryError`).
"""

from __future__ import annotations

import functools
import math
import platform
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from ..runtime.memory import peak_rss_mb
from ..solvers import WARM_UP_PROBLEM, spec_of, warm_up_problem
from .store import answer_hash, job_id

__all__ = ["WARM_UP_PROBLEM", "Job", "run_job", "warm"]


@dataclass(frozen=True)
class Job:
    """Everything a worker needs to run one job (picklable, no open files: it may travel to a
    Dask worker on another machine)."""

    puzzle: str
    text: str
    puzzle_sha256: str
    family: str
    backend: str
    setting: str
    options: dict[str, Any] = field(hash=False)
    keywords: dict[str, Any] = field(hash=False)
    mode: str = "unique"
    timeout: float | None = None
    memory_mb: float | None = None
    format: str | None = None
    size: tuple[int, int] | None = None
    #: Exact-cover data asked for a single loop (``compare xcc --loop``): DLX2-LOOP's rule.
    loop: bool = False

    @property
    def id(self) -> str:
        return job_id(self.family, self.puzzle_sha256, self.setting, self.mode, self.loop)

    @property
    def grace(self) -> float:
        """How long past ``timeout`` the worker may take before it is killed: the solvers stop
        themselves at the time limit, this covers the decoding and checking after it."""
        return 0.5 + 0.1 * (self.timeout or 0.0)


@functools.cache
def _solver_version(backend: str, cmd: str | None) -> str:
    return solver_version(backend, {"cmd": cmd} if cmd else None)


def solver_version(backend: str, options: dict[str, Any] | None = None) -> str:
    """``library version`` of the solver's library (the first of its ``SPEC.libraries``), or
    dlxsat's version for its own code, or what its ``SPEC.version`` says (``external``: the
    program's name and what its ``--version`` says)."""
    from importlib.metadata import PackageNotFoundError, version

    import dlxsat

    spec = spec_of(backend)
    if spec.version is not None:
        return spec.version(options or {})
    libraries = spec.libraries
    if not libraries:
        return f"dlxsat {dlxsat.__version__}"
    library = libraries[0]
    try:
        return f"{library} {version(library)}"
    except PackageNotFoundError:
        return f"{library} (version unknown)"


def base_record(job: Job) -> dict[str, Any]:
    """The fields of ``job``'s record known before it runs (the parent fills in the rest when
    the worker dies without a word). Field order is that of docs/store.md."""
    import dlxsat

    record = {
        "job": job.id,
        "puzzle": job.puzzle,
        "puzzle_sha256": job.puzzle_sha256,
        "family": job.family,
        "size": list(job.size) if job.size else None,
        "setting": job.setting,
        "backend": job.backend,
        "options": job.options,
        "mode": job.mode,
        "status": "error",
        "count": None,
        "answer_sha256": None,
        "error": None,
        "wall_seconds": 0.0,
        "stats": {},
        "peak_rss_mb": None,
        "start_rss_mb": None,
        "worker_job": None,
        "limits": {"timeout": job.timeout, "memory_mb": job.memory_mb},
        "dlxsat_version": dlxsat.__version__,
        # Cached: found once in the process that forks the workers (it costs tens of ms).
        "solver_version": _solver_version(job.backend, job.options.get("cmd")),
        "machine": platform.node(),
        "arch": platform.machine(),
        "python": platform.python_version(),
        "finished": "",
    }
    if job.loop:  # (only then: every other record stays as it was; docs/store.md)
        at = list(record).index("mode") + 1
        items = list(record.items())
        record = dict([*items[:at], ("loop_rule", True), *items[at:]])
    return record


def now_iso() -> str:
    """The current UTC time in ISO 8601, to the second."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def jsonable(value: Any) -> Any:
    """``value`` with numpy scalars and other oddities made plain JSON values."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if hasattr(value, "item"):  # numpy scalar
        return jsonable(value.item())
    return str(value)


def run_job(job: Job) -> dict[str, Any]:
    """Solve ``job`` here and now; its full record (never raises, except on interrupt)."""
    from ..errors import InputError, RuleViolation

    start = time.perf_counter()
    record = base_record(job)
    try:
        record.update(_solve(job, start))
    except MemoryError:
        record["status"] = "memout"
    except (InputError, RuleViolation) as e:
        record["error"] = f"{type(e).__name__}: {e}".splitlines()[0]
    except Exception as e:  # a crash of a solver library is a result to record, not a stop
        record["error"] = f"{type(e).__name__}: {e}".splitlines()[0]
    record["wall_seconds"] = round(time.perf_counter() - start, 6)
    record["peak_rss_mb"] = peak_rss_mb()
    record["finished"] = now_iso()
    return record


def _solve(job: Job, start: float) -> dict[str, Any]:
    from ..families.spec import Policy
    from ..pipeline import CHECKED_WHEN_COUNTING, check_answer, prepare, run_solver
    from ..result import status_of
    from ..runtime.deadline import Deadline
    from .corpus import board_size

    deadline = Deadline.after(job.timeout)
    # (the parent checked that the data follow the loop convention, with --loop)
    prep = prepare(job.family, job.text, job.format, Policy(loop=job.loop))
    out: dict[str, Any] = {"size": board_size(prep.puzzle)}  # (as the parent found it)
    # The keywords were checked when the settings were read (compare.settings).
    result = run_solver(prep, job.backend, job.mode, deadline, dict(job.keywords), False)
    answers = list(result.answers)
    for chosen in result.solutions:
        answers.append(prep.family.decode(prep.puzzle, prep.problem, chosen))
    for answer in answers:
        check_answer(prep, answer, job.backend)
    status = status_of(job.mode, result)
    complete = job.mode != "count" or (
        result.count is not None and len(answers) == result.count <= CHECKED_WHEN_COUNTING
    )
    out.update(
        status=status,
        count=result.count,
        # A count above what is kept has no full answer set to hash: only the count is compared.
        answer_sha256=answer_hash(answers) if complete else None,
        stats=jsonable(result.stats),
    )
    return out


#: Held while a solver warms up and while a worker is forked: a thread of a Dask worker must not
#: fork while another is half-way through loading a library (numba's compiler lock, held at the
#: fork, would stay locked forever in the child).
FORK_LOCK = threading.Lock()


def warm(job: Job) -> None:
    """Load what ``job`` needs -- the pipeline, its family, its solver's libraries and compiled
    kernels, the provenance of its record -- in this process, once, so that the workers forked
    from it start with them: a job then measures solving, not importing."""
    global _GENERATION
    with FORK_LOCK:
        key = (job.family, job.backend, job.options.get("cmd"))
        if key not in _WARMED:
            _GENERATION += 1
            _WARMED.add(key)
            from .. import pipeline
            from ..families import get_spec

            del pipeline  # imported for the workers' sake
            get_spec(job.family)
            base_record(job)
            _warm(job.backend)


def _warm(backend: str) -> None:
    if backend in _WARMED:
        return
    _WARMED.add(backend)
    spec = spec_of(backend)
    if spec.kind != "search" or not spec.public:  # (not a program outside dlxsat)
        return
    from ..solvers import solve_problem

    solver = spec.module()
    try:
        for kinds in ((), ("loop",)):
            solve_problem(warm_up_problem(kinds), backend, keep=0, timeout=10.0)
        # What the tiny problem does not reach: the dancing-links kernels start interpreted
        # and load their compiled tier (numba, 0.3 s) only when a search outgrows it, which
        # would put that load inside the first long job of every worker.
        load = getattr(solver, "load", None)
        if load is not None:
            load()
    except Exception:  # a failing warm-up only costs time; the job itself reports errors
        pass


_WARMED: set[Any] = set()
_GENERATION = 0


def warm_generation() -> int:
    """How many times :func:`warm` loaded something new: a worker forked at an older generation
    lacks it."""
    return _GENERATION
