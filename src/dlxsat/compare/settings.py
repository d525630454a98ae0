"""The grid of settings ``dlxsat compare`` runs: parsed from ``--settings`` and presets.

A setting is one solver with some of its options. The text users write names a *grid*::

    BACKEND[:key=v1,v2;key=v1...]

and stands for the cross product of the values given for each key, e.g.
``sat:encoding=seqcounter,totalizer;loop=lazy,eager`` is four settings. Every key and value is
read by the solver's own declaration (``OPTIONS``, :class:`dlxsat.options.Option`): nothing here
lists the options again, so a new encoding added to a solver is at once something to compare.

A setting's canonical text (the store's ``setting`` field) has its keys sorted and the options
equal to their defaults left out, so ``sat:loop=lazy`` and ``sat`` are the same job.

>>> [s.text for s in parse_spec("sat:encoding=seqcounter,totalizer;loop=lazy,eager")]
['sat:encoding=seqcounter', 'sat:encoding=seqcounter;loop=eager', 'sat:encoding=totalizer', \
'sat:encoding=totalizer;loop=eager']
>>> parse_spec("dlx")[0].text
'dlx'
>>> parse_spec("sat:encoding=zigzag")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
dlxsat.errors.InputError: --settings 'sat:encoding=zigzag': unknown encoding 'zigzag' (choose ...)
"""

from __future__ import annotations

import importlib
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from ..errors import InputError
from ..options import Option, by_key
from ..solvers import SOLVERS, get_solver

#: Solvers ``compare`` runs besides those of :mod:`dlxsat.solvers`: they have the same face
#: (``NAME``, ``KIND``, ``OPTIONS``, ``solve``) but need a program outside dlxsat, so ``solve``
#: and ``crosscheck`` do not offer them.
COMPARE_ONLY: dict[str, str] = {"external": "dlxsat.compare.external"}

#: The option key that is about the single-loop rule: meaningless for a family without loops.
LOOP_KEY = "loop"

#: The named presets of ``--preset`` (each built from the registry by :func:`preset`).
PRESETS = ("encodings", "loops", "backends")


def solver_module(name: str) -> ModuleType:
    """The module of solver ``name``: one of the registry's, or one of :data:`COMPARE_ONLY`."""
    if name in COMPARE_ONLY:
        return importlib.import_module(COMPARE_ONLY[name])
    if name not in SOLVERS:
        known = ", ".join([*SOLVERS, *COMPARE_ONLY])
        raise InputError(f"unknown backend {name!r} (choose from {known})")
    return get_solver(name)


@dataclass(frozen=True)
class Setting:
    """One solver with chosen options (``options``: user key → checked value)."""

    backend: str
    options: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)
    text: str = ""
    #: The preset that named this setting ("" when the user wrote it).
    preset: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if not self.text:
            object.__setattr__(self, "text", canonical_text(self.backend, self.options))

    def keywords(self) -> dict[str, Any]:
        """The options as the solver's ``solve`` takes them (python names, not user keys)."""
        declared = by_key(solver_module(self.backend).OPTIONS)
        return {declared[k].name: v for k, v in self.options.items()}

    def skip_reason(self, family: Any, family_name: str) -> str | None:
        """Why this setting cannot run on puzzles of ``family`` (None when it can)."""
        solver = solver_module(self.backend)
        families = getattr(solver, "FAMILIES", None)
        if families is not None and family_name not in families:
            return f"backend {self.backend} does not solve {family_name}"
        if LOOP_KEY in self.options and not family.LOOP:
            return (
                f"{family_name} has no loop, so {LOOP_KEY}={self.options[LOOP_KEY]} means nothing"
            )
        return None


def _format(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):  # 60.0 is written as users write it: 60
        text = repr(value)
        return text[:-2] if text.endswith(".0") else text
    return str(value)


def canonical_text(backend: str, options: dict[str, Any]) -> str:
    """``backend:key=value;...`` with keys sorted and default values left out.

    >>> canonical_text("sat", {"loop": "eager", "encoding": "totalizer"})
    'sat:encoding=totalizer;loop=eager'
    >>> canonical_text("sat", {"loop": "lazy"})
    'sat'
    """
    declared = by_key(solver_module(backend).OPTIONS)
    parts = [
        f"{k}={_format(v)}"
        for k, v in sorted(options.items())
        if k not in declared or v != declared[k].default
    ]
    return backend + (":" + ";".join(parts) if parts else "")


