"""The dancing-links kernels: Knuth's Algorithms X/C (DLX1, DLX2) and M (DLX3).

Both kernels follow Knuth's programs step by step -- the same item choice with the same tie
breaking, the same order of covering, purifying, tweaking and undoing, the same ``nodes`` and
``updates`` counters -- so that their search trees and figures are his. The single-loop rule of
DLX2-LOOP is built in (``loop`` flag): when a purification gives an edge item color ``1``, the
edge joins the path fragments (``mate``/``inner`` of its vertices); an edge that would give a
vertex degree 3, close a cycle while other fragments exist, or come after the cycle is closed
is refused, and the option is abandoned at once (his "dangerous recovery"). The same rule sits
in Algorithm M's purify/unpurify (DLX3-LOOP).

The other global rules, :class:`~dlxsat.xcc.rules.Connected`,
:class:`~dlxsat.xcc.rules.Acyclic` and :class:`~dlxsat.xcc.rules.Sized`, prune the same way, in
both kernels, when ``params[P_RULES]`` points at their table in ``cl`` (``arrays.rule_table``).
Once an option is covered, ``_choose`` records it in the table's *item states* (``_mark``: how
many chosen options hold each primary item; the color a chosen option gave each secondary item)
and checks every rule (``_rules_hold``), each member being *present* (a chosen option has it),
*absent* (its item is decided otherwise -- covered or purified with another color by a chosen
option, or a primary item out of the active list -- or no option left in its item's list has
its color) or *open*. Present and absent members stay so in the whole subtree, so a rule that
fails with the open members taken as possible fails in every answer below: the present members
of a Connected rule must be joined through present or open ones (each to a present or open
root, when it has roots), those of an Acyclic rule hold no cycle, and each piece of a Sized
rule's present members may still come to its size (``_sized``: it is not too large nor holds
two anchors, and once no open member is next to it, it is of its size). On failure the option
is undone and the next one tried without counting a node, as DLX2-LOOP does with a refused
edge; a solution is checked with no member open. Which members are present is kept up to
date by ``_mark`` (each rule's *present stack*, filled and emptied in the order the options come
and go), so a check starts from the present members and looks at their neighbours only, not
at every member of every rule; openness is worked out at the check rather than kept up to date
where lists change: the hot loops of ``_cover``, ``_purify`` and the rest stay exactly Knuth's,
and a member's openness is looked up (in its item's list, usually its first node or two) only
when the check reaches it. A search without such rules pays
one test of ``P_RULES`` per option chosen (and per solution): compiled, no difference measured
(CPU time on the golden runs and Algorithm X on dancing links, within 1 %).

One thing is done differently in Algorithm X/C, for speed, without changing any choice: Knuth
finds the item to branch on by walking the list of active items, a dependent memory access per
item (a third of his running time). Dancing links keep that list in the original item order,
so "the leftmost shortest item" is "the shortest item of smallest index"; the kernel finds it
as the least (length, index) pair over all primary items in one pass over the array of
lengths, a loop the compiler turns into vector instructions. For that, the length of a
primary item out of the active list carries an extra ``HIDDEN`` (added when it is unlinked,
taken off when it is linked again, in both kernels), which keeps it out of the minimum.
Algorithm M, whose score and ties need each item's bound and slack too, passes over the
primary items in order the same way when there are many of them, compiled
(``FLAT_SCAN_ITEMS_COMPILED``); where the bounds are small (below 128, as in every genre) its
layout keeps a key per item beside the lengths, updated whenever a bound changes, so that the
pass too reads two arrays in order and takes a plain minimum (``arrays.choice_key``).

The kernels work on ``arrays.py``'s matrices flattened (as ``int16`` when the values fit,
``int32`` otherwise; numba compiles a version for each): node ``p``'s field ``F`` is
``nd[N * p + F]`` and item ``c``'s field ``F`` is ``cl[I * c + F]``; the lengths of the item
lists (the ``ITM`` field of the header nodes in Knuth's layout) are kept apart, in ``ln``, so
that the choice above scans contiguous memory. Keeping a node's fields side by side, as
Knuth's structs do, measured faster than one array per field, and it keeps calls between the
compiled functions cheap (three arrays to pass, not a dozen).

Algorithm X (no colors, no multiplicities, no loop rule) also runs on two other layouts, with
the same search tree -- the same item chosen at every node, its options tried in the same
order -- and the same ``nodes`` and ``updates``, counted as DLX1 would make them rather than by
making them. :func:`search_bits` keeps a level's active options as a bitset: choosing an option
makes the next level's set in one pass over the words, and going back is returning to the set
of the level before, with nothing to undo; an item's length is either kept per level (small
sets) or counted from the bits when it is needed. On the pentomino and 12-queens counts it is
three to four times as fast as dancing links. :func:`search_sets` keeps every item's active
options as the front of an array (sparse sets) and goes back by restoring the saved lengths,
for problems too large for the bitsets. ``search_c`` runs them when ``params[P_LAYOUT]`` says
so, so that one compiled entry point serves all three.

numba code cannot read the clock, so a kernel is *resumable*: the whole search state lives in
arrays (the choice stack, ``st``); the kernel runs until it has begun ``budget`` more nodes,
found a solution that must be handed over, reached the solution limit, or finished, and
returns a status; calling it again continues where it stopped. The budget is checked where a
node begins (``FORWARD``); solutions stop it right after they are recorded.

Two tiers run this same code. This module is plain Python (it does not import numba): the
*interpreted* tier calls its functions as they are, on Python lists, which costs nothing to
load and solves a small puzzle in milliseconds. ``compiled.py`` hands the very same functions
to numba (with ``get``/``put`` as unchecked array accesses and ``wide`` as ``np.int64``), which
runs them some hundred times faster but takes a few tenths of a second to load, even from
numba's cache. Since both tiers keep the whole state in the argument arrays, a search begun
interpreted can go on compiled where it stopped (``dlxsat.backends.dlx``), with the same tree.
"""

from __future__ import annotations

import operator
from typing import Any, TypeAlias

from .arrays import (
    B_COLORS,
    B_HEIGHT,
    B_ITEMS,
    B_KIND,
    B_LINKS,
    B_MARKS,
    B_NROOTS,
    B_ROOTS,
    B_SIZE,
    B_STACK,
    B_WORK,
    BOUND,
    COLOR,
    CONNECTED,
    DOWN,
    EU,
    EV,
    HIDDEN,
    INNER,
    ITM,
    MATE,
    NEXT,
    NX,
    ON_COLOR,
    PREV,
    R_BLOCKS,
    R_COUNT,
    R_FIRST,
    R_INDEX,
    R_STATE,
    SIZED,
    SLACK,
    UP,
    WORD_BITS,
    XITM,
    XLOC,
    I,
    N,
)
from .arrays import choice_key as _choice_key

#: The kernels' arrays, as each tier passes them: Python lists (a dict for ``sols``, which the
#: kernels index as ``sols[k, m]``) in the interpreted tier, numpy arrays of the catalog's
#: signatures in the compiled one. The kernels only index them (``get``/``put``, ``[]``), so
#: they are typed loosely; numba ignores the annotations.
Array: TypeAlias = Any

# Program counters (Knuth's labels).
FORWARD, ADVANCE, BACKUP, RECOVER, BACKDOWN = 0, 1, 2, 3, 4

# Slots of the state vector ``st`` (int64).
S_PC, S_LEVEL, S_BEST, S_CUR, S_COUNT, S_NODES, S_UPDATES = 0, 1, 2, 3, 4, 5, 6
S_LAST_EDGE, S_FRAGS, S_STORED = 7, 8, 9
N_STATE = 10

# Slots of the parameter vector ``params`` (int64). ``P_LAYOUT``: which layout the arrays are
# in, dancing links (``arrays.build``), sparse sets (``build_sets``) or bitsets (``build_bits``).
# ``P_RULES``: where the rule table begins in ``cl`` (``arrays.rule_table``), 0 without one.
P_SECOND, P_LAST_ITM, P_LOOP, P_ALLOW_EMPTY, P_MAX_COUNT, P_BUDGET, P_STORE_CAP, P_LAYOUT = range(8)
P_RULES = 8
# ``P_MIRROR``: ties between the shortest items go to the rightmost instead of Knuth's leftmost
# (``search_c`` and ``search_m`` on dancing links, and ``estimate``'s probes of the first): the
# same answers through another tree, which ``auto``'s loop trial searches when Knuth's outlives
# half of it.
P_MIRROR = 9
#: Where ``ln`` keeps Algorithm M's choice keys (``arrays.Arrays.aux``, ``arrays.choice_key``);
#: 0: it does not (the choice then reads each item's bound and slack, :func:`_branch_m`).
P_AUX = 10
N_PARAMS = 11
#: Subtracted from: an item's index under ``P_MIRROR``, so that the least key is the rightmost.
MIRROR_MASK = 0x7FFFFFFF
LINKS, SETS, BITS, BITS_KEPT = 0, 1, 2, 3

