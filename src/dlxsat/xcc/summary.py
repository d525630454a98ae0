"""An exact-cover problem at a glance, as an HTML table: how a :class:`Problem` shows itself in
Jupyter (``Problem._repr_html_``), instead of a repr of thousands of items.

The table gives the kind (Knuth's XC, XCC or MCC: which of DLX1, DLX2, DLX3 it needs), the
primary and secondary items, the options and their entries, the colours used, the items with
multiplicities (a primary item covered between ``lo`` and ``hi`` times), and the first items
and options as Knuth writes them.
"""

from __future__ import annotations

import html
from collections import Counter
from typing import Any

#: How many items and options are listed by name (the rest are counted).
SHOWN = 8


def _names(names: list[str], total: int) -> str:
    text = " ".join(names)
    if total > len(names):
        text += f" … ({total - len(names)} more)"
    return html.escape(text)


def problem_html(problem: Any, shown: int = SHOWN) -> str:
    """The summary table of ``problem`` (a :class:`~dlxsat.xcc.model.Problem`, which calls this
    from its ``_repr_html_``: so this module does not import it back).

    >>> from dlxsat.xcc.model import Item, Problem
    >>> p = Problem([Item("a"), Item("b", lo=0, hi=2), Item("x", primary=False)],
    ...             [((0, None), (2, "1")), ((1, None), (2, "0"))])
    >>> "<td>MCC</td>" in problem_html(p), "0:2|b" in problem_html(p)
    (True, True)
    """
    items = problem.items
    primary = [it for it in items if it.primary]
    secondary = [it for it in items if not it.primary]
    colours = Counter(c for opt in problem.options for _, c in opt if c is not None)
    bounded = [it for it in primary if (it.lo, it.hi) != (1, 1)]
    entries = sum(len(opt) for opt in problem.options)

    def bound(it: object) -> str:
        lo, hi, name = it.lo, it.hi, it.name  # type: ignore[attr-defined]
        return f"{hi}|{name}" if lo == hi else f"{lo}:{hi}|{name}"

    rows = [
        ("kind", f"{problem.kind}"),
        ("primary items", f"{len(primary)}"),
        ("secondary items", f"{len(secondary)}"),
        ("options", f"{len(problem.options)}"),
        ("entries (item uses)", f"{entries}"),
        (
            "colours",
            f"{len(colours)}: "
            + ", ".join(f"{c} ({n} uses)" for c, n in sorted(colours.items())[:shown])
            if colours
            else "none",
        ),
        (
            "multiplicities",
            f"{len(bounded)} items: " + " ".join(bound(it) for it in bounded[:shown])
            if bounded
            else "none (every primary item exactly once)",
        ),
    ]
    body = "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>" for k, v in rows)
    body += (
        "<tr><th>first primary items</th>"
        f"<td><code>{_names([it.name for it in primary[:shown]], len(primary))}</code></td></tr>"
    )
    if secondary:
        body += (
            "<tr><th>first secondary items</th><td><code>"
            f"{_names([it.name for it in secondary[:shown]], len(secondary))}</code></td></tr>"
        )
    listed = "<br>".join(
        html.escape(problem.option_text(k)) for k in range(min(shown, len(problem.options)))
    )
    more = len(problem.options) - shown
    if more > 0:
        listed += f"<br>… ({more} more)"
    body += f"<tr><th>first options</th><td><code>{listed}</code></td></tr>"
    return f'<table class="dlxsat-problem">{body}</table>'
