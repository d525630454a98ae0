"""The solvers dlxsat has, by name, and what each of them takes.

Every way of solving is a module with the same face:

``NAME``
    the name users type (``--backend NAME``);
``KIND``
    ``"search"``: it solves an exact-cover :class:`~dlxsat.xcc.Problem` and knows nothing of
    puzzles (``dlx``, ``sat``, ``cpsat``); or ``"reasoning"``: it reasons on the puzzle itself,
    like a person, and exists only for the families in its ``FAMILIES`` (``logic``);
``SUMMARY``
    one line for ``--help``;
``OPTIONS``
    its settings, a tuple of :class:`~dlxsat.options.Option` -- the only list of them;
``solve``
    a search solver: ``solve(problem, *, loop, allow_empty_loop, limit, keep, timeout,
    **options)``; a reasoning solver: ``solve(family, puzzle, *, mode, timeout, **options)``;
    both return a :class:`~dlxsat.result.SearchResult`.

The modules are imported only when asked for, so naming a solver costs nothing at start-up.

>>> sorted(SOLVERS)
['auto', 'cpsat', 'dlx', 'logic', 'portfolio', 'sat']
>>> [o.key for o in options_of("sat")]
['encoding', 'colors', 'solver', 'loop']
>>> check_options("dlx", {"encoding": "ladder"})
Traceback (most recent call last):
...
dlxsat.errors.InputError: backend dlx does not take --encoding (it takes no options)
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from .errors import InputError
from .options import Option

#: Solver name → module. The order is the order of ``--help`` and of ``crosscheck``.
SOLVERS: dict[str, str] = {
    "dlx": "dlxsat.backends.dlx",
    "sat": "dlxsat.backends.cnf",
    "cpsat": "dlxsat.backends.cpsat",
    "logic": "dlxsat.reasoning",
    "portfolio": "dlxsat.backends.portfolio",
    "auto": "dlxsat.backends.auto",
}


def get_solver(name: str) -> ModuleType:
    """The module of solver ``name``."""
    try:
        module = SOLVERS[name]
    except KeyError:
        raise InputError(f"unknown backend {name!r} (choose from {', '.join(SOLVERS)})") from None
    return importlib.import_module(module)


def search_solvers() -> list[str]:
    """The names of the solvers that work on exact-cover problems."""
    return [name for name in SOLVERS if get_solver(name).KIND == "search"]


def options_of(name: str) -> tuple[Option, ...]:
    """The options solver ``name`` declares."""
    return tuple(get_solver(name).OPTIONS)


def check_options(name: str, given: Mapping[str, Any]) -> dict[str, Any]:
    """``given`` (option names → values) checked against solver ``name``'s declarations.

    Returns the values converted to their declared kinds; an option the solver does not take, or
    a value it does not allow, is an :class:`InputError` of one line.
    """
    declared = {o.name: o for o in options_of(name)}
    checked: dict[str, Any] = {}
    for key, value in given.items():
        option = declared.get(key)
        if option is None:
            flag = "--" + key.replace("_", "-")
            for o in all_options():
                if o.name == key:
                    flag = o.flag
            takes = ", ".join(o.flag for o in declared.values()) or "no options"
            raise InputError(f"backend {name} does not take {flag} (it takes {takes})")
        checked[key] = option.check(value)
    return checked


def all_options() -> list[Option]:
    """Every declared option of every solver, each key once (first declaration wins)."""
    seen: dict[str, Option] = {}
    for name in SOLVERS:
        for o in options_of(name):
            seen.setdefault(o.key, o)
    return list(seen.values())


def takers(key: str) -> list[tuple[str, Option]]:
    """The solvers that take the option typed as ``key``, with their declarations."""
    return [(name, o) for name in SOLVERS for o in options_of(name) if o.key == key]
