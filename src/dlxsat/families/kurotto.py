"""Kurotto: numbered circles that count the shaded cells of the blocks touching them.

**Rules.** Shade some cells. Circles are never shaded. A *block* is an orthogonally connected
piece of shaded cells; a number in a circle equals the total size of the blocks orthogonally
adjacent to it, each block counted once (0: no shaded neighbour). A circle without a number
only stays white. Nothing else: the white cells need not be connected, and at least one cell
is shaded (pzprjs refuses an empty board, which matters only when every number is 0).

**A variant** (:data:`TOUCHING`, ``--rules touching``; the standard rules, :data:`STANDARD`,
stay the default): every block also touches a number (a numbered circle). Three janko.at
puzzles of the corpus (223, 224 and 227, all 10 x 10) have 2, 8 and 2 answers without it and
their published one alone with it: they assume it. (Touching any circle is not enough for
224: two of its answers keep a block touching only a circle without a number.)

**The puzzle's text** (the corpus's notation, ``SmilingWayne/puzzlekit-dataset``): a line
``ROWS COLS``, then ROWS rows of tokens, ``-`` an empty cell, a number a numbered circle, ``o``
(or ``?``) a circle without a number::

    3 3
    2 - -
    - - o
    - - 0

**The exact-cover problem**, in Knuth's style (names of :class:`~dlxsat.families.shading.Names`:
cell (i, j) is the point (2i+1, 2j+1)). The key observation: for a number v at circle c, let
*T* be c together with the shaded cells of the blocks touching c. Then T is connected, has
v + 1 cells, holds no other circle, and every cell next to T outside it is white; conversely
any such set is exactly c and its blocks. So a number is a statement about one connected set
around it, and there are two exact ways to state it:

- every cell that is no circle is white or shaded: a primary item ``p13`` covered by its white
  option ``p13 13:0`` or its shaded option ``p13 13:1``, coloring the cell's secondary item
  ``13``. Circles have no item: nothing can shade them. A cell next to a 0 has no shaded
  option (that is all a 0 says, so a 0 has no item);
- **a number with few ways** (at most :data:`WAYS`) has a primary item ``n13`` and an option per
  way, a set T as above: ``n13 15:1 17:1 11:0 ...``, the shaded cells of T colored ``1``, the
  cells around T colored ``0``. A way is grown from c (Redelmeier's method, each connected set
  once) through the cells within v steps of it that may be shaded, and dropped when it breaks
  another number outright: the blocks of it touching a number w are larger in all than w
  (they are some of that number's blocks). These options are exact: nothing global is
  needed for the number;
- **a number with many ways** (a large number in open space has hundreds of thousands) marks
  its set T cell by cell instead. Its *reach* is the cells within v steps of c through cells
  that may be shaded (T lies in it). Each cell x of the reach gets a primary item ``q``, c and
  x (``q1335``; on boards past 30 columns or rows, the number's place in reading order and x)
  and a secondary item ``m1335``, its *mark*: 1 when x is in T. Three options cover
  ``q1335``: *marked* ``q1335 m1335:1 35:1 n13 ...`` (x shaded and in T; it covers the
  number's item ``n13``, which takes exactly v of them, and colors ``0`` the cells next to x
  outside the reach: shaded, they would put more than v cells in T); *shaded, unmarked*
  ``q1335 m1335:0 35:1 ...``, which colors ``0`` the marks of x's neighbours in the reach
  (and, next to c, the neighbours themselves): a shaded cell beside a cell of T, or beside c,
  is in T; and *white* ``q1335 m1335:0 35:0``. A cell of the reach next to c has no unmarked
  shaded option. So the marked cells are shaded, v of them, and closed under shaded
  neighbours. What the options cannot say is that the marked cells hang together with c: a
  whole block far from c could be marked too. That is a global rule per such number,
  ``|@sized`` (:class:`~dlxsat.xcc.rules.Sized`): its members are the number's item itself
  (always covered: c is always there) and the marks colored ``1``, linked as orthogonal
  neighbours, and every piece of them has v + 1 members. The piece holding c then has v
  marks, all there are: the marks are c's blocks;
- when every number is 0 (or there is none), an all-white board would keep them, which pzprjs
  refuses: an item ``any`` is covered by the shaded options at least once;
- under :data:`TOUCHING`, one more global rule, ``|@connected`` with roots
  (:class:`~dlxsat.xcc.rules.Connected`, as Cave's shaded cells reaching the border): its
  members are the shaded colours of the cells that may be shaded, linked as orthogonal
  neighbours, its roots those of them next to a number; every piece (a block) must hold a
  root. Nothing local says it (a block far from every number breaks no option), so it is
  left to the backends, lazily by default.

Measured on the corpus's largest, 220_19x27 (2026-11-27, 2 cores at load 6-7, SAT, proving
uniqueness): the marks' rule as a rooted ``|@connected`` took 16-20 s (39 rounds of cuts),
as ``|@sized`` 8-10 s (27 rounds; an anchor at c in place of one size for every piece: as fast
lazily, but the backends' default for anchors is eager, 13 s); :data:`WAYS` from 100 to 5,000
changed little (8-10 s), 20,000 doubled it (with the connected rule: 38 s against 19 s at
2,000). Marks for every number (connected rule) took as long on SAT but made dancing links
hopeless on 8 x 8 boards (a 60 s timeout on 102_8x8; ways: 0.3 s).

**Formats.** puz.link ``kurotto/COLS/ROWS/BODY``: the circles
(:func:`~dlxsat.families.codecs.decode_number16`, ``.`` a circle without a number). pzprv3
(``pzprv3``, ``kurotto``, ROWS, COLS): the circles (a number, ``-`` without a number, ``.``
none), then the cells (``#`` shaded, ``+`` a player's white mark, ``.``). The answer grid is
the corpus's: ``x`` shaded, ``-`` white.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..errors import InputError
from ..xcc.model import Problem
from ..xcc.rules import Connected, Sized
from . import regions as rg
from . import shading as sh
from .base import Puzzle
from .codecs import (
    BLANK,
    QUESTION,
)
from .grid import b62_number
from .loops import cell_name
from .spec import FamilySpec, Picture, Policy

Answer = dict[str, Any]
Cell = tuple[int, int]
NAME = TYPE = "kurotto"
#: The corpus's token of a circle without a number (``?`` is read too).
CIRCLE = "o"
STANDARD, TOUCHING = "standard", "touching"
#: The sets of rules a user may choose (``--rules``): the standard ones (the default), and
#: with every block touching a number.
RULES = (STANDARD, TOUCHING)
#: A number with at most this many ways gets an option per way; above, it marks its cells one
#: by one under a sized rule (see the module doc).
WAYS = 500


@dataclass(frozen=True)
class KurottoPuzzle(Puzzle):
    """A Kurotto board: ``cells[i][j]`` is :data:`~dlxsat.families.codecs.BLANK` (no circle),
    :data:`~dlxsat.families.codecs.QUESTION` (a circle without a number) or a number (0 or
    more). ``rules``: which rules its problem states and its answers are judged by,
    :data:`STANDARD` or :data:`TOUCHING`."""

    cells: tuple[tuple[int, ...], ...]
    rules: str = STANDARD

    @property
    def m(self) -> int:
        return len(self.cells)

    @property
    def n(self) -> int:
        return len(self.cells[0])

    def circle(self, i: int, j: int) -> bool:
        return self.cells[i][j] != BLANK

    def numbers(self) -> dict[Cell, int]:
        """Every numbered circle → its number, in reading order."""
        return {(i, j): v for i, row in enumerate(self.cells) for j, v in enumerate(row) if v >= 0}


def _token(tok: str, where: str) -> int:
    """A token of the corpus's grid: ``-`` no circle, ``o`` or ``?`` a circle, a number."""
    if tok in (CIRCLE, "?"):
        return QUESTION
    if tok == "-" or (tok.isdigit() and tok.isascii()):
        return rg.read_number(tok, where)
    raise InputError(f"{where}: {tok!r} is not a number, -, o or ?")


