"""Game ids of Simon Tatham's Pearl, Loopy and Solo (``10x10:BbWm...``), read directly.

The converters live in the families (their spec's ``tatham``); this module only recognises an id
and hands it over, so that ``dlxsat solve masyu '10x10:...'`` works like ``from-tatham`` and
``solve``.
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import InputError
from ..families import get_spec, names

NAME = "tatham"
PER_LINE = True

#: ``WxH`` or ``N`` parameters (with letters for flags), a colon, then a description without
#: spaces: Knuth's formats never have a colon on a line of their own.
_GAME_ID = re.compile(r"\s*\d+(x\d+)?[a-z0-9]*:[A-Za-z0-9_]+\s*")


def looks_like(family: str, text: str) -> bool:
    """One line holding a game id (parameters, colon, description).

    >>> looks_like("masyu", "3x2:BbaWa\\n"), looks_like("masyu", "1..\\n.0.\\n")
    (True, False)
    """
    return get_spec(family).tatham is not None and _GAME_ID.fullmatch(text) is not None


def families() -> dict[str, str]:
    """The families with Tatham game ids, and his name of each game.

    >>> families()["masyu"]
    'Pearl'
    """
    return {
        name: spec.tatham.game for name in names() if (spec := get_spec(name)).tatham is not None
    }


def read(family: str, text: str) -> Any:
    return get_spec(family).read(knuth_text(family, text.strip()))


def knuth_text(family: str, game_id: str) -> str:
    """The puzzle of a game id as text in Knuth's input format (``dlxsat from-tatham``), read
    back by the family's reader first: a puzzle it would refuse is never handed out.

    >>> print(knuth_text("masyu", "3x2:BbaWa"), end="")
    1..
    .0.
    """
    spec = get_spec(family)
    if spec.tatham is None:
        raise InputError(f"{spec.name} has no Tatham game ids")
    text = spec.tatham.knuth_text(game_id)
    spec.read(text)
    return text
