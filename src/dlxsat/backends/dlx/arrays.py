"""Flat integer arrays for the dancing-links kernels, laid out as in Knuth's DLX1/2/3.

The kernels in ``kernel.py`` work on two integer matrices (flattened, with the lengths of the
item lists copied out) instead of Python objects:

``nd`` (one row per node: ``UP``, ``DOWN``, ``ITM``, ``COLOR``)
    Row 0 is unused (Knuth's root has no node), rows ``1..n`` are the item headers (``ITM``
    holds the length of the item's list there), row ``n + 1`` is the first spacer, then every
    option's nodes in the order written followed by a spacer. A spacer's ``ITM`` is ``-k`` for
    option ``k`` (1-based, 0 for the first spacer), its ``UP`` is the first node of the option
    before it and its ``DOWN`` the last node of the option after it, so an option can be walked
    circularly either way. ``COLOR`` is 0 for an uncolored entry, else the code point of the
    color character (Knuth stores the character code too); the search sets it to -1 while a
    purified item's options agree with it.
``cl`` (one row per item: ``PREV``, ``NEXT``, ``BOUND``, ``SLACK``, ``EU``, ``EV``, ``MATE``,
``INNER``)
    Row 0 is the root of the circular list of active primary items (``1..n_primary`` in
    order); secondary items are linked to themselves, as in DLX3 (DLX1/2 keep them in a second
    list that nothing ever reads). ``BOUND``/``SLACK`` are DLX3's ``hi`` and ``hi - lo``. For
    the loop rule of DLX2-LOOP an edge item holds its two vertex items in ``EU``/``EV``, and a
    vertex item uses ``MATE``/``INNER`` for the path fragments.

Both are built as ``int32``; the kernels get them as ``int16`` when every value fits
(:func:`kernel_dtype`), which is so for nearly every puzzle.

Item lists are in option order, as Knuth's input routine builds them (no randomising), so that
the kernels' search trees are his.

>>> from dlxsat.xcc import parse
>>> a = build(parse("a b | x\\na x:1\\nb\\n"))
>>> a.n_items, a.second, a.last_itm, a.nd.shape
(3, 3, 4, (10, 4))
>>> a.nd[5:8].tolist()  # option 0: nodes of a and x:1, then its spacer
[[1, 1, 1, 0], [3, 3, 3, 49], [5, 8, -1, 0]]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...errors import InputError
from ...xcc.loop import LoopGraph
from ...xcc.model import Problem

UP, DOWN, ITM, COLOR = 0, 1, 2, 3
PREV, NEXT, BOUND, SLACK, EU, EV, MATE, INNER = 0, 1, 2, 3, 4, 5, 6, 7
#: Added by the kernels to the length of a primary item while it is out of the active list:
#: more than any length or branching degree, so that the item is never the best one.
HIDDEN = 1 << 30
#: Knuth's loop rule looks at edges of this color (the character code of ``1``).
ON_COLOR = ord("1")


@dataclass
class Arrays:
    """The kernels' view of a :class:`~dlxsat.xcc.Problem` (see the module docstring)."""

    nd: np.ndarray
    cl: np.ndarray
    #: option index (0-based) of every node; -1 for headers and spacers.
    opt_of: np.ndarray
    n_items: int
    #: index of the first secondary item (= n_primary + 1; Knuth's ``second``).
    second: int
    #: index of the first spacer (= n_items + 1; Knuth's ``last_itm``).
    last_itm: int
    #: the most levels a search can reach (size of the choice stack).
    max_level: int


