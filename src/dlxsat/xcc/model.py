"""The exact-cover model: items with multiplicity bounds, secondary items, options with colors.

One :class:`Problem` describes any problem of Knuth's DLX1 (exact cover with secondary items),
DLX2 (with colors) or DLX3 (with multiplicities). Every backend reads this and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .rules import Rule

#: One entry of an option: the item's index and its color (a one-character string) or None.
Entry = tuple[int, "str | None"]


@dataclass(frozen=True)
class Item:
    """An item: primary ones must be covered between ``lo`` and ``hi`` times, secondary at most once
    (or any number of times with one color)."""

    name: str
    primary: bool = True
    lo: int = 1
    hi: int = 1


@dataclass(eq=False)
class Problem:
    """Items (primaries first, then secondaries, in the order given) and options.

    Each option is a tuple of ``(item index, color)`` pairs in the order written; ``color`` is
    None for an uncolored item. Options that name no primary item are dropped when parsing (as
    Knuth's solvers do), so option ``k`` here is option ``k`` of his solvers.

    >>> p = Problem([Item("a"), Item("b"), Item("x", primary=False)], [((0, None), (2, "1"))])
    >>> p.kind, p.n_primary, p.option_names(0)
    ('XCC', 2, ['a', 'x:1'])
    """

    items: list[Item]
    options: list[tuple[Entry, ...]]
    comments: list[str] = field(default_factory=list)
    #: What the reader let pass but a user should hear of (e.g. options naming unknown items).
    warnings: list[str] = field(default_factory=list)
    #: The global rules every answer must keep besides covering (:mod:`dlxsat.xcc.rules`):
    #: the single loop, connected members, no cycle. Every backend enforces them.
    rules: tuple[Rule, ...] = ()
    #: A hint for CNF translations: "at most one" over up to this many options is written
    #: pairwise, a larger group with auxiliary variables (None: the backend's own threshold,
    #: :data:`dlxsat.backends.cnf.AUTO_PAIRWISE_MAX`). Not part of the problem's meaning:
    #: a family whose groups are a little larger sets it where it measured the gain
    #: (NumberLink's touch-free problems: :mod:`dlxsat.families.numberlink`).
    pairwise_at_most: int | None = field(default=None, compare=False)
    #: Another such hint: CaDiCaL options (name, value) its SAT solver is configured with,
    #: over the backend's own (NumberLink's narrow problem: no variable elimination).
    cadical_options: tuple[tuple[str, int], ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        seen_secondary = False
        for it in self.items:
            if it.primary and seen_secondary:
                raise ValueError("primary items must come before secondary items")
            seen_secondary |= not it.primary

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Problem):
            return NotImplemented
        return (
            self.items == other.items
            and self.options == other.options
            and self.rules == other.rules
        )

    def with_rules(self, *rules: Rule) -> Problem:
        """The same problem with ``rules`` added to its own (a new object: a problem is read
        by many, so it is not changed in place).

        >>> from dlxsat.xcc import parse
        >>> from dlxsat.xcc.rules import SingleLoop
        >>> p = parse("00 02 | 01\\n00 01:1\\n02 01:1\\n")
        >>> q = p.with_rules(SingleLoop.from_names(p))
        >>> [r.kind for r in q.rules], p.rules, q.options == p.options
        (['loop'], (), True)
        """
        return replace(self, rules=(*self.rules, *rules))

    def rule(self, kind: str) -> Rule | None:
        """The first rule of ``kind`` (``loop``, ``connected``, ``acyclic``), or None."""
        return next((r for r in self.rules if r.kind == kind), None)

    @cached_property
    def n_primary(self) -> int:
        """The number of primary items (they come first)."""
        return sum(1 for it in self.items if it.primary)

    @cached_property
    def index(self) -> dict[str, int]:
        """Item name → item index."""
        return {it.name: k for k, it in enumerate(self.items)}

    @cached_property
    def has_colors(self) -> bool:
        return any(c is not None for opt in self.options for _, c in opt)

    @cached_property
    def has_multiplicities(self) -> bool:
        return any((it.lo, it.hi) != (1, 1) for it in self.items if it.primary)

    @cached_property
    def answers_are_incomparable(self) -> bool:
        """Whether no solution's options can be a proper subset of another's.

        True when every primary item is covered a fixed number of times (``lo == hi``) and
        every option holds a primary item: the options of a larger solution would cover some
        primary item more often. Search backends then block a found answer by forbidding its
        chosen options together, without naming the others.

        >>> Problem([Item("a")], [((0, None),)]).answers_are_incomparable
        True
        >>> Problem([Item("a", True, 0, 1)], [((0, None),)]).answers_are_incomparable
        False
        """
        n = self.n_primary
        return all(it.lo == it.hi for it in self.items[:n]) and all(
            any(i < n for i, _ in opt) for opt in self.options
        )

    @property
    def kind(self) -> str:
        """``XC``, ``XCC`` or ``MCC``: which of Knuth's solvers (DLX1, DLX2, DLX3) this needs."""
        if self.has_multiplicities:
            return "MCC"
        return "XCC" if self.has_colors else "XC"

    def option_names(self, k: int) -> list[str]:
        """Option ``k`` written as Knuth writes it, one ``name`` or ``name:color`` per entry."""
        return [
            self.items[i].name if c is None else f"{self.items[i].name}:{c}"
            for i, c in self.options[k]
        ]

    def option_text(self, k: int) -> str:
        """Option ``k`` as one line of DLX text."""
        return " ".join(self.option_names(k))

    def _repr_html_(self) -> str:
        """In Jupyter: a summary table (items, options, colours, multiplicities)."""
        from .summary import problem_html

        return problem_html(self)
