"""Memory: one reader of ``/proc/self/status``, one meaning of ``--memory``, and the estimates
that refuse a model before it is built when it cannot fit.

**What ``--memory MB`` limits, for every command** (``solve`` and the rest for the whole run,
``compare`` for each job in its worker): the process's *data* -- ``RLIMIT_DATA``, the heap and
the private writable mappings (Linux 4.7 and later), which is where puzzles, models and answers
live. When it is reached an allocation fails and Python raises :class:`MemoryError`: one line
and exit status 3 from the CLI, status ``memout`` in a comparison's record.

Why not the address space (``RLIMIT_AS``, which ``compare`` used before): it counts memory
that is only reserved, never used, and the solver libraries reserve a great deal. Measured in
one process solving the 10 x 10 Tatham Masyu with each backend in turn (``VmSize`` / ``VmData``
/ ``VmRSS``): after ``sat`` 32 / 16 / 23 MB; after ``cpsat`` 411 / 144 / 104 MB -- CP-SAT's
first solve reserves 379 MB of address space for its thread arenas, of which 128 MB is data and
81 MB resident; numba and LLVM reserve about twice their 260 MB of data. Under ``RLIMIT_AS`` a
limit of 400 MB refused that CP-SAT solve outright; under ``RLIMIT_DATA`` a limit in MB means
about what a user expects, the same for ``solve`` and ``compare``.

>>> status_kb("VmData")["VmData"] > 0
True
>>> estimate_bytes("sat", 1000)
900000
"""

from __future__ import annotations

#: The default limit of a dlxsat process is this share of the memory the machine has available.
DEFAULT_SHARE = 0.75
#: ... but never below this many MB: loading numba and OR-tools alone takes about 260 MB of data.
MIN_DEFAULT_MB = 1024
#: Memory per option entry (item occurrence) of the DIMACS export with the eager loop encoding,
#: measured with ``benchmarks/memory.py`` on 100 x 100 loop boards (1450 bytes), rounded up: for
#: :func:`check_fits`. Each solver's own figures are in its ``SPEC`` (:mod:`dlxsat.solvers`).
EXPORT_BYTES_PER_ENTRY = 1600
#: (The memory of reading, encoding and parsing a puzzle is its family's figure: the spec's
#: ``bytes_per_cell`` or ``memory``, :meth:`dlxsat.families.spec.FamilySpec.cells_bytes`.)


class OverMemory(Exception):
    """A model would not fit in the memory limit (raised before building it); exit status 3."""

    code = 3


def status_kb(*fields: str) -> dict[str, int] | None:
    """This process's ``fields`` of ``/proc/self/status`` in KiB (``VmHWM``, ``VmRSS``,
    ``VmData``...); None where Linux does not give them all. The one reader of that file."""
    wanted = {f.encode() for f in fields}
    found = {}
    try:
        with open("/proc/self/status", "rb") as f:
            for line in f:
                key, _, value = line.partition(b":")
                if key in wanted:
                    found[key.decode()] = int(value.split()[0])
    except (OSError, ValueError, IndexError):
        return None
    return found if len(found) == len(wanted) else None


def data_in_use() -> int:
    """Bytes of data the process uses now (``VmData``: what :func:`set_limit` limits), 0 when
    unknown."""
    now = status_kb("VmData")
    return 0 if now is None else now["VmData"] * 1024


def peak_rss_mb() -> float:
    """This process's peak resident memory in MiB since :func:`reset_peak`: Linux's ``VmHWM``,
    or ``ru_maxrss`` (the peak since the process began) where there is no ``/proc``."""
    peak = status_kb("VmHWM")
    if peak is not None:
        return round(peak["VmHWM"] / 1024, 1)
    import resource

    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)  # KiB on Linux


def reset_peak() -> bool:
    """Start this process's peak memory (``VmHWM``) again from its present use, so that a worker
    that runs many jobs reports each job's own peak; False where Linux does not allow it."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        return False
    return True


def machine_memory_mb() -> int | None:
    """MemAvailable (else MemTotal) from ``/proc/meminfo``, in MB; None when unknown."""
    try:
        with open("/proc/meminfo") as f:
            info = dict(line.split(":", 1) for line in f)
    except (OSError, ValueError):
        return None
    for key in ("MemAvailable", "MemTotal"):
        if key in info:
            return int(info[key].split()[0]) // 1024
    return None


def default_memory_mb() -> int | None:
    """A safe share of the machine's memory: :data:`DEFAULT_SHARE` of what is available."""
    mb = machine_memory_mb()
    return None if mb is None else max(int(mb * DEFAULT_SHARE), MIN_DEFAULT_MB)


class _Limit:
    bytes: int | None = None  # the run's limit, for check_fits and the out-of-memory line


def set_limit(mb: float | None) -> None:
    """Limit this process's data to ``mb`` megabytes (``RLIMIT_DATA``, see the module doc) and
    refuse, from now on, a model estimated not to fit (:func:`check_fits`)."""
    if mb is None:
        return
    _Limit.bytes = limit_data(int(mb * (1 << 20)))


def limit_data(nbytes: int | None) -> int | None:
    """Set the soft ``RLIMIT_DATA`` to ``nbytes`` (None: back to the hard limit), never above
    the hard limit; the limit now in force (None: none). Where there is no ``resource``
    module, nothing is set and ``nbytes`` is returned: the estimates still apply."""
    try:
        import resource
    except ImportError:
        return nbytes
    _, hard = resource.getrlimit(resource.RLIMIT_DATA)
    want = hard if nbytes is None else nbytes
    if hard != resource.RLIM_INFINITY:
        want = min(want, hard)
    resource.setrlimit(resource.RLIMIT_DATA, (want, hard))
    return None if want == resource.RLIM_INFINITY else want


def limit_mb() -> int | None:
    """The limit set by :func:`set_limit`, in MB (None: none)."""
    return None if _Limit.bytes is None else _Limit.bytes >> 20


def forget_limit() -> None:
    """Forget the limit (in-process callers); the process's rlimit, once set, stays."""
    _Limit.bytes = None


def estimate_bytes(backend: str, entries: int) -> int:
    """The estimated memory of ``backend``'s model of a problem with ``entries`` entries, with
    its libraries (``backend`` is a solver, whose ``SPEC`` has the figures, or ``export``)."""
    if backend == "export":
        return EXPORT_BYTES_PER_ENTRY * entries
    from ..solvers import spec_of  # (the solvers stand above the runtime: asked, not imported)

    return spec_of(backend).model_bytes(entries)


def check_fits(what: str, needed: int) -> None:
    """Raise :class:`OverMemory`, with the estimate, when ``needed`` bytes more cannot fit."""
    if _Limit.bytes is None:
        return
    free = _Limit.bytes - data_in_use()
    if needed > free:
        raise OverMemory(
            f"{what} needs about {needed >> 20} MB, but only {max(free, 0) >> 20} MB of the "
            f"{_Limit.bytes >> 20} MB limit are free (raise it with --memory MB)"
        )
