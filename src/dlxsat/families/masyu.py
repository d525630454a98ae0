"""Masyu: read Knuth's MASYU-DLX input, print his exact-cover data, judge and draw answers.

The input is ``m`` lines of ``n`` characters: ``0`` a white circle, ``1`` a black circle, ``.``
no clue. Knuth's program also takes the digits ``2``-``4`` and treats them as white circles
(anything but ``1`` goes down his "white" branch), so we do the same, in the encoding and in the
rule checker alike.

The loop visits cells: cell (i, j) is the tile (2i, 2j) of the doubled grid, the edge between two
cells is named by their midpoint, and the circle on cell (i, j) is the item (2i+1, 2j+1)
(docs/conventions.md §4). Knuth's generator does not give every edge its own variable: each clue
ties the four edges around it together (black: N = ¬S and E = ¬W; white: N = S, E = W and S = ¬W),
so a union-find table over the edges (with the edges off the board as the constant 0) leaves one
independent variable per class. :class:`Reduction` replays that table step for step, because its
leaders, complement bits and cyclic member lists decide the exact bytes of his output.

Boards beyond his limit of 31 rows or columns are accepted here; their names are then decimal
(``40.70``, ``#41.70``) instead of base-62 digits, as docs/conventions.md §4 says.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..answer import Answer, edges_answer, loop_pieces
from ..errors import InputError
from ..xcc.loop import loop_coords
from ..xcc.model import Entry, Problem
from ..xcc.names import parse_point_name
from .base import puzzle_lines
from .grid import GridPuzzle, tatham_rows
from .spec import FamilySpec, Picture, Tatham

#: Characters of a clue: ``0`` white, ``1`` black, ``2``-``4`` white too (as in Knuth's program).
CLUES = "01234"
BLACK = "1"
NO_CLUE = "."

#: Longest item name Knuth's solvers accept; wide boards must keep within it.
MAX_NAME = 8

# Knuth's table of neighbour patterns for a tile: bit 8 = N, 4 = W, 2 = E, 1 = S. The first six
# are the ways a loop can pass through a cell (degree 2), the last is "not on the loop".
_TILE_CODES = (0xC, 0xA, 0x5, 0x3, 0x9, 0x6, 0x0)


@dataclass(frozen=True)
class MasyuPuzzle(GridPuzzle):
    """A Masyu board: ``rows[i][j]`` is ``.`` or a clue digit ``0``-``4`` (``1`` black).

    >>> p = read("0.\\n.1\\n")
    >>> p.m, p.n, p.wide, p.is_black(1, 1), p.is_white(0, 0)
    (2, 2, False, True, True)
    """

    @property
    def max_coord(self) -> int:
        """A circle's: cell (i, j) is the point (2i + 1, 2j + 1)."""
        return 2 * max(self.m, self.n) - 1

    def has_clue(self, i: int, j: int) -> bool:
        return self.rows[i][j] != NO_CLUE

    def is_black(self, i: int, j: int) -> bool:
        return self.rows[i][j] == BLACK

    def is_white(self, i: int, j: int) -> bool:
        """White circle: ``0``, and the digits ``2``-``4`` that Knuth's program treats as white."""
        return self.rows[i][j] not in (NO_CLUE, BLACK)

    @cached_property
    def reduction(self) -> Reduction:
        """The union-find reduction of the edge variables, as MASYU-DLX computes it."""
        return Reduction(self)


# ---------------------------------------------------------------------------------------------
# Reading


