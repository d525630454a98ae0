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
    vertex item uses ``MATE``/``INNER`` for the path fragments. When the problem has
    :class:`~dlxsat.xcc.rules.Connected`, :class:`~dlxsat.xcc.rules.Acyclic` or
    :class:`~dlxsat.xcc.rules.Sized` rules, their *rule table* follows the item rows (from
    ``Arrays.rules`` on; see :func:`rule_table`).

Both are built as flat Python lists (node ``p``'s field ``F`` at ``N * p + F``, item ``c``'s at
``I * c + F``), with the lengths of the item lists copied out (``ln``; for Algorithm M followed
by a choice key per primary item, :func:`choice_keys`): the interpreted kernels
run on them as they are, the compiled ones get them as ``int16`` arrays when every value fits
(:func:`kernel_dtype`), which is so for nearly every puzzle, else ``int32``. (Plain Python, not
numpy: a small puzzle is solved before numpy would have finished loading.)

Item lists are in option order, as Knuth's input routine builds them (no randomising), so that
the kernels' search trees are his. Algorithm X also has two other layouts, bitsets of options
(:func:`build_bits`) and sparse sets (:func:`build_sets`), for ``kernel.search_bits`` and
``kernel.search_sets``.

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
from itertools import chain
from operator import itemgetter

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

# The rule table (:func:`rule_table`), at ``r = Arrays.rules`` in ``cl``; every offset in it is
# relative to ``r``. Its head: the number of rules, where the item states are, where the index
# of members by item is, the rule that failed last (checked first: ``kernel._rules_hold``),
# then where each rule's block is.
R_COUNT, R_STATE, R_INDEX, R_FIRST, R_BLOCKS = 0, 1, 2, 3, 4
# A rule's block: its kind, its number of members, and where its arrays are (offsets): member
# items, member colors, a mark per member (scratch), then for a Connected rule the starts of
# every member's neighbours (``size + 1`` offsets of the neighbour list), its roots (``NROOTS``
# of them, -1: the rule has none) and a queue (scratch); for an Acyclic rule its ends (two
# vertices per member), ``NROOTS`` holding its number of vertices and ``WORK`` their parents in
# a union-find (scratch); for a Sized rule its neighbours as a Connected rule's, ``NROOTS`` the
# size of every piece (negative: "at least" that size; 0: the rule has anchors), ``ROOTS`` (with
# anchors) the anchor size of every member (0: no anchor) and after them the largest, and
# ``WORK`` a queue (scratch). Every rule also has its *present stack* (``STACK``, room for
# every member) and its height (``HEIGHT``): the members present, in the order they came.
B_KIND, B_SIZE, B_ITEMS, B_COLORS, B_MARKS, B_LINKS, B_ROOTS, B_NROOTS, B_WORK = range(9)
B_STACK, B_HEIGHT = 9, 10
B_FIELDS = 11
#: ``B_KIND`` of each rule kind.
CONNECTED, ACYCLIC, SIZED = 1, 2, 3


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
    #: the kernel's state vector to start from, when the layout keeps data there (bitsets).
    state: list[int] | None = None
    #: where the rule table begins in ``cl`` (:func:`rule_table`); 0: no such rules.
    rules: int = 0
    #: where Algorithm M's choice keys begin in ``ln`` (:func:`choice_keys`); 0: not kept.
    aux: int = 0


#: Algorithm M's layouts keep a choice key per primary item after the item lengths in ``ln``
#: (:func:`choice_key`: the item's choice then reads two arrays in order) when every bound
#: is below this and the primary items fit in 16 bits, as the key's fields need.
KEY_MAX_BOUND = 128


def choice_key(b: int, slack: int, c: int) -> int:
    """Algorithm M's choice key of primary item ``c`` of bound ``b`` and slack ``slack``, kept
    in ``ln`` (``kernel.P_AUX``) when every bound is below 128 and the primary items fit in 16
    bits (:data:`KEY_MAX_BOUND`): ``s = min(slack, b)`` in bits 24-30, ``255 - (b - s)`` in
    bits 16-23 and ``c`` in bits 0-15. With the list length ``l`` the score is ``l + s - b +
    1`` (``kernel._branch_m``), and ``(score << 32) | key`` orders the items as Knuth's choice
    does: the least score, then the least ``s``, then the longest list (for equal scores and
    ``s``, the largest ``b - s``), then the leftmost item.

    >>> choice_key(1, 0, 5) == (254 << 16) | 5  # a plain item: s = 0, b - s = 1
    True
    """
    s = min(slack, b)
    key: int = (s << 24) | ((255 - (b - s)) << 16) | c
    return key


