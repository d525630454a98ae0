"""Game ids of Simon Tatham's Pearl, Loopy and Solo (``10x10:BbWm...``), read directly.

The converters live in the families (``from_tatham_id``); this module only recognises an id and
hands it over, so that ``dlxsat solve masyu '10x10:...'`` works like ``from-tatham`` + ``solve``.
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import InputError
from ..families import TATHAM_GAMES, get_family, offered

NAME = "tatham"
FAMILY_NAMES = tuple(TATHAM_GAMES)
PER_LINE = True

#: ``WxH`` or ``N`` parameters (with letters for flags), a colon, then a description without
#: spaces: Knuth's formats never have a colon on a line of their own.
_GAME_ID = re.compile(r"\s*\d+(x\d+)?[a-z0-9]*:[A-Za-z0-9_]+\s*")


def looks_like(family: str, text: str) -> bool:
    """One line holding a game id (parameters, colon, description).

    >>> looks_like("masyu", "3x2:BbaWa\\n"), looks_like("masyu", "1..\\n.0.\\n")
    (True, False)
    """
    return family in FAMILY_NAMES and _GAME_ID.fullmatch(text) is not None


def read(family: str, text: str) -> Any:
    return get_family(family).read(knuth_text(family, text.strip()))


def knuth_text(family: str, game_id: str) -> str:
    """The puzzle of a game id as text in Knuth's input format (``dlxsat from-tatham``), read
    back by the family's reader first: a puzzle it would refuse is never handed out.

    >>> print(knuth_text("masyu", "3x2:BbaWa"), end="")
    1..
    .0.
    """
    fam = get_family(family)
    from_id = offered(fam, "from_tatham_id")
    if from_id is None:
        raise InputError(f"{family} has no Tatham game ids")
    text: str = from_id(game_id)
    fam.read(text)
    return text