def read(text: str) -> MasyuPuzzle:
    """Parse MASYU-DLX input, rejecting what his program rejects (with line and column).

    Unlike his program, any number of rows and columns of 2 or more is accepted.

    >>> read("0..\\n.1.\\n").rows
    ('0..', '.1.')
    >>> read("0.x\\n...\\n")
    Traceback (most recent call last):
      ...
    dlxsat.errors.InputError: line 1, column 3: illegal clue 'x' (use 0 white, 1 black, . none)
    """
    lines = puzzle_lines(text.replace("\r\n", "\n"))
    if not lines:
        raise InputError("empty puzzle: no rows of clues")
    width = len(lines[0])
    for r, line in enumerate(lines, 1):
        for c, ch in enumerate(line, 1):
            if ch != NO_CLUE and ch not in CLUES:
                raise InputError(
                    f"line {r}, column {c}: illegal clue {ch!r} (use 0 white, 1 black, . none)"
                )
        if len(line) != width:
            col = min(len(line), width) + 1
            raise InputError(
                f"line {r}, column {col}: row has wrong number of clues "
                f"({len(line)}, but line 1 has {width})"
            )
    m, n = len(lines), width
    if m < 2 or n < 2:
        raise InputError(
            f"line 1: the board dimensions must be 2 or more, not {m}x{n} "
            "(a puzzle of one row or column has no loop)"
        )
    puzzle = MasyuPuzzle(tuple(lines))
    if puzzle.wide:
        # The longest names: a '#' class item of the last edges, and the last circle.
        longest = max(
            len("#" + puzzle.name(2 * m - 2, 2 * n - 3)),
            len("#" + puzzle.name(2 * m - 3, 2 * n - 2)),
            len(puzzle.name(2 * m - 1, 2 * n - 1)),
        )
        if longest > MAX_NAME:
            raise InputError(
                f"a {m}x{n} board is too large: its item names would exceed {MAX_NAME} characters"
            )
    return puzzle


def from_tatham_id(game_id: str) -> str:
    """Knuth's input text for a game id of Simon Tatham's Pearl (``sgt-pearl``, his Masyu).

    A Pearl id is ``WxH:DESC`` (width, height; a difficulty ``dX`` and a no-solve flag ``n``
    may follow): DESC lists the cells row by row, ``B`` a black circle, ``W`` a white one, a
    letter ``a``-``z`` a run of 1-26 empty cells. That is how ``sgt-pearl --generate`` prints
    its puzzles, so any of his boards can be fed to dlxsat.

    >>> print(from_tatham_id("3x2:BbaWa"), end="")
    1..
    .0.
    """
    params, colon, desc = game_id.strip().partition(":")
    shape = re.fullmatch(r"(\d+)x(\d+)(?:d[a-z])?n?", params)
    if not colon or shape is None:
        raise InputError(f"{game_id!r} is not a Pearl game id like '10x10:DESC'")
    width, height = int(shape[1]), int(shape[2])
    return tatham_rows(desc, width, height, {"B": BLACK, "W": "0"}, "Pearl")


def write(puzzle: MasyuPuzzle) -> str:
    """The puzzle in Knuth's input format: what :func:`read` reads back to the same puzzle.

    >>> write(read("0.\\n.1\\n"))
    '0.\\n.1\\n'
    """
    return "".join(row + "\n" for row in puzzle.rows)


# ---------------------------------------------------------------------------------------------
# The union-find reduction


