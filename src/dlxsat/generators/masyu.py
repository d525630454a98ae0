"""New Masyu puzzles with a unique answer: a random loop, all the circles it allows, then fewer.

1. **A random loop.** The loop runs through cell centres, so it is drawn on the lattice of
   cell centres: the (m-1) x (n-1) unit squares ("faces") between four cell centres. A region
   of faces grows from one random face by additions that keep it a topological disk (each new
   face meets the region in one arc of its boundary that includes a side: no holes, no
   corner-only contacts), so its boundary is one simple cycle: the loop. Faces touching the
   region by one side are preferred (tree-like growth, a long boundary). Then simulated
   annealing flips faces in and out (keeping the disk) to raise a score: a cell scores when
   the loop can put a circle there, and loses when the loop passes it with no circle possible
   or misses it. (Simon Tatham's ``sgt-pearl`` biases its loops toward black-circle sites for
   the same reason: plain random loops rarely make puzzles with a unique answer.)
2. **Every circle the loop allows**: black where it turns and runs straight through the next
   cell on both sides, white where it runs straight and turns in at least one neighbouring
   cell. The board's answer must be unique: the logic solver proves it by completing the
   board, or else the SAT oracle below decides; where the answer is not unique, the loop is
   reshaped around the edges the deductions left open and tried again.
3. **Fewer circles**: in random order, each circle is taken away when the puzzle without it
   still has exactly one answer. That question is asked hundreds of times about boards one
   circle apart, so one incremental SAT solver answers them all (:class:`UniquenessOracle`:
   the SAT backend's formula and loop cuts, for the Masyu family's own encoding with every
   circle behind a switch); the finished puzzle is checked once more with the SAT backend
   through the pipeline (:func:`is_unique`).

Sizes are ``ROWSxCOLS``, rows first, as everywhere in dlxsat (Knuth's programs, puzzle files,
``rows x cols`` in messages). Simon Tatham's game ids (``sgt-pearl --generate 1 10x8``) are
``WIDTHxHEIGHT``, columns first: his ``10x8`` is our ``8x10``.

The output is Knuth's MASYU-DLX input: rows of ``0`` (white), ``1`` (black) and ``.``. Every
step draws from one ``random.Random(seed)`` and every uniqueness answer is exact, so a seed
always gives the same puzzle.
"""

from __future__ import annotations

import functools
import math
import random
import re
import time
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias

from ..errors import InputError
from ..runtime import guard

if TYPE_CHECKING:  # (imported where used: the generator loads them only when it runs)
    from ..reasoning.masyu import Deducer
    from ..xcc import Item, Problem


class OutOfTime(Exception):
    """``timeout`` passed before any loop with a unique answer was found: no puzzle to give
    (the CLI says this message and exits 3, as for every time limit)."""


__all__ = [
    "MAX_SIDE",
    "LoopCanvas",
    "UniquenessOracle",
    "board_text",
    "generate_masyu",
    "is_unique",
    "loop_circles",
    "loop_edges",
    "new_seed",
    "parse_size",
    "random_loop",
    "solvable_loop",
]

#: The largest number of rows or columns (item names must fit in 8 characters;
#: docs/conventions.md §4).
MAX_SIDE = 99

Cell = tuple[int, int]
Edge = tuple[int, int]  # midpoint in doubled coordinates
#: An entry of an option being put together by :func:`switchable_problem`: an item by number,
#: or an edge by its midpoint (as ``parse_point_name`` gives it), with its color.
_Entry: TypeAlias = tuple[Any, str | None]


def parse_size(text: str) -> tuple[int, int]:
    """``ROWSxCOLS`` → (rows, cols): rows first, unlike Tatham's ``WxH`` (see the module doc).

    >>> parse_size("10x18"), parse_size("36X20")
    ((10, 18), (36, 20))
    >>> parse_size("10 by 18")
    Traceback (most recent call last):
      ...
    dlxsat.errors.InputError: board size '10 by 18' is not ROWSxCOLS (e.g. 10x10)
    """
    m = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", text)
    if not m:
        raise InputError(f"board size {text!r} is not ROWSxCOLS (e.g. 10x10)")
    rows, cols = int(m.group(1)), int(m.group(2))
    if rows < 2 or cols < 2:
        raise InputError(f"board size {text!r}: rows and columns must be 2 or more")
    if rows > MAX_SIDE or cols > MAX_SIDE:
        raise InputError(f"board size {text!r}: at most {MAX_SIDE} rows and columns")
    return rows, cols


