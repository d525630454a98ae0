"""The puzzle families: one module each, one registry of their names.

Each family module states everything dlxsat knows about its family in one
:class:`~dlxsat.families.spec.FamilySpec`, ``SPEC`` (read, encode, decode, check, render, its
global rules, formats, pictures, capabilities). :data:`FAMILIES` maps each family's name to its
module, which is imported only when the family is asked for, so naming a family costs nothing
at start-up; :data:`ALIASES` maps the other names a family answers to (puz.link's, pzprjs's)
to its name. Adding a family is one module and one line here.

``xcc`` is any exact-cover problem in Knuth's DLX format, its "puzzle" the problem itself
(see ``xcc.py``).

>>> get_spec("mashu").name, get_spec("sudoku").rules, "loop" in get_spec("masyu").rules
('masyu', (), True)
>>> get_spec("nurikabe2")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
dlxsat.errors.InputError: unknown puzzle family 'nurikabe2' (choose from masyu, slitherlink, ...)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from ..errors import InputError

if TYPE_CHECKING:
    from .spec import FamilySpec

#: Family name → the module whose ``SPEC`` states it. The order is the order of ``--help``.
FAMILIES: dict[str, str] = {
    "masyu": "dlxsat.families.masyu",
    "slitherlink": "dlxsat.families.slitherlink",
    "superslitherlink": "dlxsat.families.superslitherlink",
    "sudoku": "dlxsat.families.sudoku",
    "country-road": "dlxsat.families.country_road",
    "detour": "dlxsat.families.detour",
    "double-back": "dlxsat.families.double_back",
    "simple-loop": "dlxsat.families.simple_loop",
    "yajilin": "dlxsat.families.yajilin",
    "regional-yajilin": "dlxsat.families.regional_yajilin",
    "koburin": "dlxsat.families.koburin",
    "castle-wall": "dlxsat.families.castle_wall",
    "geradeweg": "dlxsat.families.geradeweg",
    "balance-loop": "dlxsat.families.balance_loop",
    "dotchi-loop": "dlxsat.families.dotchi_loop",
    "moon-or-sun": "dlxsat.families.moon_or_sun",
    "pipelink": "dlxsat.families.pipelink",
    "numberlink": "dlxsat.families.numberlink",
    "norinori": "dlxsat.families.norinori",
    "star-battle": "dlxsat.families.star_battle",
    "akari": "dlxsat.families.akari",
    "shikaku": "dlxsat.families.shikaku",
    "tatamibari": "dlxsat.families.tatamibari",
    "hitori": "dlxsat.families.hitori",
    "heyawake": "dlxsat.families.heyawake",
    "kuromasu": "dlxsat.families.kuromasu",
    "kurotto": "dlxsat.families.kurotto",
    "aqre": "dlxsat.families.aqre",
    "lits": "dlxsat.families.lits",
    "creek": "dlxsat.families.creek",
    "cave": "dlxsat.families.cave",
    "galaxies": "dlxsat.families.galaxies",
    "fillomino": "dlxsat.families.fillomino",
    "nurikabe": "dlxsat.families.nurikabe",
    "xcc": "dlxsat.families.xcc",
}

#: Every other name of a family → its name: the specs' ``aliases``, kept here too so that an
#: alias is known without importing every family (``tests/test_families.py`` checks the two
#: agree).
ALIASES: dict[str, str] = {
    "mashu": "masyu",
    "pearl": "masyu",
    "slither": "slitherlink",
    "loopy": "slitherlink",
    "country": "country-road",
    "doubleback": "double-back",
    "simpleloop": "simple-loop",
    "yajirin": "yajilin",
    "yajilin-regions": "regional-yajilin",
    "yajirin-regions": "regional-yajilin",
    "castle": "castle-wall",
    "balance": "balance-loop",
    "dotchi": "dotchi-loop",
    "moonsun": "moon-or-sun",
    "pipelinkr": "pipelink",
    "numlin": "numberlink",
    "starbattle": "star-battle",
    "lightup": "akari",
    "bijutsukan": "akari",
    "heyawacky": "heyawake",
    "kurodoko": "kuromasu",
    "bag": "cave",
    "tentaisho": "galaxies",
    "fillomino01": "fillomino",
}


def canonical(name: str) -> str:
    """The family's name for ``name`` (its own, or one of its aliases); an
    :class:`InputError` for a name no family answers to.

    >>> canonical("mashu"), canonical("sudoku")
    ('masyu', 'sudoku')
    """
    if name in FAMILIES:
        return name
    if name in ALIASES:
        return ALIASES[name]
    raise InputError(f"unknown puzzle family {name!r} (choose from {', '.join(FAMILIES)})")


def get_spec(name: str) -> FamilySpec:
    """The :class:`~dlxsat.families.spec.FamilySpec` of family ``name`` (or of an alias)."""
    spec: FamilySpec = importlib.import_module(FAMILIES[canonical(name)]).SPEC
    return spec


def names() -> list[str]:
    """The families' names, in registry order."""
    return list(FAMILIES)


def specs() -> list[FamilySpec]:
    """Every family's spec (each module imported)."""
    return [get_spec(name) for name in FAMILIES]


def family_of(puzzle: object) -> FamilySpec:
    """The spec of the family a puzzle object belongs to: the registered family whose module
    defines its class (or a base class of it).

    >>> from dlxsat.families import masyu
    >>> family_of(masyu.read("0.\\n.1\\n")).name
    'masyu'
    """
    modules = {module: name for name, module in FAMILIES.items()}
    for cls in type(puzzle).__mro__:
        name = modules.get(cls.__module__)
        if name is not None:
            return get_spec(name)
    raise InputError(f"a {type(puzzle).__name__} is not a puzzle of a dlxsat family")
