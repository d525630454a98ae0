"""Pipelink: one loop through every cell, which may cross itself; some pipe pieces are given.

The rules, as a player reads them: draw one closed loop through the centres of all the cells.
At a cell the loop goes straight or turns; or, at a crossing, it passes straight through twice,
once across and once up and down (it never turns there, and never branches). Some cells show a
piece of pipe: the loop is there exactly that piece. Two loops that only cross each other are
two loops, not one.

*Pipelink Returns* (pzprjs's ``pipelinkr``) adds circles: the loop crosses itself only on a
circle (or a given crossing piece) and goes straight through every circle. A puzzle with a
circle is a Pipelink Returns, as pzprjs decides when it reads a ``pipelink`` URL or file with
circles; a ``pipelinkr`` URL or file is one even without circles. A ``?`` (pzprjs's mark on a
cell) means nothing.

**The text form** is the corpus's notation (``SmilingWayne/puzzlekit-dataset``): a line ``ROWS
COLS``, then a row of tokens a line: ``-`` an empty cell, a given piece as the sides it leaves
by (``ns``, ``ew``, ``ne``, ``nw``, ``se``, ``sw``, the crossing ``nsew``; read in any order of
the letters, and ``15``, the four-bit mask of one corpus puzzle, as the crossing), ``o`` a
circle, ``?`` a question mark. It is written back in the order ``n s e w``. A Pipelink Returns
without circles has no grid form of its own (its grid reads as a Pipelink).

**The encoding.** The loop is Masyu's (:class:`~dlxsat.families.loops.LoopBoard`): a primary
vertex item per cell and a secondary edge item per pair of neighbours, colored ``1`` on the
loop and ``0`` off it.

1. *Every cell on the loop, straight, turning or crossing.* A cell's options are its ways:
   the two edges of a straight or a turn, all four of a crossing, each option coloring every
   edge of the cell. A given piece leaves one option, a circle (Returns) the two straights and
   the crossing; an empty cell has the six two-edge ways, and in plain Pipelink the crossing
   where all four edges exist (in Returns no crossing). So every cell has degree 2 or 4.
2. *One loop.* Knuth's single-loop rule (DLX2-LOOP) asks for degree 0 or 2, so it cannot be
   the rule here; connectivity is, as a :class:`~dlxsat.xcc.rules.Connected` rule
   (``|@connected loop``) over *members* that stand for the loop's pieces, *linked* where the
   loop joins them inside a cell. Joining every two edges of a cell would be wrong: at a
   crossing it would join the across strand with the up-and-down one, and two loops that
   cross would pass for one. So the links follow the passes through the cell:

   - its north and south edges are linked, and its west and east ones: when both are on, the
     loop goes straight through between them, whether the cell is a straight or a crossing;
   - in a cell that cannot be a crossing (on the board's side, a circle's neighbour in
     Returns, a given piece) every other pair of its edges is linked too: when both are on,
     the cell is that turn;
   - a cell that can be both a turn and a crossing gets a secondary *turn item* (``t`` and
     the cell's name), covered by its turning options alone, and a member linked to each of
     its four edges. A turning cell has only its two edges on and its turn item present, so
     the item joins exactly them; a crossing has no turn item present, and only its straight
     links join its edges, two by two.

   The members present are then connected exactly when the loop's strands are one loop (each
   strand is a closed curve, by the degrees of 1.). The backends enforce the rule: DLX prunes
   a choice that cuts the members possible in two, SAT and CP-SAT add cuts lazily.

**Formats.** puz.link ``pipelink`` (and ``pipelinkr``): pzprjs's own codec -- ``a``-``g``
the pieces crossing, ``ns``, ``ew``, ``ne``, ``nw``, ``sw``, ``se``; ``.`` a ``?``; a digit
``k`` a run of ``k + 1`` circles; ``h``-``z`` runs of 1-19 empty cells. pzprv3 ``pipelink``
(``pipelinkr``): an obsolete display line (``pipe``, ``circle``), the cells (the same letters,
``o`` a circle, ``-`` a ``?``, ``.``), then the two line blocks. A digit in a cell is pzprjs's
Loop Special (``loopsp``), another genre, and refused. The answer grid is the corpus's line
tokens, a crossing ``nsew``.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any

from ..answer import Answer
from ..errors import InputError
from ..xcc.model import Problem
from ..xcc.rules import Connected
from .base import Puzzle
from .codecs import (
    B36,
    block,
    make_url,
    parse_url,
    pzprv3_type,
    read_pzprv3,
    url_of,
)
from .loops import (
    SIDES,
    LoopBoard,
    cell_name,
    degree,
    edges_on,
    grid_codec,
    line_answer,
    line_edges,
    pzprv3_codec,
    pzprv3_line_answer,
    read_grid,
    render_line,
    strands,
    write_grid,
    write_line_file,
)
from .regions import Builder
from .spec import Codec, FamilySpec, Picture

NAME = "pipelink"
RETURNS = "pipelinkr"
CROSS = "nsew"
STRAIGHTS = ("ns", "ew")
TURNS = ("ne", "nw", "se", "sw")
#: A cell's clue besides a given piece: none, a circle (Returns), a ``?``.
BLANK, CIRCLE, QUESTION = "", "o", "?"
#: pzprjs's letters of the given pieces (its ``ques`` 11-17), in the URL and the file.
LETTERS = {"a": CROSS, "b": "ns", "c": "ew", "d": "ne", "e": "nw", "f": "sw", "g": "se"}
PIECES = {shape: letter for letter, shape in LETTERS.items()}
STEP = {side: (di, dj) for side, di, dj in SIDES}


def canonical(sides: str) -> str:
    """The sides ``sides`` names, in the order ``n s e w``.

    >>> canonical("we"), canonical("news")
    ('ew', 'nsew')
    """
    return "".join(side for side, _, _ in SIDES if side in sides)


@dataclass(frozen=True)
class PipelinkPuzzle(Puzzle):
    """An ``m`` x ``n`` board; ``clues[i][j]`` a given piece (``ns``, ..., ``nsew``),
    :data:`CIRCLE`, :data:`QUESTION` or :data:`BLANK`; ``returns``: Pipelink Returns."""

    m: int
    n: int
    clues: tuple[tuple[str, ...], ...]
    returns: bool = False


def _clue(token: str, where: str) -> str:
    """The clue of a corpus token."""
    if token == "-":
        return BLANK
    if token in (CIRCLE, QUESTION):
        return token
    if token == "15":  # one corpus puzzle writes the crossing as its four-bit mask
        return CROSS
    shape = canonical(token)
    if len(shape) != len(token) or shape not in (*STRAIGHTS, *TURNS, CROSS):
        raise InputError(f"{where}: {token!r} is not -, o, ? or a pipe piece (ns, ne, ..., nsew)")
    return shape


def read(text: str) -> PipelinkPuzzle:
    """A puzzle in the corpus's notation (a circle makes it a Pipelink Returns).

    >>> read("2 2\\nse we\\n- news\\n").clues
    (('se', 'ew'), ('', 'nsew'))
    """
    m, n, (rows,) = read_grid(text)
    clues = tuple(
        tuple(_clue(tok, f"row {i + 1}, cell {j + 1}") for j, tok in enumerate(row))
        for i, row in enumerate(rows)
    )
    return PipelinkPuzzle(m, n, clues, any(CIRCLE in row for row in clues))


def write(puzzle: PipelinkPuzzle) -> str:
    """:func:`read`'s text."""
    return write_grid(puzzle.m, puzzle.n, [[v or "-" for v in row] for row in puzzle.clues])