# Return codes.
DONE, BUDGET, LIMIT, FULL = 0, 1, 2, 3

#: A score above every real one: "no active item" (Knuth's ``infty``).
NONE_ACTIVE = HIDDEN // 2
#: A Connected rule with more roots than this is checked from its present members
#: (:func:`_rooted`), one with fewer from its roots: measured on published boards (8 a genre,
#: at most 100,000 nodes each, idle, 2026-11-28), Cave, whose roots are the border (36-52
#: cells), searched in 0.81 of the time (a 14 x 14: 0.61), Galaxies, whose rules have the 1-4
#: cells touching a star as roots, in 1.2 x the time.
FEW_ROOTS = 8
#: Algorithm M chooses its item by a pass over every primary item, rather than by walking the
#: active list, when the problem has more than this many: on the shading genres' MCC problems
#: (Heyawake, Aqre, Kuromasu, Norinori: 110-700 primary items; 8 published boards each, at
#: most 100,000 nodes each, idle, 2026-11-28) the search took 0.80-0.90 of the time (the walk
#: had been some 60 % of a Heyawake node); on 7 x 7 0-1 matrices with three ones a line (14
#: items, 3 million nodes) the pass took 1.12 x the walk, which is short when few items are
#: left. That is the compiled tier's (``jit.namespace`` gives it this value); interpreted, the
#: walk is kept whatever the size (:data:`FLAT_SCAN_ITEMS`: never), as there a step of the pass
#: costs as much as a step of the walk and the pass takes the inactive items too (Kuromasu's
#: small published boards, the first 3,000 nodes: 1.55 x the walk's time; Aqre, Heyawake,
#: Hitori 1.16-1.18 x).
FLAT_SCAN_ITEMS_COMPILED = 64
FLAT_SCAN_ITEMS = 1 << 62

# Every array access goes through ``get`` and ``put`` (and a 64-bit widening through ``wide``)
# so that the compiled tier can swap in its own versions: numba's plain indexing adds code for
# negative indices to each access, a sixth of the running time there (see compiled.py). In the
# interpreted tier they are Python's own item access.
get = operator.getitem
put = operator.setitem
wide = int
#: The bits set in a non-negative word, and the index of its lowest one (compiled: one
#: instruction each).
popcount = int.bit_count


def ctz(x: int) -> int:
    """The index of the lowest bit set in ``x`` (> 0)."""
    return (x & -x).bit_length() - 1


def _shortest(ln: Array, second: int, mirror: int) -> int:
    """The active primary item with the shortest list (hidden ones are longer), the leftmost on
    ties -- Knuth's choice: the least (length, index) pair; with ``mirror`` (``MIRROR_MASK``,
    ``P_MIRROR``) the rightmost: the least (length, mirror - index). ``search_c`` and
    ``estimate``'s probes choose by it."""
    if mirror == 0:
        key = (wide(get(ln, 1)) << 32) | 1
        for k in range(2, second):
            key = min(key, (wide(get(ln, k)) << 32) | k)
        best: int = key & 0xFFFFFFFF
        return best
    key = (wide(get(ln, 1)) << 32) | (mirror - 1)
    for k in range(2, second):
        key = min(key, (wide(get(ln, k)) << 32) | (mirror - k))
    best = mirror - (key & 0xFFFFFFFF)
    return best


def _deactivate(ln: Array, cl: Array, c: int, second: int) -> None:
    """Take item ``c`` out of the active list (a primary item's length then carries
    ``HIDDEN``, which keeps it out of the passes that choose an item): Algorithm M's null
    move, in its search and in the estimate's probes (:func:`_cover` does the same)."""
    l = get(cl, I * c + PREV)
    r = get(cl, I * c + NEXT)
    put(cl, I * l + NEXT, r)
    put(cl, I * r + PREV, l)
    if c < second:
        put(ln, c, get(ln, c) + HIDDEN)


def _reactivate(ln: Array, cl: Array, c: int, second: int) -> None:
    """Undo :func:`_deactivate`."""
    l = get(cl, I * c + PREV)
    r = get(cl, I * c + NEXT)
    put(cl, I * l + NEXT, c)
    put(cl, I * r + PREV, c)
    if c < second:
        put(ln, c, get(ln, c) - HIDDEN)


def _cover(nd: Array, ln: Array, cl: Array, c: int, second: int, last_itm: int, deact: bool) -> int:
    """Remove item ``c`` from the active list (if ``deact``) and hide all its options."""
    # (_deactivate's steps written out, here and in _uncover: calling it from these, the
    # hottest helpers, made Algorithm M's searches 1.02-1.37 x as slow: dlx_genres.py)
    if deact:
        l = get(cl, I * c + PREV)
        r = get(cl, I * c + NEXT)
        put(cl, I * l + NEXT, r)
        put(cl, I * r + PREV, l)
        if c < second:
            put(ln, c, get(ln, c) + HIDDEN)
    upd = 1
    rr = get(nd, N * c + DOWN)
    while rr >= last_itm:
        nn = rr + 1
        while nn != rr:
            if get(nd, N * nn + COLOR) >= 0:
                uu = get(nd, N * nn + UP)
                dd = get(nd, N * nn + DOWN)
                cc = get(nd, N * nn + ITM)
                if cc <= 0:
                    nn = uu
                    continue
                put(nd, N * uu + DOWN, dd)
                put(nd, N * dd + UP, uu)
                upd += 1
                put(ln, cc, get(ln, cc) - 1)
            nn += 1
        rr = get(nd, N * rr + DOWN)
    return upd


def _uncover(
    nd: Array, ln: Array, cl: Array, c: int, second: int, last_itm: int, react: bool
) -> None:
    """Undo :func:`_cover` (options in the same order: the dance still comes out right)."""
    rr = get(nd, N * c + DOWN)
    while rr >= last_itm:
        nn = rr + 1
        while nn != rr:
            if get(nd, N * nn + COLOR) >= 0:
                uu = get(nd, N * nn + UP)
                dd = get(nd, N * nn + DOWN)
                cc = get(nd, N * nn + ITM)
                if cc <= 0:
                    nn = uu
                    continue
                put(nd, N * uu + DOWN, nn)
                put(nd, N * dd + UP, nn)
                put(ln, cc, get(ln, cc) + 1)
            nn += 1
        rr = get(nd, N * rr + DOWN)
    if react:
        l = get(cl, I * c + PREV)
        r = get(cl, I * c + NEXT)
        put(cl, I * l + NEXT, c)
        put(cl, I * r + PREV, c)
        if c < second:
            put(ln, c, get(ln, c) - HIDDEN)


def _purify(nd: Array, ln: Array, p: int, last_itm: int) -> int:
    """Hide the options that give node ``p``'s item another color; mark those that agree."""
    c = get(nd, N * p + ITM)
    x = get(nd, N * p + COLOR)
    upd = 0
    rr = get(nd, N * c + DOWN)
    while rr >= last_itm:
        if get(nd, N * rr + COLOR) != x:
            nn = rr + 1
            while nn != rr:
                uu = get(nd, N * nn + UP)
                dd = get(nd, N * nn + DOWN)
                cc = get(nd, N * nn + ITM)
                if cc <= 0:
                    nn = uu
                    continue
                if get(nd, N * nn + COLOR) >= 0:
                    put(nd, N * uu + DOWN, dd)
                    put(nd, N * dd + UP, uu)
                    upd += 1
                    put(ln, cc, get(ln, cc) - 1)
                nn += 1
        elif rr != p:
            put(nd, N * rr + COLOR, -1)
        rr = get(nd, N * rr + DOWN)
    return upd


def _unpurify(nd: Array, ln: Array, p: int, last_itm: int) -> None:
    """Undo :func:`_purify` (bottom up, each option right to left)."""
    c = get(nd, N * p + ITM)
    x = get(nd, N * p + COLOR)
    rr = get(nd, N * c + UP)
    while rr >= last_itm:
        if get(nd, N * rr + COLOR) < 0:
            put(nd, N * rr + COLOR, x)
        elif rr != p:
            nn = rr - 1
            while nn != rr:
                uu = get(nd, N * nn + UP)
                dd = get(nd, N * nn + DOWN)
                cc = get(nd, N * nn + ITM)
                if cc <= 0:
                    nn = dd
                    continue
                if get(nd, N * nn + COLOR) >= 0:
                    put(nd, N * uu + DOWN, nn)
                    put(nd, N * dd + UP, nn)
                    put(ln, cc, get(ln, cc) + 1)
                nn -= 1
        rr = get(nd, N * rr + UP)


def _tweak(nd: Array, ln: Array, n: int, block: bool) -> int:
    """DLX3: take node ``n`` (the top of its item) out; with ``block`` its whole option."""
    upd = 0
    nn = n + 1 if block else n
    while True:
        if get(nd, N * nn + COLOR) >= 0:
            uu = get(nd, N * nn + UP)
            dd = get(nd, N * nn + DOWN)
            cc = get(nd, N * nn + ITM)
            if cc <= 0:
                nn = uu
                continue
            put(nd, N * uu + DOWN, dd)
            put(nd, N * dd + UP, uu)
            upd += 1
            put(ln, cc, get(ln, cc) - 1)
        if nn == n:
            break
        nn += 1
    return upd