class Reduction:
    """Knuth's union-find table over the edges of a board, after all clues are applied.

    An edge (x, y) of the doubled grid has the number ``x * width + y``; number 0 (the point
    (0, 0), never an edge) is the constant class, whose value is 0. Every edge has a leader
    ``ldr``, a bit ``cmp`` (value = leader's value XOR cmp) and a successor ``nxt`` in the cyclic
    list of its class. ``aborted`` is true when the clues contradict each other, in which case
    Knuth prints ``abort`` instead of a problem.

    >>> read("0.\\n..\\n").reduction.aborted  # a white circle can't go straight in a corner
    True
    >>> red = read("1.\\n..\\n").reduction  # a black one there fixes both of its edges to 1
    >>> [(red.coords(e), red.cmp[e]) for e in red.constants()]
    [((0, 1), 1), ((1, 0), 1)]
    """

    def __init__(self, puzzle: MasyuPuzzle) -> None:
        self.m, self.n = puzzle.m, puzzle.n
        self.xmax, self.ymax = 2 * self.m - 2, 2 * self.n - 2
        self.width = 2 * self.n  # > ymax, so numbers sort like (x, y) pairs
        size = (self.xmax + 1) * self.width
        self.ldr = list(range(size))
        self.cmp = [0] * size
        self.nxt = list(range(size))
        self.siz = [1] * size
        self.siz[0] = 0
        self.aborted = False
        for i in range(self.m):
            for j in range(self.n):
                if not puzzle.has_clue(i, j):
                    continue
                x, y = 2 * i, 2 * j
                n_, s_, e_, w_ = (x - 1, y), (x + 1, y), (x, y + 1), (x, y - 1)
                # Every relation of the clue is applied even after a contradiction, as Knuth
                # sums the results of all of them before he aborts.
                if puzzle.is_black(i, j):
                    bad = [self.union(n_, s_, 1), self.union(e_, w_, 1)]
                else:
                    bad = [self.union(n_, s_, 0), self.union(e_, w_, 0), self.union(s_, w_, 1)]
                if any(bad):
                    self.aborted = True
                    return

    def number(self, xy: tuple[int, int]) -> int:
        """The edge's number, or 0 (the constant) for an edge off the board."""
        x, y = xy
        if 0 <= x <= self.xmax and 0 <= y <= self.ymax:
            return x * self.width + y
        return 0

    def coords(self, e: int) -> tuple[int, int]:
        return divmod(e, self.width)

    def union(self, a: tuple[int, int], b: tuple[int, int], comp: int) -> bool:
        """Record ``a = b XOR comp``; True when that contradicts what is known (Knuth's yewnion)."""
        e, ee = self.number(a), self.number(b)
        ldr, cmp, siz, nxt = self.ldr, self.cmp, self.siz, self.nxt
        p, pp = ldr[e], ldr[ee]
        s = comp ^ cmp[e] ^ cmp[ee]  # we want p = pp XOR s
        if p == pp:
            return s != 0
        # The smaller class joins the larger one; the constant class always absorbs the other.
        if p == 0 or (pp != 0 and siz[p] > siz[pp]):
            p, pp = pp, p
        siz[pp] += siz[p]
        q = nxt[p]
        while True:
            ldr[q] = pp
            cmp[q] ^= s
            if q == p:
                break
            q = nxt[q]
        nxt[p], nxt[pp] = nxt[pp], nxt[p]  # splice the two cyclic member lists
        return False

    def members(self, leader: int) -> list[int]:
        """The class of ``leader`` in Knuth's printing order: from its successor round to itself."""
        out = []
        q = self.nxt[leader]
        while True:
            out.append(q)
            if q == leader:
                return out
            q = self.nxt[q]

    def constants(self) -> list[int]:
        """The edges of known value, in the order of the constant class's cyclic list."""
        return self.members(0)[:-1]

    def edges(self) -> Iterable[int]:
        """Every edge of the board, row by row."""
        for x in range(self.xmax + 1):
            for y in range((x + 1) & 1, self.ymax + 1, 2):
                yield x * self.width + y

    def class_leaders(self) -> list[int]:
        """Leaders of the classes of two or more edges (they get a ``#`` item), row by row."""
        return [e for e in self.edges() if self.ldr[e] == e and self.siz[e] > 1]

    def values(self, leader_value: dict[int, int]) -> dict[int, int]:
        """The value of every edge, given values of (some) leaders; unknown leaders count 0."""
        return {
            e: (0 if self.ldr[e] == 0 else leader_value.get(self.ldr[e], 0)) ^ self.cmp[e]
            for e in self.edges()
        }


# ---------------------------------------------------------------------------------------------
# Encoding


class _Option:
    """An option under construction: constraints on edge leaders, kept sorted, or cancelled."""

    def __init__(self, red: Reduction) -> None:
        self.red = red
        self.want: dict[int, int] | None = {}

    def add(self, xy: tuple[int, int], val: int) -> None:
        """Constrain edge ``xy`` to ``val`` (Knuth's append_opt)."""
        want = self.want
        if want is None:
            return
        red = self.red
        x, y = xy  # (Reduction.number, written out: every option of a solve comes here)
        e = x * red.width + y if 0 <= x <= red.xmax and 0 <= y <= red.ymax else 0
        p, val = red.ldr[e], (val & 1) ^ red.cmp[e]
        if p == 0:
            if val:  # the edge is the constant 0: an always-false option
                self.want = None
            return
        old = want.get(p)
        if old is None:
            want[p] = val
        elif old != val:  # both values of one variable: a foolish option
            self.want = None

    def text(self, head: str, name: Callable[[int], str]) -> str | None:
        if self.want is None:
            return None
        return head + "".join(f" {name(p)}:{v}" for p, v in sorted(self.want.items())) + "\n"


