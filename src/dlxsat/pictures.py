"""Pictures of puzzles and their answers, as SVG or PNG files, drawn with matplotlib.

Masyu: the cells, white and black circles, the loop through the cell centres. Slitherlink and
SuperSlitherlink: the grid points, the clues, the loop along the grid lines; SuperSlitherlink's
letter regions are shaded, one colour per letter, with the letter's clue in its first cell.
Sudoku: the grid with thick box borders (the first box-definition group; cells of further
groups, such as X-sudoku diagonals, lightly shaded), holes filled, clues in black and the
digits of the answer in blue.

matplotlib is an optional dependency (``pip install 'dlxsat[plot]'``) and is imported only here,
only when a picture is asked for. In an SVG file the loop is the one path of the group with id
``loop`` and every digit or clue is a ``<text>`` element, so the files can be checked and
restyled. Files are written whole or not at all (a temporary file, then a rename).
"""

from __future__ import annotations

import os
from typing import Any

from .answer import edge_ends
from .errors import InputError
from .extras import installed, need

#: Pixels per cell (at most: large boards get smaller cells, see :func:`cell_pixels`).
CELL_PX = 40
#: The largest side of a picture, in pixels.
MAX_PX = 4000
DPI = 100
KINDS = ("svg", "png")
#: Shades of SuperSlitherlink letter regions, cycled through in the order of the letters.
REGION_COLOURS = ("#f6d8ae", "#c9e4f6", "#d6f0c2", "#f2c9e0", "#e3dcf7", "#fbf3b0", "#cde8e4")


def board_cells(family: str, puzzle: Any) -> tuple[int, int]:
    """(rows, columns) of cells of the board."""
    if family == "sudoku":
        return puzzle.n, puzzle.n
    return puzzle.m, puzzle.n


