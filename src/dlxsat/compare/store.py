"""The results store: a JSON Lines file, one record per job, appended atomically.

The format is fixed by ``docs/store.md`` (shared with ``dlxsat report``, which reads it with
:func:`read_records` too). Each record is one line written by a single ``os.write`` on a file
opened with ``O_APPEND``, under a ``flock`` of the store: concurrent writers interleave whole
lines, and a process killed mid-run leaves no partial line behind. A line cut short anyway (a
disk that filled up, a copy cut short) is skipped by the reader with a warning, and ended with
a newline by the next writer (:func:`append`). Stores merge by concatenation; when a job appears
twice the last record wins. Two runs on one store share its jobs (:class:`Sharing`).

>>> len(job_id("masyu", "ab" * 32, "sat", "unique"))
16
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import platform
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from ..errors import InputError
from ..runtime.host import running, start_ticks

#: Statuses of a job stopped by a limit: re-run on resume when the new limit is larger.
LIMITED = {"timeout": "timeout", "memout": "memory_mb"}


def job_id(
    family: str, puzzle_sha256: str, setting: str, mode: str, loop_rule: bool = False
) -> str:
    """The identity of a job, for resume: a hash of the family, the puzzle's text, the setting
    and the mode. The family is part of it because one text can be a puzzle of two families (a
    SuperSlitherlink without letters is a Slitherlink); so is ``loop_rule`` (exact-cover data
    asked for one loop, ``compare xcc --loop``: another question of the same text), which
    leaves every other job's id as it was.

    >>> job_id("xcc", "ab" * 32, "dlx", "count") != job_id("xcc", "ab" * 32, "dlx", "count", True)
    True
    """
    key = f"{family}\n{puzzle_sha256}\n{setting}\n{mode}" + ("\nloop" if loop_rule else "")
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def answer_hash(answers: Iterable[dict[str, Any]]) -> str | None:
    """sha256 of the canonical JSON of the sorted answers (None when there is none).

    Each answer is written as JSON with sorted keys and no spaces; the list of them is sorted by
    that text, so the hash does not depend on the order a solver found them in.

    >>> answer_hash([]) is None
    True
    >>> answer_hash([{"grid": ["12", "21"]}, {"grid": ["21", "12"]}]) == answer_hash(
    ...     [{"grid": ["21", "12"]}, {"grid": ["12", "21"]}])
    True
    """
    texts = sorted(_canonical(a) for a in answers)
    if not texts:
        return None
    return hashlib.sha256(("[" + ",".join(texts) + "]").encode()).hexdigest()


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def append(path: str, record: dict[str, Any]) -> None:
    """Add ``record`` to the store at ``path`` as one line, in one write, under the store's lock.

    A store whose last line was cut short (a full disk, a copy cut, ``truncate``) does not end
    in a newline: the newline is written first, so the new record starts a line of its own and
    only the cut record is lost (its job has no record, so the next run runs it again). A line
    that cannot be written whole (a full disk) is taken back: the store is left as it was,
    and the error names it.
    """
    line = (json.dumps(record, sort_keys=False, separators=(",", ":")) + "\n").encode()
    with locked(path) as fd:
        size = os.fstat(fd).st_size
        if size and os.pread(fd, 1, size - 1) != b"\n":
            line = b"\n" + line
        _append_whole(fd, size, line, path)


def _append_whole(fd: int, size: int, data: bytes, path: str) -> None:
    """Write ``data`` at the end of ``fd`` (opened with ``O_APPEND``, ``size`` bytes long, its
    lock held), all of it (:func:`dlxsat.outputs.write_all`), or none: a write cut short is
    truncated away and told as an :class:`~dlxsat.outputs.OutputError` naming ``path``."""
    from ..outputs import OutputError, write_all

    try:
        write_all(lambda b: write_some(fd, b), data, path)
    except OSError as e:
        try:
            os.ftruncate(fd, size)
        except OSError:
            pass  # the reader skips a cut line (docs/store.md)
        raise OutputError(f"{path}: cannot write the results: {e.strerror or e}") from None


def write_some(fd: int, data: Any) -> int:
    """One ``os.write`` of the store's lines (the seam a test replaces to stand for a full
    disk)."""
    return os.write(fd, data)


@contextmanager
def locked(path: str) -> Iterator[int]:
    """The store at ``path`` opened for appending (created if need be) and locked (``flock``):
    the appends and claims of two ``compare`` runs on one store take turns."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
    except OSError as e:
        raise InputError(f"{path}: cannot write the results: {e.strerror}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield fd
    except OSError as e:
        raise InputError(f"{path}: cannot write the results: {e.strerror or e}") from None
    finally:
        os.close(fd)  # (closing releases the lock)


def touch(path: str) -> bool:
    """Create the store at ``path`` if it does not exist: a store that cannot be written is an
    input error before any job runs, not after the first one. Whether it was created (then
    :func:`remove_if_empty` takes it back when the run stores nothing)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_EXCL, 0o644)
    except FileExistsError:
        created = False
        try:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND)
        except OSError as e:
            raise InputError(f"{path}: cannot write the results: {e.strerror}") from None
    except OSError as e:
        raise InputError(f"{path}: cannot write the results: {e.strerror}") from None
    else:
        created = True
    os.close(fd)
    return created


def remove_if_empty(path: str) -> None:
    """Remove the store at ``path`` if it holds nothing (a run that created it and then could
    not run or store a single job: no empty file that looks like a store)."""
    try:
        with locked(path) as fd:
            if os.fstat(fd).st_size == 0:
                os.unlink(path)
    except (InputError, OSError):
        pass


def parse_lines(text: str, path: str) -> tuple[list[tuple[int, dict[str, Any]]], list[str]]:
    """The records of store text ``text`` (read from ``path``), in order, each with its line
    number, and warnings: the one rule for lines that are not records (docs/store.md).

    A line that does not parse is a record cut short, skipped with a warning, when it is the
    last line, or when it begins as every record does (``{``): a cut line that a later writer
    ended with a newline, or that a concatenation of stores put in the middle. Any other line
    that is not a JSON object with a ``job`` makes the file not a store (an input error naming
    the line).

    >>> records, warnings = parse_lines('{"job": "a"}\\n{"job": "b", "st\\n{"job": "c"}\\n', "s")
    >>> [(n, r["job"]) for n, r in records], warnings
    ([(1, 'a'), (3, 'c')], ['s: line 2: skipped a record cut short'])
    """
    # Not splitlines(): a JSON string may hold U+2028 and the like, which it splits at.
    lines = text.split("\n")
    last = max((k for k, line in enumerate(lines) if line.strip()), default=-1)
    records: list[tuple[int, dict[str, Any]]] = []
    cut: list[int] = []
    for k, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError:
            if k == last or line.lstrip().startswith("{"):
                cut.append(k + 1)
                continue
            record = None
        if not isinstance(record, dict) or "job" not in record:
            raise InputError(f"{path}: line {k + 1}: not a JSON record of a results store")
        records.append((k + 1, record))
    warnings = []
    if cut:
        what = "a last line that does not parse" if cut == [last + 1] else "a record cut short"
        more = f" and {len(cut) - 1} more like it" if len(cut) > 1 else ""
        warnings.append(f"{path}: line {cut[0]}: skipped {what}{more}")
    return records, warnings


def read_records(path: str) -> tuple[list[tuple[int, dict[str, Any]]], list[str]]:
    """Every record of the store at ``path`` in file order with its line number, and the
    warnings of :func:`parse_lines`; an :class:`InputError` when the file cannot be read."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        raise InputError(f"{path}: no such results store") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, not a results store") from None
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"{path}: cannot read: {getattr(e, 'strerror', None) or e}") from None
    return parse_lines(text, path)