def _untweak(
    nd: Array, ln: Array, cl: Array, c: int, x: int, unblock: bool, second: int, last_itm: int
) -> None:
    """DLX3: undo every tweak of item ``c`` since its top was node ``x``."""
    z = get(nd, N * c + DOWN)
    put(nd, N * c + DOWN, x)
    rr = x
    k = 0
    qq = c
    while rr != z:
        put(nd, N * rr + UP, qq)
        k += 1
        if unblock:
            nn = rr + 1
            while nn != rr:
                if get(nd, N * nn + COLOR) >= 0:
                    uu = get(nd, N * nn + UP)
                    dd = get(nd, N * nn + DOWN)
                    cc = get(nd, N * nn + ITM)
                    if cc <= 0:
                        nn = uu
                        continue
                    put(nd, N * uu + DOWN, nn)
                    put(nd, N * dd + UP, nn)
                    put(ln, cc, get(ln, cc) + 1)
                nn += 1
        qq = rr
        rr = get(nd, N * rr + DOWN)
    put(nd, N * rr + UP, qq)
    put(ln, c, get(ln, c) + k)
    if not unblock:
        _uncover(nd, ln, cl, c, second, last_itm, False)


def _add_edge(cl: Array, e: int, st: Array) -> bool:
    """DLX2-LOOP: edge item ``e`` gets color 1; join it to the path fragments or refuse it."""
    if st[S_LAST_EDGE] != 0:
        return False  # the loop is already closed
    u = get(cl, I * e + EU)
    v = get(cl, I * e + EV)
    mu = get(cl, I * u + MATE)
    mv = get(cl, I * v + MATE)
    if mu != 0 and get(cl, I * u + INNER) != 0:
        return False  # u would get degree 3
    if mv != 0 and get(cl, I * v + INNER) != 0:
        return False
    if mu == 0:
        if mv == 0:  # a new fragment u-v
            put(cl, I * u + MATE, v)
            put(cl, I * v + MATE, u)
            st[S_FRAGS] += 1
        else:  # extend the fragment that ends at v
            put(cl, I * u + MATE, mv)
            put(cl, I * mv + MATE, u)
            put(cl, I * v + INNER, 1)
    elif mv == 0:  # extend the fragment that ends at u
        put(cl, I * v + MATE, mu)
        put(cl, I * mu + MATE, v)
        put(cl, I * u + INNER, 1)
    elif mu == v:  # the edge closes a fragment: only the last one may close
        if st[S_FRAGS] != 1:
            return False
        st[S_LAST_EDGE] = e
    else:  # two fragments become one
        put(cl, I * mu + MATE, mv)
        put(cl, I * mv + MATE, mu)
        put(cl, I * u + INNER, 1)
        put(cl, I * v + INNER, 1)
        st[S_FRAGS] -= 1
    return True


def _delete_edge(cl: Array, e: int, st: Array) -> None:
    """Undo :func:`_add_edge`."""
    u = get(cl, I * e + EU)
    v = get(cl, I * e + EV)
    mu = get(cl, I * u + MATE)
    mv = get(cl, I * v + MATE)
    if mu == mv:  # e was the end of a longer fragment
        if get(cl, I * mu + MATE) == v:
            put(cl, I * mu + MATE, u)
            put(cl, I * v + MATE, 0)
            put(cl, I * u + INNER, 0)
        else:
            put(cl, I * mu + MATE, v)
            put(cl, I * u + MATE, 0)
            put(cl, I * v + INNER, 0)
    elif mu == v:  # e was a fragment by itself, or the edge that closed the loop
        if st[S_LAST_EDGE] == e:
            st[S_LAST_EDGE] = 0
        else:
            put(cl, I * u + MATE, 0)
            put(cl, I * v + MATE, 0)
            st[S_FRAGS] -= 1
    else:  # e joined two fragments
        put(cl, I * mu + MATE, u)
        put(cl, I * mv + MATE, v)
        put(cl, I * u + INNER, 0)
        put(cl, I * v + INNER, 0)
        st[S_FRAGS] += 1


def _accept(st: Array, params: Array) -> bool:
    """Does the solution at hand obey the loop rule (when it applies)?

    Knuth's rule admits the empty edge set (``allow_empty``). A solution whose edges are open
    paths cannot arise when every vertex has degree 0 or 2, as in every loop encoding; it is
    refused here (his program would count it).
    """
    if params[P_LOOP] == 0 or st[S_LAST_EDGE] != 0:
        return True
    accepted: bool = st[S_FRAGS] == 0 and params[P_ALLOW_EMPTY] != 0
    return accepted


# A member's mark in a rule check: not looked at yet, present, open (it may still come),
# absent (it cannot); ``SEEN`` is added once the search through the links has reached it.
UNKNOWN, PRESENT, OPEN, ABSENT, SEEN = 0, 1, 2, 3, 4


def _mark(nd: Array, cl: Array, cur: int, r: int, second: int, delta: int) -> None:
    """Record in the item states of the rule table at ``r`` that the option of node ``cur``
    is chosen (``delta`` 1) or no longer (``delta`` -1), for the rule checks.

    A primary item counts the chosen options that hold it. A secondary item gets 1 + its color
    from the option that covers or purifies it (its node still has its color, >= 0); an option
    that meets it already purified (color -1, set by the purifying option's ``_purify``) leaves
    it alone, and taking back the option that decided it clears it: the options come and go in
    stack order, so the state is always the decision of the chosen options. The members a state
    makes present go on their rules' present stacks (:func:`_present_change`), and come off in
    the same stack order.
    """
    states = r + get(cl, r + R_STATE)
    pp = cur
    while True:
        cc = get(nd, N * pp + ITM)
        if cc <= 0:
            pp = get(nd, N * pp + UP)
        else:
            if cc < second:
                v = get(cl, states + cc)
                put(cl, states + cc, v + delta)
                if v == 0 or v + delta == 0:  # present from now on, or no longer
                    _present_change(cl, r, cc, -1, delta)
            else:
                x = get(nd, N * pp + COLOR)
                if x >= 0:
                    put(cl, states + cc, x + 1 if delta > 0 else 0)
                    _present_change(cl, r, cc, x, delta)
            pp += 1
        if pp == cur:
            break


def _present_change(cl: Array, r: int, c: int, x: int, delta: int) -> None:
    """Item ``c`` has just been decided with color ``x`` (-1: a primary item now held;
    ``delta`` 1) or is no longer (``delta`` -1): push its members of that color, or of any,
    on their rules' present stacks, or pop them. Popping only lowers a height: the options are
    taken back in the order they came, so the members this item pushed are the top ones.

    This keeps the checks' work to the members present and their neighbours: a Fillomino
    board's seven sized rules of some 140 members each had every member's state looked up at
    every node (3.7 of a node's 5.3 microseconds on 631_15x15), while a few dozen are present."""
    index = r + get(cl, r + R_INDEX)
    for q in range(get(cl, index + c), get(cl, index + c + 1), 3):
        y = get(cl, r + q + 2)
        if y < 0 or y == x:
            b = r + get(cl, r + q)
            h = get(cl, b + B_HEIGHT)
            if delta > 0:
                put(cl, r + get(cl, b + B_STACK) + h, get(cl, r + q + 1))
                put(cl, b + B_HEIGHT, h + 1)
            else:
                put(cl, b + B_HEIGHT, h - 1)


def _present(cl: Array, states: int, c: int, x: int) -> bool:
    """Is the member (item ``c``, color ``x``; -1: any) present in the options chosen?"""
    v = get(cl, states + c)
    return v > 0 and (x < 0 or v == x + 1)


def _open(nd: Array, ln: Array, cl: Array, states: int, c: int, x: int, last_itm: int) -> bool:
    """May a member that is not present still come, by an option not hidden yet?

    Not when its item is decided (a secondary item covered or purified by a chosen option with
    another color; a primary item out of the active list: covered, or given up by Algorithm M's
    null move, and its options hidden). Otherwise the item's list holds exactly its options
    still available (hiding an option unlinks its nodes from every list but the one of the item
    being covered or purified, which is decided): one with the member's color is enough.
    """
    if get(cl, states + c) > 0 or get(ln, c) >= HIDDEN:
        return False
    if x < 0:
        some: bool = get(ln, c) > 0
        return some
    rr = get(nd, N * c + DOWN)
    while rr > last_itm:
        if get(nd, N * rr + COLOR) == x:
            return True
        rr = get(nd, N * rr + DOWN)
    return False