def parse_spec(spec: str) -> list[Setting]:
    """The settings of one ``--settings`` text (the cross product of its values)."""
    backend, _, rest = spec.strip().partition(":")
    backend = backend.strip()
    try:
        solver = solver_module(backend)
        declared = by_key(solver.OPTIONS)
        axes: list[tuple[str, list[Any]]] = []
        for part in rest.split(";") if rest.strip() else []:
            if not part.strip():
                continue
            key, eq, values = part.partition("=")
            key = key.strip()
            if not eq or not key:
                raise InputError(f"expected key=value, not {part.strip()!r}")
            option: Option | None = declared.get(key)
            if option is None:
                takes = ", ".join(declared) or "no options"
                raise InputError(f"backend {backend} does not take {key!r} (it takes {takes})")
            if any(k == key for k, _ in axes):
                raise InputError(f"{key} given twice")
            words = [w.strip() for w in values.split(",")]
            if not all(words):
                raise InputError(f"empty value for {key}")
            axes.append((key, [option.parse(w) for w in dict.fromkeys(words)]))
    except InputError as e:
        raise InputError(f"--settings {spec!r}: {e}") from None
    keys = [k for k, _ in axes]
    out = []
    for values in itertools.product(*(v for _, v in axes)):
        given = dict(zip(keys, values, strict=True))
        out.append(Setting(backend, given))
    return out


def preset(name: str) -> list[Setting]:
    """The settings of a named preset, read from the registry.

    ``encodings``: every cardinality encoding ``sat`` declares; ``loops``: every loop mode of
    every solver that takes ``loop``; ``backends``: each search solver with its defaults.

    >>> from dlxsat.solvers import search_solvers
    >>> [s.text for s in preset("backends")] == search_solvers()
    True
    """
    from ..solvers import search_solvers, takers

    if name == "encodings":
        option = by_key(get_solver("sat").OPTIONS)["encoding"]
        return [Setting("sat", {"encoding": c}, preset=name) for c in option.choices]
    if name == "loops":
        out = []
        for backend, option in takers(LOOP_KEY):
            for c in option.choices:
                out.append(Setting(backend, {LOOP_KEY: c}, preset=name))
        return out
    if name == "backends":
        return [Setting(b, preset=name) for b in search_solvers()]
    raise InputError(f"unknown preset {name!r} (choose from {', '.join(PRESETS)})")


def grid(specs: Sequence[str], presets: Iterable[str] = ()) -> list[Setting]:
    """Every setting named by ``presets`` and ``specs``, in order, each spelling once.

    Two spellings of one job (``sat`` and ``sat:loop=lazy``) both stay: on a loop-less family
    the second is skipped and the first runs; :func:`for_family` keeps one of each job.
    """
    seen: dict[tuple[str, tuple], Setting] = {}
    for s in [*(x for p in presets for x in preset(p)), *(x for t in specs for x in parse_spec(t))]:
        seen.setdefault((s.text, tuple(sorted(s.options.items()))), s)
    if not seen:
        raise InputError("no settings: give --settings SPEC or --preset NAME")
    return list(seen.values())


def for_family(settings: Sequence[Setting], family_name: str) -> tuple[list[Setting], list[str]]:
    """The settings that can run on ``family_name`` (one per canonical text), and notes on the
    others."""
    from ..families import get_family

    family = get_family(family_name)
    kept: dict[str, Setting] = {}
    notes = []
    for s in settings:
        why = s.skip_reason(family, family_name) or (
            refusal(s, loop=bool(getattr(family, "LOOP", False))) if s.preset else None
        )
        if why:
            notes.append(f"skipping {_spelled(s)}: {why}")
        else:
            kept.setdefault(s.text, s)
    return list(kept.values()), notes


def refusal(s: Setting, loop: bool = False) -> str | None:
    """Why the solver refuses setting ``s`` outright (None when it takes it), on a problem with
    the single-loop rule when ``loop`` (a loop family's: a loop mode means nothing without it).

    The solver itself is asked, on a tiny problem: a preset names every choice a solver
    declares, and some need more than the defaults (``encoding=native`` needs a solver with
    cardinality constraints) -- such a setting is skipped with the solver's own words rather
    than failing on every puzzle. (Settings users write are not probed here: their jobs run,
    and fail with that message, since a user's own solver might take long on any problem.)
    """
    from ..xcc import parse
    from .jobs import WARM_UP_PROBLEM

    solver = solver_module(s.backend)
    if getattr(solver, "KIND", "") != "search":
        return None
    try:
        solver.solve(
            parse(WARM_UP_PROBLEM),
            limit=1,
            keep=0,
            timeout=5.0,
            loop=loop,
            allow_empty_loop=False,
            **s.keywords(),
        )
    except InputError as e:
        return str(e)
    except Exception:  # not a refusal: the jobs will say what goes wrong
        return None
    return None


def _spelled(s: Setting) -> str:
    """The setting as written, defaults included (for notes about what was skipped)."""
    parts = ";".join(f"{k}={_format(v)}" for k, v in sorted(s.options.items()))
    return s.backend + (":" + parts if parts else "")
