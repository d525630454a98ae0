"""Tables from a results store of ``dlxsat compare``: one row per setting (issue 13, item 5).

A store is a JSON Lines file of job records (the contract is docs/store.md: one record per puzzle ×
setting). Several stores are read as if concatenated, and when a job appears more than once the
last record wins -- so a store re-run with ``--redo`` or merged from several machines with
``cat`` reports each job once. A last line that does not parse is what a killed writer would
leave behind: it is skipped with a warning. Any other line that does not parse is an error,
since the store is then damaged somewhere in the middle.

The figures follow the SAT competitions: a job is *solved* when it finished with a definite
status (``unique``, ``multiple``, ``none``, ``counted``); the PAR-2 score of a setting is the
sum of its solved jobs' times plus twice the time limit for each unsolved one (timeout, memout,
stalled, error), so a lower score is better and giving up is never cheaper than finishing. All
times are the records' ``wall_seconds`` (what the job cost in its worker, from reading the
puzzle to checking the answers; the libraries are loaded before the worker starts).
"""

from __future__ import annotations

import csv
import io
import json
import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .errors import InputError
from .result import DECIDED

#: The fields every record must have for a report (the rest of docs/store.md is optional here).
REQUIRED = ("job", "puzzle", "setting", "status", "wall_seconds")
#: The statistics averaged per setting: column name → the stats keys that give it, first found
#: wins (CP-SAT reports its model's size as ``constraints``, the SAT backend as ``clauses``).
MEANS = {"variables": ("variables",), "clauses": ("clauses", "constraints"), "rounds": ("rounds",)}
FORMATS = ("markdown", "csv", "json")


@dataclass
class Store:
    """The records of one or more stores, one per job (the last of each job id), in order of
    first appearance, with the warnings met while reading them."""

    records: list[dict[str, Any]]
    warnings: list[str]
    paths: list[str]


def read_store(paths: Sequence[str | Path]) -> Store:
    """Read the stores ``paths`` as one, keeping the last record of each job id.

    Raises :class:`InputError` (one line, naming file and line) for a missing or unreadable
    file, a line in the middle that is not a JSON object, a record without a required field,
    or no records at all.
    """
    from .compare.store import read_records

    by_job: dict[str, dict[str, Any]] = {}
    warnings: list[str] = []
    for path in paths:
        # The store's own reader: the same rule for lines that are not records as compare's.
        records, cut = read_records(str(path))
        warnings += cut
        for line, record in records:
            missing = [f for f in REQUIRED if f not in record]
            if missing:
                raise InputError(f"{path}: line {line}: record lacks {', '.join(missing)}")
            if not _is_time(record["wall_seconds"]):
                raise InputError(f"{path}: line {line}: wall_seconds is not a time")
            # Re-inserting moves nothing: a dict keeps a key where it was first put.
            by_job[str(record["job"])] = record
    if not by_job:
        raise InputError(f"{', '.join(map(str, paths))}: no records in the results store")
    return Store(list(by_job.values()), warnings, [str(p) for p in paths])


def _is_time(value: Any) -> bool:
    return (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and math.isfinite(value)
        and value >= 0
    )


def is_solved(record: dict[str, Any]) -> bool:
    """Did the job finish with a definite status?

    >>> [is_solved({"status": s}) for s in ("unique", "counted", "timeout", "memout", "error")]
    [True, True, False, False, False]
    """
    return record.get("status") in DECIDED


def time_limit(record: dict[str, Any], default: float | None = None) -> float | None:
    """The job's time limit: ``limits.timeout`` of its record, else ``default``.

    >>> time_limit({"limits": {"timeout": 30, "memory_mb": 2048}}), time_limit({}, 10.0)
    (30.0, 10.0)
    """
    limit = (record.get("limits") or {}).get("timeout")
    if isinstance(limit, (int, float)) and _is_time(limit) and limit > 0:
        return float(limit)
    return default