# ---------------------------------------------------------------------------------------------
# The exact-cover problem


def ways(puzzle: PipelinkPuzzle, i: int, j: int) -> list[str]:
    """The ways the loop may pass cell (i, j) (rule 1 of the module doc), the board's sides
    permitting.

    >>> ways(read("2 2\\n- -\\n- -\\n"), 0, 0), ways(read("1 3\\n- o -\\n"), 0, 1)
    (['se'], ['ew'])
    """
    v = puzzle.clues[i][j]
    if v in (BLANK, QUESTION):
        shapes = [*STRAIGHTS, *TURNS] + ([] if puzzle.returns else [CROSS])
    elif v == CIRCLE:
        shapes = [*STRAIGHTS, CROSS]
    else:
        shapes = [v]

    def inside(side: str) -> bool:
        di, dj = STEP[side]
        return 0 <= i + di < puzzle.m and 0 <= j + dj < puzzle.n

    return [s for s in shapes if all(inside(side) for side in s)]


def _point(i: int, j: int, side: str) -> tuple[int, int]:
    """The edge (midpoint) leaving cell (i, j) by ``side``."""
    di, dj = STEP[side]
    return (2 * i + di, 2 * j + dj)


def _sides(edges: set[tuple[int, int]], i: int, j: int) -> str:
    """The sides by which ``edges`` leave cell (i, j), in the order ``n s e w``."""
    return "".join(side for side, _, _ in SIDES if _point(i, j, side) in edges)


