"""SuperSlitherlink: read Knuth's SUPERSLITHERLINK-GENERAL-DLX input, print his MCC data, judge
and draw answers.

SuperSlitherlink is Slitherlink where several cells may share one clue: they carry the same
letter, and a line ``!<letter>=<clue>`` after the board says how many *boundary edges* of that
letter's cells the loop uses. An edge between two cells of the same letter is *internal* and the
loop may not use it; an edge between a letter's cell and anything else (another letter, a
digit, a blank cell, the outside) is a boundary edge of that letter. Cells may also hold the
ordinary clues ``0``-``4`` and ``.``.

Knuth's data is an MCC problem (DLX3; DLX3-LOOP for the single-loop rule). It leaves out every
edge the loop cannot use (internal edges, sides of ``0`` cells and of letters whose clue is 0),
and counts clues by multiplicities: each loop edge is seen by the options of both its end
points, so a clue ``c`` is an item that must be covered ``2c`` times. A grid point's two loop
edges can border up to four cells' clues, more than one option may name, so each point has up
to six *subtiles* (``NW``, ``NE``, ``SE``, ``SW``, ``NS``, ``EW``: named ``2iNW2j`` and so on),
each tracking a pair of the point's edges and naming the other clues.

One quirk is kept for byte-exactness: when a letter's clue is 0, his program clears the edges
around the *first* cell of that letter only (row by row) and then forgets the letter, so the
other cells keep their edges and some options name the letter, which is not an item. DLX3
refuses such data; dlxsat's reader drops those options (with a warning), and that is exactly
the rule: each of them puts on the loop an edge beside a cell of that letter, and any loop
through such an edge needs one of them (at each end of the edge, either the tile's option or
the subtile's "both edges" option names every cell beside its two edges). DLX3 refuses such
data, and so does dlxsat's general DLX reader (an unknown item is an input error); the rule
lives here, in :func:`problem`, which the pipeline uses to turn this family's data into a
problem.

Characters other than ``0``-``9``, ``.`` and ASCII letters are rejected here, and so are
input mistakes whose data his program would print invalid (a letter left without a clue line)
or that say two things at once (a letter's clue given twice).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..answer import Answer
from ..errors import InputError
from ..xcc.model import Problem
from . import slitherlink
from .base import puzzle_lines
from .grid import GridPuzzle
from .slitherlink import (
    CLUES,
    NO_CLUE,
    SIDES,
    cell_sides,
    comment_lines,
    digit_clue_problems,
    item_line,
    loop_problems,
    read_board,
    render_board,
    tile_options,
)
from .spec import FamilySpec, Picture

#: The start of a line that gives a letter's clue, ``!a=3``.
CLUE_LINE = "!"

#: The subtiles of a grid point in Knuth's order: name, its two sides (in the order he lists
#: them), and the quadrants whose clues the option "both edges on the loop" names.
SUBTILES = (
    ("NW", "N", "W", ("NW", "NE")),
    ("NE", "N", "E", ("NE", "SE")),
    ("SE", "S", "E", ("SE", "SW")),
    ("SW", "S", "W", ("SW", "NW")),
    ("NS", "N", "S", ("SE", "SW")),
    ("EW", "E", "W", ("SW", "NW")),
)

#: The quadrants whose clues each option of a tile names, by pattern number in
#: ``slitherlink.TILE_PATTERNS`` (N+W, N+E, W+S, E+S, N+S, W+E, none). Together with the
#: subtile options this names every cell beside a loop edge once per end of that edge.
TILE_QUADRANTS = (
    ("SW", "NW"),
    ("NW", "NE"),
    ("SE", "SW"),
    ("NE", "SE"),
    ("NW", "NE"),
    ("NE", "SE"),
    (),
)

#: Where each quadrant's cell lies from grid point (i, j): (row step, column step).
QUADRANTS = {"NW": (-1, -1), "NE": (-1, 0), "SE": (0, 0), "SW": (0, -1)}


@dataclass(frozen=True)
class SuperSlitherlinkPuzzle(GridPuzzle):
    """A SuperSlitherlink board: ``rows[i][j]`` is ``.``, a digit ``0``-``4`` or a letter, and
    ``clues`` gives each letter its clue. ``lines`` holds the input lines as given.

    >>> p = read("aa.\\n..1\\n!a=2\\n")
    >>> p.m, p.n, p.clues, p.name(2, 4, "NW")
    (2, 3, {'a': 2}, '2NW4')
    """

    lines: tuple[str, ...]
    clues: dict[str, int] = field(default_factory=dict)
    #: What Knuth's program warns about and dlxsat lets pass the same way (one line each).
    warnings: tuple[str, ...] = field(default=(), compare=False)

    @property
    def max_coord(self) -> int:
        """A corner's, as in Slitherlink."""
        return 2 * max(self.m, self.n)


