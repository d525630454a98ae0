"""Fitting ASCII drawings into a terminal narrower than the board."""

from __future__ import annotations


def fit_to_width(drawing: str, width: int, pitch: int = 4) -> str:
    """The drawing cut into vertical strips no wider than ``width``, one under another.

    Each strip starts at a multiple of ``pitch`` characters (the width of one cell in the loop
    drawings: ``+---``, ``B---``), so that cells are not cut in half, and is headed by the
    columns of the drawing it shows. A drawing that fits is returned unchanged.

    >>> print(fit_to_width("+---+---+---+\\n| 1   2   3 |", 9))
    [1-8/13]
    +---+---
    | 1   2
    [9-13/13]
    +---+
      3 |
    """
    lines = drawing.split("\n")
    total = max((len(line) for line in lines), default=0)
    if total <= width:
        return drawing
    step = max(pitch, (width // pitch) * pitch)
    out = []
    for start in range(0, total, step):
        end = min(start + step, total)
        out.append(f"[{start + 1}-{end}/{total}]"[:width])
        out.extend(line[start:end].rstrip() for line in lines)
    return "\n".join(out)
