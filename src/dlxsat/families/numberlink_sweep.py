"""NumberLink's answers counted exactly by a sweep of the board, outside the exact cover.

NumberLink lets cells stay empty, so a board has answers by the thousand or the billion where
its numbers leave room (the corpus's ``424_12x12``: 7,392,504,629), and even a board with one
answer is slow to count on its exact-cover problem: every search must show that no path can
wander into the empty cells (``41_10x10``: DLX did not end within a minute). A count that
lists no answer need not look at answers one by one. This is the family's own count
(``FamilySpec.counter``), which ``solve --count`` uses on the default backend
(:func:`dlxsat.pipeline.counted`); a named backend counts the exact problem, so the two
cross-check each other (``solve --count --crosscheck``).

**The sweep** (a frontier or transfer-matrix method, as Knuth's SIMPATH and Yoshinaka et al.'s
ZDD counts of NumberLink go). Cells are taken row by row; after each, the *frontier* is the
board's cut between the cells taken and the others: one edge down from each column's last cell
taken, and the edge to the right of the cell just taken. A state labels each frontier edge:
``0`` no path; a *color* ``k`` (the value's index, 1 to K): the path there comes from a number
``k``; or an *open* label above K: a piece of path with both ends on the frontier and no number
yet, its two ends sharing the label. The states are counted, not listed: two ways to fill the
cells taken that leave the same labels finish the same ways. Taking a cell:

* a number (its value's color ``k``): exactly one of its four edges on. An edge coming in of
  color ``k`` ends that path; of another color, no answer; an open piece takes color ``k``
  (its other end too); with no edge coming in, a path of color ``k`` leaves down or right.
* an empty cell: none or two of its edges on. Two coming in join: two colors only if equal
  (a path ends), a color and an open piece (the piece takes the color), two open pieces (one
  piece, unless they are the same: a cycle, which the rules forbid); one coming in goes on down
  or right; none coming in: the cell stays empty, or an open piece starts there (down and right).

A board whose numbers of some value are odd in number has no answer (they pair up in any
answer); every step keeps a color's ends on the frontier and its numbers still to come even in
number, so no state needs that check. At the end the one state with no edge left counts the
answers. Open labels are renumbered in order of appearance, so equal frontiers
meet. ``?`` is a value of its own, as in the family (it pairs only with ``?``). Counts stop
growing at 2^62 (:data:`SATURATED`).

**Which way round.** The number of states, not of answers, bounds the sweep, and it depends
much on the way the board is swept: ``346_13x13`` has a peak of 5.4 million states swept as
given and 215,000 upside down (84 s against 3.4). No rule was found to tell the good way
beforehand, so :func:`sweep` tries them all on a ladder of limits (:data:`FIRST_LIMIT` states,
four times that, ... up to what memory allows), the ways that got furthest first; the first to
end gives the count. Measured on the corpus (``benchmarks/numberlink_sweep.py``,
``docs/genres/numberlink.md``): every board of at most 14 across in seconds to minutes; 15 x 15
boards take up to tens of minutes or more.

**Two tiers.** The kernels are plain Python here; sweeps run them interpreted until the
process has spent :data:`INTERPRETED_SECONDS` in them, then compiled by numba (its on-disk
cache keeps them: compiling takes some seconds once, loading from the cache a few tenths).
Small boards -- most counts asked of a test or a fresh process -- never import numba.

>>> sweep(((1, -1, 2), (-1, -1, -1), (1, -1, 2)), [1, 2]).count
7
"""

from __future__ import annotations

import time
import types
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InputError
from ..runtime import memory
from ..runtime.deadline import Deadline
from .codecs import BLANK