# ---------------------------------------------------------------------------------------------
# Reading


#: Knuth's program reads at most this many board rows, and nothing after them.
KNUTH_ROWS = 30

#: The digits that are clues; the others (5-9) are region marks, like letters, as in his program.
REGION_DIGITS = "56789"


def is_region(ch: str) -> bool:
    """Whether cell character ``ch`` marks a region with a ``!`` clue: an ASCII letter, or a
    digit 5-9 (Knuth's program treats every character that is not ``.`` or ``0``-``4`` so).

    >>> [is_region(c) for c in "a5.4"]
    [True, True, False, False]
    """
    return ch.isascii() and (ch.isalpha() or ch in REGION_DIGITS)


def _cell_error(ch: str) -> str | None:
    if ch in CLUES or ch == NO_CLUE or is_region(ch):
        return None
    return f"illegal character {ch!r} (use 0-4 for a clue, a letter or 5-9 for a group, . for none)"


def read(text: str) -> SuperSlitherlinkPuzzle:
    """Parse SUPERSLITHERLINK-GENERAL-DLX input: board rows and ``!<letter>=<clue>`` lines.

    Knuth's reading rules (``puzzles/README.md``): lines are read in order, a ``!`` line may
    come anywhere (first, between board rows, at the end), and it counts only for a letter that
    has already occurred -- otherwise he warns ``letter `b' never occurred!`` and ignores it;
    digits 5-9 are region marks like letters; after 30 board rows he reads nothing more.
    dlxsat warns as he does (:attr:`SuperSlitherlinkPuzzle.warnings`) and prints the same
    data; where his data would be invalid (a letter left without a clue: he prints the item
    ``-2|a``) it is an input error, as are the mistakes of the module docstring.

    >>> read("aa.\\n...\\n!a=3\\n").clues
    {'a': 3}
    >>> read("aa.\\n!a=3\\n...\\n!b=1\\n").warnings
    ("line 4: letter `b' never occurred!",)
    >>> read("aa.\\n...\\n!a3\\n")
    Traceback (most recent call last):
      ...
    dlxsat.errors.InputError: line 3: no = sign in '!a3' (write !<letter>=<clue>)
    """
    lines = tuple(puzzle_lines(text))
    last_row = max(
        (r for r, line in enumerate(lines, 1) if not line.startswith(CLUE_LINE)), default=0
    )
    board: list[str] = []
    read_lines: list[str] = []
    warnings: list[str] = []
    seen: dict[str, tuple[int, int]] = {}
    clues: dict[str, int] = {}
    clue_line: dict[str, int] = {}
    too_early: dict[str, int] = {}
    for r, line in enumerate(lines, 1):
        if len(board) == KNUTH_ROWS and r > last_row:
            # Only ! lines are left, and his program stops reading after 30 board rows.
            warnings.append(
                f"lines {r}-{len(lines)} ignored: Knuth's program reads nothing after "
                f"{KNUTH_ROWS} board rows"
            )
            break
        read_lines.append(line)
        if not line.startswith(CLUE_LINE):
            for c, ch in enumerate(line, 1):
                if is_region(ch):
                    seen.setdefault(ch, (r, c))
            board.append(line)
            continue
        if len(line) < 3 or line[2] != "=":
            raise InputError(f"line {r}: no = sign in {line!r} (write !<letter>=<clue>)")
        letter, value = line[1], line[3:]
        if letter not in seen:
            warnings.append(f"line {r}: letter `{letter}' never occurred!")
            too_early.setdefault(letter, r)
            continue
        if letter in clues:
            raise InputError(
                f"line {r}: a second clue for letter {letter!r} (the first is on line "
                f"{clue_line[letter]})"
            )
        if not (value.isascii() and value.isdigit()):
            raise InputError(
                f"line {r}, column 4: the clue of letter {letter!r} must be a number, not {value!r}"
            )
        clues[letter] = int(value)
        clue_line[letter] = r
    rows = read_board(board, _cell_error, longest_infix="NW")
    for letter, (r, c) in seen.items():
        if letter not in clues:
            why = ""
            if letter in too_early:
                why = (
                    f" after it (line {too_early[letter]} comes before the letter occurs, and "
                    "Knuth's program ignores such a line)"
                )
            elif warnings and warnings[-1].startswith("lines "):
                why = (
                    f" that Knuth's program reads: it stops after {KNUTH_ROWS} board rows "
                    "(put the clue lines before the last row)"
                )
            raise InputError(
                f"line {r}, column {c}: letter {letter!r} has no clue line '!{letter}=...'{why}"
            )
    return SuperSlitherlinkPuzzle(
        rows, tuple(read_lines), {k: clues[k] for k in sorted(clues)}, tuple(warnings)
    )