def group_key(record: dict[str, Any], modes: int) -> str:
    """The row a record belongs to: its setting, and its mode when the store mixes modes (a
    count of every answer and a look for two are different jobs, not comparable times), and
    ``loop rule`` for exact-cover data asked for a single loop (``compare xcc --loop``: another
    question of the same files).

    >>> group_key({"setting": "sat", "mode": "count", "loop_rule": True}, 2)
    'sat (loop rule, count)'
    """
    setting = str(record["setting"])
    tags = ["loop rule"] if record.get("loop_rule") else []
    tags += [str(record.get("mode", "?"))] if modes > 1 else []
    return f"{setting} ({', '.join(tags)})" if tags else setting


def by_setting(records: Iterable[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The records grouped by :func:`group_key`, in order of first appearance."""
    records = list(records)
    modes = len({r.get("mode") for r in records})
    groups: dict[str, list[dict[str, Any]]] = {}
    for r in records:
        groups.setdefault(group_key(r, modes), []).append(r)
    return groups


def puzzle_of(record: dict[str, Any]) -> tuple[Any, Any]:
    """Which puzzle a record is about: its family and text (the same text read as another
    family is another puzzle -- a plain SuperSlitherlink file is also a Slitherlink file --
    and exact-cover data asked for a single loop another than the same data without).

    >>> puzzle_of({"family": "masyu", "puzzle": "a.txt", "puzzle_sha256": "12ab"})
    ('masyu', '12ab')
    >>> puzzle_of({"family": "xcc", "puzzle": "a.dlx", "puzzle_sha256": "12ab", "loop_rule": True})
    ('xcc --loop', '12ab')
    """
    family = record.get("family")
    if record.get("loop_rule"):
        family = f"{family} --loop"
    return (family, record.get("puzzle_sha256") or record["puzzle"])


def _outcome_agrees(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Do two finished jobs on one puzzle agree? (:func:`dlxsat.agreement.difference`, the
    judgement ``compare`` makes too.)"""
    from .agreement import difference, record_outcome

    return not difference(record_outcome(a), record_outcome(b))


def disagreeing_jobs(records: Iterable[dict[str, Any]]) -> set[str]:
    """The job ids of solved jobs that disagree with another solved job on the same puzzle
    (:func:`puzzle_of`) and mode: what ``dlxsat compare`` reports loudly, counted per setting."""
    by_puzzle: dict[tuple[Any, Any], list[dict[str, Any]]] = {}
    for r in records:
        if is_solved(r):
            key = (puzzle_of(r), r.get("mode"))
            by_puzzle.setdefault(key, []).append(r)
    bad: set[str] = set()
    for jobs in by_puzzle.values():
        for i, a in enumerate(jobs):
            for b in jobs[i + 1 :]:
                if not _outcome_agrees(a, b):
                    bad.update((str(a["job"]), str(b["job"])))
    return bad


@dataclass
class Row:
    """One setting's figures; times in seconds, None where there is nothing to measure."""

    setting: str
    solved: int
    jobs: int
    par2: float | None
    total_seconds: float | None
    median_seconds: float | None
    worst_seconds: float | None
    mean_variables: float | None
    mean_clauses: float | None
    mean_rounds: float | None
    disagreements: int


def _mean_stat(records: list[dict[str, Any]], keys: tuple[str, ...]) -> float | None:
    values = []
    for r in records:
        stats = r.get("stats") or {}
        for key in keys:
            v = stats.get(key)
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                values.append(float(v))
                break
    return statistics.fmean(values) if values else None


def summarize(store: Store, timeout: float | None = None) -> list[Row]:
    """One :class:`Row` per setting of ``store``.

    ``timeout`` is the time limit for the PAR-2 score of jobs whose record has none; an unsolved
    job with no limit at all makes the score undefined, an :class:`InputError`.
    """
    bad = disagreeing_jobs(store.records)
    rows = []
    for setting, records in by_setting(store.records).items():
        solved = sorted(float(r["wall_seconds"]) for r in records if is_solved(r))
        par2 = sum(solved)
        for r in records:
            if is_solved(r):
                continue
            limit = time_limit(r, timeout)
            if limit is None:
                raise InputError(
                    f"setting {setting}: job on {r['puzzle']} ended '{r['status']}' and its "
                    "record has no time limit; give --timeout S for the PAR-2 score"
                )
            par2 += 2 * limit
        rows.append(
            Row(
                setting=setting,
                solved=len(solved),
                jobs=len(records),
                par2=par2,
                total_seconds=sum(solved) if solved else None,
                median_seconds=statistics.median(solved) if solved else None,
                worst_seconds=solved[-1] if solved else None,
                mean_variables=_mean_stat(records, MEANS["variables"]),
                mean_clauses=_mean_stat(records, MEANS["clauses"]),
                mean_rounds=_mean_stat(records, MEANS["rounds"]),
                disagreements=sum(str(r["job"]) in bad for r in records),
            )
        )
    return rows


def coverage_warnings(store: Store) -> list[str]:
    """A warning when the settings did not all run on the same puzzles: their PAR-2 scores and
    solved counts then measure different sets and do not compare."""
    groups = by_setting(store.records)
    sets = {s: {puzzle_of(r) for r in rs} for s, rs in groups.items()}
    if len({frozenset(p) for p in sets.values()}) <= 1:
        return []
    every = set().union(*sets.values())
    short = [f"{s} ({len(every - p)} missing)" for s, p in sets.items() if p != every]
    return ["settings ran on different puzzles, scores do not compare: " + ", ".join(short)]


#: The columns that appear only when some setting has a value for them.
_OPTIONAL = ("mean_variables", "mean_clauses", "mean_rounds")
_HEADERS = {
    "setting": "setting",
    "solved": "solved",
    "par2": "PAR-2 s",
    "total_seconds": "total s",
    "median_seconds": "median s",
    "worst_seconds": "worst s",
    "mean_variables": "variables",
    "mean_clauses": "clauses",
    "mean_rounds": "rounds",
    "disagreements": "disagreements",
}


def _columns(rows: list[Row]) -> list[str]:
    return [
        c for c in _HEADERS if c not in _OPTIONAL or any(getattr(r, c) is not None for r in rows)
    ]


def _cell(column: str, row: Row) -> str:
    value = getattr(row, column)
    if column == "solved":
        return f"{row.solved}/{row.jobs}"
    if value is None:
        return ""
    if column in _OPTIONAL:
        return f"{value:.1f}" if column == "mean_rounds" else f"{value:.0f}"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def format_markdown(rows: list[Row]) -> str:
    """A Markdown table, one line per setting, numbers right-aligned.

    >>> r = Row("sat", 2, 3, 20.5, 0.5, 0.25, 0.4, None, None, None, 0)
    >>> print(format_markdown([r]), end="")
    | setting | solved | PAR-2 s | total s | median s | worst s | disagreements |
    |:---|---:|---:|---:|---:|---:|---:|
    | sat | 2/3 | 20.500 | 0.500 | 0.250 | 0.400 | 0 |
    """
    cols = _columns(rows)
    lines = [
        "| " + " | ".join(_HEADERS[c] for c in cols) + " |",
        "|" + "|".join(":---" if c == "setting" else "---:" for c in cols) + "|",
    ]
    for row in rows:
        # A '|' inside a setting would end its cell.
        cells = [_cell(c, row).replace("|", "\\|") for c in cols]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def format_csv(rows: list[Row]) -> str:
    """CSV with one row per setting; every column always present, numbers at full precision,
    empty where a figure does not exist."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    fields = list(asdict(rows[0])) if rows else [f for f in Row.__dataclass_fields__]
    w.writerow(fields)
    for row in rows:
        w.writerow(["" if v is None else v for v in asdict(row).values()])
    return out.getvalue()


def format_json(rows: list[Row], store: Store, warnings: list[str]) -> str:
    """One JSON object: the stores read, the number of jobs, the warnings, and the rows."""
    doc = {
        "stores": store.paths,
        "jobs": len(store.records),
        "warnings": warnings,
        "settings": [asdict(r) for r in rows],
    }
    return json.dumps(doc, indent=2) + "\n"


def render(rows: list[Row], store: Store, warnings: list[str], fmt: str = "markdown") -> str:
    """The table of ``rows`` in format ``fmt`` (one of :data:`FORMATS`)."""
    if fmt == "csv":
        return format_csv(rows)
    if fmt == "json":
        return format_json(rows, store, warnings)
    if fmt == "markdown":
        return format_markdown(rows)
    raise InputError(f"unknown format {fmt!r} (choose from {', '.join(FORMATS)})")