def _unmark(cl: Array, marks: int, queue: int, tail: int, back: int, size: int) -> None:
    """Put back to ``UNKNOWN`` the marks a check set: those of the members in its queue
    (``queue[0:tail]``) and of those it found absent or open (``queue[back:size]``).

    A check marks each member at most once, so the two ends never meet; clearing what was
    touched, rather than every mark before each check, keeps a check's work to the members it
    reaches."""
    for t in range(tail):
        put(cl, marks + get(cl, queue + t), UNKNOWN)
    for t in range(back, size):
        put(cl, marks + get(cl, queue + t), UNKNOWN)


def _connected(
    nd: Array, ln: Array, cl: Array, r: int, b: int, states: int, last_itm: int, exact: bool
) -> bool:
    """Can the members of the Connected rule whose block is at ``b`` still be connected (with
    ``exact``: are the present ones connected)?

    A search over the links from one present member (from every root that is present or open,
    when the rule has roots) through the members present or open must reach every present
    member: present ones stay present below this node and absent ones absent, so a present
    member cut off from the others (from every root) by absent members is cut off in every
    answer below. With ``exact`` (a solution) no member is open. The search stops as soon as
    every present member is reached (their number is the height of the present stack); a
    member's presence and openness are looked at only when it is reached. A rule with more
    than :data:`FEW_ROOTS` roots is searched from its present members instead (:func:`_rooted`).
    """
    present = get(cl, b + B_HEIGHT)
    if present == 0:
        return True
    n_roots = get(cl, b + B_NROOTS)
    if n_roots > FEW_ROOTS:
        return _rooted(nd, ln, cl, r, b, states, last_itm, exact, present)
    size = get(cl, b + B_SIZE)
    items = r + get(cl, b + B_ITEMS)
    colors = r + get(cl, b + B_COLORS)
    marks = r + get(cl, b + B_MARKS)
    queue = r + get(cl, b + B_WORK)
    tail = 0
    back = size  # the members found absent, from the queue's far end
    reached = 0
    if n_roots < 0:
        # From the present member first in the rule's order, as the check always began: from
        # the one present longest (the stack's bottom) Creek's searches took 1.18 x the time
        # (8 published boards; the other genres within 4 % either way), from the newest 1.05 x
        # and Heyawake's, Nurikabe's and Cave's 1.1 x.
        stack = r + get(cl, b + B_STACK)
        start = get(cl, stack)
        for s in range(1, present):
            start = min(start, get(cl, stack + s))
        put(cl, marks + start, PRESENT + SEEN)
        put(cl, queue, start)
        tail = 1
        reached = 1
    else:
        roots = r + get(cl, b + B_ROOTS)
        for j in range(n_roots):
            k = get(cl, roots + j)
            if get(cl, marks + k) != UNKNOWN:
                continue  # (a root listed twice)
            c = get(cl, items + k)
            x = get(cl, colors + k)
            if _present(cl, states, c, x):
                m = PRESENT
                reached += 1
            elif exact or not _open(nd, ln, cl, states, c, x, last_itm):
                back -= 1
                put(cl, queue + back, k)
                put(cl, marks + k, ABSENT)
                continue
            else:
                m = OPEN
            put(cl, marks + k, m + SEEN)
            put(cl, queue + tail, k)
            tail += 1
    links = r + get(cl, b + B_LINKS)
    head = 0
    while head < tail and reached < present:
        k = get(cl, queue + head)
        head += 1
        for q in range(get(cl, links + k), get(cl, links + k + 1)):
            j = get(cl, r + q)
            if get(cl, marks + j) != UNKNOWN:  # absent, or reached already
                continue
            c = get(cl, items + j)
            x = get(cl, colors + j)
            if _present(cl, states, c, x):
                m = PRESENT
                reached += 1
            elif exact or not _open(nd, ln, cl, states, c, x, last_itm):
                back -= 1
                put(cl, queue + back, j)
                put(cl, marks + j, ABSENT)
                continue
            else:
                m = OPEN
            put(cl, marks + j, m + SEEN)
            put(cl, queue + tail, j)
            tail += 1
    _unmark(cl, marks, queue, tail, back, size)
    joined: bool = reached == present
    return joined


def _rooted(
    nd: Array,
    ln: Array,
    cl: Array,
    r: int,
    b: int,
    states: int,
    last_itm: int,
    exact: bool,
    present: int,
) -> bool:
    """:func:`_connected` for a rule with roots: does every present member still reach a root
    through members present or open (with ``exact``: present)?

    Searched from the present members rather than from the roots: from each present member not
    known to reach a root yet, a search through present and open members until it meets a
    root or a member known to reach one -- then every member it passed reaches one too, and is
    marked so -- or runs out, and the rule fails. The roots lie on a border, and the present
    members mostly near one another: the first search finds the border, the others soon meet
    what it marked, where a search from every root went over the whole board."""
    size = get(cl, b + B_SIZE)
    items = r + get(cl, b + B_ITEMS)
    colors = r + get(cl, b + B_COLORS)
    marks = r + get(cl, b + B_MARKS)
    queue = r + get(cl, b + B_WORK)
    stack = r + get(cl, b + B_STACK)
    is_root = r + get(cl, b + B_ROOTS) + get(cl, b + B_NROOTS)
    links = r + get(cl, b + B_LINKS)
    tail = 0  # every search's members, search after search
    back = size  # the members found absent, from the queue's far end
    ok = True
    for s in range(present):
        start = get(cl, stack + s)
        if get(cl, marks + start) != UNKNOWN:
            continue  # (it reaches a root: passed by an earlier search)
        first = tail
        head = tail
        put(cl, marks + start, SEEN)
        put(cl, queue + tail, start)
        tail += 1
        found = get(cl, is_root + start) != 0
        while head < tail and not found:
            k = get(cl, queue + head)
            head += 1
            for q in range(get(cl, links + k), get(cl, links + k + 1)):
                j = get(cl, r + q)
                m = get(cl, marks + j)
                if m == PRESENT + SEEN:
                    found = True
                    break
                if m != UNKNOWN:
                    continue  # absent, or in this search already
                c = get(cl, items + j)
                x = get(cl, colors + j)
                if _present(cl, states, c, x) or (
                    not exact and _open(nd, ln, cl, states, c, x, last_itm)
                ):
                    put(cl, marks + j, SEEN)
                    put(cl, queue + tail, j)
                    tail += 1
                    if get(cl, is_root + j) != 0:
                        found = True
                        break
                else:
                    back -= 1
                    put(cl, queue + back, j)
                    put(cl, marks + j, ABSENT)
        if not found:
            ok = False
            break
        for t in range(first, tail):
            put(cl, marks + get(cl, queue + t), PRESENT + SEEN)  # (reaches a root)
    _unmark(cl, marks, queue, tail, back, size)
    return ok


def _acyclic(cl: Array, r: int, b: int, states: int) -> bool:
    """Do the present members of the Acyclic rule whose block is at ``b`` hold no cycle? (A
    union-find over their ends, the present stack's members only; members still open do not
    matter: a cycle among present ones stays in every answer below.)"""
    height = get(cl, b + B_HEIGHT)
    stack = r + get(cl, b + B_STACK)
    ends = r + get(cl, b + B_LINKS)
    parent = r + get(cl, b + B_WORK)
    for s in range(height):
        k = get(cl, stack + s)
        u = get(cl, ends + 2 * k)
        v = get(cl, ends + 2 * k + 1)
        put(cl, parent + u, u)
        put(cl, parent + v, v)
    for s in range(height):
        k = get(cl, stack + s)
        u = get(cl, ends + 2 * k)
        while get(cl, parent + u) != u:
            put(cl, parent + u, get(cl, parent + get(cl, parent + u)))
            u = get(cl, parent + u)
        v = get(cl, ends + 2 * k + 1)
        while get(cl, parent + v) != v:
            put(cl, parent + v, get(cl, parent + get(cl, parent + v)))
            v = get(cl, parent + v)
        if u == v:
            return False
        put(cl, parent + u, v)
    return True


