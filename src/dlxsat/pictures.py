"""Pictures of puzzles and their answers, as SVG or PNG files, drawn with matplotlib.

Each family says how its board is drawn (its spec's :class:`~dlxsat.families.spec.Picture`,
on the shared pieces of :mod:`dlxsat.drawing`); this module makes the figure, sized to the
board, and writes it. matplotlib is an optional dependency (``pip install 'dlxsat[plot]'``)
and is imported only when a picture is asked for. In an SVG file the loop is the group with id
``loop`` and every digit or clue is a ``<text>`` element, so the files can be checked and
restyled. Files are written whole or not at all (a temporary file, then a rename).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from .errors import InputError
from .extras import installed, need

if TYPE_CHECKING:
    from .families.spec import FamilySpec

#: Pixels per cell (at most: large boards get smaller cells, see :func:`cell_pixels`).
CELL_PX = 40
#: The largest side of a picture, in pixels.
MAX_PX = 4000
DPI = 100
KINDS = ("svg", "png")


def _spec(family: str | FamilySpec) -> FamilySpec:
    from .families import get_spec

    return get_spec(family) if isinstance(family, str) else family


def _picture(family: str | FamilySpec) -> Any:
    spec = _spec(family)
    if spec.picture is None:
        raise InputError(f"{spec.name} puzzles have no picture")
    return spec.picture


def board_cells(spec: str | FamilySpec, puzzle: Any) -> tuple[int, int]:
    """(rows, columns) of cells of the board."""
    size: tuple[int, int] = _picture(spec).size(puzzle)
    return size


def cell_pixels(spec: str | FamilySpec, puzzle: Any) -> int:
    """Pixels per cell: :data:`CELL_PX`, less when the board would exceed :data:`MAX_PX`."""
    rows, cols = board_cells(spec, puzzle)
    return max(4, min(CELL_PX, MAX_PX // (max(rows, cols) + 1)))


def picture_size(spec: str | FamilySpec, puzzle: Any) -> tuple[int, int]:
    """(width, height) in pixels of the PNG picture: the board and half a cell around it."""
    rows, cols = board_cells(spec, puzzle)
    px = cell_pixels(spec, puzzle)
    return (cols + 1) * px, (rows + 1) * px


def save_picture(
    spec: str | FamilySpec, puzzle: Any, answer: dict[str, Any] | None, path: str, kind: str
) -> None:
    """Draw the puzzle (and ``answer``, when given) into ``path`` as ``kind`` (svg or png)."""
    if kind not in KINDS:
        raise InputError(f"unknown picture type {kind!r} (choose from {', '.join(KINDS)})")
    need("matplotlib", f"--{kind}")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise InputError(f"{path}: no such directory {folder}")
    _picture(spec)
    with _style():
        _save(draw_picture(spec, puzzle, answer), path, kind)


def _style() -> Any:
    """Text as <text> elements, a fixed id salt (same answer, same file), every loop corner kept."""
    import matplotlib

    style: dict[str, Any] = {
        "svg.fonttype": "none",
        "svg.hashsalt": "dlxsat",
        "path.simplify": False,
    }
    return matplotlib.rc_context(style)  # type: ignore[arg-type]


def draw_picture(spec: str | FamilySpec, puzzle: Any, answer: dict[str, Any] | None = None) -> Any:
    """The matplotlib Figure of the puzzle (and ``answer``): what :func:`save_picture` writes."""
    from matplotlib.figure import Figure

    from .drawing import Canvas

    rows, cols = board_cells(spec, puzzle)
    px = cell_pixels(spec, puzzle)
    width, height = picture_size(spec, puzzle)
    fig = Figure(figsize=(width / DPI, height / DPI), dpi=DPI)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(-0.5, cols + 0.5)
    ax.set_ylim(rows + 0.5, -0.5)
    ax.axis("off")
    font = px * 0.45 * 72 / DPI  # points: about half a cell high
    _picture(spec).draw(Canvas(ax, px, font), puzzle, answer)
    return fig


def picture_svg(
    spec: str | FamilySpec, puzzle: Any, answer: dict[str, Any] | None = None
) -> str | None:
    """The picture as SVG text (for notebooks: ``_repr_svg_``), or None without matplotlib or
    for a family that has no picture.

    The XML declaration and doctype are left out so the text can also sit inside HTML.
    """
    if installed("matplotlib") is None or _spec(spec).picture is None:
        return None
    import io

    out = io.StringIO()
    with _style():
        draw_picture(spec, puzzle, answer).savefig(
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
