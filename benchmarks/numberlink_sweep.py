"""NumberLink's answers counted exactly by a sweep of the board, outside the exact-cover encoding.

The family proves a published answer unique through touch-free answers on every backend
(``docs/genres/numberlink.md``), and counts answers (``solve --count``) on the exact problem;
neither counts far when a board has many answers (the corpus's ``424_12x12``: SAT listed 2,607
of them in 90 s). This script counts them another way, as a cross-check of the encoding and
to give the several-answer boards of the corpus their exact counts.

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

After each cell a state whose frontier edges of color ``k`` and numbers ``k`` still to come are
odd in number is dropped (they pair up in any answer); at the end the one state with no edge
left counts the answers. Open labels are renumbered in order of appearance, so equal frontiers
meet. The board is swept along its longer side (the frontier is the shorter side plus one).
``?`` is a value of its own, as in the family (it pairs only with ``?``). Counts stop growing
at 2^62 (:data:`SATURATED`).

**Which way round.** The number of states, not the answers, bounds the sweep, and it depends
much on the way the board is swept: ``346_13x13`` has a peak of 5.4 million states swept as
given and 215,000 upside down (84 s against 3.4). No rule was found to tell the good way
beforehand, so :func:`sweep` tries them all on a ladder of limits (250,000 states, four times
that, ... up to ``--max-states``), the ways that got furthest first, and the first to end gives
the count. A state takes some 150 bytes at the peak of a step.

Run::

    python benchmarks/numberlink_sweep.py --dataset puzzlekit-dataset --max-width 12
    python benchmarks/numberlink_sweep.py --dataset puzzlekit-dataset --keys 424_12x12 565_10x10
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numba
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus  # noqa: E402

from dlxsat.errors import InputError  # noqa: E402
from dlxsat.families.codecs import BLANK  # noqa: E402
from dlxsat.families.numberlink import NumberLinkPuzzle, read  # noqa: E402

#: Where counts stop growing (they are kept in 64-bit words).
SATURATED = 1 << 62
#: The frontier's labels take 6 bits each, ten to a 64-bit word, at most three words a state
#: (two up to 19 columns: a 15 x 15 board's states take 24 bytes with their count).
LABEL_BITS, PER_WORD, WORDS = 6, 10, 3
#: A board's colors and open labels together stay under 2^6; its width under 30.
MAX_LABEL, MAX_WIDTH = (1 << LABEL_BITS) - 1, PER_WORD * WORDS - 1
_FREE = np.uint64(0xFFFFFFFFFFFFFFFF)  # an empty slot of the hash table (no state packs to it)
_SATURATED = np.uint64(SATURATED)


@dataclass(frozen=True)
class Sweep:
    """A board's sweep: its answers (None when the states outgrew the limit in every
    orientation), the most states a frontier had, the seconds it took and the orientation
    that ended (:func:`sweep`)."""

    count: int | None
    peak: int
    seconds: float
    orientation: str


@numba.njit(cache=True)
def _hash(w: Any) -> Any:
    h = np.uint64(0x632BE59BD9B4E019)
    for x in range(w.shape[0]):
        h = (h ^ w[x]) * np.uint64(0x9E3779B97F4A7C15)
        h ^= h >> np.uint64(29)
    return h


@numba.njit(cache=True)
def _add(table: Any, counts: Any, mask: Any, w: Any, v: Any) -> int:
    """Add ``v`` answers to the state packed in ``w`` (open addressing); 1 if it is new."""
    h = _hash(w) & mask
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


@numba.njit(cache=True)
def _emit(
    s: Any, width: int, colors: int, j: int, down: int, right: int, pending: Any, out: Any
) -> int:
    """The state ``s`` with the cell's down and right edges set, its open labels renumbered,
    dropped when a color's ends and numbers to come are odd in number, else added."""
    table, counts, mask, v, t, renamed, odd, w = out
    for x in range(width):
        t[x] = s[x]
    t[j], t[width - 1] = down, right
    renamed[:] = 0
    odd[:] = 0
    following = colors + 1
    for x in range(width):
        y = t[x]
        if y > colors:
            if renamed[y] == 0:
                renamed[y] = following
                following += 1
            t[x] = renamed[y]
        elif y > 0:
            odd[y] ^= 1
    for k in range(1, colors + 1):
        if odd[k] != (pending[k] & 1):
            return 0
    w[:] = 0
    for x in range(width):
        w[x // PER_WORD] |= np.uint64(t[x]) << np.uint64(LABEL_BITS * (x % PER_WORD))
    return _add(table, counts, mask, w, v)


@numba.njit(cache=True)
def _relabel(s: Any, width: int, old: int, new: int) -> None:
    for x in range(width):
        if s[x] == old:
            s[x] = new


@numba.njit(cache=True)
def _step(
    states: Any,
    counts: Any,
    width: int,
    colors: int,
    j: int,
    k: int,
    last_row: bool,
    last_column: bool,
    pending: Any,
    size: int,
) -> Any:
    """Take the cell of column ``j`` (``k``: its number's color, 0 when empty) on every state:
    the next frontier's hash table, and its number of states (-1 once it is half full)."""
    words = states.shape[1]
    table = np.full((size, words), _FREE, np.uint64)
    new_counts = np.zeros(size, np.uint64)
    mask = np.uint64(size - 1)
    s = np.zeros(width, np.uint8)
    t = np.zeros(width, np.uint8)
    renamed = np.zeros(MAX_LABEL + 1, np.uint8)
    odd = np.zeros(colors + 1, np.uint8)
    w = np.zeros(words, np.uint64)
    fresh = MAX_LABEL  # an open label above every renumbered one
    made = 0
    for r in range(states.shape[0]):
        for x in range(width):
            shift = np.uint64(LABEL_BITS * (x % PER_WORD))
            s[x] = (states[r, x // PER_WORD] >> shift) & np.uint64(MAX_LABEL)
        out = (table, new_counts, mask, counts[r], t, renamed, odd, w)
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
                made += _emit(s, width, colors, j, 0, 0, pending, out)
            else:
                if not last_row:
                    made += _emit(s, width, colors, j, k, 0, pending, out)
                if not last_column:
                    made += _emit(s, width, colors, j, 0, k, pending, out)
        elif not up and not left:
            made += _emit(s, width, colors, j, 0, 0, pending, out)
            if not last_row and not last_column:
                made += _emit(s, width, colors, j, fresh, fresh, pending, out)
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
            made += _emit(s, width, colors, j, 0, 0, pending, out)
        else:
            going = up if up else left
            if not last_row:
                made += _emit(s, width, colors, j, going, 0, pending, out)
            if not last_column:
                made += _emit(s, width, colors, j, 0, going, pending, out)
        if 2 * made > size:
            return table, new_counts, -1
    return table, new_counts, made


@numba.njit(cache=True)
def _kept(table: Any, counts: Any, made: int) -> Any:
    states = np.empty((made, table.shape[1]), np.uint64)
    kept = np.empty(made, np.uint64)
    r = 0
    for h in range(table.shape[0]):
        if table[h, 0] != _FREE:
            states[r] = table[h]
            kept[r] = counts[h]
            r += 1
    return states, kept


Grid = list[list[int]]

#: The ways to turn the board before a sweep (the first is the board as given, swept along its
#: longer side): the same answers, but the states a frontier has differ by up to 25 times
#: (``346_13x13``: a peak of 5.4 million states as given, 215,000 upside down).
ORIENTATIONS: dict[str, Callable[[Grid], Grid]] = {
    "as given": lambda g: g,
    "upside down": lambda g: g[::-1],
    "mirrored": lambda g: [row[::-1] for row in g],
    "turned half round": lambda g: [row[::-1] for row in g[::-1]],
}


def color_indices(puzzle: NumberLinkPuzzle) -> dict[int, int]:
    """Each value's color in the sweep: its index among the board's values, from 1 (0 is "no
    path")."""
    return {v: c + 1 for c, v in enumerate(puzzle.values())}


def _count(clues: Grid, colors: dict[int, int], max_states: int) -> tuple[int | None, int, int]:
    """Sweep ``clues`` row by row: (its answers or None past ``max_states``, the most states a
    frontier had, the cells taken)."""
    m, n = len(clues), len(clues[0])
    width = n + 1
    pending = np.zeros(len(colors) + 1, np.int64)
    for row in clues:
        for v in row:
            if v != BLANK:
                pending[colors[v]] += 1
    states = np.zeros((1, (width + PER_WORD - 1) // PER_WORD), np.uint64)
    counts = np.ones(1, np.uint64)
    peak = 1
    for i in range(m):
        for j in range(n):
            k = colors[clues[i][j]] if clues[i][j] != BLANK else 0
            pending[k] -= 1 if k else 0
            # a table 3 to 6 times the states (at most half full, else taken again, larger)
            bits = max(10, (3 * len(states)).bit_length())
            while True:
                args = (width, len(colors), j, k, i == m - 1, j == n - 1, pending, 1 << bits)
                table, new_counts, made = _step(states, counts, *args)
                if made >= 0:
                    break
                bits += 1
            states, counts = _kept(table, new_counts, made)
            peak = max(peak, made)
            if made > max_states:
                return None, peak, i * n + j + 1
    return (int(counts[0]) if len(counts) else 0), peak, m * n


def sweep(puzzle: NumberLinkPuzzle, max_states: int = 4_000_000, first: int = 250_000) -> Sweep:
    """Count the answers of ``puzzle`` (see the module doc).

    Which way round a board is swept is not known to be good beforehand, so every
    orientation (:data:`ORIENTATIONS`, and on a square board each turned a quarter round too)
    is swept with a limit of ``first`` states, then four times that, and so on up to
    ``max_states``, those that took the most cells before their limit first; the first sweep
    to end gives the count (every orientation counts the same answers).

    >>> sweep(read("3 3\\n1 - 2\\n- - -\\n1 - 2\\n")).count
    7
    """
    start = time.perf_counter()
    clues = [list(row) for row in puzzle.clues]
    if puzzle.n > puzzle.m:  # sweep along the longer side
        clues = [list(column) for column in zip(*clues, strict=True)]
    colors = color_indices(puzzle)
    width = len(clues[0]) + 1
    if width > MAX_WIDTH + 1 or len(colors) + width // 2 + 1 > MAX_LABEL:
        raise InputError(
            f"a {puzzle.m} x {puzzle.n} board of {len(colors)} values is too wide to sweep"
        )
    turns = {name: turn(clues) for name, turn in ORIENTATIONS.items()}
    if puzzle.m == puzzle.n:
        turned = [list(column) for column in zip(*clues, strict=True)]
        for name, turn in ORIENTATIONS.items():
            turns[f"{name}, a quarter round"] = turn(turned)
    taken = dict.fromkeys(turns, 0)
    peak, limit = 0, min(first, max_states)
    while True:
        for name in sorted(taken, key=lambda t: -taken[t]):
            count, most, cells = _count(turns[name], colors, limit)
            if count is not None:
                return Sweep(count, most, time.perf_counter() - start, name)
            peak = max(peak, most)
            taken[name] = cells
        if limit >= max_states:
            return Sweep(None, peak, time.perf_counter() - start, "")
        limit = min(4 * limit, max_states)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    corpus.dataset_argument(parser)
    parser.add_argument("--keys", nargs="+", help="these boards only (the corpus's keys)")
    parser.add_argument(
        "--max-width", type=int, default=12, help="boards whose shorter side is at most this"
    )
    parser.add_argument("--max-states", type=int, default=4_000_000, help="give up past this")
    parser.add_argument("--jsonl", type=Path, help="also write one JSON record a board here")
    args = parser.parse_args()
    if not args.dataset:
        parser.error("name the corpus with --dataset or DLXSAT_CORPUS")
    boards = corpus.load("NumberLink", args.dataset)
    keys = args.keys or sorted(boards, key=lambda key: (len(boards[key][0]), key))
    missing = [key for key in keys if key not in boards]
    if missing:
        parser.error(f"the corpus has no NumberLink {missing[0]!r}")
    records = []
    print(f"{'board':<12} {'answers':>16} {'peak states':>12} {'seconds':>8}  swept")
    for key in keys:
        try:
            puzzle = read(boards[key][0])
        except InputError as e:
            print(f"{key:<12} not read: {e}")
            continue
        if args.keys is None and min(puzzle.m, puzzle.n) > args.max_width:
            continue
        try:
            result = sweep(puzzle, args.max_states)
        except InputError as e:
            print(f"{key:<12} not swept: {e}")
            continue
        shown = "over the limit" if result.count is None else f"{result.count:,}"
        print(
            f"{key:<12} {shown:>16} {result.peak:>12,} {result.seconds:>8.2f}  "
            f"{result.orientation}",
            flush=True,
        )
        records.append(
            {
                "key": key,
                "count": result.count,
                "peak": result.peak,
                "seconds": round(result.seconds, 3),
                "orientation": result.orientation,
            }
        )
    counted = [r for r in records if r["count"] is not None]
    print(
        f"{len(records)} boards: {sum(r['count'] == 1 for r in counted)} with one answer, "
        f"{sum(r['count'] > 1 for r in counted)} with several, "
        f"{sum(r['count'] == 0 for r in counted)} with none, "
        f"{len(records) - len(counted)} over {args.max_states:,} states"
    )
    if args.jsonl:
        args.jsonl.write_text("".join(json.dumps(r) + "\n" for r in records))


if __name__ == "__main__":
    main()