def _cell_options(puzzle: MasyuPuzzle, i: int, j: int) -> Iterator[tuple[str, _Option]]:
    """The options MASYU-DLX writes for cell (i, j), each with the primary item it names first:
    the tile's 0-or-2 edges, or a circle's ways through. One generator serves :func:`encode`
    (text) and :func:`build` (a problem), so the two cannot drift apart."""
    red, nm = puzzle.reduction, puzzle.name
    x, y = 2 * i, 2 * j
    if not puzzle.has_clue(i, j):
        # A tile has 0 or 2 of its four edges on the loop.
        head = nm(x, y)
        sides = ((x - 1, y), (x, y - 1), (x, y + 1), (x + 1, y))
        legs = [(red.ldr[e], red.cmp[e]) for e in map(red.number, sides)]
        leaders = {leader for leader, _ in legs}
        if 0 not in leaders and len(leaders) == 4:
            # Four edges of four unknown classes (most tiles): what add() would make of each.
            for code in _TILE_CODES:
                opt = _Option(red)
                opt.want = {
                    leader: ((code >> shift) & 1) ^ c
                    for (leader, c), shift in zip(legs, (3, 2, 1, 0), strict=True)
                }
                yield head, opt
            return
        for code in _TILE_CODES:
            opt = _Option(red)
            opt.add(sides[0], code >> 3)
            opt.add(sides[1], code >> 2)
            opt.add(sides[2], code >> 1)
            opt.add(sides[3], code)
            yield head, opt
    elif puzzle.is_black(i, j):
        # Turn here and go straight on through both cells the loop leaves by.
        for code in _TILE_CODES[:4]:
            opt = _Option(red)
            for bit, dx, dy in ((8, -1, 0), (4, 0, -1), (2, 0, 1), (1, 1, 0)):
                if code & bit:
                    opt.add((x + dx, y + dy), 1)
                    opt.add((x + 3 * dx, y + 3 * dy), 1)
            yield nm(x + 1, y + 1), opt
    else:
        # Go straight through, and do not go straight through both neighbours as well.
        for vertical in (True, False):
            for before, after in ((0, 0), (0, 1), (1, 0)):
                opt = _Option(red)
                if vertical:
                    opt.add((x - 1, y), 1)
                    opt.add((x - 3, y), before)
                    opt.add((x + 3, y), after)
                else:
                    opt.add((x, y - 1), 1)
                    opt.add((x, y - 3), before)
                    opt.add((x, y + 3), after)
                yield nm(x + 1, y + 1), opt


def encode(puzzle: MasyuPuzzle) -> str:
    """Exactly what MASYU-DLX prints on stdout for this puzzle (its DLX2 data, or ``abort``)."""
    m, n = puzzle.m, puzzle.n
    out = ["| masyu-dlx:\n"]
    out.extend(f"| {row}\n" for row in puzzle.rows)
    red = puzzle.reduction
    if red.aborted:
        out.append("abort\n")
        return "".join(out)
    nm = puzzle.name

    def ename(e: int) -> str:
        return nm(*red.coords(e))

    cells = [(i, j) for i in range(m) for j in range(n)]
    clues = [(i, j) for i, j in cells if puzzle.has_clue(i, j)]
    leaders = red.class_leaders()

    # The item-name line: tiles, circles and '#' classes are primary, the edges secondary.
    names = [nm(2 * i, 2 * j) + " " for i, j in cells]
    names += [nm(2 * i + 1, 2 * j + 1) + " " for i, j in clues]
    names += ["#" + ename(e) + " " for e in leaders]
    names.append("|")
    names += [" " + ename(e) for e in red.edges()]
    out.append("".join(names) + "\n")

    # The catch-all option: tiles of the clues (covered by the reductions) and the known edges.
    special = [nm(2 * i, 2 * j) + " " for i, j in clues]
    special += [f"{ename(e)}:{red.cmp[e]} " for e in red.constants()]
    out.append("".join(special) + "\n")
    # Two options per class: its members all colored by the leader's value 0 or 1.
    for e in leaders:
        members = red.members(e)
        for flip in (0, 1):
            out.append(
                "#" + ename(e) + "".join(f" {ename(q)}:{red.cmp[q] ^ flip}" for q in members) + "\n"
            )

    for i, j in cells:
        for head, opt in _cell_options(puzzle, i, j):
            out.append(opt.text(head, ename) or "")
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# Decoding