def _sized(
    nd: Array, ln: Array, cl: Array, r: int, b: int, states: int, last_itm: int, exact: bool
) -> bool:
    """Can the present members of the Sized rule whose block is at ``b`` still fall into
    pieces of the rule's sizes (with ``exact``: do they)?

    Each piece of present members (a search over the links through present members only, from
    each member of the present stack not in a piece yet) is judged as :meth:`Sized.fault
    <dlxsat.xcc.rules.Sized.fault>` judges it. A piece that may
    still grow -- some member next to it is open -- is refused only for what no growth can
    mend: two anchors, more members than its size (its anchor's, or the rule's), or, holding
    no anchor, more members than the largest anchor's size (whichever anchor it grows to,
    it is too large for it). A piece that cannot grow (every member next to it absent; every
    piece of a solution) is a whole piece of the answers below, and must be right: its size,
    or at least it, and an anchor when the rule has anchors. Present and absent members stay
    so below this node, so a refused piece is wrong in every answer below.

    A member next to a piece is looked up (``_open``) only while the piece is not known to
    grow yet, at most once per check (its mark keeps the answer).
    """
    height = get(cl, b + B_HEIGHT)
    if height == 0:
        return True
    size = get(cl, b + B_SIZE)
    items = r + get(cl, b + B_ITEMS)
    colors = r + get(cl, b + B_COLORS)
    marks = r + get(cl, b + B_MARKS)
    stack = r + get(cl, b + B_STACK)
    links = r + get(cl, b + B_LINKS)
    queue = r + get(cl, b + B_WORK)
    uniform = get(cl, b + B_NROOTS)  # every piece's size; negative: at least; 0: anchors
    at_least = uniform < 0
    if at_least:
        uniform = -uniform
    anchor = r + get(cl, b + B_ROOTS)
    largest = 0
    if uniform == 0:
        largest = get(cl, anchor + size)
    tail = 0  # every piece's members, piece after piece
    back = size  # the members found open or absent, from the queue's far end
    ok = True
    for s in range(height):
        start = get(cl, stack + s)
        if get(cl, marks + start) != UNKNOWN:
            continue  # in a piece already
        put(cl, marks + start, PRESENT + SEEN)
        put(cl, queue + tail, start)
        first = tail
        head = tail
        tail += 1
        anchors = 0
        want = uniform
        grows = False
        while head < tail:
            k = get(cl, queue + head)
            head += 1
            if uniform == 0:
                a = get(cl, anchor + k)
                if a > 0:
                    anchors += 1
                    want = a
            for q in range(get(cl, links + k), get(cl, links + k + 1)):
                j = get(cl, r + q)
                m = get(cl, marks + j)
                if m == OPEN:
                    grows = True
                elif m == UNKNOWN:
                    c = get(cl, items + j)
                    x = get(cl, colors + j)
                    if _present(cl, states, c, x):
                        put(cl, marks + j, PRESENT + SEEN)
                        put(cl, queue + tail, j)
                        tail += 1
                    elif not grows and not exact:
                        back -= 1
                        put(cl, queue + back, j)
                        if _open(nd, ln, cl, states, c, x, last_itm):
                            put(cl, marks + j, OPEN)
                            grows = True
                        else:
                            put(cl, marks + j, ABSENT)
        members = tail - first
        if anchors > 1:
            ok = False
        elif at_least:
            ok = grows or members >= want
        elif want > 0:
            ok = members <= want and (grows or members == want)
        else:
            ok = members <= largest and grows
        if not ok:
            break
    _unmark(cl, marks, queue, tail, back, size)
    return ok


def _rules_hold(nd: Array, ln: Array, cl: Array, r: int, last_itm: int, exact: bool) -> bool:
    """Do the options chosen keep every rule of the rule table at ``r``: can they still, below
    this node (``exact`` False: a partial choice, open members may come), or do they (``exact``
    True: a solution, what is not present is absent)?

    The rules are checked from the one that failed last (``R_FIRST``), round to the others: a
    rule that refused the sibling options just tried most often refuses this one too, and
    each check is a search over the board, so a refusal found by the first check saves the
    others. The answer is the same in any order (every rule must hold), so the tree is."""
    states = r + get(cl, r + R_STATE)
    count = get(cl, r + R_COUNT)
    first = get(cl, r + R_FIRST)
    for j in range(count):
        k = first + j
        if k >= count:
            k -= count
        b = r + get(cl, r + R_BLOCKS + k)
        kind = get(cl, b + B_KIND)
        if kind == CONNECTED:
            ok = _connected(nd, ln, cl, r, b, states, last_itm, exact)
        elif kind == SIZED:
            ok = _sized(nd, ln, cl, r, b, states, last_itm, exact)
        else:
            ok = _acyclic(cl, r, b, states)
        if not ok:
            put(cl, r + R_FIRST, k)
            return False
    return True


def _choose(nd: Array, ln: Array, cl: Array, cur: int, r: int, second: int, last_itm: int) -> bool:
    """The option of node ``cur`` has just been covered: record it for the rule table at ``r``
    and check the rules (as a partial choice). False, with the record taken back, when they
    fail: the caller undoes the option and tries the next one."""
    _mark(nd, cl, cur, r, second, 1)
    if _rules_hold(nd, ln, cl, r, last_itm, False):
        return True
    _mark(nd, cl, cur, r, second, -1)
    return False


def _record(
    choice: Array,
    top: int,
    opt_of: Array,
    last_itm: int,
    st: Array,
    sols: Array,
    sol_len: Array,
    params: Array,
) -> int:
    """Count an accepted solution (``choice[0:top]``) and store it if there is room.

    Returns the status that should stop the kernel (``LIMIT``, ``FULL``) or -1.
    """
    st[S_COUNT] += 1
    cap = params[P_STORE_CAP]
    k = st[S_STORED]
    if k < cap:
        m = 0
        for i in range(top):
            node = choice[i]
            if node > last_itm:  # Algorithm M's null moves choose no option
                sols[k, m] = opt_of[node]
                m += 1
        sol_len[k] = m
        st[S_STORED] = k + 1
    if st[S_COUNT] >= params[P_MAX_COUNT]:
        return LIMIT
    if cap > 0 and st[S_STORED] >= cap:
        return FULL
    return -1


def _cover_option(
    nd: Array,
    ln: Array,
    cl: Array,
    cur: int,
    second: int,
    last_itm: int,
    loop: bool,
    bounds: bool,
    aux: int,
    st: Array,
) -> int:
    """Cover or purify the items of ``cur``'s option after ``cur`` (Algorithms C and M).

    With ``bounds`` (Algorithm M) a primary item is covered only when its bound reaches 0, as
    DLX3 does (its choice key at ``aux`` kept up, :func:`_set_bound`); without (Algorithm C)
    every uncolored item is covered at once. Returns -1, or the node whose edge the loop rule
    refused (nothing of it was done).
    """
    upd = 0
    pp = cur + 1
    bad = -1
    while pp != cur:
        cc = get(nd, N * pp + ITM)
        if cc <= 0:
            pp = get(nd, N * pp + UP)
            continue
        if bounds and cc < second:
            _set_bound(ln, cl, cc, get(cl, I * cc + BOUND) - 1, aux)
            if get(cl, I * cc + BOUND) == 0:
                upd += _cover(nd, ln, cl, cc, second, last_itm, True)
        else:
            x = get(nd, N * pp + COLOR)
            if x == 0:
                upd += _cover(nd, ln, cl, cc, second, last_itm, True)
            elif x > 0:
                if loop and x == ON_COLOR and get(cl, I * cc + EU) != 0:
                    if not _add_edge(cl, cc, st):
                        bad = pp
                        break
                upd += _purify(nd, ln, pp, last_itm)
        pp += 1
    st[S_UPDATES] += upd
    return bad


def _uncover_option(
    nd: Array,
    ln: Array,
    cl: Array,
    pp: int,
    cur: int,
    second: int,
    last_itm: int,
    loop: bool,
    bounds: bool,
    aux: int,
    st: Array,
) -> None:
    """Undo :func:`_cover_option` from node ``pp`` leftward back to ``cur``."""
    while pp != cur:
        cc = get(nd, N * pp + ITM)
        if cc <= 0:
            pp = get(nd, N * pp + DOWN)
            continue
        if bounds and cc < second:
            if get(cl, I * cc + BOUND) == 0:
                _uncover(nd, ln, cl, cc, second, last_itm, True)
            _set_bound(ln, cl, cc, get(cl, I * cc + BOUND) + 1, aux)
        else:
            x = get(nd, N * pp + COLOR)
            if x == 0:
                _uncover(nd, ln, cl, cc, second, last_itm, True)
            elif x > 0:
                if loop and x == ON_COLOR and get(cl, I * cc + EU) != 0:
                    _delete_edge(cl, cc, st)
                _unpurify(nd, ln, pp, last_itm)
        pp -= 1


def _kill_sets(nd: Array, ln: Array, cl: Array, z: int) -> int:
    """Sparse sets: take the option of node ``z`` out of the sets of the active items but
    ``z``'s (each swapped past the end of its set). Returns the updates DLX1 makes for it: one
    per other node, active item or not, as its ``cover`` unlinks every one."""
    upd = 0
    w = z + 1
    while w != z:
        c = get(nd, NX * w + XITM)
        if c < 0:
            w += c  # from the spacer back to the option's first node
            continue
        upd += 1
        s = get(ln, c)
        if s < HIDDEN:
            s -= 1
            put(ln, c, s)
            last = get(cl, c) + s
            pos = get(nd, NX * w + XLOC)
            y = get(cl, last)
            put(cl, pos, y)
            put(nd, NX * y + XLOC, pos)
            put(cl, last, w)
            put(nd, NX * w + XLOC, last)
        w += 1
    return upd