def new_seed() -> int:
    """A seed for a run that was given none (the CLI prints it, so the run can be repeated)."""
    return random.SystemRandom().randrange(10**9)


# ---------------------------------------------------------------------------------------------
# 1. A random loop


#: Scores of a cell for the annealing of loops: the loop should visit many cells, turn where a
#: black circle can go (two straight cells on), run straight where a white one can, and
#: leave few cells on it without a possible clue (turns next to turns, long straight runs).
SCORE_BLACK, SCORE_WHITE, SCORE_BARE, SCORE_OFF = 3.0, 1.0, -1.0, -2.0


class LoopCanvas:
    """A region of faces (see the module docstring) and the score of the loop around it.

    Faces and cells are kept in arrays padded by one all round (so no bounds checks): face
    (a, b) is ``face[(a + 1) * fw + b + 1]``, cell (i, j) is ``mask[(i + 1) * cw + j + 1]``,
    whose bits 1, 2, 4, 8 say the loop leaves the cell N, S, W, E.
    """

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols = rows, cols
        self.fm, self.fn = rows - 1, cols - 1
        self.fw = self.fn + 2
        self.cw = cols + 2
        self.face = bytearray((self.fm + 2) * self.fw)
        self.mask = bytearray((rows + 2) * self.cw)
        self.size = 0
        self.faces = [(a + 1) * self.fw + b + 1 for a in range(self.fm) for b in range(self.fn)]

    # -- geometry -----------------------------------------------------------------------------

    def can_flip(self, f: int) -> bool:
        """Whether face f (padded index) can change sides with the loop staying one loop.

        The loop is the border between the region and the rest (the faces outside it and the
        area beyond the board). The face may change sides when its boundary -- in cyclic order
        corner NW, side N, corner NE, side E, corner SE, side S, corner SW, side W -- meets the
        side it joins in a single run that includes a side (a side touches it when the face
        across is on it, a corner when any of the three other faces around the corner is).
        Then that side gains no hole, no part meeting the rest at a corner only, and the other
        side stays in one piece.
        """
        face, fw = self.face, self.fw
        want = face[f] ^ 1
        if want == 0 and self.size == 1:
            return False
        n_ = face[f - fw] == want
        s_ = face[f + fw] == want
        w_ = face[f - 1] == want
        e_ = face[f + 1] == want
        if not (n_ or e_ or s_ or w_):
            return False
        ring = (
            n_ or w_ or face[f - fw - 1] == want,
            n_,
            n_ or e_ or face[f - fw + 1] == want,
            e_,
            s_ or e_ or face[f + fw + 1] == want,
            s_,
            s_ or w_ or face[f + fw - 1] == want,
            w_,
        )
        starts = 0
        for k in range(8):
            if ring[k] and not ring[k - 1]:
                starts += 1
        return starts == 1

    def _remask(self, f: int) -> None:
        """Recompute the masks of face f's four corner cells."""
        face, fw, cw, mask = self.face, self.fw, self.cw, self.mask
        a, b = divmod(f, fw)  # padded face (a, b) = face (a-1, b-1): corners cells (a-1.., b-1..)
        for i in (a, a + 1):  # padded cell rows
            for j in (b, b + 1):
                # Faces around padded cell (i, j): NW = padded face (i-1, j-1), etc.
                nw = face[(i - 1) * fw + j - 1]
                ne = face[(i - 1) * fw + j]
                sw = face[i * fw + j - 1]
                se = face[i * fw + j]
                mask[i * cw + j] = (nw != ne) | (sw != se) << 1 | (nw != sw) << 2 | (ne != se) << 3

    def flip(self, f: int) -> None:
        self.face[f] ^= 1
        self.size += 1 if self.face[f] else -1
        self._remask(f)

    # -- score --------------------------------------------------------------------------------

    def _value(self, v: int) -> float:
        mask, cw = self.mask, self.cw
        mk = mask[v]
        if mk == 0:
            return SCORE_OFF
        if mk == 3:
            return SCORE_WHITE if mask[v - cw] != 3 or mask[v + cw] != 3 else SCORE_BARE
        if mk == 12:
            return SCORE_WHITE if mask[v - 1] != 12 or mask[v + 1] != 12 else SCORE_BARE
        up = mask[v - cw] if mk & 1 else mask[v + cw]
        side = mask[v - 1] if mk & 4 else mask[v + 1]
        return SCORE_BLACK if up == 3 and side == 12 else SCORE_BARE

    def _block(self, f: int) -> float:
        """The score of the cells whose value a flip of face f can change (padding excluded)."""
        a, b = divmod(f, self.fw)
        cw, value = self.cw, self._value
        total = 0.0
        for i in range(max(1, a - 1), min(self.rows, a + 2) + 1):
            for j in range(max(1, b - 1), min(self.cols, b + 2) + 1):
                total += value(i * cw + j)
        return total

    def anneal(
        self,
        rng: random.Random,
        steps: int,
        hot: float,
        cold: float,
        faces: list[int] | None = None,
    ) -> None:
        """Simulated annealing on the score, flipping faces (from ``faces`` when given)."""
        faces = faces or self.faces
        can_flip, flip, block = self.can_flip, self.flip, self._block
        rand, choice, exp = rng.random, rng.choice, math.exp
        ratio = cold / hot
        for step in range(steps):
            temp = hot * ratio ** (step / steps)
            f = choice(faces)
            if not can_flip(f):
                continue
            before = block(f)
            flip(f)
            delta = block(f) - before
            if delta < 0 and rand() >= exp(delta / temp):
                flip(f)  # rejected

    def loop(self) -> list[Cell]:
        """The loop, as its cells in order."""
        return _boundary(
            bytearray(
                self.face[(a + 1) * self.fw + b + 1] for a in range(self.fm) for b in range(self.fn)
            ),
            self.rows,
            self.cols,
        )