def choice_keys(problem: Problem, n: int) -> list[int]:
    """``ln``'s tail for Algorithm M's choice keys (``n + 1`` entries, the key of primary
    item ``c`` at ``c``), or nothing when ``problem`` has no multiplicities or its bounds and
    primary items do not fit the keys' fields (:data:`KEY_MAX_BOUND`). Both layouts take
    them from here:

    >>> from dlxsat.xcc import parse
    >>> p = parse("2|a 1:3|b c\\na b\\na\\nb c\\nb\\n")
    >>> keys = choice_keys(p, 3)
    >>> keys == build(p).ln[4:] == build_numpy(p).ln[4:].tolist(), keys[1] >> 16
    (True, 253)
    """
    primary = problem.items[: problem.n_primary]
    if not problem.has_multiplicities or problem.n_primary >= 1 << 16:
        return []
    if max(it.hi for it in primary) >= KEY_MAX_BOUND:
        return []
    keys = [0] * (n + 1)
    for c, it in enumerate(primary, 1):
        keys[c] = choice_key(it.hi, it.hi - it.lo, c)
    return keys


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
    table = rule_table(problem)
    rules = 0
    if table:
        rules = len(cl)
        cl += table
        max_value = max(max_value, len(table), max_color + 1)
    keys = choice_keys(problem, n)
    aux = len(ln) if keys else 0
    ln += keys
    return Arrays(
        nd, cl, ln, opt_of, n, n_primary + 1, last_itm, max_level, max_value, None, rules, aux
    )


