"""The order a comparison's jobs start in: the longest predicted first.

Workers take the next job as they come free, so a long job started last ends the run alone
while the others wait: on a 16-core machine, 520 jobs taken in the order the corpus and the
settings list them (the slow settings of the largest boards last) took 1.87 x the time no
schedule can beat. Starting the longest first (Graham's LPT rule) ends within 4/3 of the best
schedule whatever the times, and far closer on many small jobs; it needs the jobs' times, which
are predicted (:func:`predict`) from what the store already knows of similar jobs and, failing
that, from the board's size:

1. a stored record of the job itself (a run with ``--redo``): its time;
2. records of the same family, setting and mode on other boards: their times fitted against
   the boards' cells (``log t = a + b log cells``, the exponent within
   :data:`EXPONENTS`), read at this board's size;
3. the same with the records of the same solver, any options;
4. nothing known: :data:`PRIOR_SECONDS` at 100 cells, growing as cells to the
   :data:`PRIOR_EXPONENT` -- the size alone orders the jobs.

``benchmarks/schedule.py`` replays a recorded run (``benchmarks/data``) under each order.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from .jobs import Job

#: With nothing stored, a job's predicted seconds at 100 cells, and the power of its cells they
#: grow with: a SAT Masyu job of the 16-core record took 0.03 s on 10 x 10, 0.4 s on 20 x 36
#: (an exponent of 1.3; CP-SAT's lazy loop 1.5-2). Only the order matters here.
PRIOR_SECONDS = 0.03
PRIOR_EXPONENT = 1.5
#: The exponents a fit may give (a fit on two close sizes can say anything).
EXPONENTS = (0.5, 4.0)


def cells(size: Sequence[int] | None, text: str = "") -> float:
    """A board's cells (rows x columns), or for data without a board its text's length
    over 10 (some proxy of its size)."""
    if size and len(size) == 2 and size[0] > 0 and size[1] > 0:
        return float(size[0] * size[1])
    return max(1.0, len(text) / 10)


class Predictor:
    """Predicted seconds for jobs, from the store's records (:func:`predict` in order)."""

    def __init__(self, records: Iterable[dict[str, Any]]) -> None:
        self.exact: dict[str, float] = {}
        by_setting: dict[tuple[str, str, str], list[tuple[float, float]]] = defaultdict(list)
        by_backend: dict[tuple[str, str, str], list[tuple[float, float]]] = defaultdict(list)
        for r in records:
            seconds = r.get("wall_seconds")
            if not isinstance(seconds, (int, float)) or seconds <= 0 or r.get("status") == "error":
                continue
            self.exact[str(r.get("job"))] = float(seconds)
            point = (math.log(cells(r.get("size"))), math.log(seconds))
            family, mode = str(r.get("family")), str(r.get("mode"))
            by_setting[family, str(r.get("setting")), mode].append(point)
            by_backend[family, str(r.get("backend")), mode].append(point)
        self.setting_fits = {k: _fit(v) for k, v in by_setting.items()}
        self.backend_fits = {k: _fit(v) for k, v in by_backend.items()}

    def seconds(self, job: Job) -> float:
        """``job``'s predicted seconds."""
        known = self.exact.get(job.id)
        if known is not None:
            return known
        x = math.log(cells(job.size, job.text))
        for fits, key in (
            (self.setting_fits, (job.family, job.setting, job.mode)),
            (self.backend_fits, (job.family, job.backend, job.mode)),
        ):
            fit = fits.get(key)
            if fit is not None:
                return math.exp(fit[0] + fit[1] * x)
        return PRIOR_SECONDS * math.exp(PRIOR_EXPONENT * (x - math.log(100.0)))


def _fit(points: list[tuple[float, float]]) -> tuple[float, float]:
    """``(a, b)`` of ``y = a + b x`` by least squares over ``points``, ``b`` within
    :data:`EXPONENTS` (:data:`PRIOR_EXPONENT` when the sizes do not differ)."""
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    vx = sum((x - mx) ** 2 for x, _ in points)
    b = sum((x - mx) * (y - my) for x, y in points) / vx if vx > 1e-9 else PRIOR_EXPONENT
    b = min(max(b, EXPONENTS[0]), EXPONENTS[1])
    return my - b * mx, b


def longest_first(jobs: Sequence[Job], records: Iterable[dict[str, Any]] = ()) -> list[Job]:
    """``jobs`` in the order to start them: the longest predicted first (equal predictions
    keep their order).

    >>> a = Job("a", "", "", "masyu", "sat", "sat", {}, {}, size=(10, 10))
    >>> b = Job("b", "", "", "masyu", "sat", "sat", {}, {}, size=(20, 36))
    >>> [j.puzzle for j in longest_first([a, b])]  # nothing stored: the size decides
    ['b', 'a']
    >>> old = [{"job": "x", "family": "masyu", "setting": "sat", "backend": "sat",
    ...         "mode": "unique", "size": [10, 10], "wall_seconds": 9.0, "status": "unique"}]
    >>> c = Job("c", "", "", "masyu", "sat", "sat", {}, {}, size=(10, 10))
    >>> d = Job("d", "", "", "masyu", "cpsat", "cpsat", {}, {}, size=(20, 36))
    >>> [j.puzzle for j in longest_first([d, c], old)]  # sat took 9 s on such boards
    ['c', 'd']
    """
    predictor = Predictor(records)
    predicted = [predictor.seconds(j) for j in jobs]
    order = sorted(range(len(jobs)), key=lambda i: -predicted[i])
    return [jobs[i] for i in order]
