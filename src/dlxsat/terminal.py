"""Output for a terminal: ASCII drawings fitted to its width, lines with a progress bar."""

from __future__ import annotations

import sys


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


def fit_to_terminal(drawing: str) -> str:
    """An ASCII drawing made to fit the terminal when stdout is one (files get it whole)."""
    if not sys.stdout.isatty():
        return drawing
    import shutil

    return fit_to_width(drawing, shutil.get_terminal_size().columns)


class LinesWithProgress:
    """Lines printed on stdout as results come, with a progress bar on stderr below them when
    ``shown`` and stderr is a terminal (and the optional tqdm, ``dlxsat[progress]``, is
    installed); without a bar, plain lines.

    >>> out = LinesWithProgress(total=2, unit="puzzle", shown=False)
    >>> out.print("1 unique -")
    1 unique -
    >>> out.close()
    """

    def __init__(self, total: int, unit: str, shown: bool) -> None:
        self.bar = None
        if shown and sys.stderr.isatty():
            from .extras import wanted

            tqdm = wanted("tqdm", "progress bars")  # the extra dlxsat[progress]: no bar without it
            if tqdm is not None:
                self.bar = tqdm.tqdm(total=total, file=sys.stderr, unit=unit)

    def print(self, line: str) -> None:
        """One line on stdout (above the bar, which then counts one more result)."""
        if self.bar is None:
            sys.stdout.write(line + "\n")
        else:
            self.bar.write(line, file=sys.stdout)
            self.bar.update(1)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        sys.stdout.flush()