def read(text: str) -> KurottoPuzzle:
    """The puzzle of the corpus's text.

    >>> read("2 2\\n3 -\\no 0\\n").cells
    ((3, -1), (-2, 0))
    """
    _, _, (rows,) = rg.read_grids(text, 1, NAME)
    return KurottoPuzzle(
        tuple(
            tuple(_token(tok, f"row {i + 1}, cell {j + 1}") for j, tok in enumerate(row))
            for i, row in enumerate(rows)
        )
    )


def _write_token(v: int) -> str:
    return CIRCLE if v == QUESTION else rg.write_number(v)


def write(puzzle: KurottoPuzzle) -> str:
    """The corpus's text of the puzzle."""
    rows = [" ".join(_write_token(v) for v in row) for row in puzzle.cells]
    return f"{puzzle.m} {puzzle.n}\n" + "".join(r + "\n" for r in rows)


# ---------------------------------------------------------------------------------------------
# The exact-cover problem


class _Board:
    """What the encoding asks of a board again and again, computed once: ``beside``, each cell
    that is no circle → the numbers next to it; ``free``, the cells that may be shaded (no
    circle, no 0 next to them: they have no shaded option and are in no number's reach or
    ways); ``open``, each cell or number → its neighbours that may be shaded."""

    def __init__(self, puzzle: KurottoPuzzle) -> None:
        m, n = puzzle.m, puzzle.n
        self.numbers = puzzle.numbers()
        self.beside: dict[Cell, list[Cell]] = {}
        for i in range(m):
            for j in range(n):
                if not puzzle.circle(i, j):
                    near = [d for d in sh.neighbours(m, n, i, j) if d in self.numbers]
                    self.beside[(i, j)] = near
        self.free = {x for x, near in self.beside.items() if all(self.numbers[d] for d in near)}
        self.open = {
            x: [d for d in sh.neighbours(m, n, *x) if d in self.free]
            for x in [*self.beside, *self.numbers]
        }