def decode(puzzle: MasyuPuzzle, problem: Problem, chosen: Iterable[int]) -> Answer:
    """The loop's edges for the chosen options of ``problem`` (parsed from :func:`encode`).

    The options need not name every edge: a class's members follow from any one of them via
    the union-find table, and the constant edges from the table alone, so the answer is the full
    set of edges whose value is 1.
    """
    red = puzzle.reduction
    leader_value: dict[int, int] = {}
    n_primary = problem.n_primary
    coords = loop_coords(problem)
    for k in chosen:
        for i, color in problem.options[k]:
            if i < n_primary or color not in ("0", "1"):
                continue
            xy = coords[i] if i in coords else parse_point_name(problem.items[i].name)
            if xy is None or not (xy[0] + xy[1]) & 1:
                continue
            e = red.number(xy)
            if e and red.ldr[e]:
                leader_value[red.ldr[e]] = int(color) ^ red.cmp[e]
    values = red.values(leader_value)
    return edges_answer(red.coords(e) for e, v in values.items() if v)


# ---------------------------------------------------------------------------------------------
# Checking


def _edge_set(puzzle: MasyuPuzzle, answer: Answer) -> tuple[set[tuple[int, int]], list[str]]:
    """The answer's edges that are grid edges, and complaints about everything else."""
    problems: list[str] = []
    edges: set[tuple[int, int]] = set()
    raw = answer.get("edges") if isinstance(answer, dict) else None
    if not isinstance(raw, list):
        return edges, ['the answer has no list of "edges"']
    for item in raw:
        if (
            not isinstance(item, (list, tuple))
            or len(item) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in item)
        ):
            problems.append(f"{item!r} is not an edge [row, column]")
            continue
        x, y = item
        if not (x + y) & 1 or not (0 <= x <= 2 * puzzle.m - 2 and 0 <= y <= 2 * puzzle.n - 2):
            problems.append(f"[{x}, {y}] is not an edge between two adjacent cells of the board")
        elif (x, y) in edges:
            problems.append(f"edge [{x}, {y}] is listed twice")
        else:
            edges.add((x, y))
    return edges, problems


