"""The results store: a JSON Lines file, one record per job, appended atomically.

The format is fixed by ``docs/store.md`` (shared with ``dlxsat report``). Each record is one
line written by a single ``os.write`` on a file opened with ``O_APPEND``: concurrent writers
interleave whole lines, and a process killed mid-run leaves no partial line behind (a reader
still skips, with a warning, a last line that does not parse -- a disk that filled up, a copy
cut short). Stores merge by concatenation; when a job appears twice the last record wins.

>>> len(job_id("masyu", "ab" * 32, "sat", "unique"))
16
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Iterable
from typing import Any

from ..errors import InputError

#: The statuses of a job that ran to its end (the others say the job did not decide anything).
FINISHED = ("unique", "multiple", "none", "counted")
#: Statuses of a job stopped by a limit: re-run on resume when the new limit is larger.
LIMITED = {"timeout": "timeout", "memout": "memory_mb"}


def job_id(family: str, puzzle_sha256: str, setting: str, mode: str) -> str:
    """The identity of a job, for resume: a hash of the family, the puzzle's text, the setting
    and the mode. The family is part of it because one text can be a puzzle of two families (a
    SuperSlitherlink without letters is a Slitherlink)."""
    key = f"{family}\n{puzzle_sha256}\n{setting}\n{mode}"
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def answer_hash(answers: Iterable[dict]) -> str | None:
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
    """Add ``record`` to the store at ``path`` as one line, in one write."""
    line = (json.dumps(record, sort_keys=False, separators=(",", ":")) + "\n").encode()
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    except OSError as e:
        raise InputError(f"{path}: cannot write the results: {e.strerror}") from None
    try:
        written = os.write(fd, line)
        if written != len(line):  # only on a full disk: the reader skips the cut line
            raise OSError(f"{path}: short write ({written} of {len(line)} bytes)")
    finally:
        os.close(fd)


def touch(path: str) -> None:
    """Create the store at ``path`` if it does not exist: a store that cannot be written is an
    input error before any job runs, not after the first one."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644))
    except OSError as e:
        raise InputError(f"{path}: cannot write the results: {e.strerror}") from None


def read(path: str, *, warn: bool = True) -> list[dict[str, Any]]:
    """The records of the store at ``path`` (none when it does not exist yet), the last record
    of each job only, in the order of their last appearance.

    A line that does not parse is skipped with a warning: a write cut short (a full disk), which
    a concatenation of stores may have put in the middle. A file without a single record is
    not a store: an input error.
    """
    if not os.path.exists(path):
        return []
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"{path}: cannot read the results: {e}") from None
    while lines and not lines[-1].strip():
        lines.pop()
    latest: dict[str, dict[str, Any]] = {}
    bad: list[int] = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            if not isinstance(record, dict) or "job" not in record:
                raise ValueError("not a record")
        except ValueError:
            bad.append(n)
            continue
        latest.pop(record["job"], None)
        latest[record["job"]] = record
    if bad and not latest:
        raise InputError(f"{path}: line {bad[0]}: not a record of a results store")
    if bad and warn:
        where = "the last line" if bad == [len(lines)] else f"line {bad[0]}"
        more = f" and {len(bad) - 1} more" if len(bad) > 1 else ""
        print(
            f"dlxsat: warning: {path}: {where}{more} cut short or not a record; skipped",
            file=sys.stderr,
        )
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