def random_loop(
    rows: int, cols: int, rng: random.Random, fill: float = 0.5, anneal: bool = True
) -> LoopCanvas:
    """A random loop on a rows x cols board fit for Masyu, on a :class:`LoopCanvas`.

    A region grows from a random face, preferring faces that touch it by one side (tree-like
    growth) until it holds ``fill`` of the faces; then annealing on the score shapes it.

    >>> loop = random_loop(5, 6, random.Random(3)).loop()
    >>> len(loop) == len(set(loop)) and all(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1
    ...     for a, b in zip(loop, loop[1:] + loop[:1]))
    True
    """
    canvas = LoopCanvas(rows, cols)
    face, fw = canvas.face, canvas.fw
    start = rng.choice(canvas.faces)
    canvas.flip(start)
    target = max(1, round(fill * len(canvas.faces)))
    frontier: set[int] = set()

    def grow_frontier(f: int) -> None:
        for g in (f - fw, f + fw, f - 1, f + 1):
            a, b = divmod(g, fw)
            if 1 <= a <= canvas.fm and 1 <= b <= canvas.fn and not face[g]:
                frontier.add(g)

    grow_frontier(start)
    while canvas.size < target and frontier:
        cands = sorted(frontier)
        weights = [
            6 if face[f - fw] + face[f + fw] + face[f - 1] + face[f + 1] == 1 else 1 for f in cands
        ]
        f = rng.choices(cands, weights)[0]
        frontier.discard(f)
        if not canvas.can_flip(f):
            continue  # it may become possible later, when a neighbour joins
        canvas.flip(f)
        grow_frontier(f)
    if anneal:
        canvas.anneal(rng, 25 * len(canvas.faces), 1.5, 0.05)
    return canvas


def _boundary(region: bytearray, rows: int, cols: int) -> list[Cell]:
    """The boundary cycle of a disk of faces, as cells in order."""
    fm, fn = rows - 1, cols - 1

    def r(x: int, y: int) -> bool:
        return 0 <= x < fm and 0 <= y < fn and region[x * fn + y] == 1

    adj: dict[Cell, list[Cell]] = {}

    def link(p: Cell, q: Cell) -> None:
        adj.setdefault(p, []).append(q)
        adj.setdefault(q, []).append(p)

    for i in range(rows):
        for j in range(cols - 1):  # cells (i, j)-(i, j+1): between faces (i-1, j) and (i, j)
            if r(i - 1, j) != r(i, j):
                link((i, j), (i, j + 1))
    for i in range(rows - 1):
        for j in range(cols):  # cells (i, j)-(i+1, j): between faces (i, j-1) and (i, j)
            if r(i, j - 1) != r(i, j):
                link((i, j), (i + 1, j))
    start = min(adj)
    loop = [start]
    prev, cur = None, start
    while True:
        a, b = adj[cur]
        nxt = a if a != prev else b
        if nxt == start:
            return loop
        loop.append(nxt)
        prev, cur = cur, nxt