def build_numpy(problem: Problem, graph: LoopGraph | None = None) -> Arrays:
    """:func:`build`'s arrays made with numpy, for the compiled kernels: equal to its lists
    (``nd`` and ``cl`` in :func:`kernel_dtype`'s integer size, ``ln`` and ``opt_of`` in
    ``int32``), laid out four to eight times faster on large problems (a 25 x 25 Sudoku, 7,000
    entries: 1 ms against 5 ms), which is most of a short search's cost (``auto``'s DLX trial).

    The nodes of option ``k`` are numbered from ``last_itm + 1 + k`` plus the entries before
    it (one spacer after every option); an item's list is its nodes in order, so a stable
    sort of the entries by item gives every list at once, and each node's ``UP`` and ``DOWN``
    are its neighbours there (the header at either end).

    >>> from dlxsat.xcc import parse
    >>> p = parse("a b | x\\na x:1\\nb\\nb x:2\\n")
    >>> a, b = build(p), build_numpy(p)
    >>> (a.nd, a.cl, a.ln, a.opt_of) == (b.nd.tolist(), b.cl.tolist(), b.ln.tolist(),
    ...     b.opt_of.tolist())
    True
    """
    import numpy as np

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
    lens = np.fromiter(map(len, options), dtype=np.int64, count=n_opts)
    if n_opts and lens.min() == 0:
        raise InputError("an option has no items")
    n_entries = int(lens.sum())
    last_itm = n + 1
    n_nodes = last_itm + 1 + n_entries + n_opts
    if n_nodes >= HIDDEN // 4:
        raise InputError(f"too many entries for the dlx backend: {n_entries}")
    # (Passes of C over the entries instead of three generators: 2.5 against 3.3 ms for a
    # 14 x 24 Slitherlink's 15,661 entries, 1.75 against 2.1 for a 14 x 24 Masyu's 9,031.)
    entries = list(chain.from_iterable(options))
    entry_colors = list(map(itemgetter(1), entries))
    item = np.fromiter(map(itemgetter(0), entries), dtype=np.int64, count=n_entries) + 1
    codes = {c: 0 if c is None else ord(c) for c in set(entry_colors)}
    colors = any(c is not None for c in codes)
    max_color = max(codes.values(), default=0)
    max_hi = max(it.hi for it in items[:n_primary])
    max_value = max(n_nodes, n + 2, max_color, max_hi)
    table = rule_table(problem)
    if table:
        max_value = max(max_value, len(table), max_color + 1)
    dtype = np.int16 if max_value < INT16_MAX else np.int32

    option = np.repeat(np.arange(n_opts, dtype=np.int64), lens)
    node = last_itm + 1 + np.arange(n_entries, dtype=np.int64) + option
    nd = np.zeros((n_nodes, N), dtype=np.int64)
    heads = np.arange(n + 1)
    nd[heads, UP] = nd[heads, DOWN] = heads
    nd[node, ITM] = item
    if colors:
        nd[node, COLOR] = np.fromiter(
            map(codes.__getitem__, entry_colors), dtype=np.int64, count=n_entries
        )
    # Every item's list: its nodes in order, between its header's links.
    order = np.argsort(item, kind="stable")
    by_item, in_order = item[order], node[order]
    first = np.ones(n_entries, dtype=bool)
    first[1:] = by_item[1:] != by_item[:-1]
    last = np.ones(n_entries, dtype=bool)
    last[:-1] = first[1:]
    above = np.where(first, by_item, np.roll(in_order, 1))
    below = np.where(last, by_item, np.roll(in_order, -1))
    nd[in_order, UP] = above
    nd[in_order, DOWN] = below
    nd[by_item[first], DOWN] = in_order[first]
    nd[by_item[last], UP] = in_order[last]
    ln = np.bincount(item, minlength=n + 1).astype(np.int32)
    ln[0] = 0
    nd[1 : n + 1, ITM] = ln[1:]
    # Spacers: after option k, ITM -(k + 1) and UP its first node; the one before it has DOWN
    # its last node.
    if n_opts:
        starts = last_itm + 1 + np.concatenate(([0], np.cumsum(lens + 1)[:-1])).astype(np.int64)
        spacers = starts + lens
        nd[spacers, ITM] = -(np.arange(n_opts, dtype=np.int64) + 1)
        nd[spacers, UP] = starts
        nd[np.concatenate(([last_itm], spacers[:-1])), DOWN] = spacers - 1
    opt_of = np.full(n_nodes, -1, dtype=np.int32)
    opt_of[node] = option

    cl = np.zeros((n + 2, I), dtype=np.int64)
    active = np.arange(n_primary + 1)
    cl[active, NEXT] = (active + 1) % (n_primary + 1)
    cl[active, PREV] = (active - 1) % (n_primary + 1)
    alone = np.arange(n_primary + 1, n + 2)
    cl[alone, NEXT] = cl[alone, PREV] = alone
    cl[1 : n_primary + 1, BOUND] = [it.hi for it in items[:n_primary]]
    cl[1 : n_primary + 1, SLACK] = [it.hi - it.lo for it in items[:n_primary]]
    if graph is not None:
        for e, u, v in graph.edges:
            cl[e + 1, EU] = u + 1
            cl[e + 1, EV] = v + 1
    if problem.has_multiplicities:
        max_level = sum(it.hi for it in items[:n_primary]) + 2
    else:
        max_level = n_primary + 2
    flat = cl.astype(dtype).ravel()
    rules = 0
    if table:
        rules = len(flat)
        flat = np.concatenate([flat, np.array(table, dtype=dtype)])
    keys = choice_keys(problem, n)
    aux = len(ln) if keys else 0
    if keys:
        ln = np.concatenate([ln, np.array(keys, dtype=np.int32)])
    return Arrays(
        nd.astype(dtype).ravel(),  # type: ignore[arg-type]
        flat,  # type: ignore[arg-type]
        ln,  # type: ignore[arg-type]
        opt_of,  # type: ignore[arg-type]
        n,
        n_primary + 1,
        last_itm,
        max_level,
        max_value,
        None,
        rules,
        aux,
    )


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


