"""What every family module stands on: the base class of puzzles and the reading of lines.

Families import nothing above them (not the pipeline, the formats, the display or the command
line): they are the bottom of the pipeline, under everything that asks their specs.
"""

from __future__ import annotations

from ..errors import InputError


class Puzzle:
    """The base class of every family's puzzle class.

    It has no members of its own: :mod:`dlxsat.display` gives it its rich forms in Jupyter (the
    picture of the board) when IPython is there, so that a family knows nothing of notebooks.
    """

    __slots__ = ()


def puzzle_lines(text: str) -> list[str]:
    """Split puzzle text into lines, dropping trailing blank lines (which are accepted).

    A lone carriage return or a tab is rejected with its line and column, since no puzzle
    format uses them and they are invisible in an error message otherwise.

    >>> puzzle_lines("ab\\ncd\\n\\n")
    ['ab', 'cd']
    """
    lines = text.split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    for r, line in enumerate(lines, 1):
        for bad, label in (("\t", "a tab"), ("\r", "a carriage return")):
            c = line.find(bad)
            if c >= 0:
                raise InputError(f"line {r}, column {c + 1}: {label} is not allowed in a puzzle")
    return lines