def cell_pixels(family: str, puzzle: Any) -> int:
    """Pixels per cell: :data:`CELL_PX`, less when the board would exceed :data:`MAX_PX`."""
    rows, cols = board_cells(family, puzzle)
    return max(4, min(CELL_PX, MAX_PX // (max(rows, cols) + 1)))


def picture_size(family: str, puzzle: Any) -> tuple[int, int]:
    """(width, height) in pixels of the PNG picture: the board and half a cell around it."""
    rows, cols = board_cells(family, puzzle)
    px = cell_pixels(family, puzzle)
    return (cols + 1) * px, (rows + 1) * px


def loop_points(answer: dict[str, Any], offset: float) -> list[tuple[float, float]]:
    """The loop of an answer as a closed list of (x, y) plot points, in loop order.

    A tile (2i, 2j) of the doubled grid is drawn at (j + offset, i + offset): offset 0.5 puts
    Masyu's tiles at the cell centres, 0 puts the loop families' grid points on the corners.

    >>> loop_points({"edges": [[0, 1], [1, 0], [1, 2], [2, 1]]}, 0.0)
    [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0), (0.0, 0.0)]
    """
    adj: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for x, y in answer.get("edges", []):
        a, b = edge_ends(x, y)
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)
    if not adj:
        return []
    start = min(adj)
    path, prev, here = [start], None, start
    while True:
        nxt = [t for t in adj[here] if t != prev]
        if not nxt:
            break
        prev, here = here, nxt[0]
        if here == start:
            break
        path.append(here)
    path.append(start)
    return [(y / 2 + offset, x / 2 + offset) for x, y in path]


def save_picture(
    family: str, puzzle: Any, answer: dict[str, Any] | None, path: str, kind: str
) -> None:
    """Draw the puzzle (and ``answer``, when given) into ``path`` as ``kind`` (svg or png)."""
    if kind not in KINDS:
        raise InputError(f"unknown picture type {kind!r} (choose from {', '.join(KINDS)})")
    need("matplotlib", f"--{kind}")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise InputError(f"{path}: no such directory {folder}")
    with _style():
        _save(draw_picture(family, puzzle, answer), path, kind)


def _style() -> Any:
    """Text as <text> elements, a fixed id salt (same answer, same file), every loop corner kept."""
    import matplotlib

    style: dict[str, Any] = {
        "svg.fonttype": "none",
        "svg.hashsalt": "dlxsat",
        "path.simplify": False,
    }
    return matplotlib.rc_context(style)  # type: ignore[arg-type]


def draw_picture(family: str, puzzle: Any, answer: dict[str, Any] | None = None) -> Any:
    """The matplotlib Figure of the puzzle (and ``answer``): what :func:`save_picture` writes."""
    from matplotlib.figure import Figure

    rows, cols = board_cells(family, puzzle)
    px = cell_pixels(family, puzzle)
    width, height = picture_size(family, puzzle)
    fig = Figure(figsize=(width / DPI, height / DPI), dpi=DPI)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(-0.5, cols + 0.5)
    ax.set_ylim(rows + 0.5, -0.5)
    ax.axis("off")
    font = px * 0.45 * 72 / DPI  # points: about half a cell high
    if family == "sudoku":
        _draw_sudoku(ax, puzzle, answer, font)
    else:
        _draw_loop_board(ax, family, puzzle, answer, font, px)
    return fig


def picture_svg(family: str, puzzle: Any, answer: dict[str, Any] | None = None) -> str | None:
    """The picture as SVG text (for notebooks: ``_repr_svg_``), or None without matplotlib.

    The XML declaration and doctype are left out so the text can also sit inside HTML.
    """
    if installed("matplotlib") is None:
        return None
    import io

    out = io.StringIO()
    with _style():
        draw_picture(family, puzzle, answer).savefig(
            out, format="svg", dpi=DPI, metadata={"Date": None}
        )
    text = out.getvalue()
    return text[text.index("<svg") :]


def _save(fig: Any, path: str, kind: str) -> None:
    from .outputs import atomic_output

    with atomic_output(path, binary=True) as f:
        # No date in the SVG, so the same answer gives the same file.
        meta = {"Date": None} if kind == "svg" else {}
        fig.savefig(f, format=kind, dpi=DPI, metadata=meta)


def _draw_loop_board(
    ax: Any, family: str, puzzle: Any, answer: dict[str, Any] | None, font: float, px: int
) -> None:
    from matplotlib.patches import Circle, Rectangle

    m, n = puzzle.m, puzzle.n
    line_w = max(1.0, px / 10)
    if family == "masyu":
        _lines(ax, _grid_segments(m, n), "#bbbbbb", 0.6, 0)
        for i, row in enumerate(puzzle.rows):
            for j, ch in enumerate(row):
                if ch != ".":
                    black = ch == "1"
                    ax.add_patch(
                        Circle(
                            (j + 0.5, i + 0.5),
                            0.32,
                            facecolor="black" if black else "white",
                            edgecolor="black",
                            linewidth=max(0.8, px / 25),
                            zorder=1,
                        )
                    )
        offset = 0.5
    else:
        letters = sorted({c for row in puzzle.rows for c in row if c.isalpha()})
        colour = {c: REGION_COLOURS[k % len(REGION_COLOURS)] for k, c in enumerate(letters)}
        labelled: set[str] = set()
        clues = getattr(puzzle, "clues", {})
        for i, row in enumerate(puzzle.rows):
            for j, ch in enumerate(row):
                if ch in colour:
                    ax.add_patch(
                        Rectangle((j, i), 1, 1, facecolor=colour[ch], linewidth=0, zorder=0)
                    )
                    text = ch if ch in labelled else f"{ch}={clues.get(ch, '?')}"
                    labelled.add(ch)
                    ax.text(
                        j + 0.5,
                        i + 0.5,
                        text,
                        ha="center",
                        va="center",
                        fontsize=font * (0.7 if len(text) > 1 else 1),
                        zorder=3,
                    )
                elif ch != ".":
                    ax.text(j + 0.5, i + 0.5, ch, ha="center", va="center", fontsize=font, zorder=3)
        xs = [j for i in range(m + 1) for j in range(n + 1)]
        ys = [i for i in range(m + 1) for j in range(n + 1)]
        ax.scatter(xs, ys, s=max(1.0, px / 8) ** 2 / 4, color="black", zorder=1, linewidths=0)
        offset = 0.0
    if answer:
        points = loop_points(answer, offset)
        if points:
            (line,) = ax.plot(
                [p[0] for p in points],
                [p[1] for p in points],
                color="#1f5fbf" if family == "masyu" else "#c03020",
                linewidth=line_w,
                solid_joinstyle="round",
                solid_capstyle="round",
                zorder=2,
            )
            line.set_gid("loop")


def _draw_sudoku(ax: Any, puzzle: Any, answer: dict[str, Any] | None, font: float) -> None:
    from matplotlib.patches import Rectangle

    n = puzzle.n
    region = puzzle.groups[0] if puzzle.groups else None
    extra = {
        (i, j)
        for g in puzzle.groups[1:]
        for i, r in enumerate(g)
        for j, c in enumerate(r)
        if c != "."
    }
    for i, j in extra:
        ax.add_patch(Rectangle((j, i), 1, 1, facecolor="#e8eef8", linewidth=0, zorder=0))
    for i, j in puzzle.holes:
        ax.add_patch(Rectangle((j, i), 1, 1, facecolor="#555555", linewidth=0, zorder=0))
    _lines(ax, _grid_segments(n, n), "#999999", 0.6, 1)
    walls = [[(0, 0), (n, 0)], [(n, 0), (n, n)], [(n, n), (0, n)], [(0, n), (0, 0)]]
    if region is not None:
        for i in range(n):
            for j in range(n):
                if j + 1 < n and region[i][j] != region[i][j + 1]:
                    walls.append([(j + 1, i), (j + 1, i + 1)])
                if i + 1 < n and region[i][j] != region[i + 1][j]:
                    walls.append([(j, i + 1), (j + 1, i + 1)])
    _lines(ax, walls, "black", 2.2, 2)
    grid = (answer or {}).get("grid") or puzzle.givens
    for i in range(n):
        for j in range(n):
            ch = grid[i][j] if i < len(grid) and j < len(grid[i]) else "."
            if (i, j) in puzzle.holes or ch in ".#":
                continue
            given = (i, j) in puzzle.clues
            ax.text(
                j + 0.5,
                i + 0.5,
                ch,
                ha="center",
                va="center",
                fontsize=font,
                color="black" if given else "#1f5fbf",
                fontweight="bold" if given else "normal",
                zorder=3,
            )


def _grid_segments(rows: int, cols: int) -> list[list[tuple[int, int]]]:
    """The lines of a rows × cols grid of unit cells, as segments."""
    return [[(0, i), (cols, i)] for i in range(rows + 1)] + [
        [(j, 0), (j, rows)] for j in range(cols + 1)
    ]


def _lines(
    ax: Any, segments: list[list[tuple[int, int]]], colour: str, width: float, z: int
) -> None:
    """Many straight segments as one artist (one SVG path: small files, fast drawing)."""
    from matplotlib.collections import LineCollection

    ax.add_collection(LineCollection(segments, colors=colour, linewidths=width, zorder=z))