def check(puzzle: MasyuPuzzle, answer: Answer) -> list[str]:
    """Judge ``answer`` by the rules of Masyu, directly on the board; [] means it is right.

    The loop is one cycle through cells; it passes every circle. On a black circle it turns and
    goes straight through the next cell on both sides; on a white circle it goes straight and
    turns in at least one of the two cells next to it. Digits 2-4 are white circles.

    >>> p = read("..\\n..\\n")
    >>> check(p, {"edges": [[0, 1], [1, 0], [1, 2], [2, 1]]})
    []
    >>> check(p, {"edges": [[0, 1]]})
    ['cell (1, 1) has 1 loop edge (must be 0 or 2)', 'cell (1, 2) has 1 loop edge (must be 0 or 2)']
    """
    edges, problems = _edge_set(puzzle, answer)

    def on(x: int, y: int) -> bool:
        return (x, y) in edges

    def cell(i: int, j: int) -> str:
        return f"({i + 1}, {j + 1})"

    for i in range(puzzle.m):
        for j in range(puzzle.n):
            x, y = 2 * i, 2 * j
            deg = sum(on(x + dx, y + dy) for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1)))
            if deg not in (0, 2):
                s = "" if deg == 1 else "s"
                problems.append(f"cell {cell(i, j)} has {deg} loop edge{s} (must be 0 or 2)")
    if problems:
        return problems
    if not edges:
        return ["there is no loop"]

    # One cycle: every vertex has degree 2, so it is enough that the edges are connected.
    pieces = loop_pieces(edges)
    if pieces > 1:
        problems.append(f"the edges form {pieces} separate loops, not one")

    for i in range(puzzle.m):
        for j in range(puzzle.n):
            if not puzzle.has_clue(i, j):
                continue
            x, y = 2 * i, 2 * j
            n_, s_, w_, e_ = on(x - 1, y), on(x + 1, y), on(x, y - 1), on(x, y + 1)
            if not (n_ or s_ or w_ or e_):
                problems.append(f"the circle on cell {cell(i, j)} is not on the loop")
                continue
            straight_v, straight_h = n_ and s_, w_ and e_
            if puzzle.is_black(i, j):
                if straight_v or straight_h:
                    problems.append(f"the loop goes straight through black circle {cell(i, j)}")
                    continue
                for dx, dy, side in (
                    (-1, 0, "north"),
                    (1, 0, "south"),
                    (0, -1, "west"),
                    (0, 1, "east"),
                ):
                    if on(x + dx, y + dy) and not on(x + 3 * dx, y + 3 * dy):
                        problems.append(
                            f"the loop turns in the cell {side} of black circle {cell(i, j)}"
                        )
            else:
                if not (straight_v or straight_h):
                    problems.append(f"the loop turns on white circle {cell(i, j)}")
                    continue
                dx, dy = (1, 0) if straight_v else (0, 1)
                if on(x - 3 * dx, y - 3 * dy) and on(x + 3 * dx, y + 3 * dy):
                    problems.append(
                        f"the loop turns in neither cell next to white circle {cell(i, j)}"
                    )
    return problems


# ---------------------------------------------------------------------------------------------
# Drawing


def render(puzzle: MasyuPuzzle, answer: Answer | None = None) -> str:
    """The board in ASCII: ``B`` black, ``W`` white (digits 2-4 as themselves), ``.`` no clue;
    the loop drawn with ``---`` between cells of a row and ``|`` between rows.

    >>> print(render(read("1.\\n.0\\n"), {"edges": [[0, 1], [1, 0], [1, 2], [2, 1]]}))
    B---.
    |   |
    .---W
    """
    edges = {tuple(e) for e in (answer or {}).get("edges", [])}
    glyph = {"0": "W", "1": "B", ".": "."}
    lines = []
    for i, row in enumerate(puzzle.rows):
        x = 2 * i
        if i:
            lines.append(
                "   ".join("|" if (x - 1, 2 * j) in edges else " " for j in range(puzzle.n))
            )
        parts = []
        for j, ch in enumerate(row):
            if j:
                parts.append("---" if (x, 2 * j - 1) in edges else "   ")
            parts.append(glyph.get(ch, ch))
        lines.append("".join(parts))
    return "\n".join(line.rstrip() for line in lines)


def answer_from_names(names: Sequence[str]) -> Answer:
    """An answer from Knuth's two-character edge names (as in golden ``solution_edges``).

    >>> answer_from_names(["01", "10"])
    {'edges': [[0, 1], [1, 0]]}
    """
    coords = []
    for name in names:
        xy = parse_point_name(name)
        if xy is None:
            raise InputError(f"{name!r} is not an edge name")
        coords.append(xy)
    return edges_answer(coords)


# ---------------------------------------------------------------------------------------------
# Building the exact-cover problem directly (the batch path: no DLX text to write and read)


