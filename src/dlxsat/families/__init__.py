"""The puzzle families. Each is one module with the same small interface (:class:`Family`):

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

A family may offer more (:data:`OPTIONAL`, asked through :func:`offered`): Masyu, Slitherlink
and Sudoku have ``from_tatham_id(game_id) -> str``, the puzzle text of a game id of Simon
Tatham's Pearl, Loopy or Solo, whose generators make puzzles of any size.

``xcc`` is any exact-cover problem in Knuth's DLX format, its "puzzle" the problem itself
(see ``xcc.py``: the loop rule is the puzzle's choice there, ``WHOLE_FILE`` keeps a file one
problem, and ``ALLOW_EMPTY_LOOP`` gives DLX2-LOOP's counts).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, Protocol, cast

from ..errors import InputError

FAMILIES = ("masyu", "slitherlink", "superslitherlink", "sudoku", "xcc")
#: The families with a converter from Simon Tatham's game ids, and his name for each.
TATHAM_GAMES = {"masyu": "Pearl", "slitherlink": "Loopy", "sudoku": "Solo"}


class Family(Protocol):
    """What every family module offers (see the module doc); puzzles and answers are the
    family's own types."""

    __name__: str
    LOOP: bool

    def read(self, text: str) -> Any: ...

    def encode(self, puzzle: Any) -> str: ...

    def decode(self, puzzle: Any, problem: Any, chosen: Any) -> dict[str, Any]: ...

    def check(self, puzzle: Any, answer: dict[str, Any]) -> list[str]: ...

    def render(self, puzzle: Any, answer: dict[str, Any] | None) -> str: ...

    def write(self, puzzle: Any) -> str: ...


#: What a family may offer besides :class:`Family`'s members, and what each is for.
OPTIONAL = {
    "from_problem": "from_problem(problem) -> puzzle: a Problem built in Python, as a puzzle (xcc)",
    "encoding_bytes": (
        "encoding_bytes(puzzle) -> int: the memory to encode a puzzle already read, when it is "
        "not a board whose cells tell (xcc: its problem is read already)"
    ),
    "build": "build(puzzle) -> Problem: the problem directly, without writing DLX text",
    "problem": "problem(puzzle, dlx_text) -> Problem: when Knuth's data needs a family rule",
    "many_reader": "many_reader() -> reader: reads many puzzles faster than one by one",
    "batch_template": (
        "batch_template(puzzle) -> template or None: the problem puzzles of one shape share, "
        "their given options, answers and a fast rule check (for a solver's solve_batch)"
    ),
    "from_tatham_id": "from_tatham_id(game_id) -> str: a puzzle of Simon Tatham's games",
}


def offered(family: Family, name: str) -> Callable[..., Any] | None:
    """The optional function ``name`` (one of :data:`OPTIONAL`) of ``family``, or None.

    >>> offered(get_family("sudoku"), "batch_template") is not None
    True
    >>> offered(get_family("masyu"), "batch_template") is None
    True
    """
    if name not in OPTIONAL:
        raise KeyError(f"{name!r} is not something a family may offer")
    return cast("Callable[..., Any] | None", getattr(family, name, None))


def get_family(name: str) -> Family:
    """The module of family ``name``; an :class:`InputError` for an unknown name."""
    if name not in FAMILIES:
        raise InputError(f"unknown puzzle family {name!r} (choose from {', '.join(FAMILIES)})")
    return cast(Family, importlib.import_module(f"dlxsat.families.{name}"))
