"""Backends: solvers of an exact-cover :class:`~dlxsat.xcc.Problem`, knowing nothing of puzzles.

Every search backend is a module with one entry point::

    solve(problem, *, loop=False, allow_empty_loop=True, limit=None, keep=None,
          timeout=None, **options) -> SearchResult

``loop``
    enforce the single-loop rule on the items named as vertices and edges (``xcc.loop``).
``allow_empty_loop``
    with ``loop``: whether the empty edge set counts as a loop (Knuth's solvers count it when no
    clue forbids it; ``dlxsat solve`` never does, since a puzzle's answer is a loop).
``limit``
    stop after this many solutions (None: all of them).
``keep``
    store at most this many solutions in the result (None: all found; 0: count only).
``timeout``
    seconds; on expiry stop cleanly with ``timed_out=True`` and the figures so far.
``options``
    backend-specific settings (cardinality encoding, SAT solver, loop mode, workers, ...); an
    unknown or inapplicable one is an :class:`~dlxsat.errors.InputError`.

The ``logic`` backend is different: it reasons on the puzzle itself (see ``dlxsat.reasoning``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..errors import InputError
from ..options import Option
from ..result import SearchResult

#: The largest solution limit: the dlx kernels count in int64.
MAX_COUNT = 1 << 62

__all__ = ["SearchResult", "check_choice", "check_declared", "check_limits", "refuse_options"]


def check_limits(limit: int | None, keep: int | None, timeout: float | None) -> None:
    """Reject the arguments every search backend shares when they make no sense."""
    if limit is not None and limit < 0:
        raise InputError(f"solution limit must not be negative: {limit}")
    if limit is not None and limit > MAX_COUNT:
        raise InputError(f"solution limit too large: {limit} (at most {MAX_COUNT})")
    if keep is not None and keep < 0:
        raise InputError(f"number of solutions to keep must not be negative: {keep}")
    if timeout is not None and not timeout > 0:
        raise InputError(f"time limit must be positive: {timeout}")


def check_choice(what: str, value: str | None, choices: Iterable[str], default: str) -> str:
    """``value`` if it is one of ``choices``, ``default`` if it is None, else an error.

    >>> check_choice("color mode", None, ("onehot", "binary"), "binary")
    'binary'
    """
    if value is None:
        return default
    choices = tuple(choices)
    if value not in choices:
        raise InputError(f"unknown {what} {value!r} (choose from {', '.join(choices)})")
    return value


def _declaring(backend: str, name: str, value: Any = None) -> list[str]:
    """The other solvers of the registry declaring option ``name`` (with ``value`` among its
    choices, when given). Asked only to word an error: a backend lists no one else's options."""
    from ..solvers import SOLVERS, options_of

    return [
        s
        for s in SOLVERS
        if s != backend
        and any(o.name == name and (value is None or value in o.choices) for o in options_of(s))
    ]


def check_declared(backend: str, option: Option, value: str | None, what: str) -> str:
    """``value`` of a choice ``option`` that ``backend`` declares: its default when None; a value
    of another solver's same option is refused naming that solver, any other as unknown.

    >>> from dlxsat.backends import cnf
    >>> check_declared("sat", cnf.OPTIONS[3], "circuit", "loop mode")
    Traceback (most recent call last):
    ...
    dlxsat.errors.InputError: loop mode 'circuit' is for the cpsat backend; sat has lazy and eager
    """
    if value is not None and value not in option.choices:
        others = _declaring(backend, option.name, value)
        if others:
            raise InputError(
                f"{what} {value!r} is for the {' and '.join(others)} backend; "
                f"{backend} has {' and '.join(option.choices)}"
            )
    return check_choice(what, value, option.choices, option.default)


def refuse_options(backend: str, options: Mapping[str, Any]) -> None:
    """Refuse the options a backend's ``solve`` did not take (its leftover ``**options``).

    >>> refuse_options("cpsat", {"encoding": "ladder"})
    Traceback (most recent call last):
    ...
    dlxsat.errors.InputError: option 'encoding' is for the sat backend, not cpsat
    """
    for name in options:
        others = _declaring(backend, name)
        if others:
            raise InputError(
                f"option {name!r} is for the {' and '.join(others)} backend, not {backend}"
            )
        raise InputError(f"unknown option {name!r} for the {backend} backend")