def build(puzzle: MasyuPuzzle) -> Problem:
    """The :class:`~dlxsat.xcc.Problem` of :func:`encode`'s data, without writing it out:
    ``build(p) == SPEC.problem(p, encode(p))``, the same items and options in the same order
    (options that name no primary item left out, as the reader leaves them out), and the
    single-loop rule.

    >>> p = read("0.\\n.1\\n")
    >>> build(p) == SPEC.problem(p, encode(p))
    True
    """
    from ..xcc.loop import grid_loop_graph
    from ..xcc.model import Item
    from ..xcc.rules import SingleLoop

    m, n = puzzle.m, puzzle.n
    red = puzzle.reduction
    if red.aborted:  # "abort" is the whole of Knuth's data then
        return SPEC.with_rules(Problem([Item("abort")], []))
    nm = puzzle.name
    ename = {e: nm(*red.coords(e)) for e in red.edges()}
    cells = [(i, j) for i in range(m) for j in range(n)]
    clues = [(i, j) for i, j in cells if puzzle.has_clue(i, j)]
    leaders = red.class_leaders()
    items = [Item(nm(2 * i, 2 * j)) for i, j in cells]
    items += [Item(nm(2 * i + 1, 2 * j + 1)) for i, j in clues]
    items += [Item("#" + ename[e]) for e in leaders]
    n_primary = len(items)
    items += [Item(ename[e], primary=False) for e in red.edges()]
    index = {it.name: k for k, it in enumerate(items)}
    edge_index = {e: index[ename[e]] for e in red.edges()}
    options: list[tuple[Entry, ...]] = []

    special: list[tuple[int, str | None]] = [(index[nm(2 * i, 2 * j)], None) for i, j in clues]
    special += [(edge_index[e], str(red.cmp[e])) for e in red.constants()]
    if any(k < n_primary for k, _ in special):
        options.append(tuple(special))
    for e in leaders:
        members = red.members(e)
        for flip in (0, 1):
            leader = (index["#" + ename[e]], None)
            options.append((leader, *((edge_index[q], str(red.cmp[q] ^ flip)) for q in members)))

    # (Each edge's two entries made once: a solve builds some 1,600 options of 4-6 entries.)
    entry = {e: ((k, "0"), (k, "1")) for e, k in edge_index.items()}
    for i, j in cells:
        for head, opt in _cell_options(puzzle, i, j):
            want = opt.want
            if want is not None:
                options.append(
                    ((index[head], None), *[entry[p][v] for p, v in sorted(want.items())])
                )
    # The loop's graph from the coordinates (as loop_graph would read it from the names): the
    # cells' items are its vertices, and every edge item joins the two cells beside it.
    graph = grid_loop_graph(n, m, ((edge_index[e], red.coords(e)) for e in red.edges()))
    return Problem(items, options).with_rules(SingleLoop(graph))


def draw(canvas: Any, puzzle: MasyuPuzzle, answer: Answer | None) -> None:
    """The cells, white and black circles, and the loop through the cell centres."""
    canvas.grid(puzzle.m, puzzle.n)
    for i, row in enumerate(puzzle.rows):
        for j, ch in enumerate(row):
            if ch != NO_CLUE:
                canvas.circle(i, j, black=ch == BLACK)
    if answer:
        canvas.loop(answer.get("edges", []), 0.5)


SPEC = FamilySpec(
    name="masyu",
    summary="Masyu: a loop through the cell centres; white circles straight, black ones turning",
    aliases=("mashu", "pearl"),
    rules=("loop",),
    read=read,
    write=write,
    encode=encode,
    decode=decode,
    check=check,
    render=render,
    build=build,
    # Reading, encoding and parsing, per character of the text: measured 4.8 KB.
    bytes_per_cell=5500,
    formats=("knuth", "penpa", "puzzlink", "pzprv3", "tatham", "grid"),
    writes=("knuth", "puzzlink", "grid", "penpa", "pzprv3"),
    answers=("pzprv3", "penpa", "grid"),
    picture=Picture(lambda p: (p.m, p.n), draw),
    tatham=Tatham("Pearl", from_tatham_id),
    generator="dlxsat.generators.masyu",
    logic="dlxsat.reasoning.masyu",
    example="puzzles/masyu/tatham-10x10.txt",
)
