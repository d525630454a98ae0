"""Results stores for the tests of ``dlxsat report``, written as docs/store.md says.

``dlxsat compare`` is the real writer; these helpers make the same records so that the report
can be tested on its own: :func:`record` builds one by hand, :func:`solve_store` solves bundled
puzzles in-process with :func:`dlxsat.pipeline.solve` and writes what a comparison would.
"""

from __future__ import annotations

import hashlib
import json
import platform
import sys
import time
from collections.abc import Iterable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import dlxsat
from dlxsat.compare.store import answer_hash, job_id
from dlxsat.solvers import options_of


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def record(
    puzzle: str,
    setting: str,
    status: str,
    seconds: float,
    *,
    timeout: float | None = 10.0,
    answer: str | None = "a",
    stats: dict[str, Any] | None = None,
    size: tuple[int, int] = (5, 5),
    mode: str = "unique",
    count: int | None = None,
    family: str = "slitherlink",
) -> dict[str, Any]:
    """A record of docs/store.md made by hand: ``answer`` stands for the answer's text (hashed)."""
    puzzle_sha = sha256(puzzle)
    solved = status in ("unique", "multiple", "none", "counted")
    backend = setting.split(":", 1)[0]
    return {
        "job": job_id(family, puzzle_sha, setting, mode),
        "puzzle": puzzle,
        "puzzle_sha256": puzzle_sha,
        "family": family,
        "size": list(size),
        "setting": setting,
        "backend": backend,
        "options": {},
        "mode": mode,
        "status": status,
        "count": count if count is not None else ({"unique": 1, "none": 0}.get(status)),
        "answer_sha256": sha256(answer) if solved and answer and status != "none" else None,
        "error": "boom" if status == "error" else None,
        "wall_seconds": seconds,
        "stats": stats or {},
        "peak_rss_mb": 50.0,
        "start_rss_mb": 20.0,
        "worker_job": 1,
        "limits": {"timeout": timeout, "memory_mb": 2048},
        "dlxsat_version": dlxsat.__version__,
        "solver_version": "test",
        "machine": "test",
        "python": platform.python_version(),
        "finished": "2026-01-01T00:00:00Z",
    }


def write_store(path: Path, records: Iterable[dict[str, Any]], tail: str = "") -> Path:
    """Append ``records`` to ``path`` as JSON Lines, then ``tail`` as it is (a broken line)."""
    with open(path, "a", encoding="utf-8") as f:
        for r in records:
            f.write(json.dumps(r) + "\n")
        f.write(tail)
    return path


def canonical_setting(backend: str, options: dict[str, str]) -> str:
    """docs/store.md's setting text: user keys sorted, defaults left out, the bare backend alone."""
    declared = {o.key: o for o in options_of(backend)}
    kept = {k: v for k, v in options.items() if str(declared[k].default) != v}
    if not kept:
        return backend
    return backend + ":" + ";".join(f"{k}={kept[k]}" for k in sorted(kept))


def solve_store(
    path: Path,
    puzzles: list[tuple[str, Path]],
    settings: list[tuple[str, dict[str, str]]],
    timeout: float = 60.0,
) -> Path:
    """Solve each (family, file) of ``puzzles`` with each (backend, user options) of
    ``settings`` in this process, and write one record per job to ``path``."""
    from dlxsat.pipeline import prepare, solve

    records = []
    for family, file in puzzles:
        text = file.read_text()
        puzzle = prepare(family, text).puzzle
        size = (puzzle.n, puzzle.n) if family == "sudoku" else (puzzle.m, puzzle.n)
        for backend, options in settings:
            setting = canonical_setting(backend, options)
            names = {o.key: o.name for o in options_of(backend)}
            start = time.perf_counter()
            r = solve(
                family,
                text,
                backend=backend,
                timeout=timeout,
                **{names[k]: v for k, v in options.items()},
            )
            seconds = time.perf_counter() - start
            puzzle_sha = sha256(text)
            records.append(
                {
                    "job": job_id(family, puzzle_sha, setting, "unique"),
                    "puzzle": str(file),
                    "puzzle_sha256": puzzle_sha,
                    "family": family,
                    "size": list(size),
                    "setting": setting,
                    "backend": backend,
                    "options": options,
                    "mode": "unique",
                    "status": r.status,
                    "count": r.count,
                    "answer_sha256": answer_hash(r.solutions),
                    "error": None,
                    "wall_seconds": seconds,
                    "stats": {k: v for k, v in r.stats.items() if isinstance(v, (int, float, str))},
                    "peak_rss_mb": None,
                    "start_rss_mb": None,
                    "worker_job": None,
                    "limits": {"timeout": timeout, "memory_mb": None},
                    "dlxsat_version": dlxsat.__version__,
                    "solver_version": str(r.stats.get("solver", backend)),
                    "machine": platform.node(),
                    "python": sys.version.split()[0],
                    "finished": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                }
            )
    return write_store(path, records)


#: The settings of :func:`forty_puzzles`, in the order of the store.
FORTY_SETTINGS = ("sat", "sat:loop=eager", "cpsat", "cpsat:loop=lazy")


def forty_puzzles() -> list[dict[str, Any]]:
    """A store of 40 Masyu puzzles × 4 settings (the size issue 22 times the HTML report at),
    with fixed pseudo-random times, three time outs of ``cpsat:loop=lazy`` and one
    disagreement: ``sat:loop=eager`` says ``none`` on ``bench-07`` where the others found an
    answer."""
    import random

    rng = random.Random(22)
    records = []
    for k in range(40):
        for j, setting in enumerate(FORTY_SETTINGS):
            status, seconds = "unique", round(rng.uniform(0.01, 3.0) * (j + 1), 4)
            if k % 13 == 5 and setting == "cpsat:loop=lazy":
                status, seconds = "timeout", 10.1
            if k == 7 and setting == "sat:loop=eager":
                status = "none"
            records.append(
                record(
                    f"puzzles/masyu-bench/bench-{k:02d}.txt",
                    setting,
                    status,
                    seconds,
                    size=(10 + k % 4 * 4, 10 + k % 3 * 8),
                    family="masyu",
                )
            )
    return records
