"""Python's cyclic garbage collector, run less often while a puzzle is solved.

Encoding a puzzle allocates containers by the ten thousand (options, clauses, a model's
lists), nearly none of them in reference cycles: reference counting frees them. CPython still
starts a collection of the youngest generation every 700 allocations (its default threshold),
every tenth of them one of the middle generation too, and now and then one of every object the
process holds -- numba's, OR-tools' and the imported modules' included. On small boards that
work is a visible share of a solve.

:func:`fewer_collections` raises the youngest generation's threshold for the length of a solve
(:func:`dlxsat.solve` and :func:`dlxsat.solve_problem` use it) and puts the caller's back
afterwards. Cycles are still collected, a hundred times less often; the collector stays on (a
solve that makes cyclic garbage round after round does not grow without bound), and a caller
that turned it off keeps it off.

>>> import gc
>>> before = gc.get_threshold()
>>> with fewer_collections():
...     gc.get_threshold()[0] == max(before[0], YOUNG_THRESHOLD)
True
>>> gc.get_threshold() == before
True
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

#: The youngest generation's threshold during a solve (CPython's default is 700). Measured
#: (2026-11-27, idle, one warm process with every engine loaded, each board solved with both
#: settings in a shuffled order, best of 3): 20 published 10 x 10 to 16 x 20 Slitherlinks
#: ``auto`` 435 -> 415 ms, ``sat`` 557 -> 516; ten boards each of five region and loop genres
#: ``sat`` 2-8 % less on each. A best of 7 on one 16 x 19 Slitherlink: ``auto`` 69.8 ms at
#: 700, 59.1 at 10,000, 57.3 at 100,000. 0 leaves the threshold alone.
YOUNG_THRESHOLD = 100_000

_lock = threading.Lock()
_depth = 0
_saved: tuple[int, ...] = ()


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Within it, the collector's youngest threshold is at least :data:`YOUNG_THRESHOLD`.
    Nested or concurrent uses (threads) share one raise: the first in saves the threshold, the
    last out puts it back."""
    global _depth, _saved
    with _lock:
        if _depth == 0:
            _saved = gc.get_threshold()
            if YOUNG_THRESHOLD > _saved[0]:
                gc.set_threshold(YOUNG_THRESHOLD, *_saved[1:])
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0:
                gc.set_threshold(*_saved)