def rule_table(problem: Problem) -> list[int]:
    """The rule table of ``problem``'s :class:`~dlxsat.xcc.rules.Connected`,
    :class:`~dlxsat.xcc.rules.Acyclic` and :class:`~dlxsat.xcc.rules.Sized` rules, to follow
    the item rows of ``cl`` (empty when it has none; its single loop is not in it: DLX2-LOOP's
    fields hold that).

    Every offset in the table is relative to its start ``r``, so that its values stay as small
    as the table (``kernel_dtype`` sees its length). The head (``R_*``): the number of rules,
    the offset of the *item states*, of the *index*, and of every rule's block. The item
    states, one per item ``0..n``, are the kernels' record of what the options chosen so far
    decided (written by ``kernel._mark``): for a primary item the number of chosen options
    that hold it, for a secondary item 0 while no chosen option has it, else 1 + its color (0
    for uncolored). The index lists, for every item ``0..n``, the rule members on it: ``n + 2``
    starts, then three values per member (its block, its number in the block, its color), so
    that ``kernel._mark`` pushes a member on its rule's present stack when the item's state
    makes it present, and pops it when the state is taken back, without looking at other
    members. A rule's block (``B_*`` fields) lists its members as kernel item numbers
    (``i + 1``) and colors (character code, -1 for "any"), a mark per member, and its links and
    roots (Connected: every member's neighbours, a queue) or its ends (Acyclic: the vertices of
    every member, a parent per vertex) or its sizes (Sized: neighbours as Connected, the size of
    every piece or each member's anchor size, a queue), and its present stack with its height;
    the marks, the queue and the parents are scratch space. A size is stored as at most the
    number of members plus one: no piece can have more members than that, so every comparison
    comes out the same, and the table's values stay below its length.

    A member on a primary item with a color is never present (a primary item has no colors in
    Knuth's data): it becomes item 0, which nothing covers; should an option give the item that
    color, the problem is refused (the kernels count a primary item's options, not colors).

    >>> from dlxsat.xcc import parse
    >>> p = parse("|@connected\\n|@members x:1 y:1\\n|@links x y\\na b | x y\\na x:1\\nb y:1\\n")
    >>> t = rule_table(p)
    >>> t[:5], t[t[R_BLOCKS] :][:B_FIELDS]  # one rule, item states at 5 (5 items), its block
    ([1, 5, 10, 0, 22], [1, 2, 33, 35, 37, 39, 44, -1, 44, 46, 0])
    >>> t[10:16], t[16:22]  # the index: items 3 and 4 (x, y) have a member each (block 22)
    ([16, 16, 16, 16, 19, 22], [22, 0, 49, 22, 1, 49])
    >>> t[33:37], t[39:44]  # members (items x, y), colors; neighbour starts, neighbours
    ([3, 4, 49, 49], [42, 43, 44, 1, 0])
    """
    from ...xcc.rules import Acyclic, Connected, Sized

    rules = [r for r in problem.rules if isinstance(r, Connected | Acyclic | Sized)]
    if not rules:
        return []
    n_primary = problem.n_primary
    n = len(problem.items)
    wanted = {m for rule in rules for m in rule.members if m[0] < n_primary and m[1] is not None}
    given = wanted & {entry for o in problem.options for entry in o}
    if given:
        item, color = min(given)
        raise InputError(
            f"rule member {problem.items[item].name}:{color}: primary item with a color"
        )
    table = [len(rules), 0, 0, 0] + [0] * len(rules)
    table[R_STATE] = len(table)
    table += [0] * (n + 1)
    # The index: the members on each item, filled in once the blocks' places are known.
    on_item: list[list[int]] = [[] for _ in range(n + 1)]
    table[R_INDEX] = len(table)
    index = len(table)
    table += [0] * (n + 2)
    table += [0] * (3 * sum(len(rule.members) for rule in rules))
    for j, rule in enumerate(rules):
        size = len(rule.members)
        block = len(table)
        table[R_BLOCKS + j] = block
        table += [0] * B_FIELDS
        table[block + B_KIND] = (
            CONNECTED
            if isinstance(rule, Connected)
            else SIZED
            if isinstance(rule, Sized)
            else ACYCLIC
        )
        table[block + B_SIZE] = size
        table[block + B_ITEMS] = len(table)
        for k, (i, c) in enumerate(rule.members):
            if c is not None and i < n_primary:
                table.append(0)
            else:
                table.append(i + 1)
                on_item[i + 1] += [block, k, -1 if c is None else ord(c)]
        table[block + B_COLORS] = len(table)
        table += [-1 if c is None else ord(c) for _, c in rule.members]
        table[block + B_MARKS] = len(table)
        table += [0] * size
        if isinstance(rule, Connected | Sized):
            neighbours = rule.neighbours()
            table[block + B_LINKS] = len(table)
            starts = len(table)
            table += [0] * (size + 1)
            for k, near in enumerate(neighbours):
                table[starts + k] = len(table)
                table += near
            table[starts + size] = len(table)
            table[block + B_ROOTS] = len(table)
            if isinstance(rule, Sized):
                cap = size + 1  # (see the docstring: sizes above it act alike)
                if rule.size is not None:
                    table[block + B_NROOTS] = (
                        -min(rule.size, cap) if rule.at_least else min(rule.size, cap)
                    )
                else:
                    anchor = [0] * size
                    for m, want in rule.anchors:
                        anchor[m] = min(want, cap)
                    table += anchor + [max(anchor)]
            elif rule.roots is None:
                table[block + B_NROOTS] = -1
            else:
                table[block + B_NROOTS] = len(rule.roots)
                table += list(rule.roots)
                is_root = [0] * size  # (and after them, whether each member is one)
                for k in rule.roots:
                    is_root[k] = 1
                table += is_root
            table[block + B_WORK] = len(table)
            table += [0] * size
        else:
            vertices = 1 + max((max(u, v) for u, v in rule.ends), default=-1)
            table[block + B_LINKS] = len(table)
            for u, v in rule.ends:
                table += [u, v]
            table[block + B_NROOTS] = vertices
            table[block + B_WORK] = len(table)
            table += [0] * vertices
        table[block + B_STACK] = len(table)
        table += [0] * size
    at = index + n + 2
    for i, entries in enumerate(on_item):
        table[index + i] = at
        table[at : at + len(entries)] = entries
        at += len(entries)
    table[index + n + 1] = at
    return table