def loop_edges(loop: Sequence[Cell]) -> list[Edge]:
    """The loop's edges as midpoints in doubled coordinates, sorted."""
    return sorted(
        (a[0] + b[0], a[1] + b[1]) for a, b in zip(loop, list(loop[1:]) + [loop[0]], strict=True)
    )


# ---------------------------------------------------------------------------------------------
# 2. The circles a loop allows


def loop_circles(loop: Sequence[Cell]) -> dict[Cell, str]:
    """Every circle the loop allows: ``1`` (black) where it turns and runs straight through the
    next cell on both sides, ``0`` (white) where it runs straight and turns in a neighbour.

    >>> ring = [(0, 0), (0, 1), (0, 2), (1, 2), (2, 2), (2, 1), (2, 0), (1, 0)]
    >>> print(board_text(3, 3, loop_circles(ring)), end="")
    101
    0.0
    101
    """
    k = len(loop)

    def turns(t: int) -> bool:
        p, c, q = loop[(t - 1) % k], loop[t % k], loop[(t + 1) % k]
        return (p[0] - c[0], p[1] - c[1]) != (c[0] - q[0], c[1] - q[1])

    out = {}
    for t in range(k):
        if turns(t):
            if not turns(t - 1) and not turns(t + 1):
                out[loop[t]] = "1"
        elif turns(t - 1) or turns(t + 1):
            out[loop[t]] = "0"
    return out


def board_text(rows: int, cols: int, circles: dict[Cell, str]) -> str:
    """The puzzle text: rows of ``0``, ``1`` and ``.``, newline-terminated."""
    return "".join(
        "".join(circles.get((i, j), ".") for j in range(cols)) + "\n" for i in range(rows)
    )


# ---------------------------------------------------------------------------------------------
# 3. Uniqueness


def _deduce(rows: int, cols: int, circles: dict[Cell, str]) -> tuple[str, Deducer]:
    """The logic solver's deductions on a board: (result, Deducer)."""
    from ..reasoning import masyu as logic

    kinds = [logic.EMPTY] * (rows * cols)
    for (i, j), clue in circles.items():
        kinds[i * cols + j] = logic.BLACK if clue == "1" else logic.WHITE
    d = logic.Deducer(logic.Board(rows, cols, tuple(kinds)))
    return d.run(), d


def is_unique(text: str, progress: guard.Progress | None = None) -> bool:
    """Whether the Masyu puzzle ``text`` has exactly one answer.

    The logic solver's deductions settle most cases (completing the board proves uniqueness; a
    contradiction proves there is no answer); what they leave open goes to the SAT backend
    (``progress``: the run's figures, as :func:`dlxsat.pipeline.solve` keeps them).

    >>> is_unique("..\\n..\\n"), is_unique("...\\n...\\n")
    (True, False)
    """
    from ..pipeline import solve
    from ..reasoning import masyu as logic

    d = logic.Deducer(logic.board_from_rows(text.split()))
    result = d.run()
    if result in ("solved", "none"):
        return result == "solved"
    return solve("masyu", text, backend="sat", mode="unique", progress=progress).status == "unique"


