"""Classic exact-cover problems, generated in Knuth's DLX format (``dlxsat instance``).

One module per family; adding a family is adding a module here, nothing else. Each module
declares

``NAME``
    the name users type (``dlxsat instance NAME ARGS...``);
``ARGS``
    a tuple of :class:`Arg`: the integer parameters, in order, with their ranges;
``SUMMARY``
    one line for ``--help``;
``generate(*args) -> str``
    the problem as Knuth's DLX data (comment lines, the item line, one option a line);
``KNOWN``
    solution counts from the literature, ``{args: count}``, each with its source (OEIS and
    the like) in a comment;
``TESTED``
    the arguments of one small case of ``KNOWN`` with many answers, which the tests count
    with every backend and every SAT encoding (the others with dlx).

The registry is found by scanning this package (:func:`families`), so the command, its help
and the tests see a new module at once.

>>> "queens" in families()
True
>>> generate("queens", ["4"]).splitlines()[1]
'r0 r1 r2 r3 c0 c1 c2 c3 | a0 a1 a2 a3 a4 a5 a6 b0 b1 b2 b3 b4 b5 b6'
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from types import ModuleType

from ..errors import InputError


@dataclass(frozen=True)
class Arg:
    """One integer parameter of a family: its name, meaning and allowed range."""

    name: str
    help: str
    low: int = 1
    high: int = 61

    def parse(self, family: str, text: str) -> int:
        """``text`` as a value of this parameter; an :class:`InputError` when it is not one."""
        if not (text.isascii() and text.isdigit()) or not self.low <= int(text) <= self.high:
            raise InputError(
                f"{family}: {self.name} must be a whole number from {self.low} to {self.high}, "
                f"not {text!r}"
            )
        return int(text)


@cache
def families() -> dict[str, ModuleType]:
    """Every instance family, by name: the modules of this package that declare ``NAME``."""
    found: dict[str, ModuleType] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        name = getattr(module, "NAME", None)
        if name is not None:
            found[name] = module
    return found


def get(name: str) -> ModuleType:
    """The module of instance family ``name``; an :class:`InputError` for an unknown name."""
    fams = families()
    if name not in fams:
        raise InputError(f"unknown instance family {name!r} (choose from {', '.join(fams)})")
    return fams[name]


def usage(name: str) -> str:
    """``NAME ARG...`` for help texts."""
    return " ".join([name, *(a.name.upper() for a in get(name).ARGS)])


def parse_args(name: str, texts: Sequence[str]) -> tuple[int, ...]:
    """The parameters of family ``name`` read from the command line's words."""
    module = get(name)
    if len(texts) != len(module.ARGS):
        raise InputError(f"usage: dlxsat instance {usage(name)} (got {len(texts)} arguments)")
    return tuple(a.parse(name, t) for a, t in zip(module.ARGS, texts, strict=True))


def generate(name: str, texts: Sequence[str]) -> str:
    """The DLX data of family ``name`` with its parameters given as text."""
    data: str = get(name).generate(*parse_args(name, texts))
    return data
