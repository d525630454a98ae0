"""Coordinates and item names shared by the grid families (docs/conventions.md §4).

Knuth names a point of the doubled grid by two base-62 digits, row first. Boards too large for
one digit per coordinate (a coordinate above 61) use decimal coordinates joined by a dot
instead, in every name of that board, so that small boards stay byte-identical to his output.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

from ..errors import InputError
from ..xcc.names import DIGITS, MAX_DIGIT, b62, parse_point_name, un62
from .base import Puzzle

__all__ = [
    "DIGITS",
    "MAX_DIGIT",
    "b62",
    "b62_number",
    "un62",
    "parse_point_name",
    "needs_wide_names",
    "point_name",
    "GridPuzzle",
    "tatham_rows",
]


def b62_number(x: int) -> str:
    """``x >= 0`` in base 62, as many digits as it takes: short parts of the names of a genre's
    auxiliary items (a region's, a circle's).

    >>> b62_number(5), b62_number(61), b62_number(62), b62_number(3843)
    ('5', 'Z', '10', 'ZZ')
    """
    out = b62(x % 62)
    while x >= 62:
        x //= 62
        out = b62(x % 62) + out
    return out


def needs_wide_names(max_coord: int) -> bool:
    """Whether a board whose largest doubled coordinate is ``max_coord`` needs decimal names."""
    return max_coord > MAX_DIGIT


def point_name(x: int, y: int, wide: bool = False, infix: str = "") -> str:
    """The name of doubled-grid point (x, y): ``b62(x) infix b62(y)``, or decimal when ``wide``.

    >>> point_name(3, 14), point_name(40, 70, wide=True), point_name(40, 70, True, "NW")
    ('3e', '40.70', '40NW70')
    """
    if wide:
        return f"{x}{infix or '.'}{y}"
    return b62(x) + infix + b62(y)


@dataclass(frozen=True)
class GridPuzzle(Puzzle):
    """A rectangular board given by its rows of cells: the part the loop families share.

    A subclass says how far its doubled grid reaches (``max_coord``); whether the board's
    names are wide follows from that, for every name of the board.
    """

    rows: tuple[str, ...]

    @property
    def m(self) -> int:
        """Number of rows of cells."""
        return len(self.rows)

    @property
    def n(self) -> int:
        """Number of columns of cells."""
        return len(self.rows[0])

    @property
    def max_coord(self) -> int:
        """The largest doubled coordinate that appears in an item name of this board."""
        raise NotImplementedError

    @cached_property
    def wide(self) -> bool:
        """Whether names are decimal: a coordinate of this board exceeds 61."""
        return needs_wide_names(self.max_coord)

    @cached_property
    def _names(self) -> dict[tuple[int, int, str], str]:
        return {}

    def name(self, x: int, y: int, infix: str = "") -> str:
        """The item name of doubled-grid point (x, y), with ``infix`` for a subtile.

        Names are kept once made: an encoding names each edge in several options (a 36 x 20
        Masyu asks 72,000 times for 4,400 names)."""
        key = (x, y, infix)
        name = self._names.get(key)
        if name is None:
            name = self._names[key] = point_name(x, y, self.wide, infix)
        return name


def tatham_rows(
    desc: str,
    width: int,
    height: int,
    cells: Mapping[str, str],
    game: str,
    unit: str = "cell",
    symbol: str = "cell",
) -> str:
    """The puzzle text of a Simon Tatham game description of one character per ``unit``.

    Pearl and Loopy list their cells (Loopy: faces) row by row: a character of ``cells``
    stands for one cell and becomes its value there (any other is no ``symbol``); a letter
    ``a``-``z`` is a run of 1-26 empty ones.

    >>> print(tatham_rows("1b2", 2, 2, {"1": "1", "2": "2"}, "Loopy", "face"), end="")
    1.
    .2
    """
    out: list[str] = []
    for k, ch in enumerate(desc, 1):
        if ch in cells:
            out.append(cells[ch])
        elif "a" <= ch <= "z":
            out.extend("." * (ord(ch) - ord("a") + 1))
        else:
            raise InputError(f"character {k} of the {game} description: {ch!r} is no {symbol}")
    if len(out) != width * height:
        raise InputError(
            f"the {game} description has {len(out)} {unit}s, not {width}x{height} = "
            f"{width * height}"
        )
    return "".join("".join(out[r * width : (r + 1) * width]) + "\n" for r in range(height))