class UniquenessOracle:
    """Does a Masyu board have an answer other than a known loop? Many boards, one SAT solver.

    Removing circles one by one asks this question hundreds of times about boards that differ
    by one circle, so it is put to one incremental SAT solver that keeps everything it learns.
    Nothing here encodes Masyu: the formula is the SAT backend's (:func:`.backends.cnf.build`,
    loop rule by its lazy cuts, :mod:`.backends.loopcuts`) for one exact-cover problem
    assembled from the Masyu family's own encodings (:func:`switchable_problem`): the blank
    board, and each circle as Knuth encodes it, behind a switch. Assuming a switch's "on"
    option true or false puts the circle on the board or takes it away; a clause under a
    selector excludes the known loop (no other single loop holds all its edges). Cuts hold for
    every single loop whichever circles are on, so they stay.

    The circles that can be switched are those asked about so far: a question naming a new one
    rebuilds the formula with it (the generator's repairs of a loop change a few circles at a
    time, so that is rare). On a 10 x 10 board, 51 questions cost 0.03 s of CPU, formula
    included, against 0.37 s for a fresh search each (``benchmarks/generate.py``); the puzzle
    that comes out is checked once more through the pipeline.
    """

    def __init__(self, rows: int, cols: int, solver: str = "glucose4") -> None:
        self.rows, self.cols, self.solver = rows, cols, solver
        self.switchable: set[tuple[Cell, str]] = set()
        self.session: Any = None  # a cnf.Session once built (cnf is imported when needed)
        self.loop: tuple[Cell, ...] = ()
        self.selector = 0  # the variable guarding the clause that excludes self.loop
        self.checks = self.builds = self.cuts = 0

    def _build(self, circles: Iterable[tuple[Cell, str]]) -> None:
        from ..backends import cnf

        self.close()
        self.switchable |= set(circles)
        problem, self.switch = switchable_problem(self.rows, self.cols, self.switchable)
        formula = cnf.build(problem, modes={"loop": "lazy"})
        self.session = cnf.Session(self.solver, formula)
        self.top = formula.nvars
        self.on = dict(_edge_literals(problem, formula.on))
        self.loop = ()
        self.builds += 1

    def _exclude(self, loop: Sequence[Cell]) -> None:
        """Guard a clause excluding ``loop`` by a new selector (the old one is assumed false)."""
        self.top += 1
        self.selector = self.top
        steps = zip(loop, [*loop[1:], loop[0]], strict=True)
        edges = [(a[0] + b[0], a[1] + b[1]) for a, b in steps]
        self.session.add([-self.selector, *(-self.on[e] for e in edges)])
        self.loop = tuple(loop)

    def other_answer(self, loop: Sequence[Cell], circles: dict[Cell, str]) -> bool:
        """Whether the board with these circles has an answer other than ``loop`` (one of its
        answers, as cells in order)."""
        wanted = set(circles.items())
        if self.session is None or not wanted <= self.switchable:
            self._build(wanted)
        if tuple(loop) != self.loop:
            self._exclude(loop)
        assumptions = [lit if pair in wanted else -lit for pair, lit in self.switch.items()]
        assumptions.append(self.selector)
        self.checks += 1
        found = bool(self.session.find(None, assumptions))
        self.cuts = self.session.cuts
        return found

    def close(self) -> None:
        if self.session is not None:
            self.session.close()
            self.session = None


def _edge_literals(problem: Problem, on: dict[int, int]) -> Iterable[tuple[Edge, int]]:
    """(edge midpoint, its "on" literal) for the edge items of ``problem``."""
    from ..xcc.names import parse_point_name

    for e, lit in on.items():
        xy = parse_point_name(problem.items[e].name)
        assert xy is not None
        yield xy, lit