def write(puzzle: SuperSlitherlinkPuzzle) -> str:
    """The puzzle in Knuth's input format, its lines as given.

    >>> write(read("aa\\n..\\n!a=4\\n"))
    'aa\\n..\\n!a=4\\n'
    """
    return "".join(line + "\n" for line in puzzle.lines)


# ---------------------------------------------------------------------------------------------
# Encoding


def legal_edges(puzzle: SuperSlitherlinkPuzzle) -> tuple[list[list[bool]], list[str]]:
    """Which edges Knuth's program lets the loop use (``legal[x][y]`` for the edge at (x, y)),
    and the letters that get a clue item, in his order (ASCII).

    Internal edges of a letter, the sides of ``0`` cells and the sides of the first cell of a
    letter whose clue is 0 are illegal; such a letter then gets no item (the quirk of the
    module docstring).

    >>> legal, letters = legal_edges(read("aa\\n.b\\n!a=0\\n!b=2\\n"))
    >>> legal[0][1], legal[1][2], legal[0][3], letters
    (False, False, True, ['b'])
    """
    m, n, rows = puzzle.m, puzzle.n, puzzle.rows
    legal = [[bool((x + y) & 1) for y in range(2 * n + 1)] for x in range(2 * m + 1)]
    active = dict.fromkeys(puzzle.clues, True)

    def clear_sides(i: int, j: int) -> None:
        for x, y in cell_sides(i, j):
            legal[x][y] = False

    for i in range(m):
        for j in range(n):
            k = rows[i][j]
            if k == "0":
                clear_sides(i, j)
            elif active.get(k):
                if j < n - 1 and rows[i][j + 1] == k:
                    legal[2 * i + 1][2 * j + 2] = False
                if i < m - 1 and rows[i + 1][j] == k:
                    legal[2 * i + 2][2 * j + 1] = False
                if puzzle.clues[k] == 0:
                    clear_sides(i, j)
                    active[k] = False
    return legal, sorted(k for k, on in active.items() if on)


def encode(puzzle: SuperSlitherlinkPuzzle) -> str:
    """Exactly what SUPERSLITHERLINK-GENERAL-DLX prints on stdout for this puzzle (including
    the heading ``| slitherlink-dlx:``, sic, and the quirk of letters with clue 0).

    >>> print(encode(read("a.\\n..\\n!a=1\\n")).split("\\n")[4])
    00 0SE0 02 0SE2 0SW2 0EW2 04 0SW4 20 2NE0 2SE0 2NS0 22 2NW2 2NE2 2SE2 2SW2 2NS2 2EW2 24 ...
    """
    m, n, rows, name = puzzle.m, puzzle.n, puzzle.rows, puzzle.name
    legal, letters = legal_edges(puzzle)

    def usable(i: int, j: int) -> dict[str, str]:
        """Side → edge name for the legal edges at grid point (i, j)."""
        x, y = 2 * i, 2 * j
        return {
            side: name(x + dx, y + dy)
            for side, _, dx, dy in SIDES
            if 0 <= x + dx <= 2 * m and 0 <= y + dy <= 2 * n and legal[x + dx][y + dy]
        }

    def clue_names(i: int, j: int, quadrants: Iterable[str]) -> list[str]:
        """The clue items of the cells in these quadrants of grid point (i, j)."""
        names = []
        for q in quadrants:
            di, dj = QUADRANTS[q]
            r, c = i + di, j + dj
            if 0 <= r < m and 0 <= c < n and rows[r][c] != NO_CLUE:
                k = rows[r][c]
                names.append(name(2 * r + 1, 2 * c + 1) if k in "1234" else k)
        return names

    out = comment_lines(puzzle.lines)
    primaries = []
    for i in range(m + 1):
        for j in range(n + 1):
            edges = usable(i, j)
            primaries.append(name(2 * i, 2 * j))
            primaries.extend(
                name(2 * i, 2 * j, sub) for sub, a, b, _ in SUBTILES if a in edges and b in edges
            )
    for i in range(m):
        for j in range(n):
            if rows[i][j] in "1234":
                primaries.append(f"{2 * int(rows[i][j])}|{name(2 * i + 1, 2 * j + 1)}")
    primaries.extend(f"{2 * puzzle.clues[k]}|{k}" for k in letters)
    secondaries = [name(x, y) for x in range(2 * m + 1) for y in range(2 * n + 1) if legal[x][y]]
    out.append(item_line(primaries, secondaries))

    for i in range(m + 1):
        for j in range(n + 1):
            edges = usable(i, j)
            for k, entries in tile_options(name(2 * i, 2 * j), edges):
                out.append(" ".join(entries + clue_names(i, j, TILE_QUADRANTS[k])))
            for sub, a, b, quadrants in SUBTILES:
                if a not in edges or b not in edges:
                    continue
                head, ea, eb = name(2 * i, 2 * j, sub), edges[a], edges[b]
                out.append(f"{head} {ea}:0 {eb}:0")
                out.append(f"{head} {ea}:1 {eb}:0")
                out.append(f"{head} {eb}:1 {ea}:0")
                out.append(" ".join([head, f"{ea}:1", f"{eb}:1"] + clue_names(i, j, quadrants)))
    return "\n".join(out) + "\n"