def turn_item(board: LoopBoard, i: int, j: int) -> str:
    """The turn item of cell (i, j): ``t`` and the cell's name (no point name, so no loop
    rule mistakes it for a vertex).

    >>> turn_item(LoopBoard(3, 3), 1, 1)
    't22'
    """
    return "t" + board.cell(i, j)


def build(puzzle: PipelinkPuzzle) -> Problem:
    """The exact-cover problem (see the module doc), with its connected rule."""
    board = LoopBoard(puzzle.m, puzzle.n)
    b = Builder()
    for cell in board.vertices():
        b.item(cell)
    edges = board.all_edges()
    turns: list[str] = []
    links: list[tuple[str, str]] = []
    for i in range(puzzle.m):
        for j in range(puzzle.n):
            shapes = ways(puzzle, i, j)
            used = sorted({side for shape in shapes for side in shape}, key="nsew".index)
            sides = {side: board.name(*_point(i, j, side)) for side in used}
            crossing = CROSS in shapes
            turn = turn_item(board, i, j) if crossing and any(s in TURNS for s in shapes) else None
            if turn is not None:
                turns.append(turn)
                links += [(turn, e) for e in sides.values()]
            for p, q in combinations(sides, 2):
                if not crossing or {p, q} in ({"n", "s"}, {"e", "w"}):
                    links.append((sides[p], sides[q]))
            for shape in shapes:
                on = {_point(i, j, side) for side in shape}
                option = [board.cell(i, j), *board.edge_entries(i, j, on)]
                if turn is not None and shape in TURNS:
                    option.append(turn)
                b.options.append(option)
    b.secondary = [*edges, *turns]
    problem = b.plain_problem()
    index = problem.index
    members = [(index[e], "1") for e in edges] + [(index[t], None) for t in turns]
    at = {problem.items[k].name: pos for pos, (k, _) in enumerate(members)}
    rule = Connected(tuple(members), tuple((at[p], at[q]) for p, q in links), label="loop")
    return problem.with_rules(rule)


def encode(puzzle: PipelinkPuzzle) -> str:
    """The exact-cover data: the board as comments, then :func:`build`'s problem."""
    return Builder.text([f"{NAME}:", *write(puzzle).splitlines()], build(puzzle))


def decode(puzzle: PipelinkPuzzle, problem: Problem, chosen: Any) -> Answer:
    """The loop's edges of the chosen options."""
    return line_answer(edges_on(problem, chosen))


# ---------------------------------------------------------------------------------------------
# The rules, judged on the answer