def build(problem: Problem, graph: LoopGraph | None = None) -> Arrays:
    """Lay ``problem`` out for the kernels; ``graph`` fills in the loop rule's edge items."""
    items = problem.items
    n = len(items)
    n_primary = problem.n_primary
    if n_primary == 0:
        raise InputError("no primary items")
    for it in items[:n_primary]:
        if not 0 <= it.lo <= it.hi or not 0 < it.hi < HIDDEN // 4:
            raise InputError(f"item {it.name!r}: bounds {it.lo}:{it.hi} are not 0 <= lo <= hi > 0")
    options = problem.options
    n_opts = len(options)
    lengths = np.fromiter((len(o) for o in options), dtype=np.int64, count=n_opts)
    if n_opts and lengths.min() == 0:
        raise InputError("an option has no items")
    n_entries = int(lengths.sum())
    last_itm = n + 1
    n_nodes = last_itm + 1 + n_entries + n_opts
    if n_nodes >= HIDDEN // 4:
        raise InputError(f"too many entries for the dlx backend: {n_entries}")

    # 1-based item of every entry, and its color code, option by option.
    ent_item = np.fromiter((i for o in options for i, _ in o), dtype=np.int64, count=n_entries) + 1
    ent_color = np.fromiter(
        (0 if c is None else ord(c) for o in options for _, c in o),
        dtype=np.int64,
        count=n_entries,
    )
    # Option k's first node sits after k earlier spacers and the earlier options' entries.
    starts = np.empty(n_opts, dtype=np.int64)
    if n_opts:
        starts[0] = 0
        np.cumsum(lengths[:-1], out=starts[1:])
    starts += last_itm + 1 + np.arange(n_opts, dtype=np.int64)
    ends = starts + lengths - 1  # last node of each option
    ent_opt = np.repeat(np.arange(n_opts, dtype=np.int64), lengths)
    ent_node = np.arange(n_entries, dtype=np.int64) + (ent_opt + last_itm + 1)

    nd = np.zeros((n_nodes, 4), dtype=np.int32)
    opt_of = np.full(n_nodes, -1, dtype=np.int32)
    nd[ent_node, ITM] = ent_item
    nd[ent_node, COLOR] = ent_color
    opt_of[ent_node] = ent_opt
    # Spacers: the one after option k (node ends[k] + 1) is numbered -(k + 1).
    spacers = ends + 1
    nd[spacers, ITM] = -(np.arange(n_opts, dtype=np.int64) + 1)
    nd[spacers, UP] = starts
    nd[last_itm, DOWN] = ends[0] if n_opts else 0
    if n_opts > 1:
        nd[spacers[:-1], DOWN] = ends[1:]

    # Item lists: each item's nodes in increasing node order (= option order), circular
    # through the header.
    headers = np.arange(n + 1, dtype=np.int64)
    nd[headers, UP] = headers
    nd[headers, DOWN] = headers
    counts = np.bincount(ent_item, minlength=n + 1)
    nd[headers, ITM] = counts
    nd[0, ITM] = 0
    if n_entries:
        order = np.argsort(ent_item, kind="stable")
        node_sorted = ent_node[order]
        item_sorted = ent_item[order]
        first = np.ones(n_entries, dtype=bool)
        first[1:] = item_sorted[1:] != item_sorted[:-1]
        last = np.ones(n_entries, dtype=bool)
        last[:-1] = first[1:]
        prev_node = np.empty(n_entries, dtype=np.int64)
        prev_node[1:] = node_sorted[:-1]
        prev_node[first] = item_sorted[first]
        next_node = np.empty(n_entries, dtype=np.int64)
        next_node[:-1] = node_sorted[1:]
        next_node[last] = item_sorted[last]
        nd[node_sorted, UP] = prev_node
        nd[node_sorted, DOWN] = next_node
        nd[item_sorted[first], DOWN] = node_sorted[first]
        nd[item_sorted[last], UP] = node_sorted[last]

    cl = np.zeros((n + 2, 8), dtype=np.int32)
    # Active list: root 0 <-> 1 <-> ... <-> n_primary <-> root; secondaries alone.
    prim = np.arange(n_primary + 1, dtype=np.int64)
    cl[prim, NEXT] = (prim + 1) % (n_primary + 1)
    cl[prim, PREV] = (prim - 1) % (n_primary + 1)
    sec = np.arange(n_primary + 1, n + 2, dtype=np.int64)
    cl[sec, NEXT] = sec
    cl[sec, PREV] = sec
    hi = np.fromiter((it.hi for it in items[:n_primary]), dtype=np.int64, count=n_primary)
    lo = np.fromiter((it.lo for it in items[:n_primary]), dtype=np.int64, count=n_primary)
    cl[1 : n_primary + 1, BOUND] = hi
    cl[1 : n_primary + 1, SLACK] = hi - lo
    if graph is not None:
        for e, u, v in graph.edges:
            cl[e + 1, EU] = u + 1
            cl[e + 1, EV] = v + 1

    if problem.has_multiplicities:
        # Every level lowers the bound of the item it branches on.
        max_level = int(hi.sum()) + 2
    else:
        max_level = n_primary + 2
    return Arrays(nd, cl, opt_of, n, n_primary + 1, last_itm, max_level)


def kernel_dtype(a: Arrays) -> type:
    """``np.int16`` when every index and value of ``a`` fits in it, else ``np.int32``.

    The search only ever writes values that are already in the arrays (node and item indices,
    colors, -1, bounds that shrink), so a fit at the start is a fit throughout. Half-size
    tables keep a 4,000-node problem's links within the first-level cache: on the golden cases
    the search measured 5-12 % faster.

    >>> from dlxsat.xcc import parse
    >>> kernel_dtype(build(parse("a b | x\\na x:1\\nb\\n"))).__name__
    'int16'
    """
    limit = np.iinfo(np.int16).max
    fits = max(len(a.nd), len(a.cl)) < limit  # every node and item index
    fits = fits and max(int(np.abs(a.nd).max()), int(np.abs(a.cl).max())) < limit
    return np.int16 if fits else np.int32