def reach(board: _Board, c: Cell) -> dict[Cell, int]:
    """The cells within v steps of the number v at ``c`` through cells that may be shaded →
    their distance (1 to v): where its blocks may lie.

    >>> reach(_Board(read("1 4\\n2 - o -\\n")), (0, 0))
    {(0, 1): 1}
    """
    v = board.numbers[c]
    out: dict[Cell, int] = {}
    todo = deque([(c, 0)])
    while todo:
        x, d = todo.popleft()
        if d == v:
            continue
        for y in board.open[x]:
            if y not in out:
                out[y] = d + 1
                todo.append((y, d + 1))
    return out


def ways(board: _Board, c: Cell, cap: int) -> list[list[Cell]] | None:
    """The shaded cells of every way the number at ``c`` can be kept (the module doc): sets of
    v cells that may be shaded, connected with ``c``, that break no other number outright;
    None when there are more than ``cap`` (before that check).

    >>> sorted(ways(_Board(read("2 3\\n1 - 1\\n- - -\\n")), (0, 0), 10))
    [[(0, 1)], [(1, 0)]]
    >>> sorted(ways(_Board(read("2 3\\n2 - 1\\n- - 1\\n")), (0, 0), 10))
    [[(0, 1), (1, 0)]]
    """
    v = board.numbers[c]
    within = reach(board, c)
    found: list[list[Cell]] = []
    piece: list[Cell] = []
    grown = 0

    def grow(untried: list[Cell], seen: set[Cell]) -> bool:
        nonlocal grown
        if len(piece) == v:
            grown += 1
            if _keeps_others(board, c, piece):
                found.append(sorted(piece))
            return grown <= cap
        untried = list(untried)
        while untried:
            x = untried.pop()
            new = [y for y in board.open[x] if y in within and y not in seen]
            piece.append(x)
            going = grow(untried + new, seen | set(new))
            piece.pop()
            if not going:
                return False
        return True

    first = [y for y in board.open[c] if y in within]
    if v > 64:  # (the recursion is as deep as the number is large)
        return None
    return found if grow(first, {c, *first}) else None