def problem(puzzle: SuperSlitherlinkPuzzle, dlx_text: str) -> Problem:
    """The exact-cover problem of ``puzzle`` from its data ``dlx_text`` (:func:`encode`'s), with
    the single-loop rule:
    Knuth's options naming a letter of clue 0 -- which his data does not declare -- are
    dropped, since none of them can be chosen (the module docstring says why that is exact).

    >>> p = read("aa\\n.b\\n!a=0\\n!b=2\\n")
    >>> len(problem(p, encode(p)).options) < len(encode(p).splitlines())
    True
    """
    return SPEC.with_rules(data_problem(puzzle, dlx_text))


def data_problem(puzzle: SuperSlitherlinkPuzzle, dlx_text: str) -> Problem:
    """The problem of the data alone, as Knuth's DLX3 reads them (no loop rule)."""
    from ..xcc import parse

    _, letters = legal_edges(puzzle)
    dead = set(puzzle.clues) - set(letters)
    if not dead:
        return parse(dlx_text, allow_empty=True)
    kept = []
    for line in dlx_text.split("\n"):
        if line.startswith("|") or not dead.intersection(line.split()):
            kept.append(line)
    result = parse("\n".join(kept), allow_empty=True)
    dropped = len(dlx_text.split("\n")) - len(kept)
    result.warnings.append(
        f"left out {dropped} option{'s' if dropped != 1 else ''} naming a letter of clue 0 "
        f"({', '.join(sorted(dead))}), which SUPERSLITHERLINK-GENERAL-DLX does not declare"
    )
    return result


#: The first line SUPERSLITHERLINK-GENERAL-DLX prints (sic: it is SLITHERLINK-DLX's).
HEADER = "| slitherlink-dlx:"


def problem_from_data(dlx_text: str) -> Problem | None:
    """The problem of DLX data printed by SUPERSLITHERLINK-GENERAL-DLX, read by this family's
    rule (:func:`data_problem`: no loop rule, as his DLX3 reads them); None for any other text.

    Knuth's program echoes its input as comments after its header line, so the puzzle -- and
    with it the letters of clue 0 his data names but does not declare -- can be recovered from
    the data alone. ``dlxsat dlx`` reads such files this way, so that the general DLX reader can
    stay strict (an unknown item is an input error there).

    >>> p = read("aa\\n.b\\n!a=0\\n!b=2\\n")
    >>> problem_from_data(encode(p)) == data_problem(p, encode(p))
    True
    >>> problem_from_data("a b\\na\\nb\\n") is None
    True
    """
    lines = dlx_text.split("\n")
    if lines[0].rstrip() != HEADER:
        return None
    echoed = []
    for line in lines[1:]:
        if not line.startswith("| "):
            break
        echoed.append(line[2:])
    try:
        puzzle = read("\n".join(echoed) + "\n")
    except InputError:
        return None
    return data_problem(puzzle, dlx_text)


# ---------------------------------------------------------------------------------------------
# Decoding, checking, drawing


