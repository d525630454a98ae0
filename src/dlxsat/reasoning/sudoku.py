"""Generalized sudoku solved by reasoning: the strategies a person uses, cheapest first.

The solver follows Giulio Zambon's strategy-based solver (*Sudoku Programming with C*, 2015): it
keeps a candidate set for every open cell, tries its strategies from the cheapest to the most
expensive, and after every success starts again from the cheapest. The ladder is his, level by
level (his names in brackets), then two additions that are not his:

* level 0 -- ``naked_single`` (a cell has one candidate left) and ``hidden_single`` (a digit has
  one place left in a unit that must hold every digit) [his ``unique-loop`` and cleanup];
* level 1 -- ``naked_pair``, ``hidden_pair`` and ``locked_candidates`` (a digit's places in
  such a unit all lie in another unit, so that unit's other cells lose it) [naked-pair,
  hidden-pair, box-line, pointing-line];
* level 2 -- ``naked_triple``, ``hidden_triple``, ``x_wing`` [lines-2], ``naked_quad`` and
  ``y_wing`` (a bivalue pivot xy with pincers xz and yz: cells seeing both pincers lose z);
* level 3 -- ``rectangle`` (his chapter 12: a chain of one digit around four boxes at the
  corners of a rectangle of boxes, :func:`find_rectangle`), ``xy_chain`` (chapter 11: a chain
  of 4 to 9 bivalue cells; searched in his order by default, :func:`find_xy_chain`),
  ``swordfish`` [lines-3] and ``jellyfish`` [lines-4];
* level 4, an addition -- ``unique_rectangle``, type 1: three corners of a rectangle hold only
  {a, b}; the fourth cannot be a or b, or the puzzle would have two answers;
* level 5, an addition -- ``forcing_chain``: a candidate whose placement leads, through naked
  and hidden singles alone, to a contradiction is removed. Without it the ladder stalls on some
  of the golden puzzles with one answer and on most puzzles that Tatham's generator grades
  *unreasonable* (benchmarks/logic_sudoku.py). Each use prints its chain, so it is a proof
  like the others.

A puzzle's *grade* (``stats["grade"]``) is the level of the hardest strategy it needed: 0 to 3
are Zambon's levels, 4 and 5 mark the additions; ``stats["hardest"]`` names that strategy.

**The generalized family.** The puzzle comes from :mod:`dlxsat.families.sudoku` (Knuth's
SUDOKU-GENERAL-DLX): n ≤ 32, holes, irregular and overlapping boxes. Every row, column and box
is a *unit*, no digit twice in a unit, and two cells *see* each other when they share one. Only
an *exact* unit (a row or column without holes, a box of n cells) must contain every digit, so
the strategies that reason about where a digit *must* go (hidden singles and subsets, locked
candidates, the base lines of a fish) use exact units only; those that reason about cells
that must all be filled (naked subsets, the cover lines of a fish, wings and chains) use
every unit. Zambon's rectangle needs boxes that tile the grid as equal rectangles (no holes;
extra units such as an X-sudoku's diagonals are allowed). The unique rectangle is only used
when each unit meeting its corners holds exactly two of them side by side, so that swapping a
and b keeps every unit valid; with the diagonals of an X-sudoku or an irregular box that is
often not so, and the rectangle is then skipped.

**Uniqueness.** A grid that the deductions complete is the only answer — unless a unique
rectangle was used, whose eliminations hold only *if* the puzzle has one answer. Reporting
``unique`` then would be circular, so in that case (and when the deductions end in a
contradiction after a unique rectangle) the solver checks the claim with a search that starts
from the candidates as they stood before the first unique rectangle (sound deductions only).
The statistic ``uniqueness`` says which proof was used: ``deduction`` or ``search``. This check
is not a fallback: the answer was found by reasoning; only its uniqueness is confirmed.

**The result** is a :class:`~dlxsat.result.SearchResult` (its status word comes from
:func:`dlxsat.result.status_of` alone): deductions that complete the grid give one answer,
``exhausted``; a contradiction gives count 0, ``exhausted``; a stall gives ``stalled`` with
count None, unless ``fallback=True`` finishes it with a small backtracking search over the
candidates (singles propagated, branching on the tightest cell or unit digit), which is also
how ``count`` and ``all`` modes enumerate. ``timeout`` bounds the whole run, search included.

**Explanations** (``explain``): one line per step in ``steps``, and the same steps as data in
``stats["steps"]`` (``strategy``, ``level``, ``text``, ``placed`` as ``[row, column, digit]``,
``removed`` as ``[row, column, [digits]]``, ``pattern`` as ``[row, column]``). Cells are
``(row,column)``, 1-based, as puzzle books print them (Zambon's own log is 0-based: his
``(8,1)`` is our ``(9,2)``); rows and columns are named 1-based too (``row 1`` is the top row),
boxes by their name in the puzzle file.

**Statistics**: ``hardest``, ``grade``, ``strategy_uses`` (successes per strategy),
``deductions``, ``placed``, ``eliminated``, ``logic`` (how the reasoning ended: solved,
stalled, contradiction, timeout), ``solved_by`` (logic or search), ``uniqueness``,
``assumed_uniqueness`` (a unique rectangle was used), ``search_nodes`` (when searched) and
``seconds``.

The solver works on a small internal model, :class:`Board` (cells, units, givens), built from
the family's puzzle by :func:`board_from_puzzle`; :func:`board_from_text` builds one from
Knuth's text directly, which the tests use.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import InputError
from ..result import SearchResult
from ..solvers import Request

__all__ = [
    "Board",
    "State",
    "Step",
    "STRATEGIES",
    "LEVEL",
    "ORDERS",
    "ZAMBON_NAME",
    "SearchTimeout",
    "board_from_puzzle",
    "board_from_text",
    "initial_state",
    "run_strategies",
    "search",
    "solve",
    "solve_board",
]

#: Knuth's digit characters: digit d is ``CHARS[d]`` (``1-9a-w``).
CHARS = "0123456789abcdefghijklmnopqrstuvw"
MODES = ("unique", "count", "all")
#: The XY-chain search orders (see :func:`find_xy_chain`).
ORDERS = ("zambon", "shortest")
#: XY-chains have 4 to 9 cells (Zambon: 3 cells are a Y-wing, the recursion stops at 9).
XY_CHAIN_MIN, XY_CHAIN_MAX = 4, 9
#: A forcing chain's explanation shows at most this many placements.
FORCING_SHOWN = 12

Cell = tuple[int, int]


# ---------------------------------------------------------------------------------------------
# The model


@dataclass(eq=False)
class Board:
    """The fixed structure of a puzzle: its cells, units and givens.

    Cells are the non-hole cells, numbered in row-major order; ``cells[k]`` is cell k's
    ``(row, column)``. ``units[u]`` lists the cell numbers of unit u, ``exact[u]`` says it must
    hold every digit 1..n, ``names[u]`` is how explanations call it (``row 3``, ``column 0``,
    ``box a``), ``kinds[u]`` is ``row``, ``col`` or ``box``. Derived tables (``units_of``,
    ``peers`` as bit masks of cell numbers, ``unit_mask``, ``line``) are filled in by
    :meth:`__post_init__`.
    """

    n: int
    cells: tuple[Cell, ...]
    units: tuple[tuple[int, ...], ...]
    exact: tuple[bool, ...]
    names: tuple[str, ...]
    kinds: tuple[str, ...]
    givens: dict[int, int]
    holes: frozenset[Cell] = frozenset()
    index: dict[Cell, int] = field(init=False)
    units_of: tuple[tuple[int, ...], ...] = field(init=False)
    peers: tuple[int, ...] = field(init=False)
    unit_mask: tuple[int, ...] = field(init=False)
    line: dict[tuple[str, int], int] = field(init=False)

    def __post_init__(self) -> None:
        self.index = {cell: k for k, cell in enumerate(self.cells)}
        acc: list[list[int]] = [[] for _ in self.cells]
        masks = []
        for u, members in enumerate(self.units):
            m = 0
            for c in members:
                acc[c].append(u)
                m |= 1 << c
            masks.append(m)
        self.units_of = tuple(tuple(us) for us in acc)
        self.unit_mask = tuple(masks)
        self.peers = tuple(
            _union(masks[u] for u in self.units_of[c]) & ~(1 << c) for c in range(len(self.cells))
        )
        self.line = {}
        for u, kind in enumerate(self.kinds):
            if kind in ("row", "col"):
                first = self.cells[self.units[u][0]]
                self.line[kind, first[0] if kind == "row" else first[1]] = u

    @property
    def full(self) -> int:
        """The bit mask of every digit 1..n (bit d-1 stands for digit d)."""
        return (1 << self.n) - 1

    def sees(self, a: int, b: int) -> bool:
        """Do cells a and b share a unit?"""
        return bool(self.peers[a] >> b & 1)


def _union(masks: Iterable[int]) -> int:
    out = 0
    for m in masks:
        out |= m
    return out


def board_from_puzzle(puzzle: Any) -> Board:
    """The :class:`Board` of a :class:`dlxsat.families.sudoku.SudokuPuzzle`.

    This adapter is the only place that knows the family's puzzle object: it reads ``n``,
    ``holes``, ``clues`` and ``units`` (each with ``kind``, ``index``, ``cells``, ``complete``).
    """
    n = puzzle.n
    holes = frozenset(puzzle.holes)
    cells = tuple((i, j) for i in range(n) for j in range(n) if (i, j) not in holes)
    index = {cell: k for k, cell in enumerate(cells)}
    units, exact, names, kinds = [], [], [], []
    for unit in puzzle.units:
        members = tuple(sorted(index[c] for c in unit.cells))
        if not members and not unit.complete:
            continue  # a box made only of holes constrains nothing
        units.append(members)
        exact.append(bool(unit.complete))
        kinds.append(unit.kind)
        names.append(_unit_name(unit.kind, unit.index))
    givens = {index[cell]: d for cell, d in puzzle.clues.items()}
    return Board(n, cells, tuple(units), tuple(exact), tuple(names), tuple(kinds), givens, holes)


def board_from_text(text: str) -> Board:
    """Read Knuth's generalized-sudoku text with the family's reader and build its board."""
    from ..families import sudoku as family

    return board_from_puzzle(family.read(text))


def _unit_name(kind: str, index: int) -> str:
    if kind == "row":
        return f"row {index + 1}"
    if kind == "col":
        return f"column {index + 1}"
    return f"box {CHARS[index]}"


@dataclass
class State:
    """The changing part: ``cand[c]`` is cell c's candidate mask (0 once it is filled) and
    ``value[c]`` its digit (0 while open)."""

    cand: list[int]
    value: list[int]

    def copy(self) -> State:
        return State(list(self.cand), list(self.value))

    def solved(self) -> bool:
        return all(self.value)


@dataclass
class Step:
    """One deduction: what the strategy saw (``text``) and what it does.

    ``places`` lists ``(cell, digit)`` to fill in (their digit then leaves every peer),
    ``removes`` lists ``(cell, mask)`` of candidates to delete, ``pattern`` the cells of the
    pattern that justifies it (in the strategy's own order, e.g. a chain from start to end).
    """

    strategy: str
    text: str
    places: list[tuple[int, int]] = field(default_factory=list)
    removes: list[tuple[int, int]] = field(default_factory=list)
    pattern: tuple[int, ...] = ()

    def line(self, board: Board) -> str:
        """The explanation, in the spirit of Zambon's log: ``strategy: pattern — effect``."""
        return f"{self.strategy}: {self.text} — {self.effect(board)}"

    def data(self, board: Board) -> dict[str, Any]:
        """The step as data (``--explain --json``): cells ``[row, column]`` 1-based, digits
        as numbers."""
        return {
            "strategy": self.strategy,
            "level": LEVEL[self.strategy],
            "text": self.line(board),
            "placed": [[*_rc(board, c), d] for c, d in self.places],
            "removed": [[*_rc(board, c), _digits_of(m)] for c, m in self.removes],
            "pattern": [_rc(board, c) for c in self.pattern],
        }

    def effect(self, board: Board) -> str:
        if self.places:
            return "; ".join(f"placed {CHARS[d]} at {_at(board, c)}" for c, d in self.places)
        by_mask: dict[int, list[int]] = {}
        for c, m in sorted(self.removes):
            by_mask.setdefault(m, []).append(c)
        parts = [
            f"{_digits(m)} from {', '.join(_at(board, c) for c in cs)}" for m, cs in by_mask.items()
        ]
        return "removed " + "; ".join(parts)


def _at(board: Board, c: int) -> str:
    """A cell as puzzle books print it: ``(row,column)``, 1-based."""
    i, j = board.cells[c]
    return f"({i + 1},{j + 1})"


def _rc(board: Board, c: int) -> list[int]:
    """A cell as data: ``[row, column]``, 1-based like the text."""
    i, j = board.cells[c]
    return [i + 1, j + 1]


def _digits(mask: int, sep: str = ",") -> str:
    return sep.join(CHARS[d] for d in _digits_of(mask))


#: ``BIT[d]`` is digit d's bit (``BIT[0] == 0``, for an open cell's value).
BIT = [0] + [1 << (d - 1) for d in range(1, 33)]


def _bit(d: int) -> int:
    return 1 << (d - 1)


def _digits_of(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length())
        mask ^= low
    return out


def _members(mask: int) -> Iterator[int]:
    """The set bits of ``mask`` as indices, ascending."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def initial_state(board: Board) -> tuple[State, str | None]:
    """Every open cell may hold any digit; then the givens are placed.

    Returns the state and, if two givens clash (which the family's reader already rejects for
    rows, columns and boxes) or an exact unit has fewer than n cells (a box of n cells, holes
    counted as Knuth counts them, with a hole in it), why the puzzle has no answer.
    """
    state = State([board.full] * len(board.cells), [0] * len(board.cells))
    for u, members in enumerate(board.units):
        if board.exact[u] and len(members) < board.n:
            return state, (
                f"{board.names[u]} must hold all {board.n} digits but has only "
                f"{len(members)} cells (the others are holes)"
            )
    for c, d in sorted(board.givens.items()):
        for p in _members(board.peers[c]):
            if state.value[p] == d:
                return (
                    state,
                    f"the givens at {_at(board, p)} and {_at(board, c)} are both {CHARS[d]}",
                )
        place(board, state, c, d)
    return state, None


def place(board: Board, state: State, c: int, d: int) -> None:
    """Fill cell c with digit d and remove d from every cell that sees it."""
    state.value[c] = d
    state.cand[c] = 0
    b = _bit(d)
    cand = state.cand
    for p in _members(board.peers[c]):
        cand[p] &= ~b


def apply(board: Board, state: State, step: Step) -> None:
    """Carry out a step's eliminations and placements."""
    for c, m in step.removes:
        state.cand[c] &= ~m
    for c, d in step.places:
        place(board, state, c, d)


def contradiction(board: Board, state: State, cells: set[int] | None = None) -> str | None:
    """Why ``state`` cannot be completed, if that shows at a glance (else None): an open cell
    without candidates, or a digit without a place in an exact unit. ``cells`` limits the
    check to those cells and their units (the ones a step touched)."""
    cand, value = state.cand, state.value
    if cells is None:
        cells = set(range(len(cand)))
        units: set[int] = set(range(len(board.units)))
    else:
        units = set()
        for c in cells:
            units.update(board.units_of[c])
    for c in sorted(cells):
        if not cand[c] and not value[c]:
            return f"{_at(board, c)} has no candidate left"
    for u in sorted(units):
        if not board.exact[u]:
            continue
        have = 0
        for c in board.units[u]:
            have |= cand[c] | BIT[value[c]]
        missing = board.full & ~have
        if missing:
            d = _digits_of(missing)[0]
            return f"digit {CHARS[d]} has no place left in {board.names[u]}"
    return None


def touched(board: Board, step: Step) -> set[int]:
    """The cells whose candidates a step changes (to check for a contradiction after it)."""
    cells = {c for c, _ in step.removes}
    for c, _ in step.places:
        cells.add(c)
        cells.update(_members(board.peers[c]))
    return cells


# ---------------------------------------------------------------------------------------------
# The strategies. Each looks at the position and returns the first Step it finds, or None; it
# never changes the state (the engine applies the step).


def _placed(state: State, members: tuple[int, ...]) -> int:
    """The digits already filled in among ``members``."""
    value = state.value
    m = 0
    for c in members:
        m |= BIT[value[c]]
    return m


def _where(state: State, n: int) -> list[int]:
    """``where[d]`` is the bit mask of the open cells that have digit d as a candidate."""
    where = [0] * (n + 1)
    for c, m in enumerate(state.cand):
        while m:
            low = m & -m
            where[low.bit_length()] |= 1 << c
            m ^= low
    return where


def find_naked_single(board: Board, state: State) -> Step | None:
    """A cell with a single candidate takes it."""
    for c, m in enumerate(state.cand):
        if m and not m & (m - 1):
            d = m.bit_length()
            return Step(
                "naked_single", f"{_at(board, c)} has one candidate", [(c, d)], pattern=(c,)
            )
    return None


def find_hidden_single(board: Board, state: State) -> Step | None:
    """A digit with one possible cell in an exact unit goes there."""
    cand = state.cand
    for u, members in enumerate(board.units):
        if not board.exact[u]:
            continue
        once = twice = 0
        for c in members:
            m = cand[c]
            twice |= once & m
            once |= m
        single = once & ~twice & ~_placed(state, members)
        if single:
            b = single & -single
            c = next(c for c in members if cand[c] & b)
            d = b.bit_length()
            return Step(
                "hidden_single",
                f"{CHARS[d]} has one place in {board.names[u]}",
                places=[(c, d)],
                pattern=(c,),
            )
    return None


def _places(state: State, members: tuple[int, ...], b: int) -> list[int]:
    return [c for c in members if state.cand[c] & b]


def find_locked_candidates(board: Board, state: State) -> Step | None:
    """A digit's places in an exact unit U all lie in unit V too: the rest of V loses it.

    V can hold the digit once at most, and U needs it in U ∩ V. For classic boxes this is
    *pointing* (U a box, V a row or column) and *box-line reduction* (U a line, V a box); with
    overlapping boxes any pair of units can play.
    """
    where = _where(state, board.n)
    unit_mask = board.unit_mask
    for u in range(len(board.units)):
        if not board.exact[u]:
            continue
        for d in range(1, board.n + 1):
            pos = where[d] & unit_mask[u]
            if pos.bit_count() < 2:
                continue  # placed, a hidden single or a contradiction, found elsewhere
            first = (pos & -pos).bit_length() - 1
            for v in board.units_of[first]:
                if v == u or pos & ~unit_mask[v]:
                    continue
                targets = where[d] & unit_mask[v] & ~unit_mask[u]
                if targets:
                    kind = _locked_kind(board.kinds[u], board.kinds[v])
                    b = _bit(d)
                    return Step(
                        "locked_candidates",
                        f"{CHARS[d]} of {board.names[u]} lies in {board.names[v]} ({kind})",
                        removes=[(c, b) for c in _members(targets)],
                        pattern=tuple(_members(pos)),
                    )
    return None


def _locked_kind(ku: str, kv: str) -> str:
    if ku == "box" and kv != "box":
        return "pointing"
    if ku != "box" and kv == "box":
        return "box-line"
    return "two units"


def _closed_sets(items: list[tuple[int, int]], k: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """The k-subsets of ``items`` (key, mask) whose masks together have exactly k bits, in
    lexicographic order, with their union; a partial set already over k bits is cut short
    (which keeps big units fast)."""

    def grow(
        start: int, keys: tuple[int, ...], union: int
    ) -> Iterator[tuple[tuple[int, ...], int]]:
        if len(keys) == k:
            if union.bit_count() == k:
                yield keys, union
            return
        for t in range(start, len(items) - (k - len(keys)) + 1):
            key, m = items[t]
            u = union | m
            if u.bit_count() <= k:
                yield from grow(t + 1, (*keys, key), u)

    yield from grow(0, (), 0)


def _naked_subset(board: Board, state: State, k: int) -> Step | None:
    """k open cells of one unit whose candidates together are k digits: they take those
    digits (every cell is filled, no digit twice), so the unit's other cells lose them. This
    holds for every unit, exact or not."""
    cand = state.cand
    name = {2: "naked_pair", 3: "naked_triple", 4: "naked_quad"}[k]
    for u, members in enumerate(board.units):
        free = [c for c in members if cand[c]]
        if len(free) <= k:
            continue
        small = [(c, cand[c]) for c in free if 2 <= cand[c].bit_count() <= k]
        for combo, union in _closed_sets(small, k):
            removes = [(c, cand[c] & union) for c in free if c not in combo and cand[c] & union]
            if removes:
                cells = " ".join(_at(board, c) for c in combo)
                return Step(
                    name,
                    f"{cells} hold only {_digits(union)} in {board.names[u]}",
                    removes=removes,
                    pattern=combo,
                )
    return None


def _hidden_subset(board: Board, state: State, k: int) -> Step | None:
    """k digits of an exact unit whose places are the same k cells: those cells hold those
    digits, so they lose every other candidate."""
    cand = state.cand
    name = "hidden_pair" if k == 2 else "hidden_triple"
    for u, members in enumerate(board.units):
        if not board.exact[u]:
            continue
        free = [c for c in members if cand[c]]
        if len(free) <= k:
            continue
        open_digits = board.full & ~_placed(state, members)
        where: dict[int, int] = {}  # digit -> mask of positions in `free`
        for d in _digits_of(open_digits):
            b = _bit(d)
            pos = 0
            for t, c in enumerate(free):
                if cand[c] & b:
                    pos |= 1 << t
            if 2 <= pos.bit_count() <= k:
                where[d] = pos
        for combo, pos in _closed_sets(sorted(where.items()), k):
            keep = _union(_bit(d) for d in combo)
            cells = [free[t] for t in _members(pos)]
            removes = [(c, cand[c] & ~keep) for c in cells if cand[c] & ~keep]
            if removes:
                return Step(
                    name,
                    f"{_digits(keep)} only in {' '.join(_at(board, c) for c in cells)} "
                    f"of {board.names[u]}",
                    removes=removes,
                    pattern=tuple(cells),
                )
    return None


def find_naked_pair(board: Board, state: State) -> Step | None:
    """Two cells of a unit with the same two candidates."""
    return _naked_subset(board, state, 2)


def find_hidden_pair(board: Board, state: State) -> Step | None:
    """Two digits with the same two places in an exact unit."""
    return _hidden_subset(board, state, 2)


def find_naked_triple(board: Board, state: State) -> Step | None:
    """Three cells of a unit whose candidates together are three digits."""
    return _naked_subset(board, state, 3)


def find_naked_quad(board: Board, state: State) -> Step | None:
    """Four cells of a unit whose candidates together are four digits (Zambon, level 2)."""
    return _naked_subset(board, state, 4)


def find_hidden_triple(board: Board, state: State) -> Step | None:
    """Three digits whose places in an exact unit are the same three cells."""
    return _hidden_subset(board, state, 3)


def _fish(board: Board, state: State, k: int) -> Step | None:
    """Zambon's lines-k: digit d has 2 to k places in each of k exact base lines (rows), and
    all of them lie in k cover lines (columns): each base line puts its d in a different cover
    line, so the cover lines hold d only there and their other cells lose it (and the same with
    rows and columns swapped). Cover lines need not be exact: each holds d at most once.
    k = 2 is the X-wing (his lines-2), 3 the swordfish (lines-3), 4 the jellyfish (lines-4).
    """
    cand = state.cand
    name = FISH_NAMES[k]
    for d in range(1, board.n + 1):
        b = _bit(d)
        for base, cover, axis in (("row", "col", 1), ("col", "row", 0)):
            items: list[tuple[int, int]] = []  # (base unit, mask of cover-line indices)
            for u, members in enumerate(board.units):
                if board.kinds[u] != base or not board.exact[u]:
                    continue
                if _placed(state, members) & b:
                    continue
                where = _places(state, members, b)
                if 2 <= len(where) <= k:
                    items.append((u, _union(1 << board.cells[c][axis] for c in where)))
            for bases, lines in _closed_sets(items, k):
                covers = [board.line.get((cover, x)) for x in _members(lines)]
                if None in covers:
                    continue
                inside = _union(board.unit_mask[u] for u in bases)
                outside = _union(board.unit_mask[v] for v in covers) & ~inside  # type: ignore[index]
                targets = [c for c in _members(outside) if cand[c] & b]
                if targets:
                    corners = sorted(c for u in bases for c in _places(state, board.units[u], b))
                    return Step(
                        name,
                        f"{CHARS[d]} of {', '.join(board.names[u] for u in bases)} lies in "
                        f"{', '.join(board.names[v] for v in covers)}",  # type: ignore[index]
                        removes=[(c, b) for c in targets],
                        pattern=tuple(corners),
                    )
    return None


FISH_NAMES = {2: "x_wing", 3: "swordfish", 4: "jellyfish"}


def find_x_wing(board: Board, state: State) -> Step | None:
    """Zambon's lines-2: in two rows a digit has the same two columns (or vice versa)."""
    return _fish(board, state, 2)


def find_swordfish(board: Board, state: State) -> Step | None:
    """Zambon's lines-3: three rows whose places for a digit lie in three columns."""
    return _fish(board, state, 3)


def find_jellyfish(board: Board, state: State) -> Step | None:
    """Zambon's lines-4: four rows whose places for a digit lie in four columns."""
    return _fish(board, state, 4)


def _bivalue(state: State) -> list[int]:
    return [c for c, m in enumerate(state.cand) if m.bit_count() == 2]


def find_y_wing(board: Board, state: State) -> Step | None:
    """Pivot P = {x, y}, pincers A = {x, z} and B = {y, z}, both seeing P: whatever P holds,
    one pincer is z, so a cell seeing both pincers cannot be z. Written as the 3-cell chain
    ``A:zx P:xy B:yz``."""
    cand = state.cand
    bival = _bivalue(state)
    for p in bival:
        x, y = _digits_of(cand[p])
        wings = [c for c in bival if board.sees(p, c)]
        for a in wings:
            ma = cand[a]
            if not ma & _bit(x) or ma & _bit(y):
                continue
            zb = ma & ~_bit(x)
            for c in wings:
                if cand[c] != _bit(y) | zb:
                    continue
                seen = board.peers[a] & board.peers[c] & ~(1 << a | 1 << c)
                targets = [t for t in _members(seen) if cand[t] & zb]
                if targets:
                    z = zb.bit_length()
                    chain = (
                        f"{_at(board, a)}:{CHARS[z]}{CHARS[x]} {_at(board, p)}:{CHARS[x]}"
                        f"{CHARS[y]} {_at(board, c)}:{CHARS[y]}{CHARS[z]}"
                    )
                    return Step(
                        "y_wing",
                        f"{chain} (pivot {_at(board, p)})",
                        removes=[(t, zb) for t in targets],
                        pattern=(a, p, c),
                    )
    return None


class SearchTimeout(Exception):
    """The time limit ran out inside a strategy's search."""


def find_xy_chain(
    board: Board,
    state: State,
    order: str = "zambon",
    deadline: float | None = None,
    min_cells: int = XY_CHAIN_MIN,
    max_cells: int = XY_CHAIN_MAX,
) -> Step | None:
    """Zambon's XY-chain (chapter 11 of *Sudoku Programming with C*).

    A chain of distinct bivalue cells c1..ck, each seeing the one before it: c1 holds
    [i0 i1], c2 [i1 i2], ..., ck [i(k-1) i0]. If c1 is not i0 it is i1, so c2 is i2, ... and
    ck is i0: either way one end is i0, so every cell seeing both ends loses i0 (a cell of
    the chain too). Chains have 4 to 9 cells (3 cells are a Y-wing; his recursion stops at 9).

    ``order="zambon"`` searches exactly as his ``pairs_find`` / ``xy_chain_digit`` /
    ``xy_chain_step`` do: end digits i0 ascending (those in at least two bivalue cells), start
    cells by their other digit and then in grid order, each chain extended depth first by the
    next digit ascending and then grid order, a completed chain that removes nothing extended
    further; the first chain that removes something is used. His log line
    ``xy_chain_step: (8,1):91 (0,1):15 (0,8):54 (0,0):49`` (0-based) is, in dlxsat's 1-based
    explanation, ``xy_chain: (9,2):91 (1,2):15 (1,9):54 (1,1):49``. ``order="shortest"``
    takes the chain with the fewest cells instead (ties in his order), which is easier to
    follow. The search is exponential in the worst case; ``deadline`` bounds it.
    """
    cand = state.cand
    n = board.n
    pairs: dict[tuple[int, int], list[int]] = {}
    in_pairs = [0] * (n + 1)
    for c, m in enumerate(cand):
        if m.bit_count() == 2:
            x, y = _digits_of(m)
            pairs.setdefault((x, y), []).append(c)
            pairs.setdefault((y, x), []).append(c)
            in_pairs[x] += 1
            in_pairs[y] += 1
    if not pairs:
        return None
    lengths = [max_cells] if order == "zambon" else range(min_cells, max_cells + 1)
    ticks = [0]
    peers = board.peers

    def extend(
        chain: list[tuple[int, int, int]], used: set[int], i0: int, limit: int
    ) -> tuple[list[tuple[int, int, int]], list[int]] | None:
        """Zambon's xy_chain_step: the chain (cell, in, out) grows from its last cell."""
        ticks[0] += 1
        if deadline is not None and ticks[0] % 512 == 1 and time.perf_counter() > deadline:
            raise SearchTimeout
        end, _, ix = chain[-1]
        start = chain[0][0]
        depth = len(chain)
        for iy in range(1, n + 1):
            for c in pairs.get((ix, iy), ()):
                if c in used or not peers[end] >> c & 1:
                    continue
                # Zambon's "depth > 2": a chain closes from its 4th cell (min_cells) on.
                if (
                    iy == i0
                    and depth + 1 >= min_cells
                    and (order == "zambon" or depth + 1 == limit)
                ):
                    both = peers[start] & peers[c]
                    targets = [t for t in _members(both) if cand[t] & BIT[i0]]
                    if targets:
                        return [*chain, (c, ix, iy)], targets
                if depth + 1 < limit:
                    used.add(c)
                    found = extend([*chain, (c, ix, iy)], used, i0, limit)
                    used.discard(c)
                    if found:
                        return found
        return None

    for limit in lengths:
        for i0 in range(1, n + 1):
            if in_pairs[i0] < 2:
                continue
            for i1 in range(1, n + 1):
                for start in pairs.get((i0, i1), ()):
                    found = extend([(start, i0, i1)], {start}, i0, limit)
                    if found:
                        cells, targets = found
                        text = " ".join(
                            f"{_at(board, c)}:{CHARS[a]}{CHARS[z]}" for c, a, z in cells
                        )
                        return Step(
                            "xy_chain",
                            text,
                            removes=[(t, BIT[i0]) for t in targets],
                            pattern=tuple(c for c, _, _ in cells),
                        )
    return None


def _box_grid(board: Board) -> tuple[int, int, dict[tuple[int, int], int]] | None:
    """The regular boxes of a board as a grid: (box rows, box columns, (R, C) -> unit), or
    None when the boxes do not tile the grid as equal rectangles (or there are holes). Extra
    units (an X-sudoku's diagonals) are ignored: they only add constraints."""
    if board.holes:
        return None
    n = board.n
    found: dict[tuple[int, int], int] = {}
    shape = None
    for u, kind in enumerate(board.kinds):
        if kind != "box" or not board.exact[u] or len(board.units[u]) != n:
            continue
        cells = [board.cells[c] for c in board.units[u]]
        rows = sorted({i for i, _ in cells})
        cols = sorted({j for _, j in cells})
        if len(rows) * len(cols) != n or rows[-1] - rows[0] + 1 != len(rows):
            continue
        if cols[-1] - cols[0] + 1 != len(cols):
            continue
        here = (len(rows), len(cols))
        if shape is None:
            shape = here
        if here != shape or rows[0] % here[0] or cols[0] % here[1]:
            return None
        found[rows[0] // here[0], cols[0] // here[1]] = u
    if shape is None or len(found) != n:
        return None
    return n // shape[0], n // shape[1], found


def find_rectangle(board: Board, state: State, deadline: float | None = None) -> Step | None:
    """Zambon's "rectangle" (chapter 12): a chain around four boxes at the corners of a
    rectangle of boxes (two box rows, two box columns; nine such patterns on a 9 × 9 grid).

    Take a candidate d of an open cell X in the first box. If X is d, the next box (sharing
    X's band) has its d in a cell off X's row and column; from each such cell the third box
    has its d off that cell's row and column, and so on around the four boxes back to the
    first, where the chain must end at X itself. If no way around does, X cannot be d. On the
    way, a cell from which the next box has no place for d at all loses d at once (his
    "pointing-line" inside the rectangle). A box that already holds d ends the attempt. The
    order is his: patterns by their first box in grid order, then the lower box row, then the
    right box column; the four rotations of each pattern; the open cells of the start box in
    order; their candidates ascending. Regular boxes only (equal rectangles, no holes).
    """
    grid = _box_grid(board)
    if grid is None:
        return None
    brows, bcols, box_of = grid
    cand, value = state.cand, state.value
    cells = board.cells
    # A box's solved digits (a cell filled, or left with one candidate: Zambon's "solved"),
    # and, per box and digit, the open cells (two candidates or more) that may take it.
    solved = {}
    open_cells: dict[int, list[tuple[int, int]]] = {}
    for b in box_of.values():
        mask = 0
        for c in board.units[b]:
            m = cand[c]
            if value[c]:
                mask |= BIT[value[c]]
            elif m and not m & (m - 1):
                mask |= m
            elif m:
                open_cells.setdefault(b, []).append((c, m))
        solved[b] = mask

    memo: dict[tuple[int, int], int | Step] = {}

    def step(seq: list[int], k: int, cur: int, d: int, first: int, trail: list[int]) -> int | Step:
        """Zambon's rectangle_step: 1 (a way around), 0 (none), -1 (abort), or a Step. Like
        his, it follows every path (a later one may abort or point); a memo per start cell
        and digit keeps paths that meet again from being followed twice (same answers)."""
        got = memo.get((k, cur))
        if got is None:
            got = memo[k, cur] = _rectangle_step(seq, k, cur, d, first, trail)
        return got

    def _rectangle_step(
        seq: list[int], k: int, cur: int, d: int, first: int, trail: list[int]
    ) -> int | Step:
        box = seq[k + 1] if k < 3 else seq[0]
        bit = BIT[d]
        if solved[box] & bit:
            return -1  # the box holds d already: his scan ends in -1 wherever that cell is
        r0, c0 = cells[cur]
        result: int = 0
        places = [
            c
            for c, m in open_cells.get(box, ())
            if m & bit and cells[c][0] != r0 and cells[c][1] != c0
        ]
        if places or k == 3:
            if k < 3:
                for p in places:
                    if result < 0:
                        break
                    res = step(seq, k + 1, p, d, first, [*trail, p])
                    if isinstance(res, Step):
                        return res
                    result = res if res < 0 else result | res
            elif result == 0 and first in places:
                result = 1
            return result
        return Step(
            "rectangle",
            f"{CHARS[d]} at {_at(board, cur)} would leave no {CHARS[d]} in {board.names[box]} "
            f"(around {' → '.join(board.names[b] for b in seq)})",
            removes=[(cur, BIT[d])],
            pattern=tuple(trail),
        )

    for r1 in range(brows):
        for c1 in range(bcols):
            for r2 in range(r1 + 1, brows):
                for c2 in range(c1 + 1, bcols):
                    pattern = [box_of[r1, c1], box_of[r1, c2], box_of[r2, c2], box_of[r2, c1]]
                    if not all(b in open_cells for b in pattern):
                        continue
                    for rot in range(4):
                        seq = pattern[rot:] + pattern[:rot]
                        for x, mx in open_cells[seq[0]]:
                            if deadline is not None and time.perf_counter() > deadline:
                                raise SearchTimeout
                            for d in _digits_of(mx):
                                memo.clear()
                                res = step(seq, 0, x, d, x, [x])
                                if isinstance(res, Step):
                                    return res
                                if res == 0:
                                    return Step(
                                        "rectangle",
                                        f"{CHARS[d]} at {_at(board, x)} cannot be chained "
                                        f"around {' → '.join(board.names[b] for b in seq)}",
                                        removes=[(x, BIT[d])],
                                        pattern=(x,),
                                    )
    return None


def _rectangle_swappable(board: Board, corners: list[int]) -> bool:
    """Would swapping a and b on these four corners keep every unit valid?

    Yes when each unit that meets a corner holds exactly two of them and those two are in one
    row or one column (so they hold one a and one b). ``corners`` is in the order
    (r1,c1), (r1,c2), (r2,c1), (r2,c2).
    """
    diagonal = ({corners[0], corners[3]}, {corners[1], corners[2]})
    units: set[int] = set()
    for c in corners:
        units.update(board.units_of[c])
    for u in units:
        inside = {c for c in corners if board.unit_mask[u] >> c & 1}
        if len(inside) != 2 or inside in diagonal:
            return False
    return True


def find_unique_rectangle(board: Board, state: State) -> Step | None:
    """Unique rectangle, type 1: corners (r1,c1), (r1,c2), (r2,c1), (r2,c2), three of them
    with candidates exactly {a, b} and the fourth with a, b and more. Were the fourth a or b,
    the four corners would hold a and b crosswise and swapping them would give a second
    answer; assuming the answer is unique, the fourth loses a and b. (See the module notes on
    what this assumption means for the uniqueness claim.)"""
    cand = state.cand
    for a in _bivalue(state):
        ab = cand[a]
        r1, c1 = board.cells[a]
        for c2 in range(c1 + 1, board.n):
            b = board.index.get((r1, c2))
            if b is None or cand[b] != ab:
                continue
            for r2 in range(board.n):
                if r2 == r1:
                    continue
                x, y = board.index.get((r2, c1)), board.index.get((r2, c2))
                if x is None or y is None:
                    continue
                mx, my = cand[x], cand[y]
                if mx & ab != ab or my & ab != ab:
                    continue
                if mx == ab and my != ab:
                    fourth = y
                elif my == ab and mx != ab:
                    fourth = x
                else:
                    continue
                corners = [a, b, x, y]
                if not _rectangle_swappable(board, corners):
                    continue
                three = " ".join(_at(board, c) for c in sorted({a, b, x, y} - {fourth}))
                return Step(
                    "unique_rectangle",
                    f"{three} hold only {_digits(ab)}; {_at(board, fourth)} would complete a "
                    "swappable rectangle",
                    removes=[(fourth, ab)],
                    pattern=tuple(corners),
                )
    return None


def find_forcing_chain(board: Board, state: State, deadline: float | None = None) -> Step | None:
    """A contradiction forcing chain (also called Nishio): a candidate whose placement leads,
    by naked and hidden singles alone, to a contradiction is false.

    This is the last rung, beyond Zambon's strategies: four of the golden puzzles and most of
    those Tatham's generator grades *unreasonable* need it. Each use is a short proof (the
    chain of singles is printed), so the result stays a proof of uniqueness. Cells with fewer
    candidates are tried first, then their candidates in ascending order.
    """
    cand = state.cand
    order = sorted((m.bit_count(), c) for c, m in enumerate(cand) if m)
    for _, c in order:
        if deadline is not None and time.perf_counter() > deadline:
            raise SearchTimeout
        for d in _digits_of(cand[c]):
            trial = state.copy()
            trace: list[tuple[int, int]] = []
            why = _propagate(board, trial, assign=(c, d), trace=trace)
            if why:
                shown = [f"{_at(board, t)}={CHARS[v]}" for t, v in trace[:FORCING_SHOWN]]
                if len(trace) > FORCING_SHOWN:
                    shown.append(f"… ({len(trace) - FORCING_SHOWN} more)")
                return Step(
                    "forcing_chain",
                    f"{' → '.join(shown)} → contradiction: {why}",
                    removes=[(c, _bit(d))],
                    pattern=tuple(t for t, _ in trace),
                )
    return None


Finder = Callable[[Board, State], "Step | None"]

#: The ladder, in Zambon's order (his solver's ``strat0`` .. ``strat3``: level 0 the singles,
#: his ``unique_loop``; level 1 naked and hidden pairs, box-line and pointing-line, here one
#: strategy, ``locked_candidates``; level 2 naked and hidden triples, lines-2, naked quad and
#: Y-wing; level 3 rectangle, XY-chain, lines-3 and lines-4), then the two additions that are
#: not his: ``unique_rectangle`` (level 4) and ``forcing_chain`` (level 5). After every success
#: the engine starts again from the top. A puzzle's grade is the level of the hardest strategy
#: it needed (0 when the givens and singles settle it).
STRATEGIES: tuple[tuple[str, Finder], ...] = (
    ("naked_single", find_naked_single),
    ("hidden_single", find_hidden_single),
    ("naked_pair", find_naked_pair),
    ("hidden_pair", find_hidden_pair),
    ("locked_candidates", find_locked_candidates),
    ("naked_triple", find_naked_triple),
    ("hidden_triple", find_hidden_triple),
    ("x_wing", find_x_wing),
    ("naked_quad", find_naked_quad),
    ("y_wing", find_y_wing),
    ("rectangle", find_rectangle),
    ("xy_chain", find_xy_chain),
    ("swordfish", find_swordfish),
    ("jellyfish", find_jellyfish),
    ("unique_rectangle", find_unique_rectangle),
    ("forcing_chain", find_forcing_chain),
)
#: Zambon's level of each strategy (4 and 5: the additions, which are not his).
LEVEL = {
    "naked_single": 0,
    "hidden_single": 0,
    "naked_pair": 1,
    "hidden_pair": 1,
    "locked_candidates": 1,
    "naked_triple": 2,
    "hidden_triple": 2,
    "x_wing": 2,
    "naked_quad": 2,
    "y_wing": 2,
    "rectangle": 3,
    "xy_chain": 3,
    "swordfish": 3,
    "jellyfish": 3,
    "unique_rectangle": 4,
    "forcing_chain": 5,
}
#: Zambon's own names for his strategies (the additions have none).
ZAMBON_NAME = {
    "naked_single": "unique-loop",
    "hidden_single": "unique-loop",
    "naked_pair": "naked-pair",
    "hidden_pair": "hidden-pair",
    "locked_candidates": "box-line, pointing-line",
    "naked_triple": "naked-triple",
    "hidden_triple": "hidden-triple",
    "x_wing": "lines-2",
    "naked_quad": "naked-quad",
    "y_wing": "Y-wing",
    "rectangle": "rectangle",
    "xy_chain": "XY-chain",
    "swordfish": "lines-3",
    "jellyfish": "lines-4",
}
#: The position of each strategy in the ladder (1-based), to break ties between equal levels.
RANK = {name: k for k, (name, _) in enumerate(STRATEGIES, 1)}
#: Strategies whose eliminations hold only if the puzzle has a single answer.
ASSUMES_UNIQUENESS = frozenset({"unique_rectangle"})


# ---------------------------------------------------------------------------------------------
# The engine


@dataclass
class LogicRun:
    """What :func:`run_strategies` did.

    ``result`` is ``solved``, ``stalled``, ``contradiction`` or ``timeout``; ``uses`` counts
    each strategy's successes; ``lines`` holds the explanation and ``data`` the same steps as
    dicts (when asked for); ``sound`` is a copy of the state just before the first
    uniqueness-assuming step (None if there was none); ``reason`` says what the contradiction
    was.
    """

    result: str
    uses: dict[str, int]
    lines: list[str]
    data: list[dict[str, Any]] = field(default_factory=list)
    eliminated: int = 0
    placed: int = 0
    sound: State | None = None
    reason: str = ""


def run_strategies(
    board: Board,
    state: State,
    *,
    deadline: float | None = None,
    explain: bool = False,
    strategies: tuple[tuple[str, Finder], ...] = STRATEGIES,
    order: str = "zambon",
) -> LogicRun:
    """Apply the strategies to ``state`` (in place) until solved, stuck or out of time.

    ``order`` is the XY-chain search order (see :func:`find_xy_chain`); ``deadline`` (a
    ``time.perf_counter`` value) is checked before every strategy and inside the searching
    ones (rectangle, XY-chain, forcing chain)."""
    run = LogicRun("stalled", {}, [])
    check: set[int] | None = None  # cells to check for a contradiction (None: all)
    bound: dict[str, Finder] = {
        "xy_chain": lambda b, s: find_xy_chain(b, s, order=order, deadline=deadline),
        "forcing_chain": lambda b, s: find_forcing_chain(b, s, deadline=deadline),
        "rectangle": lambda b, s: find_rectangle(b, s, deadline=deadline),
    }
    ladder = [(name, bound.get(name, finder)) for name, finder in strategies]
    while True:
        if state.solved():
            run.result = "solved"
            return run
        bad = contradiction(board, state, check)
        if bad:
            run.result, run.reason = "contradiction", bad
            if explain:
                run.lines.append(f"contradiction: {bad}")
                run.data.append({"strategy": "contradiction", "text": run.lines[-1]})
            return run
        for name, finder in ladder:
            if deadline is not None and time.perf_counter() > deadline:
                run.result = "timeout"
                return run
            try:
                step = finder(board, state)
            except SearchTimeout:
                run.result = "timeout"
                return run
            if step is None:
                continue
            if name in ASSUMES_UNIQUENESS and run.sound is None:
                run.sound = state.copy()
            if explain:
                run.lines.append(step.line(board))
                run.data.append(step.data(board))
            run.uses[name] = run.uses.get(name, 0) + 1
            run.placed += len(step.places)
            run.eliminated += sum(m.bit_count() for _, m in step.removes)
            apply(board, state, step)
            check = touched(board, step)
            break
        else:
            run.result = "stalled"
            return run


def candidate_lines(board: Board, state: State) -> list[str]:
    """The position as text: digits, ``#`` holes and ``[candidates]``, one row a line."""
    texts = {}
    for c, (i, j) in enumerate(board.cells):
        v = state.value[c]
        texts[i, j] = CHARS[v] if v else "[" + _digits(state.cand[c], "") + "]"
    width = max(len(t) for t in texts.values()) if texts else 1
    out = []
    for i in range(board.n):
        row = " ".join(texts.get((i, j), "#").ljust(width) for j in range(board.n))
        out.append(f"  {row.rstrip()}")
    return out


def grid_of(board: Board, state: State) -> list[str]:
    """The answer rows: digit characters, ``#`` for holes (``.`` for a cell still open)."""
    rows = [["#"] * board.n for _ in range(board.n)]
    for c, (i, j) in enumerate(board.cells):
        rows[i][j] = CHARS[state.value[c]] if state.value[c] else "."
    return ["".join(r) for r in rows]


# ---------------------------------------------------------------------------------------------
# The search (fallback, and the uniqueness check after a unique rectangle)


@dataclass
class SearchRun:
    """What :func:`search` found: ``solutions`` (grids, at most ``keep``), ``count``,
    ``exhausted`` (the whole space was explored), ``timed_out`` and ``nodes``."""

    solutions: list[list[str]] = field(default_factory=list)
    count: int = 0
    exhausted: bool = False
    timed_out: bool = False
    nodes: int = 0


def _propagate(
    board: Board,
    state: State,
    assign: tuple[int, int] | None = None,
    trace: list[tuple[int, int]] | None = None,
) -> str | None:
    """Fill in naked and hidden singles (in place) until none is left.

    With ``assign = (cell, digit)`` that digit is placed first and only what it touches is
    examined (the state is taken to have no singles left otherwise); without it every cell and
    unit is examined. Placements are appended to ``trace``. Returns None, or the contradiction
    that stopped it.
    """
    cand, value, peers, units_of = state.cand, state.value, board.peers, board.units_of
    units, exact, full = board.units, board.exact, board.full
    if assign is None:
        cell_q = [c for c in range(len(cand)) if not value[c]]
        unit_q = set(range(len(units)))
    else:
        cell_q, unit_q = [], set()

    def put(c: int, d: int) -> None:
        value[c] = d
        cand[c] = 0
        b = 1 << (d - 1)
        if trace is not None:
            trace.append((c, d))
        unit_q.update(units_of[c])
        m = peers[c]
        while m:
            low = m & -m
            p = low.bit_length() - 1
            m ^= low
            if cand[p] & b:
                cand[p] ^= b
                cell_q.append(p)
                unit_q.update(units_of[p])

    if assign is not None:
        put(*assign)
    while cell_q or unit_q:
        while cell_q:
            c = cell_q.pop()
            if value[c]:
                continue
            m = cand[c]
            if not m:
                return f"{_at(board, c)} has no candidate left"
            if not m & (m - 1):
                put(c, m.bit_length())
        if unit_q:
            u = unit_q.pop()
            if not exact[u]:
                continue
            once = twice = placed = 0
            for c in units[u]:
                m = cand[c]
                twice |= once & m
                once |= m
                if value[c]:
                    placed |= 1 << (value[c] - 1)
            missing = full & ~(once | placed)
            if missing:
                d = _digits_of(missing)[0]
                return f"digit {CHARS[d]} has no place left in {board.names[u]}"
            single = once & ~twice & ~placed
            if single:
                b = single & -single
                put(next(c for c in units[u] if cand[c] & b), b.bit_length())
                unit_q.add(u)  # look again: it may have more singles
    return None


def search(
    board: Board,
    state: State,
    *,
    limit: int | None = None,
    keep: int | None = None,
    deadline: float | None = None,
) -> SearchRun:
    """Backtracking over candidates from ``state`` (not changed), singles propagated after
    every choice. Like Knuth's Algorithm X it branches on the tightest constraint: the open
    cell with fewest candidates, or the digit of an exact unit with fewest places if that is
    fewer (which matters on big, sparse grids).

    Stops after ``limit`` solutions (None: all), storing at most ``keep`` of them.
    """
    out = SearchRun()
    root = state.copy()
    if _propagate(board, root):
        out.exhausted = True
        return out
    stack: list[tuple[State, list[tuple[int, int]]]] = []

    def branch(s: State) -> bool:
        """Push a choice point for s, or record s as a solution; False when done."""
        best, best_count = -1, board.n + 1
        for c, m in enumerate(s.cand):
            if m:
                k = m.bit_count()
                if k < best_count:
                    best, best_count = c, k
        if best < 0:
            out.count += 1
            if keep is None or len(out.solutions) < keep:
                out.solutions.append(grid_of(board, s))
            return limit is None or out.count < limit
        choices = [(best, d) for d in _digits_of(s.cand[best])]
        if best_count > 2:
            for u, members in enumerate(board.units):
                if not board.exact[u]:
                    continue
                for d in _digits_of(board.full & ~_placed(s, members)):
                    where = _places(s, members, _bit(d))
                    if len(where) < len(choices):
                        choices = [(c, d) for c in where]
                        if len(choices) <= 2:
                            break
                if len(choices) <= 2:
                    break
        stack.append((s, choices))
        return True

    if not branch(root):
        return out
    while stack:
        out.nodes += 1
        if deadline is not None and out.nodes % 64 == 0 and time.perf_counter() > deadline:
            out.timed_out = True
            return out
        s, todo = stack[-1]
        if not todo:
            stack.pop()
            continue
        child = s.copy()
        if _propagate(board, child, assign=todo.pop(0)) is None and not branch(child):
            return out
    out.exhausted = True
    return out


# ---------------------------------------------------------------------------------------------
# The entry point


def solve(
    puzzle: Any, request: Request | None = None, options: Mapping[str, Any] | None = None
) -> SearchResult:
    """Solve a :class:`~dlxsat.families.sudoku.SudokuPuzzle` by reasoning, as ``request`` asks
    (a :class:`dlxsat.solvers.Request`; default: ``unique`` mode, no time limit).

    ``request.mode``: ``unique`` (is there exactly one answer?), ``count`` or ``all`` (as in
    :func:`dlxsat.pipeline.solve`); ``request.keep``: the most answers kept in ``count`` mode;
    ``request.deadline`` bounds the whole run; ``request.found`` is told the answers found.
    ``options``: ``explain``, ``fallback`` (search when the strategies stall) and ``order``
    (the XY-chain search order).
    """
    request = request or Request.for_mode("unique")
    result = solve_board(
        board_from_puzzle(puzzle),
        mode=request.mode,
        timeout=request.deadline.remaining(),
        keep=request.keep,
        **(options or {}),
    )
    request.found(result.count or 0)
    return result


def solve_board(
    board: Board,
    *,
    mode: str = "unique",
    timeout: float | None = None,
    explain: bool = False,
    fallback: bool = False,
    order: str = "zambon",
    keep: int | None = None,
) -> SearchResult:
    """:func:`solve` on the internal model (see the module notes for what the result says)."""
    if mode not in MODES:
        raise InputError(f"unknown mode {mode!r} (choose from {', '.join(MODES)})")
    if order not in ORDERS:
        raise InputError(f"unknown order {order!r} (choose from {', '.join(ORDERS)})")
    started = time.perf_counter()
    deadline = None if timeout is None else started + timeout
    state, clash = initial_state(board)
    if clash:
        run = LogicRun("contradiction", {}, [f"contradiction: {clash}"] if explain else [])
        run.reason = clash
    else:
        run = run_strategies(board, state, deadline=deadline, explain=explain, order=order)

    out = SearchResult(steps=list(run.lines))
    hardest = max(run.uses, key=lambda s: (LEVEL[s], RANK[s]), default=None)
    stats: dict[str, Any] = {
        "hardest": hardest or "none",
        "grade": LEVEL[hardest] if hardest else 0,
        "deductions": sum(run.uses.values()),
        "placed": run.placed,
        "eliminated": run.eliminated,
        "logic": run.result,
        "solved_by": None,
        "uniqueness": None,
        "assumed_uniqueness": run.sound is not None,
        "strategy_uses": {name: run.uses[name] for name, _ in STRATEGIES if name in run.uses},
    }
    out.stats = stats
    steps_data = list(run.data)

    def note(text: str) -> None:
        out.steps.append(text)
        steps_data.append({"strategy": text.split(":", 1)[0].split(" ", 1)[0], "text": text})

    def settle_by_search(start: State, why: str) -> None:
        limit = 2 if mode == "unique" else None
        found = search(
            board, start, limit=limit, keep=keep if mode == "count" else None, deadline=deadline
        )
        stats["search_nodes"] = found.nodes
        out.answers = [{"grid": g} for g in found.solutions]
        out.count = found.count
        out.exhausted = found.exhausted
        out.timed_out = found.timed_out
        if explain:
            note(
                f"search ({why}): {found.nodes} nodes, {found.count} "
                f"solution{'s' if found.count != 1 else ''}"
                f"{' (time limit reached)' if found.timed_out else ''}"
            )

    if run.result == "timeout":
        out.timed_out, out.count = True, 0
    elif run.result == "solved":
        stats["solved_by"] = "logic"
        answer = grid_of(board, state)
        if run.sound is None:
            stats["uniqueness"] = "deduction"
            out.answers, out.count, out.exhausted = [{"grid": answer}], 1, True
        else:
            stats["uniqueness"] = "search"
            settle_by_search(run.sound, "checking uniqueness, a unique rectangle was used")
            if out.count != 1:
                stats["solved_by"] = "search"
            if out.timed_out and not out.count:
                out.answers, out.count = [{"grid": answer}], 1
    elif run.result == "contradiction":
        if run.sound is None:
            stats["uniqueness"] = "deduction"
            out.count, out.exhausted = 0, True
        else:
            stats["uniqueness"] = "search"
            settle_by_search(run.sound, "a unique rectangle was used before the contradiction")
            if out.count:
                stats["solved_by"] = "search"
    else:  # stalled
        if explain:
            note(
                f"stalled: no strategy applies; {sum(1 for v in state.value if not v)} cells "
                "open, candidates left:"
            )
            out.steps.extend(candidate_lines(board, state))
            steps_data[-1]["candidates"] = candidate_lines(board, state)
        if fallback:
            stats["solved_by"] = "search"
            stats["uniqueness"] = "search"
            settle_by_search(run.sound or state, "fallback")
        else:
            out.stalled, out.count = True, None
    if explain:
        stats["steps"] = steps_data
    stats["seconds"] = round(time.perf_counter() - started, 6)
    return out