#: Fields per node of the sparse-set layout (:func:`build_sets`): its item (a spacer: minus
#: the length of the option before it) and its place in that item's set.
XITM, XLOC = 0, 1
NX = 2


def build_sets(problem: Problem) -> Arrays:
    """Lay an uncolored problem without multiplicities (``XC``) out for Algorithm X on sparse
    sets (``kernel.search_sets``).

    ``nd`` has ``NX`` fields per node (``XITM``, ``XLOC``), the nodes option by option in the
    order written, each option followed by a spacer whose ``XITM`` is minus the option's
    length (so that a walk round an option steps back from the spacer to its first node).
    ``cl`` starts with the place where the set of every item begins (index ``c``, for items
    ``1..n``); from ``n + 2`` on come the sets, the nodes of each item's options, the active
    ones first (``ln[c]`` of them). ``ln`` also has room for two copies of the lengths per
    level of the search (the state to go back to).

    >>> from dlxsat.xcc import parse
    >>> a = build_sets(parse("a b | x\\na x\\nb\\n"))
    >>> a.nd  # nodes 0, 1 (option 0), spacer 2, node 3 (option 1), spacer 4
    [1, 5, 3, 7, -2, 0, 2, 6, -1, 0]
    >>> a.cl, a.ln[:4], a.opt_of
    ([0, 5, 6, 7, 0, 0, 3, 1], [0, 1, 1, 1], [0, 0, -1, 1, -1])
    """
    items = problem.items
    n = len(items)
    n_primary = problem.n_primary
    if n_primary == 0:
        raise InputError("no primary items")
    options = problem.options
    n_entries = sum(len(o) for o in options)
    if any(not o for o in options):
        raise InputError("an option has no items")
    n_nodes = n_entries + len(options)
    if n_nodes + n + 2 >= HIDDEN // 4:
        raise InputError(f"too many entries for the dlx backend: {n_entries}")
    nd = [0] * (NX * n_nodes)
    opt_of = [-1] * n_nodes
    ln = [0] * (n + 1)
    members: list[list[int]] = [[] for _ in range(n + 1)]
    p = 0
    for k, o in enumerate(options):
        for i, _ in o:
            nd[NX * p + XITM] = i + 1
            opt_of[p] = k
            members[i + 1].append(p)
            p += 1
        nd[NX * p + XITM] = -len(o)
        p += 1
    cl = [0] * (n + 2)
    for c in range(1, n + 1):
        cl[c] = len(cl)
        ln[c] = len(members[c])
        for node in members[c]:
            nd[NX * node + XLOC] = len(cl)
            cl.append(node)
    max_level = n_primary + 2
    ln += [0] * (2 * max_level * (n + 1))
    max_value = max(len(cl), n_nodes, n + 2)
    return Arrays(nd, cl, ln, opt_of, n, n_primary + 1, n + 1, max_level, max_value)


