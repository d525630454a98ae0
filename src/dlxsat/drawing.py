"""Drawing a board: the shared pieces every family's picture is made of, on matplotlib.

A family draws its board with a :class:`Canvas` (its spec's
:class:`~dlxsat.families.spec.Picture`); :mod:`dlxsat.pictures` makes the figure, the canvas
and the files. Coordinates are cells: cell ``(i, j)`` (row, column) is the unit square whose
top-left corner is the grid point ``(i, j)``, so its centre is at ``(i + 0.5, j + 0.5)``.
matplotlib is imported only when something is drawn. In an SVG file the loop or the paths are
the group with id ``loop`` and every number or letter is a ``<text>`` element, so the files can
be checked and restyled.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .xcc.loop import edge_ends

#: The colours of a picture: the solver's answer is drawn in blue (loops red on grid lines).
ANSWER = "#1f5fbf"
LINE_ON_GRID = "#c03020"
GIVEN = "black"
SHADED = "#333333"
#: Shades of regions, cycled through (SuperSlitherlink's letters, LITS's shapes, ...).
REGION_COLOURS = ("#f6d8ae", "#c9e4f6", "#d6f0c2", "#f2c9e0", "#e3dcf7", "#fbf3b0", "#cde8e4")


class Canvas:
    """One board's drawing surface: a matplotlib ``Axes`` whose units are cells (see the module
    doc), ``px`` pixels a cell, ``font`` the size in points of a number filling half a cell."""

    def __init__(self, ax: Any, px: int, font: float) -> None:
        self.ax = ax
        self.px = px
        self.font = font

    def grid(self, rows: int, cols: int, colour: str = "#bbbbbb", width: float = 0.6) -> None:
        """The lines of a ``rows`` × ``cols`` grid of cells."""
        segments = [[(0, i), (cols, i)] for i in range(rows + 1)]
        segments += [[(j, 0), (j, rows)] for j in range(cols + 1)]
        self.segments(segments, colour, width, 1)

    def segments(self, segments: Sequence[Any], colour: str, width: float, z: int = 2) -> None:
        """Many straight segments, each ``[(x, y), (x, y)]`` in plot order (column, row), as
        one artist (one SVG path: small files, fast drawing)."""
        from matplotlib.collections import LineCollection

        self.ax.add_collection(LineCollection(segments, colors=colour, linewidths=width, zorder=z))

    def walls(
        self, region: Sequence[Sequence[Any]], width: float = 2.2, colour: str = "black"
    ) -> None:
        """Thick lines between cells of different regions (``region[i][j]`` any label) and
        around the board (``colour``: an answer's regions are drawn in :data:`ANSWER`)."""
        rows, cols = len(region), len(region[0]) if region else 0
        walls = [[(0, 0), (cols, 0)], [(cols, 0), (cols, rows)]]
        walls += [[(cols, rows), (0, rows)], [(0, rows), (0, 0)]]
        for i in range(rows):
            for j in range(cols):
                if j + 1 < cols and region[i][j] != region[i][j + 1]:
                    walls.append([(j + 1, i), (j + 1, i + 1)])
                if i + 1 < rows and region[i][j] != region[i + 1][j]:
                    walls.append([(j, i + 1), (j + 1, i + 1)])
        self.segments(walls, colour, width, 2)

    def shade(self, i: int, j: int, colour: str = SHADED, z: int = 0) -> None:
        """Fill cell ``(i, j)``."""
        from matplotlib.patches import Rectangle

        self.ax.add_patch(Rectangle((j, i), 1, 1, facecolor=colour, linewidth=0, zorder=z))

    def circle(self, i: float, j: float, black: bool, radius: float = 0.32, z: float = 1) -> None:
        """A white or black circle in cell ``(i, j)`` (Masyu's pearls, Moon or Sun's ...);
        ``z`` above 2 draws it over the line (Geradeweg's numbers). Fractional cells put it
        elsewhere: ``(i - 0.5, j - 0.5)`` on the grid point above left of the cell (Creek's
        numbers, Galaxies' stars)."""
        from matplotlib.patches import Circle

        self.ax.add_patch(
            Circle(
                (j + 0.5, i + 0.5),
                radius,
                facecolor="black" if black else "white",
                edgecolor="black",
                linewidth=max(0.8, self.px / 25),
                zorder=z,
            )
        )

    def text(
        self,
        i: float,
        j: float,
        text: str,
        colour: str = GIVEN,
        bold: bool = False,
        scale: float = 1.0,
    ) -> None:
        """``text`` centred at cell ``(i, j)``'s centre (fractional cells for other places)."""
        self.ax.text(
            j + 0.5,
            i + 0.5,
            text,
            ha="center",
            va="center",
            fontsize=self.font * scale,
            color=colour,
            fontweight="bold" if bold else "normal",
            zorder=3,
        )

    def dots(self, rows: int, cols: int) -> None:
        """A dot at every grid point of a ``rows`` × ``cols`` board (Slitherlink's)."""
        xs = [j for i in range(rows + 1) for j in range(cols + 1)]
        ys = [i for i in range(rows + 1) for j in range(cols + 1)]
        size = max(1.0, self.px / 8) ** 2 / 4
        self.ax.scatter(xs, ys, s=size, color="black", zorder=1, linewidths=0)

    def loop(self, edges: Iterable[Sequence[int]], offset: float, colour: str = ANSWER) -> None:
        """The edges of a loop or of paths (midpoints in doubled coordinates), as one line per
        piece in the group with id ``loop``. ``offset`` 0.5 puts the tiles at the cell centres
        (Masyu), 0 at the grid points (Slitherlink)."""
        width = max(1.0, self.px / 10)
        lines = []
        for path in paths(edges):
            points = [(y / 2 + offset, x / 2 + offset) for x, y in path]
            (line,) = self.ax.plot(
                [p[0] for p in points],
                [p[1] for p in points],
                color=colour,
                linewidth=width,
                solid_joinstyle="round",
                solid_capstyle="round",
                zorder=2,
            )
            lines.append(line)
        if lines:
            lines[0].set_gid("loop")
            for k, line in enumerate(lines[1:], 1):
                line.set_gid(f"loop-{k}")


def paths(edges: Iterable[Sequence[int]]) -> list[list[tuple[int, int]]]:
    """The pieces of a set of edges (midpoints in doubled coordinates) as lists of tiles, each
    walked from one end (or, for a cycle, from its least tile, back to it).

    >>> paths([(0, 1), (1, 0), (1, 2), (2, 1)])
    [[(0, 0), (0, 2), (2, 2), (2, 0), (0, 0)]]
    >>> paths([(0, 1), (0, 5)])
    [[(0, 0), (0, 2)], [(0, 4), (0, 6)]]
    """
    adj: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for x, y in edges:
        a, b = edge_ends(x, y)
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)
    seen: set[frozenset[tuple[int, int]]] = set()
    out = []
    ends = sorted(t for t, n in adj.items() if len(n) != 2)
    for start in [*ends, *sorted(adj)]:
        for first in adj[start]:
            if frozenset((start, first)) in seen:
                continue
            path, prev, here = [start], start, first
            seen.add(frozenset((start, first)))
            while True:
                path.append(here)
                nxt = [t for t in adj[here] if t != prev and frozenset((here, t)) not in seen]
                if not nxt or len(adj[here]) != 2:
                    break
                prev, here = here, nxt[0]
                seen.add(frozenset((prev, here)))
            out.append(path)
    return out


def loop_points(answer: dict[str, Any], offset: float) -> list[tuple[float, float]]:
    """The loop of an answer as a closed list of (x, y) plot points, in loop order.

    A tile (2i, 2j) of the doubled grid is drawn at (j + offset, i + offset): offset 0.5 puts
    Masyu's tiles at the cell centres, 0 puts the loop families' grid points on the corners.

    >>> loop_points({"edges": [[0, 1], [1, 0], [1, 2], [2, 1]]}, 0.0)
    [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0), (0.0, 0.0)]
    """
    pieces = paths(answer.get("edges", []))
    if not pieces:
        return []
    return [(y / 2 + offset, x / 2 + offset) for x, y in pieces[0]]