#: Where counts stop growing (they are kept in 64-bit words).
SATURATED = 1 << 62
#: The frontier's labels take 6 bits each, ten to a 64-bit word, at most three words a state
#: (two up to 19 columns: a 15 x 15 board's states take 24 bytes with their count).
LABEL_BITS, PER_WORD, WORDS = 6, 10, 3
#: A board's colors and open labels together stay under 2^6; its width under 30.
MAX_LABEL, MAX_WIDTH = (1 << LABEL_BITS) - 1, PER_WORD * WORDS - 1
#: The first rung of the ladder of state limits (:func:`sweep`).
FIRST_LIMIT = 250_000
#: Memory a state takes at the peak of a step: the next frontier's hash table (3 to 6 slots a
#: state, each its words and a count), the states kept and their counts (measured 100-170
#: bytes on 15 x 15 boards; the limit of states is what memory holds at this figure).
BYTES_A_STATE = 200
#: Memory for the limit of states when the run has none (``--memory``): this share of what the
#: machine has free.
MEMORY_SHARE = 0.5
#: Seconds of interpreted sweeping before the compiled kernels take over: about what loading
#: them costs once compiled (importing numba 0.3 s, loading the kernels from its cache 0.5 s,
#: measured 2026-11-29); compiled, a state costs some 0.4 microseconds a step (0.41 on
#: ``142_12x12`` beside another sweep, against 0.62-0.71 before the states were buffered by the
#: table's regions, :func:`_flush`, and the table kept from step to step, :func:`_pool`),
#: interpreted 25.
INTERPRETED_SECONDS = 0.8

#: States buffered before they are added to the next frontier's table (:func:`_flush`), and the
#: regions of the table they are put in order by: 2^REGION_BITS of them, each of at least
#: 2^MIN_REGION_BITS slots (smaller tables fit the cache: the states go in as they came).
#: Measured on ``142_12x12`` as given (2^23 slots at its peak; beside another sweep, within
#: some 10 %): 2^7, 2^9, 2^11 regions 486, 464, 539 ns a state a step; buffers of 2^16, 2^18,
#: 2^20 states 523, 464, 526.
BUFFERED, REGION_BITS, MIN_REGION_BITS = 1 << 18, 9, 10

_FREE = np.uint64(0xFFFFFFFFFFFFFFFF)  # an empty slot of the hash table (no state packs to it)
_SATURATED = np.uint64(SATURATED)


@dataclass(frozen=True)
class Sweep:
    """A board's sweep: its answers (None when no way round ended within the limit of states
    or before the deadline), the most states a frontier had, the seconds it took, the way
    round that ended, whether the compiled kernels ran and whether the deadline stopped it."""

    count: int | None
    peak: int
    seconds: float
    orientation: str
    compiled: bool = False
    timed_out: bool = False


# The kernels. Plain Python, compiled by numba where a sweep outgrows the interpreted tier
# (:func:`_compiled`): each helper is called through the module's namespace, which the
# compiled copies replace by their own.


def _hash(w: Any) -> Any:
    h = np.uint64(0x632BE59BD9B4E019)
    for x in range(w.shape[0]):
        h = (h ^ w[x]) * np.uint64(0x9E3779B97F4A7C15)
        h ^= h >> np.uint64(29)
    return h


def _add(table: Any, counts: Any, mask: Any, w: Any, v: Any, h: Any) -> int:
    """Add ``v`` answers to the state packed in ``w``, whose slot is ``h`` (open addressing);
    1 if it is new."""
    words = w.shape[0]
    while True:
        if table[h, 0] == _FREE:
            table[h, :] = w
            counts[h] = v
            return 1
        same = True
        for x in range(words):
            if table[h, x] != w[x]:
                same = False
                break
        if same:
            s = counts[h] + v
            counts[h] = s if s < _SATURATED else _SATURATED
            return 0
        h = (h + np.uint64(1)) & mask


