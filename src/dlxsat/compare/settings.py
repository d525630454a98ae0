"""The grid of settings ``dlxsat compare`` runs: parsed from ``--settings`` and presets.

A setting is one solver with some of its options, written in the one settings grammar of
:func:`dlxsat.solvers.parse_setting` (as portfolio members are). The text users write names a
*grid*: a value may be a comma list, ``BACKEND[:key=v1,v2;key=v1...]``, and the text stands for
the cross product of the values given for each key, e.g.
``sat:encoding=seqcounter,totalizer;loop=lazy,eager`` is four settings. Every key and value is
read by the solver's own declaration (its ``SPEC``, :class:`dlxsat.solvers.SolverSpec`): nothing
here lists the options again, so a new encoding added to a solver is at once something to
compare.

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

import itertools
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import InputError
from ..solvers import RULE_KINDS, parse_setting, spec_of

#: The option key that is about the single-loop rule: meaningless for a family without loops.
LOOP_KEY = "loop"
#: The option keys about a global rule (``loop``, ``connected``, ``acyclic``: each a solver's
#: mode of the rule of that kind), meaningless for puzzles without that rule.
RULE_KEYS = RULE_KINDS

#: The named presets of ``--preset`` (each built from the registry by :func:`preset`).
PRESETS = ("encodings", "loops", "rules", "backends")


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
        declared = spec_of(self.backend).by_key()
        return {declared[k].name: v for k, v in self.options.items()}

    def skip_reason(self, family_name: str, rules: Collection[str]) -> str | None:
        """Why this setting cannot run on puzzles of ``family_name`` whose problems have global
        rules of the kinds ``rules`` (None when it can)."""
        families = spec_of(self.backend).families
        if families is not None and family_name not in families:
            return f"backend {self.backend} does not solve {family_name}"
        for key in RULE_KEYS:
            if key in self.options and key not in rules:
                what = "no loop" if key == LOOP_KEY else f"no {key} rule"
                return f"{family_name} has {what}, so {key}={self.options[key]} means nothing"
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
    declared = spec_of(backend).by_key()
    parts = [
        f"{k}={_format(v)}"
        for k, v in sorted(options.items())
        if k not in declared or v != declared[k].default
    ]
    return backend + (":" + ";".join(parts) if parts else "")


def parse_spec(spec: str) -> list[Setting]:
    """The settings of one ``--settings`` text (the cross product of its values)."""
    try:
        backend, axes = parse_setting(spec, alternatives=True)
    except InputError as e:
        raise InputError(f"--settings {spec!r}: {e}") from None
    keys = list(axes)
    out = []
    for values in itertools.product(*axes.values()):
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
        option = spec_of("sat").by_key()["encoding"]
        return [Setting("sat", {"encoding": c}, preset=name) for c in option.choices]
    if name in ("loops", "rules"):
        out = []
        for key in (LOOP_KEY,) if name == "loops" else RULE_KEYS:
            for backend, option in takers(key):
                for c in option.choices:
                    out.append(Setting(backend, {key: c}, preset=name))
        return out
    if name == "backends":
        return [Setting(b, preset=name) for b in search_solvers()]
    raise InputError(f"unknown preset {name!r} (choose from {', '.join(PRESETS)})")


def grid(specs: Sequence[str], presets: Iterable[str] = ()) -> list[Setting]:
    """Every setting named by ``presets`` and ``specs``, in order, each spelling once.

    Two spellings of one job (``sat`` and ``sat:loop=lazy``) both stay: on a loop-less family
    the second is skipped and the first runs; :func:`for_family` keeps one of each job.
    """
    seen: dict[tuple[str, tuple[Any, ...]], Setting] = {}
    for s in [*(x for p in presets for x in preset(p)), *(x for t in specs for x in parse_spec(t))]:
        seen.setdefault((s.text, tuple(sorted(s.options.items()))), s)
    if not seen:
        raise InputError("no settings: give --settings SPEC or --preset NAME")
    return list(seen.values())


def for_family(
    settings: Sequence[Setting], family_name: str, rules: Collection[str] = ()
) -> tuple[list[Setting], list[str]]:
    """The settings that can run on ``family_name`` (one per canonical text), and notes on the
    others; ``rules``: the kinds of global rule the puzzles' problems have (a rule's modes mean
    nothing without it).

    >>> [s.text for s in for_family(parse_spec("sat:loop=lazy,eager"), "xcc", ["loop"])[0]]
    ['sat', 'sat:loop=eager']
    >>> for_family(parse_spec("sat:loop=eager"), "xcc")[1]
    ['skipping sat:loop=eager: xcc has no loop, so loop=eager means nothing']
    """
    kept: dict[str, Setting] = {}
    notes = []
    for s in settings:
        why = s.skip_reason(family_name, rules) or (refusal(s, rules) if s.preset else None)
        if why:
            notes.append(f"skipping {_spelled(s)}: {why}")
        else:
            kept.setdefault(s.text, s)
    return list(kept.values()), notes


def refusal(s: Setting, rules: Collection[str] = ()) -> str | None:
    """Why the solver refuses setting ``s`` outright (None when it takes it), on a problem with
    global rules of the kinds ``rules`` (a rule's mode means nothing without the rule).

    The solver itself is asked, on a tiny problem: a preset names every choice a solver
    declares, and some need more than the defaults (``encoding=native`` needs a solver with
    cardinality constraints) -- such a setting is skipped with the solver's own words rather
    than failing on every puzzle. (Settings users write are not probed here: their jobs run,
    and fail with that message, since a user's own solver might take long on any problem.)
    """
    from ..solvers import solve_problem, warm_up_problem

    if spec_of(s.backend).kind != "search":
        return None
    problem = warm_up_problem(rules)
    try:
        solve_problem(problem, s.backend, limit=1, keep=0, timeout=5.0, **s.keywords())
    except InputError as e:
        return str(e)
    except Exception:  # not a refusal: the jobs will say what goes wrong
        return None
    return None


def _spelled(s: Setting) -> str:
    """The setting as written, defaults included (for notes about what was skipped)."""
    parts = ";".join(f"{k}={_format(v)}" for k, v in sorted(s.options.items()))
    return s.backend + (":" + parts if parts else "")