def switchable_problem(
    rows: int, cols: int, circles: Iterable[tuple[Cell, str]]
) -> tuple[Problem, dict[tuple[Cell, str], int]]:
    """One exact-cover problem for every board with some of ``circles`` (pairs of a cell and its
    clue; a cell may have both): (problem, switches).

    Made of the Masyu family's own encodings (:func:`dlxsat.families.masyu.encode`): the blank
    board's (every cell a tile of degree 0 or 2), and for each circle the one of a window of
    the board with that circle alone (every edge its options name lies within two cells of
    it, and the window reaches the board's border wherever the circle is that near it, so
    its constant edges are the board's). From the window come the circle's item and its
    options, the items of the edge classes its relations made and their options, and the
    option covering the circle's cell (with the edges it fixes), here joined by a new primary
    item, the circle's *switch*. The switch has one other option, covering the circle's item
    and its classes instead. So choosing the first puts the circle on the board (its cell is
    covered by the circle's relations, as Knuth does it); the second takes it away (the cell
    is a tile again, and the circle's options are idle). ``switches`` maps each (cell, clue)
    pair to the option number (1-based: the SAT variable) of its "on" option. A circle that
    no loop can satisfy (Knuth's encoding aborts) is a :class:`ValueError`.

    A white circle at the top of a 2 x 3 board: "on" covers its cell and fixes its edges (it
    runs straight along the border, down in neither neighbour); "off" covers the circle's
    item (``13w``) instead.

    >>> p, sw = switchable_problem(2, 3, [((0, 1), "0")])
    >>> p.option_names(sw[((0, 1), "0")] - 1), p.option_names(len(p.options) - 1)
    (['?13w', '02', '03:1', '01:1', '12:0'], ['?13w', '13w'])
    """
    from ..xcc import Item, Problem
    from ..xcc.names import parse_point_name

    name, base_items, n_tiles, base_options = _blank_board(rows, cols)
    items: list[Item] = list(base_items[:n_tiles])
    tile = {parse_point_name(it.name): k for k, it in enumerate(items)}
    edges = base_items[n_tiles:]
    pending: list[Sequence[_Entry]] = list(base_options)
    switch_option: dict[tuple[Cell, str], int] = {}
    for (i, j), clue in sorted(circles):
        r0, c0 = max(0, i - 2), max(0, j - 2)
        r1, c1 = min(rows - 1, i + 2), min(cols - 1, j + 2)
        leaders, on, others = _window_circle(r1 - r0 + 1, c1 - c0 + 1, i - r0, j - c0, clue)
        dx, dy = 2 * r0, 2 * c0
        here = name(2 * i + 1, 2 * j + 1) + ("b" if clue == "1" else "w")
        first = len(items)
        items.append(Item(here))  # own item 0: the circle's
        items += [Item(f"#{name(x + dx, y + dy)}/{here}") for x, y in leaders]
        switch = len(items)
        items.append(Item(f"?{here}"))

        def ours(
            entries: Iterable[_Entry], first: int = first, d: tuple[int, int] = (dx, dy)
        ) -> list[_Entry]:
            return [
                (first + e, c) if isinstance(e, int) else ((e[0] + d[0], e[1] + d[1]), c)
                for e, c in entries
            ]

        switch_option[((i, j), clue)] = len(pending)
        pending.append([(switch, None), (tile[(2 * i, 2 * j)], None), *ours(on)])  # "on"
        pending += [ours(o) for o in others]
        pending.append([(switch, None), *((k, None) for k in range(first, switch))])  # "off"
    first_edge = len(items)
    items += edges
    edge_index = {parse_point_name(it.name): first_edge + n for n, it in enumerate(edges)}
    options = [
        tuple((e if isinstance(e, int) else edge_index[e], c) for e, c in opt) for opt in pending
    ]
    from ..xcc.rules import SingleLoop

    problem = Problem(items, options)
    problem = problem.with_rules(SingleLoop.from_names(problem))
    return problem, {pair: k + 1 for pair, k in switch_option.items()}


@functools.lru_cache(maxsize=4)
def _blank_board(
    rows: int, cols: int
) -> tuple[Callable[[int, int], str], tuple[Item, ...], int, tuple[tuple[_Entry, ...], ...]]:
    """The Masyu encoding of the blank board: (item namer, items, number of primary items,
    options with edges named by midpoint). Cached: the generator asks for it with each loop."""
    from ..families import masyu as fam
    from ..xcc import parse
    from ..xcc.names import parse_point_name

    blank = fam.read(board_text(rows, cols, {}))
    base = parse(fam.encode(blank))
    n = base.n_primary
    mid = [parse_point_name(it.name) for it in base.items]
    options = tuple(tuple((i, c) if i < n else (mid[i], c) for i, c in opt) for opt in base.options)
    return blank.name, tuple(base.items), n, options