def read(path: str, *, warn: bool = True) -> list[dict[str, Any]]:
    """The records of the store at ``path`` (none when it does not exist yet), the last record
    of each job only, in the order of their last appearance (lines that are not records: see
    :func:`parse_lines`; the warnings go to stderr when ``warn``). A file without a single
    record is not a store: an input error.
    """
    if not os.path.exists(path):
        return []
    records, warnings = read_records(path)
    if warnings and not records:
        raise InputError(f"{path}: no records in the results store, only lines cut short")
    if warn:
        for w in warnings:
            print(f"dlxsat: warning: {w}", file=sys.stderr)
    latest: dict[str, dict[str, Any]] = {}
    for _, record in records:
        latest.pop(record["job"], None)
        latest[record["job"]] = record
    return list(latest.values())


def is_done(record: dict[str, Any], limits: dict[str, Any]) -> bool:
    """Whether a stored ``record`` makes its job unnecessary under ``limits``.

    A job stopped by a limit runs again when that limit is now larger (or gone).
    """
    key = LIMITED.get(record.get("status", ""))
    if key is None:
        return True
    before = (record.get("limits") or {}).get(key)
    now = limits.get(key)
    if before is None:
        return True
    return now is not None and now <= before


class Sharing:
    """The jobs of one ``compare`` run, shared with other runs on the same store at the same
    time: before a job starts, :meth:`claim` looks, under the store's lock, at the records
    appended since it last looked and at the claims of the other runs (``STORE.claims``, one
    JSON line per claim), and claims the job only when neither has it. So two runs of one
    command on one store run each job once between them.

    A claim names its process (host, pid, start time): on this machine it is void once that
    process has ended (a run killed by SIGKILL leaves claims that no longer count); a claim
    from another machine counts until its job's time limit (plus a minute) has passed, or for
    good when the job has none (then delete ``STORE.claims`` by hand if that run died).
    ``done(job_id, record)`` says whether a stored record makes a job unnecessary.
    """

    def __init__(self, path: str, done: Callable[[str, dict[str, Any]], bool], redo: bool) -> None:
        self.path = path
        self.claims_path = path + ".claims"
        self.done = done
        # With --redo only what other runs store from now on counts as done.
        self.offset = os.path.getsize(path) if redo and os.path.exists(path) else 0
        self.stored: dict[str, dict[str, Any]] = {}
        # The process, and which of its runs (a process may run one comparison after another).
        self.me = f"{_process_identity(os.getpid())}:{os.urandom(4).hex()}"
        self.mine: set[str] = set()

    def claim(self, job_id: str, timeout: float | None) -> bool:
        """Whether this run should run job ``job_id`` (then it is claimed for this run)."""
        with locked(self.path) as fd:
            self._catch_up(fd)
            record = self.stored.get(job_id)
            if record is not None and self.done(job_id, record):
                return False
            holder = _claims(self.claims_path).get(job_id)
            if holder is not None and holder.get("who") != self.me and _live(holder):
                return False
            until = None if timeout is None else time.time() + timeout + CLAIM_GRACE
            entry = {"job": job_id, "who": self.me, "host": platform.node(), "until": until}
            self.mine.add(job_id)  # (before the write: a claims file begun is released)
            self._write_claim((json.dumps(entry) + "\n").encode())
            return True

    def _write_claim(self, line: bytes) -> None:
        """Append one claim to the claims file, whole or not at all."""
        try:
            fd = os.open(self.claims_path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError as e:
            raise InputError(f"{self.claims_path}: cannot write: {e.strerror}") from None
        try:
            _append_whole(fd, os.fstat(fd).st_size, line, self.claims_path)
        finally:
            os.close(fd)

    def release(self) -> None:
        """Drop this run's claims (and void ones); the claims file goes when none is left."""
        if not self.mine:
            return
        with locked(self.path):
            kept = [c for c in _claims(self.claims_path).values() if c.get("who") != self.me]
            kept = [c for c in kept if _live(c)]
            try:
                if kept:
                    text = "".join(json.dumps(c) + "\n" for c in kept)
                    with open(self.claims_path, "w", encoding="utf-8") as f:
                        f.write(text)
                else:
                    os.unlink(self.claims_path)
            except OSError:
                pass  # a claims file left behind only holds void claims
        self.mine.clear()

    def _catch_up(self, fd: int) -> None:
        """Read the whole lines appended to the store since the last look."""
        size = os.fstat(fd).st_size
        if size <= self.offset:
            return
        data = os.pread(fd, size - self.offset, self.offset)
        end = data.rfind(b"\n") + 1
        if not end:
            return
        self.offset += end
        for line in data[:end].split(b"\n"):
            try:
                record = json.loads(line)
            except ValueError:
                continue  # a cut line: its job has no record (docs/store.md)
            if isinstance(record, dict) and "job" in record:
                self.stored[str(record["job"])] = record


#: Seconds a claim from another machine outlives its job's time limit (the worker's start,
#: the record's way back).
CLAIM_GRACE = 60.0


def _process_identity(pid: int) -> str:
    """``host:pid:start``: a process, told apart from a later one given the same pid (its start
    time in clock ticks since boot, from /proc; 0 where there is no /proc)."""
    return f"{platform.node()}:{pid}:{start_ticks(pid)}"


def _claims(path: str) -> dict[str, dict[str, Any]]:
    """The latest claim of each job in the claims file at ``path``."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
    except OSError:
        return {}
    out: dict[str, dict[str, Any]] = {}
    for line in lines:
        try:
            claim = json.loads(line)
        except ValueError:
            continue
        if isinstance(claim, dict) and "job" in claim:
            out[str(claim["job"])] = claim
    return out


def _live(claim: dict[str, Any]) -> bool:
    """Whether ``claim``'s run may still be running its job."""
    who = str(claim.get("who", ""))
    host, pid, start, _ = (who.split(":") + ["", "", "", ""])[:4]
    if host == platform.node() and pid.isdigit() and start.isdigit():
        return running(int(pid), int(start))
    until = claim.get("until")
    return until is None or time.time() < float(until)
