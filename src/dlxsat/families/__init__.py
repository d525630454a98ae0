"""The puzzle families. Each is one module with the same small interface:

``read(text) -> Puzzle``
    Parse and validate Knuth's input format; raise :class:`~dlxsat.errors.InputError` with a
    one-line message naming line and column for anything his program rejects (and more).
``encode(puzzle) -> str``
    Exactly the bytes Knuth's generator prints on stdout (his DLX/XCC/MCC data).
``decode(puzzle, problem, chosen) -> Answer``
    Turn the chosen option indices of the parsed exact-cover problem into the puzzle's answer
    (``{"edges": [[r, c], ...]}`` for loop families, ``{"grid": [...]}`` for sudoku).
``check(puzzle, answer) -> list[str]``
    Judge an answer by the puzzle's rules directly (not through the encoding); each string is
    one violation, so an empty list means the answer is right.
``render(puzzle, answer) -> str``
    The answer drawn on the board as plain text.
``LOOP``
    True when the single-loop rule applies (the exact-cover data has vertex and edge items).

``xcc`` is any exact-cover problem in Knuth's DLX format, its "puzzle" the problem itself
(see ``xcc.py``: the loop rule is the puzzle's choice there, ``WHOLE_FILE`` keeps a file one
problem, and ``ALLOW_EMPTY_LOOP`` gives DLX2-LOOP's counts).

Masyu, Slitherlink and Sudoku also have ``from_tatham_id(game_id) -> str``: the puzzle text of
a game id of Simon Tatham's Pearl, Loopy or Solo, whose generators make puzzles of any size.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from ..errors import InputError

FAMILIES = ("masyu", "slitherlink", "superslitherlink", "sudoku", "xcc")
#: The families with a converter from Simon Tatham's game ids, and his name for each.
TATHAM_GAMES = {"masyu": "Pearl", "slitherlink": "Loopy", "sudoku": "Solo"}


def get_family(name: str) -> ModuleType:
    """The module of family ``name``; an :class:`InputError` for an unknown name."""
    if name not in FAMILIES:
        raise InputError(f"unknown puzzle family {name!r} (choose from {', '.join(FAMILIES)})")
    return importlib.import_module(f"dlxsat.families.{name}")