def _keeps_others(board: _Board, c: Cell, piece: Sequence[Cell]) -> bool:
    """Whether the blocks of ``piece`` touching each other number stay within its value."""
    if all(d == c for x in piece for d in board.beside[x]):
        return True
    touching: dict[Cell, int] = {}
    for part in sh.blocks(set(piece)):
        near = {d for x in part for d in board.beside[x] if d != c}
        for d in near:
            touching[d] = touching.get(d, 0) + len(part)
    return all(size <= board.numbers[d] for d, size in touching.items())


def around(board: _Board, cells: Iterable[Cell], c: Cell) -> list[Cell]:
    """The cells next to ``cells`` or ``c``, outside them, that may be shaded, sorted."""
    inside = {c, *cells}
    return sorted({d for x in inside for d in board.open[x] if d not in inside})


def build(puzzle: KurottoPuzzle) -> Problem:
    """The exact-cover problem with a sized rule per number of many ways (module doc)."""
    m, n = puzzle.m, puzzle.n
    names = sh.Names(m, n)
    b = sh.Builder()
    board = _Board(puzzle)
    state = {x: names.cell(*x) for x in board.beside}
    alone = bool(board.beside) and all(v == 0 for v in board.numbers.values())
    for name in state.values():
        b.item("p" + name)
    b.secondary.extend(state.values())
    for x, name in state.items():
        if x in board.free:
            b.options.append(["p" + name, name + ":1", *(["any"] if alone else [])])
        b.options.append(["p" + name, name + ":0"])
    if alone:
        b.item("any", 1, max(1, len(board.free)))
    marked: dict[Cell, dict[Cell, str]] = {}  # a number of many ways → its reach's marks
    for k, (c, v) in enumerate(board.numbers.items()):
        if v == 0:
            continue  # its neighbours have no shaded option
        item = "n" + names.cell(*c)
        if v > m * n:
            b.item(item)  # more shaded cells than the board has: no option covers it
            continue
        found = ways(board, c, WAYS)
        if found is not None:
            b.item(item)
            for way in found:
                b.options.append(
                    [
                        item,
                        *(state[x] + ":1" for x in way),
                        *(state[x] + ":0" for x in around(board, way, c)),
                    ]
                )
            continue
        b.item(item, v, v)
        within = reach(board, c)
        mark = {x: _pair(names, k, c, x, "m") for x in within}
        marked[c] = mark
        b.secondary.extend(mark.values())
        for x, d in within.items():
            q = _pair(names, k, c, x, "q")
            b.item(q)
            beyond = [state[y] + ":0" for y in board.open[x] if y not in within]
            b.options.append([q, mark[x] + ":1", state[x] + ":1", item, *beyond])
            b.options.append([q, mark[x] + ":0", state[x] + ":0"])
            if d > 1:
                # Shaded outside T: its neighbours are outside T too (those next to c white).
                next_to = [
                    (state[y] if within[y] == 1 else mark[y]) + ":0"
                    for y in board.open[x]
                    if y in within
                ]
                b.options.append([q, mark[x] + ":0", state[x] + ":1", *next_to])
    problem = b.problem()
    rules: list[Connected | Sized] = [
        _rule(problem, names, c, mark, board.numbers[c]) for c, mark in marked.items()
    ]
    if puzzle.rules == TOUCHING and board.free:
        rules.append(_touching(problem, puzzle, board, state))
    return problem.with_rules(*rules)


def _touching(
    problem: Problem, puzzle: KurottoPuzzle, board: _Board, state: dict[Cell, str]
) -> Connected | Sized:
    """The rule of :data:`TOUCHING`: every piece of shaded cells reaches a cell next to a
    number (the module doc)."""
    roots = [x for x in board.free if board.beside[x]]
    items = {x: state[x] for x in board.free}
    return sh.cells_rule(problem, items, sh.SHADED_COLOUR, "touching", roots=roots)