#: Options per word of the bitset layout: 63, so that a word is a non-negative ``int64`` (and
#: the same number as a Python int in the interpreted tier).
WORD_BITS = 63


def build_bits(problem: Problem, n_state: int) -> Arrays:
    """Lay an ``XC`` problem out for Algorithm X on bitsets of options (``kernel.search_bits``).

    ``nd``: ``nd[0]`` the number of words ``W`` of a set of options (option ``o`` is bit
    ``o % 63`` of word ``o // 63``); for item ``c`` (``1..n``) the entries ``j`` in
    ``nd[c]..nd[c + 1]`` are the words where it has options, word ``nd[n + 2 + j]``; from
    ``os = n + 2 + nd[n + 1]``, ``nd[os + o]`` is where option ``o``'s items
    start in ``nd`` (``o`` up to the number of options, for the end). ``state`` (the kernel's
    ``st``): after the ``n_state`` slots, the masks of those entries (``st[n_state + j]``),
    then per level the active options and the active options without those of the item
    chosen (``W`` words each). ``ln``: per level, the lengths of the primary items (``HIDDEN``
    added once covered) as the level begins and once its item is chosen (``n_primary + 1``
    entries each; the first copy filled in here), then the item chosen at each level.
    ``opt_of`` is the identity (the choices are option numbers).

    >>> from dlxsat.xcc import parse
    >>> a = build_bits(parse("a b | x\\na x\\nb\\n"), 2)
    >>> a.nd  # W; the word lists of a, b, x (one word each); option table at 8; the options
    [1, 0, 1, 2, 3, 0, 0, 0, 11, 13, 14, 1, 3, 2]
    >>> a.state[:6]  # the 2 state slots, masks of a, b, x, level 0's active options
    [0, 0, 1, 2, 1, 3]
    """
    items = problem.items
    n = len(items)
    n_primary = problem.n_primary
    if n_primary == 0:
        raise InputError("no primary items")
    options = problem.options
    if any(not o for o in options):
        raise InputError("an option has no items")
    n_opts = len(options)
    words = max(1, -(-n_opts // WORD_BITS))
    masks: list[dict[int, int]] = [{} for _ in range(n + 1)]
    for k, o in enumerate(options):
        w, bit = divmod(k, WORD_BITS)
        for i, _ in o:
            m = masks[i + 1]
            m[w] = m.get(w, 0) | (1 << bit)
    nd = [0] * (n + 2)
    nd[0] = words
    word_of: list[int] = []
    mask_of: list[int] = []
    for c in range(1, n + 1):
        nd[c] = len(word_of)
        for w in sorted(masks[c]):
            word_of.append(w)
            mask_of.append(masks[c][w])
    nd[n + 1] = len(word_of)
    nd += word_of
    table = len(nd)
    nd += [0] * (n_opts + 1)
    for k, o in enumerate(options):
        nd[table + k] = len(nd)
        nd += [i + 1 for i, _ in o]
    nd[table + n_opts] = len(nd)
    max_level = n_primary + 2
    # Two copies of the primary items' lengths per level, then the item chosen at each level.
    ln = [0] * (2 * (n_primary + 1) * max_level + max_level)
    for c in range(1, n_primary + 1):
        ln[c] = sum(m.bit_count() for m in masks[c].values())
    everything = [(1 << WORD_BITS) - 1] * words
    if n_opts % WORD_BITS:
        everything[-1] = (1 << (n_opts % WORD_BITS)) - 1
    if n_opts == 0:
        everything[-1] = 0
    state = [0] * n_state + mask_of + everything + [0] * (words * (2 * max_level - 1))
    max_value = max(len(nd), n + 2, words)
    return Arrays(
        nd, [0], ln, list(range(n_opts)), n, n_primary + 1, n + 1, max_level, max_value, state
    )