def check(puzzle: PipelinkPuzzle, answer: Answer) -> list[str]:
    """The rules of Pipelink judged on ``answer``, in pzprjs's order: no line a given piece
    lacks, no branch (Returns: crossings only on circles and given crossings, no turn on a
    circle), one loop (a crossing joins no strands), given crossings crossed, every cell on the
    loop, no dead end.

    >>> p = read("2 2\\n- -\\n- ne\\n")
    >>> check(p, {"edges": [[0, 1], [1, 0], [1, 2], [2, 1]]})
    ['cell (2, 2): the given piece ne has a line to the w it does not have']
    """
    m, n = puzzle.m, puzzle.n
    edges, problems = line_edges(m, n, answer)
    if problems:
        return problems
    cells = [(i, j) for i in range(m) for j in range(n)]
    deg = {c: degree(edges, *c) for c in cells}
    for i, j in cells:
        v = puzzle.clues[i][j]
        if v in PIECES:
            problems += [
                f"cell {cell_name(i, j)}: the given piece {v} has a line to the {s} it does not "
                "have"
                for s in _sides(edges, i, j)
                if s not in v
            ]
    problems += [
        f"cell {cell_name(*c)}: the line branches (3 line segments)" for c in cells if deg[c] == 3
    ]
    if puzzle.returns:
        problems += [
            f"cell {cell_name(i, j)}: the line crosses itself off a circle"
            for i, j in cells
            if deg[(i, j)] == 4 and puzzle.clues[i][j] not in (CIRCLE, CROSS)
        ]
        problems += [
            f"the line turns on the circle {cell_name(i, j)}"
            for i, j in cells
            if puzzle.clues[i][j] == CIRCLE and _sides(edges, i, j) in TURNS
        ]
    pieces = strands(edges)
    if len(pieces) > 1:
        problems.append(
            f"the line forms {len(pieces)} separate loops, not one (a crossing joins none)"
        )
    problems += [
        f"the given crossing {cell_name(*c)} does not have four line segments"
        for c in cells
        if puzzle.clues[c[0]][c[1]] == CROSS and deg[c] != 4
    ]
    problems += [
        f"cell {cell_name(*c)} has no line (the loop passes every cell)"
        for c in cells
        if deg[c] == 0
    ]
    problems += [
        f"cell {cell_name(*c)}: the line ends here (a dead end)" for c in cells if deg[c] == 1
    ]
    return problems


# ---------------------------------------------------------------------------------------------
# Text and pictures

#: A clue's character in the ASCII board.
GLYPHS = {BLANK: ".", CIRCLE: "o", QUESTION: "?", CROSS: "+"}


def render(puzzle: PipelinkPuzzle, answer: Answer | None = None) -> str:
    """The board in ASCII: ``+`` a given crossing, ``*`` another given piece, ``o`` a circle,
    ``.`` an empty cell, the loop between cells."""
    return render_line(puzzle.m, puzzle.n, answer, lambda i, j: GLYPHS.get(puzzle.clues[i][j], "*"))


def draw(canvas: Any, puzzle: PipelinkPuzzle, answer: Answer | None) -> None:
    """The given pieces as thick black pipes from the cell centres, circles, ``?`` marks, and
    the loop through the cell centres."""
    canvas.grid(puzzle.m, puzzle.n)
    if answer:
        canvas.loop(answer.get("edges", []), 0.5)
    pipes = []
    for i, row in enumerate(puzzle.clues):
        for j, v in enumerate(row):
            if v == CIRCLE:
                canvas.circle(i, j, black=False, radius=0.38, z=1)
            elif v == QUESTION:
                canvas.text(i, j, "?")
            else:
                for side in v:
                    di, dj = STEP[side]
                    pipes.append([(j + 0.5, i + 0.5), (j + 0.5 + dj / 2, i + 0.5 + di / 2)])
    if pipes:
        canvas.segments(pipes, "black", max(2.0, canvas.px / 6), 3)


# ---------------------------------------------------------------------------------------------
# puz.link and pzprv3


def read_url(text: str) -> PipelinkPuzzle:
    """The puzzle of a puz.link ``pipelink`` or ``pipelinkr`` URL (a digit in its body, a
    circle, makes it a Pipelink Returns, as pzprjs reads it).

    >>> print(write(read_url("https://puzz.link/p?pipelink/5/5/mamejan")), end="")
    5 5
    - - - - -
    - nsew - - -
    - - - nw -
    - - nsew - -
    - - - - -
    """
    flags, cols, rows, body = url_of(NAME, text)
    if flags:
        raise InputError(f"puz.link flags {flags!r}: a pipelink URL has none")
    kind = parse_url(text)[0]
    count = rows * cols
    cells = [BLANK] * count
    c = 0
    for ch in body:
        if ch == ".":
            cells[c] = QUESTION
        elif ch.isdigit():
            for _ in range(int(ch) + 1):
                if c < count:
                    cells[c] = CIRCLE
                    c += 1
            c -= 1
        elif "a" <= ch <= "g":
            cells[c] = LETTERS[ch]
        elif "h" <= ch <= "z":
            c += int(ch, 36) - 17
        else:
            raise InputError(f"the puz.link URL's cells are malformed at {ch!r}")
        c += 1
        if c >= count:
            break
    clues = tuple(tuple(cells[r * cols : (r + 1) * cols]) for r in range(rows))
    return PipelinkPuzzle(rows, cols, clues, kind == RETURNS or CIRCLE in cells)