def _pair(names: sh.Names, k: int, c: Cell, x: Cell, prefix: str) -> str:
    """The item of number ``c`` (the k-th) and cell ``x``: ``prefix``, c's name and x's on a
    board of two-digit names, else the number's place (two base-62 digits) and x's name, so
    that names stay within Knuth's 8 characters on boards up to 49 x 49.

    >>> names = sh.Names(40, 40)
    >>> _pair(sh.Names(3, 3), 0, (0, 0), (0, 1), "q"), _pair(names, 63, (0, 0), (39, 1), "m")
    ('q1113', 'm1179.3')
    """
    if not names.wide:
        return prefix + names.cell(*c) + names.cell(*x)
    return prefix + b62_number(k).rjust(2, "0") + names.cell(*x)


def _rule(problem: Problem, names: sh.Names, c: Cell, mark: dict[Cell, str], v: int) -> Sized:
    """The sized rule of a number's marks: every piece of the number and its marked cells has
    v + 1 members (with the count of v marks: one piece, around the number)."""
    index = problem.index
    cells = sorted(mark)
    at = {x: k + 1 for k, x in enumerate(cells)}
    item = "n" + names.cell(*c)
    members = ((index[item], None), *((index[mark[x]], sh.SHADED_COLOUR) for x in cells))
    links = [(at[x], at[y]) for x in cells for y in ((x[0] + 1, x[1]), (x[0], x[1] + 1)) if y in at]
    links += [(0, at[y]) for y in sh.neighbours(names.m, names.n, *c) if y in at]
    return Sized(members, tuple(links), size=v + 1, label=item)


def encode(puzzle: KurottoPuzzle) -> str:
    """The exact-cover data (Knuth's format, the board in its comment lines, the rules in its
    ``|@`` lines)."""
    head = "kurotto:" if puzzle.rules == STANDARD else "kurotto (every block touches a number):"
    return sh.Builder.text([head, *write(puzzle).splitlines()], build(puzzle))


def decode(puzzle: KurottoPuzzle, problem: Problem, chosen: Any) -> Answer:
    """The shaded cells: those whose shaded option is chosen."""
    names = sh.Names(puzzle.m, puzzle.n)
    shaded = []
    for k in chosen:
        option = problem.options[k]
        name = problem.items[option[0][0]].name
        if name[0] == "p" and option[1][1] == sh.SHADED_COLOUR:
            shaded.append(names.cell_of(name))
    return sh.cells_answer(sh.SHADED, shaded)


# ---------------------------------------------------------------------------------------------
# The rules, judged on an answer


def touching(puzzle: KurottoPuzzle, shaded: set[Cell], c: Cell) -> int:
    """The total size of the blocks of ``shaded`` next to ``c``, each counted once.

    >>> touching(read("2 3\\n- 1 -\\n- - -\\n"), {(0, 0), (1, 0), (1, 1), (0, 2)}, (0, 1))
    4
    """
    seen: set[Cell] = set()
    total = 0
    for start in sh.neighbours(puzzle.m, puzzle.n, *c):
        if start not in shaded or start in seen:
            continue
        seen.add(start)
        stack = [start]
        while stack:
            x = stack.pop()
            total += 1
            for y in sh.neighbours(puzzle.m, puzzle.n, *x):
                if y in shaded and y not in seen:
                    seen.add(y)
                    stack.append(y)
    return total