def search_sets(
    nd: Array,
    ln: Array,
    cl: Array,
    opt_of: Array,
    choice: Array,
    st: Array,
    params: Array,
    sols: Array,
    sol_len: Array,
) -> int:
    """Algorithm X (DLX1) on sparse sets, resumable; returns a status code.

    The same search tree as :func:`search_c` on the same problem, with the same ``nodes`` and
    ``updates``: an item's active options are the first ``ln[c]`` entries of its set, in any
    order, and an option is hidden by swapping it past the end of the sets of the items still
    active (not of every item, as DLX1 does), so going back is copying the lengths saved at
    that level (``ln[m:]``), with no unhiding at all. The item chosen is DLX1's (the leftmost
    shortest, found as in ``search_c``), its options tried in DLX1's order (its set is sorted
    first); each hidden option adds to ``updates`` what DLX1's ``cover`` would, one per node
    besides the one walked from, so the figures are Knuth's though the work is about half.
    """
    second = params[P_SECOND]
    m = params[P_LAST_ITM]  # lengths per copy: items 0..n
    pc = st[S_PC]
    level = st[S_LEVEL]
    best = st[S_BEST]
    cur = st[S_CUR]
    stop_at = st[S_NODES] + params[P_BUDGET]
    status = DONE
    while True:
        if pc == FORWARD:
            if st[S_NODES] >= stop_at:
                status = BUDGET
                break
            st[S_NODES] += 1
            key = (wide(get(ln, 1)) << 32) | 1
            for k in range(2, second):
                key = min(key, (wide(get(ln, k)) << 32) | k)
            size = key >> 32
            if size >= HIDDEN:  # no active primary item: a solution (a node in Knuth's count)
                pc = BACKDOWN
                stop = _record(choice, level, opt_of, -1, st, sols, sol_len, params)
                if stop >= 0:
                    status = stop
                    break
                continue
            best = key & 0xFFFFFFFF
            if size == 0:
                st[S_UPDATES] += 1  # DLX1 covers the empty item: its one update
                pc = BACKDOWN
                continue
            base = m * (1 + 2 * level)
            for i in range(m):
                put(ln, base + i, get(ln, i))
            put(ln, best, size + HIDDEN)
            upd = 1
            start = get(cl, best)
            end = start + size
            for p in range(start, end):
                upd += _kill_sets(nd, ln, cl, get(cl, p))
            # Knuth tries the options in the order given: sort the (short) set by node.
            for p in range(start + 1, end):
                v = get(cl, p)
                q = p - 1
                while q >= start and get(cl, q) > v:
                    y = get(cl, q)
                    put(cl, q + 1, y)
                    put(nd, NX * y + XLOC, q + 1)
                    q -= 1
                put(cl, q + 1, v)
                put(nd, NX * v + XLOC, q + 1)
            base += m
            for i in range(m):
                put(ln, base + i, get(ln, i))
            st[S_UPDATES] += upd
            cur = start
            pc = ADVANCE
        elif pc == ADVANCE:
            if cur == get(cl, best) + get(ln, best) - HIDDEN:
                pc = BACKUP
                continue
            x = get(cl, cur)
            choice[level] = x
            upd = 0
            w = x + 1
            while w != x:
                c = get(nd, NX * w + XITM)
                if c < 0:
                    w += c
                    continue
                upd += 1
                start = get(cl, c)
                for p in range(start, start + get(ln, c)):
                    upd += _kill_sets(nd, ln, cl, get(cl, p))
                w += 1
            # Only now are the option's items inactive: an option met in the set of one of them
            # had to leave the sets of the others, not to be met twice.
            w = x + 1
            while w != x:
                c = get(nd, NX * w + XITM)
                if c < 0:
                    w += c
                    continue
                put(ln, c, get(ln, c) + HIDDEN)
                w += 1
            st[S_UPDATES] += upd
            level += 1
            pc = FORWARD
        elif pc == RECOVER:
            base = m * (2 + 2 * level)
            for i in range(m):
                put(ln, i, get(ln, base + i))
            x = choice[level]
            best = get(nd, NX * x + XITM)
            cur = get(nd, NX * x + XLOC) + 1
            pc = ADVANCE
        elif pc == BACKUP:
            base = m * (1 + 2 * level)
            for i in range(m):
                put(ln, i, get(ln, base + i))
            pc = BACKDOWN
        else:  # BACKDOWN: this level is done (nothing of it left to undo)
            if level == 0:
                status = DONE
                break
            level -= 1
            pc = RECOVER
    st[S_PC] = -1 if status == DONE else pc
    st[S_LEVEL] = level
    st[S_BEST] = best
    st[S_CUR] = cur
    return status


def _next_option(nd: Array, st: Array, c: int, a: int, after: int, wl: int, sm: int) -> int:
    """Bitsets: the first option of item ``c`` after option ``after`` among the active ones
    (the set at ``st[a:]``), or -1."""
    o = after + 1
    w0 = o // WORD_BITS
    for j in range(get(nd, c), get(nd, c + 1)):
        w = get(nd, wl + j)
        if w < w0:
            continue
        bits = get(st, a + w) & get(st, sm + j)
        if w == w0:
            bits &= ~((1 << (o - w0 * WORD_BITS)) - 1)
        if bits != 0:
            option: int = w * WORD_BITS + ctz(bits)
            return option
    return -1


def _hide_bits(nd: Array, ln: Array, table: int, bits: int, w: int, lv: int, second: int) -> int:
    """Bitsets: account for hiding the options in ``bits`` of word ``w``: the lengths at
    ``ln[lv:]`` of their primary items go down by one (unless ``second`` is 0: lengths not
    kept), and the result is the updates DLX1
    makes for them, the length of each less one (its ``cover`` unlinks every node but the
    one walked from)."""
    upd = 0
    while bits != 0:
        o = w * WORD_BITS + ctz(bits)
        start = get(nd, table + o)
        end = get(nd, table + o + 1)
        if second > 0:
            for q in range(start, end):
                c = get(nd, q)
                if c < second:
                    put(ln, lv + c, get(ln, lv + c) - 1)
        upd += end - start - 1
        bits &= bits - 1
    return upd


def search_bits(
    nd: Array,
    ln: Array,
    cl: Array,
    opt_of: Array,
    choice: Array,
    st: Array,
    params: Array,
    sols: Array,
    sol_len: Array,
) -> int:
    """Algorithm X (DLX1) on bitsets of options, resumable; returns a status code.

    The same search tree as :func:`search_c` on the same problem, with the same ``nodes`` and
    ``updates``; the layout is ``arrays.build_bits``'s. A level's active options are a bitset,
    with the lengths of the primary items beside it; choosing an option makes the next level's
    set in one pass over the words and lowers the lengths of the items of the options it
    hides; going back is going back to the level before: nothing is undone. The item chosen
    is DLX1's (the leftmost shortest, found as in ``search_c``), its options tried in DLX1's
    order (the order of the bits); ``updates`` grows by what DLX1's ``cover`` would do for the
    options hidden. Worth it while the sets are a few dozen words: a node then costs less
    than DLX1's unlinking and relinking of the nodes of the options hidden.
    """
    second = params[P_SECOND]
    n1 = params[P_LAST_ITM]  # n + 1
    wl = n1 + 1
    nw = get(nd, 0)
    table = wl + get(nd, n1)
    sm = N_STATE
    sa = N_STATE + get(nd, n1)
    bests = 2 * second * len(choice)
    kept = params[P_LAYOUT] == BITS_KEPT
    kept_to = second if kept else 0
    pc = st[S_PC]
    level = st[S_LEVEL]
    best = st[S_BEST]
    cur = st[S_CUR]
    stop_at = st[S_NODES] + params[P_BUDGET]
    status = DONE
    while True:
        if pc == FORWARD:
            if st[S_NODES] >= stop_at:
                status = BUDGET
                break
            st[S_NODES] += 1
            la = 2 * second * level
            a = sa + 2 * nw * level
            if kept:
                key = (wide(get(ln, la + 1)) << 32) | 1
                for k in range(2, second):
                    key = min(key, (wide(get(ln, la + k)) << 32) | k)
                size = key >> 32
                best = key & 0xFFFFFFFF
            else:  # count the lengths, each only as far as it could be the shortest
                size = HIDDEN
                for c in range(1, second):
                    if get(ln, la + c) >= HIDDEN:
                        continue
                    t = 0
                    for j in range(get(nd, c), get(nd, c + 1)):
                        t += popcount(get(st, a + get(nd, wl + j)) & get(st, sm + j))
                        if t >= size:
                            break
                    if t < size:
                        size = t
                        best = c
                        if t == 0:
                            break
            if size >= HIDDEN:  # no active primary item: a solution (a node in Knuth's count)
                pc = BACKDOWN
                stop = _record(choice, level, opt_of, -1, st, sols, sol_len, params)
                if stop >= 0:
                    status = stop
                    break
                continue
            if size == 0:
                st[S_UPDATES] += 1  # DLX1 covers the empty item: its one update
                pc = BACKDOWN
                continue
            put(ln, bests + level, best)
            lb = la + second
            for i in range(second):
                put(ln, lb + i, get(ln, la + i))
            put(ln, lb + best, get(ln, lb + best) + HIDDEN)
            ab = a + nw
            for w in range(nw):
                put(st, ab + w, get(st, a + w))
            upd = 1
            for j in range(get(nd, best), get(nd, best + 1)):
                w = get(nd, wl + j)
                bits = get(st, a + w) & get(st, sm + j)
                if bits != 0:
                    upd += _hide_bits(nd, ln, table, bits, w, lb, kept_to)
                    put(st, ab + w, get(st, ab + w) & ~bits)
            st[S_UPDATES] += upd
            cur = _next_option(nd, st, best, a, -1, wl, sm)
            pc = ADVANCE
        elif pc == ADVANCE:
            choice[level] = cur
            lb = (2 * level + 1) * second
            la = lb + second  # the next level's lengths
            for i in range(second):
                put(ln, la + i, get(ln, lb + i))
            ab = sa + 2 * nw * level + nw
            nxt = ab + nw  # the next level's options
            for w in range(nw):
                put(st, nxt + w, get(st, ab + w))
            upd = 0
            for q in range(get(nd, table + cur), get(nd, table + cur + 1)):
                c = get(nd, q)
                if c == best:
                    continue
                upd += 1
                if c < second:
                    put(ln, la + c, get(ln, la + c) + HIDDEN)
                for j in range(get(nd, c), get(nd, c + 1)):
                    w = get(nd, wl + j)
                    hit = get(st, nxt + w) & get(st, sm + j)
                    if hit != 0:
                        put(st, nxt + w, get(st, nxt + w) ^ hit)
                        upd += _hide_bits(nd, ln, table, hit, w, la, kept_to)
            st[S_UPDATES] += upd
            level += 1
            pc = FORWARD
        elif pc == RECOVER:
            best = get(ln, bests + level)
            cur = _next_option(nd, st, best, sa + 2 * nw * level, choice[level], wl, sm)
            pc = BACKDOWN if cur < 0 else ADVANCE
        else:  # BACKDOWN: this level is done
            if level == 0:
                status = DONE
                break
            level -= 1
            pc = RECOVER
    st[S_PC] = -1 if status == DONE else pc
    st[S_LEVEL] = level
    st[S_BEST] = best
    st[S_CUR] = cur
    return status