@functools.lru_cache(maxsize=256)
def _window_circle(
    h: int, w: int, i: int, j: int, clue: str
) -> tuple[tuple[Edge, ...], tuple[_Entry, ...], tuple[tuple[_Entry, ...], ...]]:
    """The part of the Masyu encoding of an ``h`` x ``w`` board with one circle at (i, j) that is
    the circle's: (class leaders, "on" entries, other options). Entries name the window's own
    items by number (0 the circle's item, then one per class leader, by its midpoint) and
    edges by midpoint; the "on" entries are those of the option covering the circle's cell
    (the cell itself left out). Cached: most windows are 5 x 5 with the circle in the middle.
    """
    from ..families import masyu as fam
    from ..xcc import parse
    from ..xcc.names import parse_point_name

    text = fam.encode(fam.read(board_text(h, w, {(i, j): clue})))
    if text.endswith("abort\n"):
        raise ValueError(f"no loop can pass a circle {clue} at cell {(i, j)} of a {h}x{w} board")
    part = parse(text)
    own: dict[int, int] = {}
    leaders: list[tuple[int, int]] = []
    cell = None
    for k, it in enumerate(part.items[: part.n_primary]):
        if it.name.startswith("#"):
            leaders.append(_point(it.name[1:]))
            own[k] = len(leaders)
        else:
            x, y = _point(it.name)
            if x & 1:
                own[k] = 0
            elif (x, y) == (2 * i, 2 * j):
                cell = k

    def entries(opt: Iterable[tuple[int, str | None]]) -> tuple[_Entry, ...]:
        return tuple(
            (own[k], c) if k in own else (parse_point_name(part.items[k].name), c)
            for k, c in opt
            if k != cell
        )

    on: tuple[_Entry, ...] = ()
    others: list[tuple[_Entry, ...]] = []
    for opt in part.options:
        keys = {k for k, _ in opt}
        if cell in keys:
            on = entries(opt)
        elif keys & own.keys():
            others.append(entries(opt))
    return tuple(leaders), on, tuple(others)


# ---------------------------------------------------------------------------------------------
# The generator

#: Repairs of one loop that may fail to shrink its undecided area before a new loop is drawn.
PATIENCE = 12
#: Loops drawn before giving up (only tiny boards, e.g. 2 x 2 with ``logic_only``, need it).
MAX_LOOPS = 50


def _zone(canvas: LoopCanvas, d: Deducer, radius: int) -> list[int]:
    """The faces (padded indices) within ``radius`` of the edges the deductions left open."""
    g, st = d.g, d.state.st
    rows, cols, fw = canvas.rows, canvas.cols, canvas.fw
    zone = set()
    for e in range(g.ne):
        if st[e] == 0:
            for cell in g.edge_cells[e]:
                i, j = divmod(cell, cols)
                for a in range(max(0, i - radius), min(rows - 1, i + radius)):
                    for b in range(max(0, j - radius), min(cols - 1, j + radius)):
                        zone.add((a + 1) * fw + b + 1)
    return sorted(zone)