def check(puzzle: KurottoPuzzle, answer: Answer) -> list[str]:
    """The rules, judged on the answer: a shaded cell at all (pzprjs's first check), no circle
    shaded (which pzprjs's editor prevents rather than checks), the numbers' blocks; under
    :data:`TOUCHING`, then every block touching a number.

    >>> p = read("1 3\\n1 - -\\n")
    >>> check(p, {"shaded": [[0, 1]]}), check(p, {"shaded": [[0, 1], [0, 2]]})
    ([], ['the number 1 at (1, 1) touches blocks of 2 shaded cells in all, not 1'])
    >>> from dataclasses import replace
    >>> p, two = read("1 5\\n- 1 o - -\\n"), {"shaded": [[0, 0], [0, 4]]}
    >>> check(p, two), check(replace(p, rules=TOUCHING), two)
    ([], ['the block at (1, 5) touches no number (every block must touch one)'])
    """
    shaded, out = sh.answer_cells(answer, sh.SHADED, puzzle.m, puzzle.n)
    if not shaded:
        out.append(sh.NO_SHADED_CELL)
    for i, j in sorted(shaded):
        if puzzle.circle(i, j):
            out.append(f"the circle at {cell_name(i, j)} is shaded")
    for c, v in puzzle.numbers().items():
        have = touching(puzzle, shaded, c)
        if have != v:
            out.append(
                f"the number {v} at {cell_name(*c)} touches blocks of {have} shaded "
                f"{'cell' if have == 1 else 'cells'} in all, not {v}"
            )
    if puzzle.rules == TOUCHING:
        m, n, numbers = puzzle.m, puzzle.n, puzzle.numbers()
        for block in sh.blocks(shaded):
            if not any(d in numbers for x in block for d in sh.neighbours(m, n, *x)):
                out.append(
                    f"the block at {cell_name(*min(block))} touches no number "
                    "(every block must touch one)"
                )
    return out


def prepare(puzzles: list[KurottoPuzzle], policy: Policy) -> tuple[list[KurottoPuzzle], list[str]]:
    """The puzzles under the rules ``policy`` names (``--rules``: :data:`RULES`)."""
    if policy.loop:
        raise InputError("--loop is for xcc data; a kurotto puzzle has its own rules")
    if policy.boxes is not None:
        raise InputError("--boxes is for sudoku; a kurotto puzzle has no boxes")
    if policy.rules is None:
        return puzzles, []
    if policy.rules not in RULES:
        raise InputError(f"unknown kurotto rules {policy.rules!r} (choose from {', '.join(RULES)})")
    return [replace(p, rules=policy.rules) for p in puzzles], []


def render(puzzle: KurottoPuzzle, answer: Answer | None = None) -> str:
    """The board: a number as a base-36 digit (``+`` from 36), ``o`` a circle without a
    number, ``#`` a shaded cell, ``.`` a white one.

    >>> print(render(read("1 4\\n2 - o 12\\n"), {"shaded": [[0, 1]]}))
    2#oc
    """
    shaded = sh.marked_cells(answer, sh.SHADED)
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"

    def glyph(i: int, j: int) -> str:
        v = puzzle.cells[i][j]
        if (i, j) in shaded:
            return "#"
        return "." if v == BLANK else CIRCLE if v == QUESTION else digits[v] if v < 36 else "+"

    return sh.render_cells(puzzle.m, puzzle.n, glyph)


def draw(canvas: Any, puzzle: KurottoPuzzle, answer: Answer | None) -> None:
    """The circles with their numbers, and the shaded cells."""
    canvas.grid(puzzle.m, puzzle.n)
    for i, j in sorted(sh.marked_cells(answer, sh.SHADED)):
        canvas.shade(i, j)
    for i, row in enumerate(puzzle.cells):
        for j, v in enumerate(row):
            if v != BLANK:
                canvas.circle(i, j, black=False, radius=0.4)
                if v >= 0:
                    canvas.text(i, j, str(v), scale=0.9 if v < 10 else 0.7)


# ---------------------------------------------------------------------------------------------
# Formats


SPEC = FamilySpec(
    name=NAME,
    summary="Kurotto: numbered circles count the shaded cells of the blocks touching them",
    read=read,
    write=write,
    encode=encode,
    decode=decode,
    check=check,
    render=render,
    build=build,
    rules=("sized",),
    variants=RULES,
    prepare_puzzles=prepare,
    formats=("knuth", "puzzlink", "pzprv3", "grid"),
    writes=("knuth", "puzzlink", "pzprv3", "grid"),
    answers=("pzprv3", "grid"),
    codecs={
        "puzzlink": sh.numbers_url_codec(KurottoPuzzle, NAME, TYPE, ()),
        "pzprv3": sh.numbers_file_codec(KurottoPuzzle, NAME, TYPE, (TYPE,)),
        "grid": sh.shaded_grid_codec(read, write),
    },
    picture=Picture(lambda p: (p.m, p.n), draw),
)