def search_c(
    nd: Array,
    ln: Array,
    cl: Array,
    opt_of: Array,
    choice: Array,
    st: Array,
    params: Array,
    sols: Array,
    sol_len: Array,
) -> int:
    """Algorithms X and C (DLX1, DLX2, DLX2-LOOP), resumable; returns a status code.

    With ``params[P_LAYOUT]`` at ``SETS`` or ``BITS`` the arrays are laid out for
    :func:`search_sets` or :func:`search_bits` (Algorithm X on sparse sets or bitsets), which
    runs instead: one compiled entry point for all three.
    """
    if params[P_LAYOUT] >= BITS:
        return search_bits(nd, ln, cl, opt_of, choice, st, params, sols, sol_len)
    if params[P_LAYOUT] == SETS:
        return search_sets(nd, ln, cl, opt_of, choice, st, params, sols, sol_len)
    second = params[P_SECOND]
    last_itm = params[P_LAST_ITM]
    loop = params[P_LOOP] != 0
    rules = params[P_RULES]
    mirror = MIRROR_MASK if params[P_MIRROR] != 0 else 0
    pc = st[S_PC]
    level = st[S_LEVEL]
    best = st[S_BEST]
    cur = st[S_CUR]
    stop_at = st[S_NODES] + params[P_BUDGET]
    status = DONE
    while True:
        if pc == FORWARD:
            if st[S_NODES] >= stop_at:
                status = BUDGET
                break
            st[S_NODES] += 1
            best = _shortest(ln, second, mirror)
            st[S_UPDATES] += _cover(nd, ln, cl, best, second, last_itm, True)
            cur = get(nd, N * best + DOWN)
            choice[level] = cur
            pc = ADVANCE
        elif pc == ADVANCE:
            if cur == best:
                pc = BACKUP
                continue
            bad = _cover_option(nd, ln, cl, cur, second, last_itm, loop, False, 0, st)
            if bad >= 0:
                # An edge was refused: undo what was done of this option, try the next one.
                _uncover_option(nd, ln, cl, bad - 1, cur, second, last_itm, loop, False, 0, st)
                cur = get(nd, N * cur + DOWN)
                choice[level] = cur
                continue
            if rules != 0 and not _choose(nd, ln, cl, cur, rules, second, last_itm):
                # The rules cannot hold below: the same recovery, the whole option undone.
                _uncover_option(nd, ln, cl, cur - 1, cur, second, last_itm, loop, False, 0, st)
                cur = get(nd, N * cur + DOWN)
                choice[level] = cur
                continue
            if get(cl, NEXT) == 0:
                st[S_NODES] += 1  # a solution is a node of the search tree too
                pc = RECOVER
                if _accept(st, params) and (
                    rules == 0 or _rules_hold(nd, ln, cl, rules, last_itm, True)
                ):
                    stop = _record(choice, level + 1, opt_of, last_itm, st, sols, sol_len, params)
                    if stop >= 0:
                        status = stop
                        break
                continue
            level += 1
            pc = FORWARD
        elif pc == BACKUP:
            _uncover(nd, ln, cl, best, second, last_itm, True)
            if level == 0:
                status = DONE
                break
            level -= 1
            cur = choice[level]
            best = get(nd, N * cur + ITM)
            pc = RECOVER
        else:  # RECOVER
            if rules != 0:
                _mark(nd, cl, cur, rules, second, -1)
            _uncover_option(nd, ln, cl, cur - 1, cur, second, last_itm, loop, False, 0, st)
            cur = get(nd, N * cur + DOWN)
            choice[level] = cur
            pc = ADVANCE
    st[S_PC] = -1 if status == DONE else pc
    st[S_LEVEL] = level
    st[S_BEST] = best
    st[S_CUR] = cur
    return status


def _draw_child(state: int, u: Array, level: int, degree: int) -> tuple[int, int]:
    """The child an estimate's probe takes at ``level`` of a node of ``degree`` children, and
    the generator's next state: with ``state`` (at least 0) a linear congruential generator
    (glibc's constants) in 31 bits, the same in both tiers, whose high bits pick the child --
    plenty for choosing among dozens; else ``int(u[level] * degree)`` (``u`` in [0, 1))."""
    if state >= 0:
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        return state, (state * degree) >> 31
    r = int(u[level] * degree)
    return state, min(r, degree - 1)


def _set_bound(ln: Array, cl: Array, c: int, b: int, aux: int) -> None:
    """Set item ``c``'s bound to ``b``, and its choice key in ``ln`` when kept there (``aux``)."""
    put(cl, I * c + BOUND, b)
    if aux != 0:
        put(ln, aux + c, _choice_key(b, get(cl, I * c + SLACK), c))


def _branch_m(ln: Array, cl: Array, second: int, mirror: bool, aux: int) -> tuple[int, int]:
    """Algorithm M's choice of item: (its score, the item). The score is Knuth's branching
    degree ``l + s - b + 1`` (list length, ``s = min(slack, bound)``, bound): the number of
    children of the node, :data:`NONE_ACTIVE` when no item is active, at most 0 when an item
    has too few options left. The least score wins; ties: smaller ``s``, then the longer list,
    then the leftmost item (``mirror``: the rightmost, the last of equals met in item order).
    ``search_m`` and ``estimate``'s probes of its tree choose by it.

    The active list is in item order, so a pass over every primary item in order, skipping
    those out of the list (their length carries HIDDEN), chooses as Knuth's walk of the list
    does; on many items it is faster, its loads independent where the walk waits for each link
    (:data:`FLAT_SCAN_ITEMS` says when). With the choice keys in ``ln`` (``aux``,
    ``arrays.choice_key``) the pass reads two arrays in order and takes a plain minimum, which
    the compiler vectorizes: on Country Road's problems (200-500 items) the choice had been
    some 40 % of the search's time. An item out of the active list has ``HIDDEN`` in its
    length, so its score is above :data:`NONE_ACTIVE`; an item of score at most 0 ends the
    node whichever it is."""
    if second > FLAT_SCAN_ITEMS and aux != 0:
        flip = 0xFFFF if mirror else 0  # (the rightmost of equals: the largest index)
        key = wide(NONE_ACTIVE) << 32
        for k in range(1, second):
            a = wide(get(ln, aux + k))
            t = wide(get(ln, k)) + ((a >> 16) & 255) - 254  # l + s - b + 1
            key = min(key, (t << 32) | (a ^ flip))
        return int(key >> 32), int((key & 0xFFFF) ^ flip)
    score = NONE_ACTIVE
    best = 0
    best_s = 0
    best_l = 0
    if second > FLAT_SCAN_ITEMS:
        for k in range(1, second):
            size = get(ln, k)
            if size >= NONE_ACTIVE:
                continue  # (out of the active list: its length carries HIDDEN)
            b = get(cl, I * k + BOUND)
            s = min(get(cl, I * k + SLACK), b)
            t = size + s - b + 1
            if t <= score:
                if (
                    t < score
                    or s < best_s
                    or (s == best_s and (size > best_l or (mirror and size == best_l)))
                ):
                    score = t
                    best = k
                    best_s = s
                    best_l = size
    else:  # (the same comparisons, item by item along the list)
        k = get(cl, NEXT)
        while k != 0:
            b = get(cl, I * k + BOUND)
            s = min(get(cl, I * k + SLACK), b)
            size = get(ln, k)
            t = size + s - b + 1
            if t <= score:
                if (
                    t < score
                    or s < best_s
                    or (s == best_s and (size > best_l or (mirror and size == best_l)))
                ):
                    score = t
                    best = k
                    best_s = s
                    best_l = size
            k = get(cl, I * k + NEXT)
    return score, best