def decode(puzzle: SuperSlitherlinkPuzzle, problem: Problem, chosen: Iterable[int]) -> Answer:
    """The loop of a solution: the edges colored 1 by the chosen options (every edge the loop
    may use is an item, so these are all of its edges)."""
    return slitherlink.decode(puzzle, problem, chosen)  # type: ignore[arg-type]  # same edges


def check(puzzle: SuperSlitherlinkPuzzle, answer: Answer) -> list[str]:
    """Judge ``answer`` by the rules of SuperSlitherlink, directly on the board; [] is right.

    The loop is one cycle along the grid lines; a digit cell has that many loop sides; no loop
    edge lies between two cells of the same letter; and the loop uses exactly as many boundary
    edges of each letter's cells as its clue says.

    >>> p = read("aa\\n..\\n!a=6\\n")
    >>> check(p, {"edges": [[0, 1], [0, 3], [1, 0], [1, 4], [2, 1], [2, 3]]})
    []
    >>> print(*check(p, {"edges": [[0, 1], [1, 0], [1, 2], [2, 1]]}), sep="\\n")
    loop edge [1, 2] lies inside the cells of 'a'
    letter 'a' has clue 6 but 3 loop boundary edges
    """
    edges, problems = loop_problems(puzzle.m, puzzle.n, answer)
    problems += digit_clue_problems(puzzle.rows, edges)
    m, n, rows = puzzle.m, puzzle.n, puzzle.rows
    boundary = dict.fromkeys(puzzle.clues, 0)
    for i in range(m):
        for j in range(n):
            k = rows[i][j]
            if k not in boundary:
                continue
            for (x, y), (_, _, di, dj) in zip(cell_sides(i, j), SIDES, strict=True):
                if (x, y) not in edges:
                    continue
                r, c = i + di, j + dj
                if not (0 <= r < m and 0 <= c < n and rows[r][c] == k):
                    boundary[k] += 1
                elif (di, dj) in ((0, 1), (1, 0)):  # report each internal edge once
                    problems.append(f"loop edge [{x}, {y}] lies inside the cells of {k!r}")
    for k, clue in puzzle.clues.items():
        if boundary[k] != clue:
            problems.append(
                f"letter {k!r} has clue {clue} but {boundary[k]} loop boundary edge"
                + ("" if boundary[k] == 1 else "s")
            )
    return problems


def render(puzzle: SuperSlitherlinkPuzzle, answer: Answer | None = None) -> str:
    """The board (letters and digits in their cells) and the loop of ``answer`` in ASCII, then
    the letters' clues.

    >>> print(render(read("aa\\n..\\n!a=4\\n")), end="")
    +   +   +
      a   a
    +   +   +
    <BLANKLINE>
    +   +   +
    !a=4
    """
    return render_board(puzzle.rows, answer) + "".join(
        f"{CLUE_LINE}{k}={v}\n" for k, v in puzzle.clues.items()
    )


def draw(canvas: Any, puzzle: SuperSlitherlinkPuzzle, answer: Answer | None) -> None:
    """Slitherlink's picture, each letter's region shaded in a colour of its own, the letter's
    clue in its first cell."""
    from ..drawing import REGION_COLOURS

    letters = sorted({c for row in puzzle.rows for c in row if c.isalpha()})
    colour = {c: REGION_COLOURS[k % len(REGION_COLOURS)] for k, c in enumerate(letters)}
    labelled: set[str] = set()
    rows = []
    for i, row in enumerate(puzzle.rows):
        for j, ch in enumerate(row):
            if ch in colour:
                canvas.shade(i, j, colour[ch])
                text = ch if ch in labelled else f"{ch}={puzzle.clues.get(ch, '?')}"
                labelled.add(ch)
                canvas.text(i, j, text, scale=0.7 if len(text) > 1 else 1.0)
        rows.append("".join("." if ch in colour else ch for ch in row))
    slitherlink.draw_board(canvas, rows, answer)


SPEC = FamilySpec(
    name="superslitherlink",
    summary="SuperSlitherlink: Slitherlink with lettered regions, each clue the loop's edges "
    "around its region",
    rules=("loop",),
    read=read,
    write=write,
    encode=encode,
    decode=decode,
    check=check,
    render=render,
    problem_of=problem,
    # Reading, encoding and parsing, per character of the text: measured 9.8 KB.
    bytes_per_cell=11000,
    picture=Picture(lambda p: (p.m, p.n), draw),
    example="puzzles/superslitherlink/pi-day-2025.txt",
)