def _pid(puzzle: PipelinkPuzzle) -> str:
    return RETURNS if puzzle.returns else NAME


def write_url(puzzle: PipelinkPuzzle, answer: Answer | None = None) -> str:
    """The puz.link URL, as pzprjs writes it.

    >>> write_url(read("2 3\\no o -\\n- - ns\\n"))
    'https://puzz.link/p?pipelinkr/3/2/1jb\\n'
    """
    cells = [v for row in puzzle.clues for v in row]
    out, count, c = [], 0, 0
    while c < len(cells):
        v, text = cells[c], ""
        if v == QUESTION:
            text = "."
        elif v == CIRCLE:
            run = 1
            while run < 10 and c + run < len(cells) and cells[c + run] == CIRCLE:
                run += 1
            text = str(run - 1)
            c += run - 1
        elif v in PIECES:
            text = PIECES[v]
        else:
            count += 1
        if count == 0:
            out.append(text)
        elif text or count == 19:
            out.append(B36[16 + count] + text)
            count = 0
        c += 1
    if count:
        out.append(B36[16 + count])
    return make_url(_pid(puzzle), puzzle.n, puzzle.m, "".join(out))


#: A cell of a pzprv3 file: its token → the clue.
FILE_CELLS = {".": BLANK, "-": QUESTION, "o": CIRCLE, **LETTERS}
FILE_TOKENS = {v: k for k, v in FILE_CELLS.items()}


def parse_pzprv3(text: str) -> tuple[PipelinkPuzzle, Answer]:
    """The puzzle of a pzprv3 ``pipelink`` (``pipelinkr``) file and the line drawn in it."""
    rows, cols, lines = read_pzprv3(text, NAME)
    returns = pzprv3_type(text) == RETURNS
    clues = []
    for i, row in enumerate(block(lines, 1, rows, cols, "cells")):
        out = []
        for j, v in enumerate(row):
            if v not in FILE_CELLS:
                what = "a Loop Special number" if v.isdigit() else "no cell of pipelink"
                raise InputError(f"line {i + 6} of the pzprv3 file, cell {j + 1}: {v!r} is {what}")
            out.append(FILE_CELLS[v])
        clues.append(tuple(out))
    returns = returns or any(CIRCLE in row for row in clues)
    puzzle = PipelinkPuzzle(rows, cols, tuple(clues), returns)
    return puzzle, pzprv3_line_answer(lines, 1 + rows, rows, cols)


def write_pzprv3(puzzle: PipelinkPuzzle, answer: Answer | None = None) -> str:
    """The pzprv3 file as pzprjs writes it, with the answer's line drawn."""
    cells = [[FILE_TOKENS[v] for v in row] for row in puzzle.clues]
    kind = "circle" if puzzle.returns else "pipe"
    return write_line_file(_pid(puzzle), puzzle.m, puzzle.n, cells, answer, head=(kind,))


def _same(puzzle: PipelinkPuzzle) -> str:
    return write(puzzle) + str(puzzle.returns)


SPEC = FamilySpec(
    name=NAME,
    aliases=(RETURNS,),
    summary="Pipelink: one loop through every cell, crossing itself straight; pipe pieces given",
    rules=("connected",),
    read=read,
    write=write,
    encode=encode,
    decode=decode,
    check=check,
    render=render,
    build=build,
    bytes_per_cell=5000,
    formats=("knuth", "puzzlink", "pzprv3", "grid"),
    writes=("knuth", "puzzlink", "pzprv3", "grid"),
    answers=("pzprv3", "grid"),
    codecs={
        "puzzlink": Codec(read=read_url, write=write_url, names=(NAME, RETURNS)),
        "pzprv3": pzprv3_codec(NAME, NAME, parse_pzprv3, write_pzprv3, _same),
        "grid": grid_codec(read, write),
    },
    picture=Picture(lambda p: (p.m, p.n), draw),
)