def search_m(
    nd: Array,
    ln: Array,
    cl: Array,
    opt_of: Array,
    stack: Array,
    st: Array,
    params: Array,
    sols: Array,
    sol_len: Array,
) -> int:
    """Algorithm M (DLX3, and DLX3 with the loop rule), resumable; returns a status code.

    ``stack[0]`` holds the choice of every level, ``stack[1]`` its ``first_tweak``.
    """
    second = params[P_SECOND]
    last_itm = params[P_LAST_ITM]
    loop = params[P_LOOP] != 0
    rules = params[P_RULES]
    mirror = params[P_MIRROR] != 0
    aux = params[P_AUX]
    choice = stack[0]
    first_tweak = stack[1]
    pc = st[S_PC]
    level = st[S_LEVEL]
    best = st[S_BEST]
    cur = st[S_CUR]
    stop_at = st[S_NODES] + params[P_BUDGET]
    status = DONE
    while True:
        if pc == FORWARD:
            if st[S_NODES] >= stop_at:
                status = BUDGET
                break
            st[S_NODES] += 1
            score, item = _branch_m(ln, cl, second, mirror, aux)
            if score <= 0:
                pc = BACKDOWN  # too few options left for this item
                continue
            if score == NONE_ACTIVE:
                pc = BACKDOWN  # no active item: a solution
                if _accept(st, params) and (
                    rules == 0 or _rules_hold(nd, ln, cl, rules, last_itm, True)
                ):
                    stop = _record(choice, level, opt_of, last_itm, st, sols, sol_len, params)
                    if stop >= 0:
                        status = stop
                        break
                continue
            best = item
            first_tweak[level] = 0
            cur = get(nd, N * best + DOWN)
            choice[level] = cur
            _set_bound(ln, cl, best, get(cl, I * best + BOUND) - 1, aux)
            if get(cl, I * best + BOUND) == 0 and get(cl, I * best + SLACK) == 0:
                st[S_UPDATES] += _cover(nd, ln, cl, best, second, last_itm, True)
            else:
                first_tweak[level] = cur
                if get(cl, I * best + BOUND) == 0:
                    st[S_UPDATES] += _cover(nd, ln, cl, best, second, last_itm, True)
            pc = ADVANCE
        elif pc == ADVANCE:
            b = get(cl, I * best + BOUND)
            s = get(cl, I * best + SLACK)
            if b == 0 and s == 0:
                if cur == best:
                    pc = BACKUP
                    continue
            elif get(ln, best) <= b - s:
                pc = BACKUP
                continue
            elif cur != best:
                st[S_UPDATES] += _tweak(nd, ln, cur, b != 0)
            elif b != 0:
                _deactivate(ln, cl, best, second)  # the null move: no more of this item
            if cur > last_itm:
                bad = _cover_option(nd, ln, cl, cur, second, last_itm, loop, True, aux, st)
                if bad >= 0:
                    _uncover_option(nd, ln, cl, bad - 1, cur, second, last_itm, loop, True, aux, st)
                    cur = get(nd, N * cur + DOWN)
                    choice[level] = cur
                    continue
                if rules != 0 and not _choose(nd, ln, cl, cur, rules, second, last_itm):
                    _uncover_option(nd, ln, cl, cur - 1, cur, second, last_itm, loop, True, aux, st)
                    cur = get(nd, N * cur + DOWN)
                    choice[level] = cur
                    continue
            level += 1
            pc = FORWARD
        elif pc == BACKUP:
            if get(cl, I * best + BOUND) == 0 and get(cl, I * best + SLACK) == 0:
                _uncover(nd, ln, cl, best, second, last_itm, True)
            else:
                unblock = get(cl, I * best + BOUND) != 0
                _untweak(nd, ln, cl, best, first_tweak[level], unblock, second, last_itm)
            _set_bound(ln, cl, best, get(cl, I * best + BOUND) + 1, aux)
            pc = BACKDOWN
        else:  # BACKDOWN
            if level == 0:
                status = DONE
                break
            level -= 1
            cur = choice[level]
            if cur < last_itm:
                best = cur  # (a null move, undone)
                _reactivate(ln, cl, best, second)
                pc = BACKUP
                continue
            best = get(nd, N * cur + ITM)
            if rules != 0:
                _mark(nd, cl, cur, rules, second, -1)
            _uncover_option(nd, ln, cl, cur - 1, cur, second, last_itm, loop, True, aux, st)
            cur = get(nd, N * cur + DOWN)
            choice[level] = cur
            pc = ADVANCE
    st[S_PC] = -1 if status == DONE else pc
    st[S_LEVEL] = level
    st[S_BEST] = best
    st[S_CUR] = cur
    return status


def precover(
    nd: Array, ln: Array, cl: Array, first_nodes: Array, count: int, second: int, last_itm: int
) -> int:
    """Cover every item of the options starting at ``first_nodes[0:count]`` (which must share
    no item), as if they had been chosen before the search: the batch path's way of giving a
    puzzle's clues to a problem built once for the empty grid. Returns the updates made."""
    upd = 0
    for g in range(count):
        p = first_nodes[g]
        while get(nd, N * p + ITM) > 0:
            upd += _cover(nd, ln, cl, get(nd, N * p + ITM), second, last_itm, True)
            p += 1
    return upd


def search_given(
    base: Array,
    nd: Array,
    ln: Array,
    cl: Array,
    first_nodes: Array,
    count: int,
    opt_of: Array,
    choice: Array,
    st: Array,
    params: Array,
    sols: Array,
    sol_len: Array,
) -> int:
    """The batch path's first call for one puzzle: reset ``nd``/``ln``/``cl`` to the problem
    in ``base`` (the three concatenated), pre-cover the options at ``first_nodes[0:count]``, clear
    the state and start :func:`search_c` (returns its status; an empty active list after the
    pre-covering is left for the caller, as status ``-1``). One call instead of several saves
    the Python-to-kernel crossings that dominate a 9 x 9 Sudoku's microseconds."""
    a, b = len(nd), len(nd) + len(ln)
    for i in range(a):
        nd[i] = base[i]
    for i in range(len(ln)):
        ln[i] = base[a + i]
    for i in range(len(cl)):
        cl[i] = base[b + i]
    for i in range(len(st)):
        st[i] = 0
    st[S_UPDATES] = precover(nd, ln, cl, first_nodes, count, params[P_SECOND], params[P_LAST_ITM])
    if get(cl, NEXT) == 0:
        return -1
    return search_c(nd, ln, cl, opt_of, choice, st, params, sols, sol_len)


def search_many(
    nd0: Array,
    ln0: Array,
    cl0: Array,
    nd: Array,
    ln: Array,
    cl: Array,
    given: Array,
    counts: Array,
    opt_of: Array,
    choice: Array,
    st: Array,
    params: Array,
    sols: Array,
    sol_len: Array,
    out: Array,
) -> int:
    """The batch path's kernel: :func:`search_given`'s work for every puzzle of a chunk in one
    call (one Python-to-kernel crossing per chunk, not per puzzle). Puzzle ``p`` starts from
    the problem in ``nd0``/``ln0``/``cl0`` (copies of the arrays, as laid out), pre-covers the
    options at ``given[p, 0:counts[p]]`` (first nodes) and searches within ``params``'s budget,
    solution limit and store cap, keeping its solutions in ``sols[p]``/``sol_len[p]``;
    ``out[p]`` gets its status (as :func:`search_given`'s; ``BUDGET`` or ``FULL``: not
    finished here, the caller searches it again on its own), count, nodes and updates."""
    second = params[P_SECOND]
    last_itm = params[P_LAST_ITM]
    for p in range(len(counts)):
        for i in range(len(nd)):
            put(nd, i, get(nd0, i))
        for i in range(len(ln)):
            put(ln, i, get(ln0, i))
        for i in range(len(cl)):
            put(cl, i, get(cl0, i))
        for i in range(len(st)):
            st[i] = 0
        st[S_UPDATES] = precover(nd, ln, cl, given[p], counts[p], second, last_itm)
        if get(cl, NEXT) == 0:
            status = -1
        else:
            status = search_c(nd, ln, cl, opt_of, choice, st, params, sols[p], sol_len[p])
        out[p, 0] = status
        out[p, 1] = st[S_COUNT]
        out[p, 2] = st[S_NODES]
        out[p, 3] = st[S_UPDATES]
    return len(counts)
