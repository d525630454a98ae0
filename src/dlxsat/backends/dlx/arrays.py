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

Both are built as flat Python lists (node ``p``'s field ``F`` at ``N * p + F``, item ``c``'s at
``I * c + F``), with the lengths of the item lists copied out (``ln``): the interpreted kernels
run on them as they are, the compiled ones get them as ``int16`` arrays when every value fits
(:func:`kernel_dtype`), which is so for nearly every puzzle, else ``int32``. (Plain Python, not
numpy: a small puzzle is solved before numpy would have finished loading.)

Item lists are in option order, as Knuth's input routine builds them (no randomising), so that
the kernels' search trees are his.

>>> from dlxsat.xcc import parse
>>> a = build(parse("a b | x\\na x:1\\nb\\n"))
>>> a.n_items, a.second, a.last_itm, len(a.nd) // 4
(3, 3, 4, 10)
>>> a.nd[5 * 4 : 8 * 4]  # option 0: nodes of a and x:1, then its spacer
[1, 1, 1, 0, 3, 3, 3, 49, 5, 8, -1, 0]
>>> a.ln
[0, 1, 1, 1]
"""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import InputError
from ...xcc.loop import LoopGraph
from ...xcc.model import Problem

UP, DOWN, ITM, COLOR = 0, 1, 2, 3
PREV, NEXT, BOUND, SLACK, EU, EV, MATE, INNER = 0, 1, 2, 3, 4, 5, 6, 7
#: Fields per node and per item.
N, I = 4, 8
#: Added by the kernels to the length of a primary item while it is out of the active list:
#: more than any length or branching degree, so that the item is never the best one.
HIDDEN = 1 << 30
#: Knuth's loop rule looks at edges of this color (the character code of ``1``).
ON_COLOR = ord("1")
#: The largest value an ``int16`` holds.
INT16_MAX = (1 << 15) - 1


@dataclass
class Arrays:
    """The kernels' view of a :class:`~dlxsat.xcc.Problem` (see the module docstring)."""

    #: ``N`` fields per node, flat.
    nd: list[int]
    #: ``I`` fields per item, flat.
    cl: list[int]
    #: the length of every item's list (index 0 unused).
    ln: list[int]
    #: option index (0-based) of every node; -1 for headers and spacers.
    opt_of: list[int]
    n_items: int
    #: index of the first secondary item (= n_primary + 1; Knuth's ``second``).
    second: int
    #: index of the first spacer (= n_items + 1; Knuth's ``last_itm``).
    last_itm: int
    #: the most levels a search can reach (size of the choice stack).
    max_level: int
    #: a bound on every index and absolute value in ``nd`` and ``cl`` (and their lengths).
    max_value: int


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
    n_entries = 0
    for o in options:
        if not o:
            raise InputError("an option has no items")
        n_entries += len(o)
    last_itm = n + 1
    n_nodes = last_itm + 1 + n_entries + n_opts
    if n_nodes >= HIDDEN // 4:
        raise InputError(f"too many entries for the dlx backend: {n_entries}")

    nd = [0] * (N * n_nodes)
    opt_of = [-1] * n_nodes
    # Headers 0..n: empty circular lists, linked up below.
    for h in range(n + 1):
        nd[N * h + UP] = nd[N * h + DOWN] = h
    ln = [0] * (n + 1)
    last = list(range(n + 1))  # the last node of every item's list so far
    max_color = 0
    p = last_itm + 1  # the next node
    prev_spacer = last_itm
    for k, o in enumerate(options):
        start = p
        for i, c in o:
            item = i + 1
            base = N * p
            nd[base + ITM] = item
            if c is not None:
                code = ord(c)
                nd[base + COLOR] = code
                max_color = max(max_color, code)
            opt_of[p] = k
            # Append p to the item's list (options come in order: node order).
            q = last[item]
            nd[N * q + DOWN] = p
            nd[base + UP] = q
            last[item] = p
            ln[item] += 1
            p += 1
        # The spacer after option k: ITM -(k + 1), UP its option's first node; the spacer
        # before it gets DOWN = this option's last node.
        nd[N * p + ITM] = -(k + 1)
        nd[N * p + UP] = start
        nd[N * prev_spacer + DOWN] = p - 1
        prev_spacer = p
        p += 1
    for item in range(1, n + 1):  # close the circles through the headers
        q = last[item]
        nd[N * q + DOWN] = item
        nd[N * item + UP] = q
        nd[N * item + ITM] = ln[item]

    cl = [0] * (I * (n + 2))
    # Active list: root 0 <-> 1 <-> ... <-> n_primary <-> root; secondaries alone.
    for h in range(n_primary + 1):
        cl[I * h + NEXT] = (h + 1) % (n_primary + 1)
        cl[I * h + PREV] = (h - 1) % (n_primary + 1)
    for h in range(n_primary + 1, n + 2):
        cl[I * h + NEXT] = cl[I * h + PREV] = h
    max_hi = 0
    for h, it in enumerate(items[:n_primary], 1):
        cl[I * h + BOUND] = it.hi
        cl[I * h + SLACK] = it.hi - it.lo
        max_hi = max(max_hi, it.hi)
    if graph is not None:
        for e, u, v in graph.edges:
            cl[I * (e + 1) + EU] = u + 1
            cl[I * (e + 1) + EV] = v + 1

    if problem.has_multiplicities:
        # Every level lowers the bound of the item it branches on.
        max_level = sum(it.hi for it in items[:n_primary]) + 2
    else:
        max_level = n_primary + 2
    # Indices, spacer numbers and list lengths stay below n_nodes and n + 2.
    max_value = max(n_nodes, n + 2, max_color, max_hi)
    return Arrays(nd, cl, ln, opt_of, n, n_primary + 1, last_itm, max_level, max_value)


def kernel_dtype(a: Arrays) -> str:
    """``int16`` when every index and value of ``a`` fits in it, else ``int32``: the integer
    size of the compiled kernels' ``nd`` and ``cl``.

    The search only ever writes values that are already in the arrays (node and item indices,
    colors, -1, bounds that shrink), so a fit at the start is a fit throughout. Half-size
    tables keep a 4,000-node problem's links within the first-level cache: on the golden cases
    the search measured 5-12 % faster.

    >>> from dlxsat.xcc import parse
    >>> kernel_dtype(build(parse("a b | x\\na x:1\\nb\\n")))
    'int16'
    """
    return "int16" if a.max_value < INT16_MAX else "int32"