def solvable_loop(
    rows: int,
    cols: int,
    rng: random.Random,
    deadline: float | None = None,
    logic_only: bool = False,
    oracle: UniquenessOracle | None = None,
    progress: guard.Progress | None = None,
) -> tuple[list[Cell], dict[Cell, str]]:
    """A loop whose full set of circles has it as the only answer: (loop cells, circles).

    The logic solver tries first (completing the board proves uniqueness); when its
    deductions stall, the :class:`UniquenessOracle` decides (``oracle``, or one of its own;
    none if ``logic_only``). Where the
    answer is not unique, the loop is reshaped around the edges the deductions left open (a
    random kick, then annealing on the faces there) and tried again; when that stops helping
    the area grows, and after :data:`PATIENCE` fruitless repairs a new loop is drawn (the
    loops drawn go to ``progress``, the run's figures).
    """
    progress = progress or guard.Progress()
    if oracle is None and not logic_only:
        own = UniquenessOracle(rows, cols)
        try:
            return solvable_loop(rows, cols, rng, deadline, logic_only, own, progress)
        finally:
            own.close()
    canvas = random_loop(rows, cols, rng)
    best, stuck, loops = None, 0, 1
    while True:
        loop = canvas.loop()
        circles = loop_circles(loop)
        result, d = _deduce(rows, cols, circles)
        if result == "solved":
            return loop, circles
        if not logic_only and oracle is not None and not oracle.other_answer(loop, circles):
            return loop, circles
        if deadline is not None and time.perf_counter() > deadline:
            tried = f"{loops} loop{'s' if loops > 1 else ''} drawn and reshaped"
            raise OutOfTime(
                f"time is up and no {rows}x{cols} loop has a unique answer yet ({tried}): "
                "no puzzle; give more time, or try another seed"
            )
        open_edges = d.g.ne - d.state.ndecided
        if best is None or open_edges < best:
            best, stuck = open_edges, 0
        else:
            stuck += 1
        if stuck > PATIENCE:
            loops += 1
            if loops > MAX_LOOPS:
                raise InputError(
                    f"found no {rows}x{cols} loop that makes a puzzle "
                    + ("the logic solver can solve" if logic_only else "with a unique answer")
                )
            canvas = random_loop(rows, cols, rng)
            progress.found(loops)
            best, stuck = None, 0
            continue
        zone = _zone(canvas, d, 1 + stuck // 3)
        for f in zone:
            if rng.random() < 0.3 and canvas.can_flip(f):
                canvas.flip(f)
        canvas.anneal(rng, 30 * len(zone), 1.0, 0.05, zone)


#: ``generate --timeout S``: the share of S for removing circles; the final check of uniqueness
#: gets the rest (the run's deadline stops it with exit status 3 if even that is not enough).
REMOVAL_SHARE = 0.7


def generate_within(
    rows: int,
    cols: int,
    seed: int,
    run_timeout: float | None,
    progress: guard.Progress | None = None,
) -> str:
    """:func:`generate_masyu` for a run limited to ``run_timeout`` seconds (None: no limit):
    circles are removed for :data:`REMOVAL_SHARE` of it, so the last check has time left.
    ``progress``: the run's figures (:class:`~dlxsat.runtime.guard.Progress`)."""
    budget = None if run_timeout is None else REMOVAL_SHARE * run_timeout
    return generate_masyu(rows, cols, seed=seed, timeout=budget, progress=progress)


def generate_masyu(
    rows: int,
    cols: int,
    seed: int | None = None,
    timeout: float | None = None,
    *,
    logic_only: bool = False,
    verify: bool = True,
    progress: guard.Progress | None = None,
) -> str:
    """A Masyu puzzle of ``rows`` x ``cols`` with exactly one answer (see the module docstring).

    The same seed gives the same puzzle. With ``timeout`` (seconds) the removal of circles stops
    when the time is up, and the puzzle so far (still with a unique answer) is returned; when
    the time is up before any loop with a unique answer was found, :class:`OutOfTime`. (A
    single question to the SAT solver is not interrupted: it may overrun ``timeout``.)
    ``logic_only`` removes a circle only when the logic solver still solves the board without
    search (puzzles for reasoning, like the Nikoli puzzles of the paper's benchmark), not
    merely when the answer stays unique. ``verify`` checks the result once more with the SAT
    backend through the pipeline. ``progress``: the run's figures, which say how far the
    generator got (:class:`~dlxsat.runtime.guard.Progress`).

    >>> text = generate_masyu(6, 6, seed=7)
    >>> text == generate_masyu(6, 6, seed=7), len(text.split()), is_unique(text)
    (True, 6, True)
    """
    if rows < 2 or cols < 2:
        raise InputError(f"a {rows}x{cols} board has no loop: rows and columns must be 2 or more")
    if seed is None:
        seed = new_seed()
    rng = random.Random(seed)
    deadline = time.perf_counter() + timeout if timeout else None
    oracle = UniquenessOracle(rows, cols)
    # What a run stopped from outside (a signal, the run's own deadline) says it was doing.
    progress = progress or guard.Progress()
    unit = progress.unit
    progress.set_phase(f"looking for a {rows}x{cols} loop with a unique answer (seed {seed})")
    progress.unit = ("loop drawn", "loops drawn")
    progress.found(1)
    try:
        loop, circles = solvable_loop(rows, cols, rng, deadline, logic_only, oracle, progress)
        order = sorted(circles)
        rng.shuffle(order)
        progress.set_phase(f"removing circles from a {rows}x{cols} puzzle (seed {seed})")
        progress.unit = ("circle removed", "circles removed")
        progress.found(0)
        removed = 0
        for cell in order:
            if deadline is not None and time.perf_counter() > deadline:
                break
            clue = circles.pop(cell)
            if oracle.other_answer(loop, circles) or (
                logic_only and _deduce(rows, cols, circles)[0] != "solved"
            ):
                circles[cell] = clue
            else:
                removed += 1
                progress.found(removed)
    finally:
        oracle.close()
    progress.unit = unit  # (not on a stop: its line tells the generator's figures)
    text = board_text(rows, cols, circles)
    if verify and not is_unique(text, progress):
        raise RuntimeError(f"generated a puzzle without a unique answer (seed {seed})")
    return text


def _point(name: str) -> tuple[int, int]:
    """The coordinates of a vertex or edge name of Knuth's Masyu data (always a point name)."""
    from ..xcc.names import parse_point_name

    point = parse_point_name(name)
    assert point is not None, name
    return point