def _emit(s: Any, width: int, colors: int, j: int, down: int, right: int, out: Any, at: int) -> int:
    """The state ``s`` with the cell's down and right edges set, packed with its open labels
    renumbered in order of appearance, put in the buffer's place ``at`` (with its count and its
    slot in the table): the number of states buffered."""
    buffered, pending, mask, v, renamed = out
    renamed[:] = 0
    w = buffered[at]
    w[:] = 0
    following = colors + 1
    last = width - 1
    for x in range(width):
        y = down if x == j else (right if x == last else s[x])
        if y > colors:
            if renamed[y] == 0:
                renamed[y] = following
                following += 1
            y = renamed[y]
        w[x // PER_WORD] |= np.uint64(y) << np.uint64(LABEL_BITS * (x % PER_WORD))
    pending[at, 0] = v
    pending[at, 1] = _hash(w) & mask
    return at + 1


def _flush(
    buffered: Any, pending: Any, n: int, table: Any, new_counts: Any, bits: int, spare: Any
) -> int:
    """Add the ``n`` states buffered (:func:`_emit`) to the table: the number of new ones.

    A large table is far bigger than the caches, and adding each state where its hash says
    was a miss of the cache and of the page tables. So the states are first moved, in one
    pass, into the order of their slots' :data:`REGION_BITS` leading bits (a counting sort
    into ``spare``): each region of the table then takes its states one after another while
    it sits in the cache. On ``142_12x12`` a state cost 0.62-0.75 microseconds a step before,
    0.41-0.46 after (with :func:`_pool`)."""
    mask = np.uint64((1 << bits) - 1)
    shift = bits - REGION_BITS
    if shift >= MIN_REGION_BITS:  # (a smaller table fits the cache: in the order they came)
        sorted_w, sorted_c, starts = spare
        starts[:] = 0
        for i in range(n):
            starts[(pending[i, 1] >> np.uint64(shift)) + np.uint64(1)] += 1
        for g in range(1, starts.shape[0]):
            starts[g] += starts[g - 1]
        for i in range(n):
            g = pending[i, 1] >> np.uint64(shift)
            t = starts[g]
            starts[g] = t + 1
            sorted_w[t] = buffered[i]
            sorted_c[t] = pending[i]
        buffered, pending = sorted_w, sorted_c
    made = 0
    for i in range(n):
        made += _add(table, new_counts, mask, buffered[i], pending[i, 0], pending[i, 1])
    return made


def _relabel(s: Any, width: int, old: int, new: int) -> None:
    for x in range(width):
        if s[x] == old:
            s[x] = new


def _step(
    states: Any,
    counts: Any,
    width: int,
    colors: int,
    j: int,
    k: int,
    last_row: bool,
    last_column: bool,
    bits: int,
    table: Any,
    new_counts: Any,
) -> Any:
    """Take the cell of column ``j`` (``k``: its number's color, 0 when empty) on every state:
    the next frontier's hash table (``table`` and ``new_counts``, of ``2^bits`` slots, empty
    when given), and its number of states (-1 once it is half full)."""
    words = states.shape[1]
    size = 1 << bits
    mask = np.uint64(size - 1)
    s = np.zeros(width, np.uint8)
    renamed = np.zeros(MAX_LABEL + 1, np.uint8)
    # The states taken to (two at most from each) wait in a buffer, with their counts and
    # slots, and are added a buffer at a time (:func:`_flush`); at most half the table is
    # ever filled, so that a probe always ends.
    room = min(BUFFERED, size // 2)
    buffered = np.empty((room, words), np.uint64)
    pending = np.empty((room, 2), np.uint64)
    spare = (
        np.empty((room, words), np.uint64),
        np.empty((room, 2), np.uint64),
        np.empty((1 << REGION_BITS) + 1, np.uint64),
    )
    fresh = MAX_LABEL  # an open label above every renumbered one
    made = at = 0
    for r in range(states.shape[0]):
        if at + 2 > room or 2 * (made + at + 2) > size:
            made += _flush(buffered, pending, at, table, new_counts, bits, spare)
            at = 0
            if 2 * (made + 2) > size:
                return table, new_counts, -1
        for x in range(width):
            shift = np.uint64(LABEL_BITS * (x % PER_WORD))
            s[x] = (states[r, x // PER_WORD] >> shift) & np.uint64(MAX_LABEL)
        out = (buffered, pending, mask, counts[r], renamed)
        up, left = s[j], s[width - 1]
        if k:
            if up and left:
                continue
            coming = up if up else left
            if coming:
                if coming <= colors:
                    if coming != k:
                        continue
                else:
                    _relabel(s, width, coming, k)
                at = _emit(s, width, colors, j, 0, 0, out, at)
            else:
                if not last_row:
                    at = _emit(s, width, colors, j, k, 0, out, at)
                if not last_column:
                    at = _emit(s, width, colors, j, 0, k, out, at)
        elif not up and not left:
            at = _emit(s, width, colors, j, 0, 0, out, at)
            if not last_row and not last_column:
                at = _emit(s, width, colors, j, fresh, fresh, out, at)
        elif up and left:
            if up <= colors and left <= colors:
                if up != left:
                    continue
            elif up <= colors:
                _relabel(s, width, left, up)
            elif left <= colors:
                _relabel(s, width, up, left)
            elif up == left:
                continue  # the two ends of one open piece: a cycle
            else:
                _relabel(s, width, left, up)
            at = _emit(s, width, colors, j, 0, 0, out, at)
        else:
            going = up if up else left
            if not last_row:
                at = _emit(s, width, colors, j, going, 0, out, at)
            if not last_column:
                at = _emit(s, width, colors, j, 0, going, out, at)
    made += _flush(buffered, pending, at, table, new_counts, bits, spare)
    if 2 * made > size:
        return table, new_counts, -1
    return table, new_counts, made


def _kept(table: Any, counts: Any, made: int) -> Any:
    """The table's states and their counts, each slot left empty again for the next step."""
    states = np.empty((made, table.shape[1]), np.uint64)
    kept = np.empty(made, np.uint64)
    r = 0
    for h in range(table.shape[0]):
        if table[h, 0] != _FREE:
            states[r] = table[h]
            kept[r] = counts[h]
            table[h, 0] = _FREE
            counts[h] = 0
            r += 1
    return states, kept


_KERNELS = ("_hash", "_add", "_emit", "_flush", "_relabel", "_step", "_kept")
_compiled_kernels: dict[str, Any] = {}


def _compiled() -> dict[str, Any]:
    """The kernels compiled by numba (cached on disk: compiled once, then loaded): copies of
    the functions above in a namespace where each helper is its compiled copy."""
    if not _compiled_kernels:
        import numba

        namespace = dict(globals())
        for name in _KERNELS:
            f = globals()[name]
            copy = types.FunctionType(f.__code__, namespace, name, f.__defaults__)
            namespace[name] = numba.njit(cache=True)(copy)
        _compiled_kernels.update({name: namespace[name] for name in _KERNELS})
    return _compiled_kernels


Grid = Sequence[Sequence[int]]

#: The ways to turn the board before a sweep (the first is the board as given, swept along its
#: longer side): the same answers, but the states a frontier has differ by up to 25 times
#: (``346_13x13``: a peak of 5.4 million states as given, 215,000 upside down).
ORIENTATIONS: dict[str, Callable[[Grid], Grid]] = {
    "as given": lambda g: g,
    "upside down": lambda g: g[::-1],
    "mirrored": lambda g: [row[::-1] for row in g],
    "turned half round": lambda g: [row[::-1] for row in g[::-1]],
}


class _Clock:
    """The tier a sweep runs in: interpreted until this process's sweeps have spent
    :data:`INTERPRETED_SECONDS` in it, then compiled (from the start once the compiled
    kernels are loaded); and the most states a frontier had."""

    interpreted = 0.0  # (the process's, over all its sweeps)

    def __init__(self) -> None:
        self.compiled = bool(_compiled_kernels)
        self.peak = 0

    def kernels(self) -> tuple[Any, Any]:
        if not self.compiled and _Clock.interpreted >= INTERPRETED_SECONDS:
            self.compiled = True
        if self.compiled:
            kernels = _compiled()
            return kernels["_step"], kernels["_kept"]
        return _step, _kept


class _TimeUp(Exception):
    pass


def _count(
    clues: Grid,
    colors: dict[int, int],
    max_states: int,
    deadline: Deadline | None = None,
    clock: _Clock | None = None,
) -> tuple[int | None, int]:
    """Sweep ``clues`` row by row: (its answers or None past ``max_states``, the cells taken);
    the most states a frontier had go to ``clock``. Past ``deadline``: :class:`_TimeUp`."""
    clock = clock or _Clock()
    m, n = len(clues), len(clues[0])
    width = n + 1
    given = [v for row in clues for v in row if v != BLANK]
    if any(given.count(v) % 2 for v in colors):
        return 0, 0  # a number left alone
    states = np.zeros((1, (width + PER_WORD - 1) // PER_WORD), np.uint64)
    counts = np.ones(1, np.uint64)
    pool = _pool(0, states.shape[1])
    for i in range(m):
        for j in range(n):
            if deadline is not None and deadline.expired():
                raise _TimeUp
            k = colors[clues[i][j]] if clues[i][j] != BLANK else 0
            step, kept = clock.kernels()
            began = time.perf_counter()
            # a table 3 to 6 times the states (at most half full, else taken again, larger)
            bits = max(10 if clock.compiled else 4, (3 * len(states)).bit_length())
            while True:
                if len(pool[1]) < 1 << bits:  # (kept from step to step: see _pool)
                    pool = _pool(bits, states.shape[1])
                args = (width, len(colors), j, k, i == m - 1, j == n - 1, bits)
                slots = (pool[0][: 1 << bits], pool[1][: 1 << bits])
                with np.errstate(over="ignore"):  # (the interpreted hash wraps, as compiled)
                    table, new_counts, made = step(states, counts, *args, *slots)
                if made >= 0:
                    break
                table.fill(_FREE)
                new_counts.fill(0)
                bits += 1
            states, counts = kept(table, new_counts, made)
            if not clock.compiled:
                _Clock.interpreted += time.perf_counter() - began
            clock.peak = max(clock.peak, made)
            if made > max_states:
                return None, i * n + j + 1
    return (int(counts[0]) if len(counts) else 0), m * n


def _pool(bits: int, words: int) -> tuple[Any, Any]:
    """An empty hash table of ``2^bits`` slots (each state's words, and its count), kept by
    :func:`_count` from step to step, each step using its first slots and :func:`_kept`
    emptying them as it reads them: a fresh table each step of a 15 x 15 board's peak (2^23
    slots) cost some 55 ms in new pages and their filling, measured, against 16 ms to fill one
    again."""
    return np.full((1 << bits, words), _FREE, np.uint64), np.zeros(1 << bits, np.uint64)


def color_indices(values: Sequence[int]) -> dict[int, int]:
    """Each value's color in the sweep: its index among ``values``, from 1 (0 is no path)."""
    return {v: c + 1 for c, v in enumerate(values)}


def state_limit() -> int:
    """The most states a frontier may have: what the run's memory limit leaves free, else
    :data:`MEMORY_SHARE` of the machine's free memory, at :data:`BYTES_A_STATE` a state."""
    limit = memory.limit_mb()
    if limit is not None:
        free = (limit << 20) - memory.data_in_use()
    else:
        mb = memory.machine_memory_mb()
        free = int((mb or 4096) * MEMORY_SHARE) << 20
    return max(free // BYTES_A_STATE, FIRST_LIMIT)


def sweep(
    clues: Grid,
    values: Sequence[int],
    max_states: int | None = None,
    first: int = FIRST_LIMIT,
    deadline: Deadline | None = None,
) -> Sweep:
    """Count the answers of the board ``clues`` (rows of numbers, :data:`BLANK` for an empty
    cell), whose values are ``values`` (see the module doc).

    Which way round a board is swept is not known to be good beforehand, so every
    orientation (:data:`ORIENTATIONS`, and on a square board each turned a quarter round too)
    is swept with a limit of ``first`` states, then four times that, and so on up to
    ``max_states`` (None: :func:`state_limit`), those that took the most cells before their
    limit first; the first sweep to end gives the count (every orientation counts the same
    answers). Past ``deadline`` the count is None. A board too wide for the states' words is
    an :class:`~dlxsat.errors.InputError`.
    """
    start = time.perf_counter()
    m, n = len(clues), len(clues[0])
    grid = [list(row) for row in clues]
    if n > m:  # sweep along the longer side
        grid = [list(column) for column in zip(*grid, strict=True)]
    colors = color_indices(values)
    width = len(grid[0]) + 1
    if width > MAX_WIDTH + 1 or len(colors) + width // 2 + 1 > MAX_LABEL:
        raise InputError(f"a {m} x {n} board of {len(colors)} values is too wide to sweep")
    most = state_limit() if max_states is None else max_states
    turns = {name: turn(grid) for name, turn in ORIENTATIONS.items()}
    if m == n:
        turned = [list(column) for column in zip(*grid, strict=True)]
        for name, turn in ORIENTATIONS.items():
            turns[f"{name}, a quarter round"] = turn(turned)
    taken = dict.fromkeys(turns, 0)
    clock = _Clock()  # (its peak: the most states over every way round tried)
    limit = min(first, most)
    try:
        while True:
            for name in sorted(taken, key=lambda t: -taken[t]):
                count, cells = _count(turns[name], colors, limit, deadline, clock)
                if count is not None:
                    seconds = time.perf_counter() - start
                    return Sweep(count, clock.peak, seconds, name, clock.compiled)
                taken[name] = cells
            if limit >= most:
                break
            limit = min(4 * limit, most)
    except _TimeUp:
        return Sweep(None, clock.peak, time.perf_counter() - start, "", clock.compiled, True)
    return Sweep(None, clock.peak, time.perf_counter() - start, "", clock.compiled)
