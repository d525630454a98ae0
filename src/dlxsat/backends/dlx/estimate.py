"""The size of a DLX search tree, estimated by Knuth's random probes (Monte Carlo).

Knuth's method ("Estimating the efficiency of backtrack programs", Math. Comp. 29, 1975;
TAOCP 7.2.2): walk from the root to a leaf of the search tree, choosing one child uniformly at
random at each node; if the nodes on the path have ``d_0, d_1, ...`` children, the path stands
for ``1 + d_0 + d_0 d_1 + ...`` nodes. That sum is an unbiased estimate of the tree's size: its
mean over many probes converges to the true node count. The same weights estimate the updates
(the cost) and the solutions.

The probes walk the very tree the native search walks -- the same arrays (``arrays.py``), the
same item choice and the same cover, purify and loop-rule steps (``kernel.py``'s functions,
run as plain Python) -- and count nodes as Knuth's programs (and ``stats["nodes"]``) do: one
for every item chosen and one for every solution. A probe never backtracks, so it runs on a
copy of the arrays and undoes nothing. An option the loop rule refuses is a child with an
empty subtree: the probe counts it among the ``d`` children and stops there (the estimate
stays unbiased; the search itself skips such an option without counting a node). The
connected, acyclic and sized rules are left out: the probes walk the tree the search would walk
without their pruning (a larger one; the rule table in the arrays is not looked at), and count
every solution found there.

Algorithm M (multiplicities, ``MCC``) has probes of their own (:func:`_probe_m_kernel`): its
node for an item of bound ``b``, slack ``s`` and ``l`` options has ``l + min(s, b) - b + 1``
children (Knuth's score), the options in their order, each with those before it taken out of
the item's list (his "tweaks"), and, where the bound allows, one child that uses no more of
the item.

>>> from dlxsat.xcc import parse
>>> e = estimate(parse("a b c\\na\\na\\nb\\nb\\nc\\nc\\n"), probes=8, seed=1)
>>> e.nodes, e.solutions  # 1 + 2 + 4 internal nodes, 8 solutions: every probe is exact
(15.0, 8.0)
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

from ...xcc.model import Problem
from . import kernel as k
from .arrays import BOUND, DOWN, NEXT, SLACK, Arrays, I, N
from .kernel import (
    MIRROR_MASK,
    NONE_ACTIVE,
    P_AUX,
    P_LAST_ITM,
    P_LOOP,
    P_MIRROR,
    P_SECOND,
    S_UPDATES,
    Array,
    _accept,
    _branch_m,
    _cover,
    _cover_option,
    _deactivate,
    _draw_child,
    _set_bound,
    _shortest,
    _tweak,
    get,
)

#: Probes in one estimate unless told. The estimate of a large tree is heavy-tailed (most
#: probes see a small part of it, a few a huge one), so one probe says little; 32 probes of a
#: 9x9 Sudoku take a few milliseconds interpreted and put the estimate of a hard 25x25 Sudoku
#: (trees of 10^6 nodes and more) within an order of magnitude, which is what a choice between
#: engines needs (benchmarks/auto.py).
PROBES = 32


@dataclass
class Estimate:
    """The mean over ``probes`` random probes of one search tree (see the module docstring)."""

    #: estimated nodes (Knuth's count: items chosen plus solutions).
    nodes: float
    #: estimated updates (Knuth's ``updates``: list links changed), the search's cost.
    updates: float
    #: estimated solutions (those that pass the loop rule, when it applies).
    solutions: float
    probes: int
    #: the most random choices a probe made (the deepest level it reached).
    depth: int
    seconds: float
    #: each probe's node estimate, in order.
    samples: list[float] = field(default_factory=list)


def estimate(
    problem: Problem,
    *,
    probes: int = PROBES,
    seed: int | None = 0,
    deadline: float | None = None,
    compiled: bool | None = None,
    arrays: Arrays | None = None,
    mirrored: bool = False,
) -> Estimate:
    """Estimate the native search's tree for ``problem`` from ``probes`` random probes.

    The problem's single-loop rule shapes the tree as in the search; its other global rules
    are left out (the probes do not prune by them: an estimate of a larger tree). ``seed`` fixes
    the probes (None: a fresh random seed). With ``deadline`` (a
    ``time.monotonic`` instant) no probe starts after it (at least one runs). ``compiled``:
    run the probes compiled by numba, some hundred times faster (None: when this process has
    loaded the compiled DLX kernels already, so that an estimate never pays for loading
    numba). ``arrays``: the problem's layout made already (:func:`.arrays.build` or
    ``build_numpy``; the probes run on copies, so a search can use it after). ``mirrored``:
    probe the tree of the search with ties going to the rightmost item
    (``dlx.solve(..., mirrored=True)``). Algorithm M's problems (``problem.kind == "MCC"``)
    are probed in its tree.
    """
    start = time.perf_counter()
    rule = problem.rule("loop")
    loop = rule is not None
    allow_empty_loop = rule is None or rule.allow_empty  # type: ignore[union-attr]
    if problem.n_primary == 0:  # the search's one node: a solution that chooses nothing
        sols = 1.0 if allow_empty_loop else 0.0
        return Estimate(1.0, 0.0, sols, probes, 0, time.perf_counter() - start, [1.0] * probes)
    from .arrays import build, kernel_dtype

    if arrays is None:
        arrays = build(problem, rule.graph if rule is not None else None)  # type: ignore[union-attr]
    if compiled is None:
        compiled = _compiled_loaded()
    rng = random.Random(seed)
    levels = arrays.max_level + 1
    params = probe_params(arrays, loop, allow_empty_loop)
    params[k.P_MIRROR] = 1 if mirrored else 0
    m = problem.kind == "MCC"
    if compiled:
        import numpy as np

        dtype = kernel_dtype(arrays)
        kernel = _compiled_probe(dtype, m)
        # (no copy of a numpy layout: every probe runs on its own copy)
        nd0, cl0 = np.asarray(arrays.nd, dtype=dtype), np.asarray(arrays.cl, dtype=dtype)
        ln0 = np.asarray(arrays.ln, dtype=np.int32)
        p = np.array(params, dtype=np.int64)
        out = np.zeros(4)
        deg = np.zeros(levels, dtype=np.int64)
        no_u = np.zeros(1)
    samples: list[float] = []
    updates = solutions = 0.0
    depth = 0
    for _ in range(max(1, probes)):
        state = rng.getrandbits(31)  # the probe's own generator starts here (see _choose)
        if compiled:
            st = np.zeros(k.N_STATE, dtype=np.int64)
            kernel(nd0.copy(), ln0.copy(), cl0.copy(), st, p, no_u, deg, out, state)
            n, upd, s, d = float(out[0]), float(out[1]), float(out[2]), int(out[3])
        else:
            n, upd, s, d = probe(arrays, params, None, state=state, m=m)
        samples.append(float(n))
        updates += upd
        solutions += s
        depth = max(depth, d)
        if deadline is not None and time.monotonic() >= deadline:
            break
    count = len(samples)
    return Estimate(
        sum(samples) / count,
        updates / count,
        solutions / count,
        count,
        depth,
        time.perf_counter() - start,
        samples,
    )


def probe_params(arrays: Arrays, loop: bool, allow_empty_loop: bool) -> list[int]:
    """The kernels' parameter vector for probing ``arrays``."""
    params = [0] * k.N_PARAMS
    params[k.P_SECOND] = arrays.second
    params[k.P_LAST_ITM] = arrays.last_itm
    params[k.P_LOOP] = 1 if loop else 0
    params[k.P_ALLOW_EMPTY] = 1 if allow_empty_loop else 0
    params[k.P_AUX] = arrays.aux
    return params


def probe(
    arrays: Arrays,
    params: list[int],
    u: list[float] | None,
    deg: list[int] | None = None,
    state: int = -1,
    m: bool = False,
) -> tuple[float, float, float, int]:
    """One probe, interpreted, on a copy of ``arrays``: (nodes, updates, solutions, depth).

    The child taken at the ``i``-th choice is ``int(u[i] * d)`` of its ``d`` when ``u`` is
    given (a number in [0, 1) per level), else drawn by the probe's own generator started at
    ``state`` (31 bits). The degrees met are written to ``deg`` when given. ``m``: a probe of
    Algorithm M's tree (the problem has multiplicities).
    """
    levels = arrays.max_level + 1
    out = [0.0] * 4
    st = [0] * k.N_STATE
    uu = [0.0] if u is None else u
    dd = [0] * levels if deg is None else deg
    nd, ln, cl = list(arrays.nd), list(arrays.ln), list(arrays.cl)
    kernel = _probe_m_kernel if m else _probe_kernel
    kernel(nd, ln, cl, st, params, uu, dd, out, state if u is None else -1)
    return out[0], out[1], out[2], int(out[3])


def _probe_kernel(
    nd: Array,
    ln: Array,
    cl: Array,
    st: Array,
    params: Array,
    u: Array,
    deg: Array,
    out: Array,
    state: int,
) -> None:
    """One random root-to-leaf path of ``search_c``'s tree, written as the kernels are (the
    compiled tier runs it too): ``out`` gets (nodes, updates, solutions, depth), the depth
    being the number of random choices made, whose degrees are ``deg[0:depth]``."""
    second = params[P_SECOND]
    last_itm = params[P_LAST_ITM]
    loop = params[P_LOOP] != 0
    mirror = MIRROR_MASK if params[P_MIRROR] != 0 else 0
    weight = 1.0
    nodes = 0.0
    updates = 0.0
    sols = 0.0
    level = 0
    while True:
        nodes += weight  # this node: an item is chosen here
        best = _shortest(ln, second, mirror)  # (as the kernel chooses)
        degree = get(ln, best)
        deg[level] = degree
        updates += weight * _cover(nd, ln, cl, best, second, last_itm, True)
        if degree == 0:
            break
        state, r = _draw_child(state, u, level, degree)
        cur = get(nd, N * best + DOWN)
        for _ in range(r):
            cur = get(nd, N * cur + DOWN)
        weight *= degree
        before = st[S_UPDATES]
        bad = _cover_option(nd, ln, cl, cur, second, last_itm, loop, False, 0, st)
        updates += weight * (st[S_UPDATES] - before)
        level += 1
        if bad >= 0:
            break  # the loop rule refuses this child: an empty subtree
        if get(cl, NEXT) == 0:  # nothing left to cover: a solution, a node too
            nodes += weight
            if _accept(st, params):
                sols += weight
            break
    out[0] = nodes
    out[1] = updates
    out[2] = sols
    out[3] = level


def _probe_m_kernel(
    nd: Array,
    ln: Array,
    cl: Array,
    st: Array,
    params: Array,
    u: Array,
    deg: Array,
    out: Array,
    state: int,
) -> None:
    """One random root-to-leaf path of ``search_m``'s tree (Algorithm M), as
    :func:`_probe_kernel` walks ``search_c``'s.

    A node counts when an item is chosen and when none is left (a solution, as the search
    counts it), and its degree is the item's score (``kernel._branch_m``). Child ``r`` of
    the item's options is reached as the search reaches it: the ``r`` options before it were
    each tried and then taken out of the item's list (tweaked, and where the bound is not yet
    used up blocked, their other items' nodes hidden too). The child after the last option
    (when the slack allows one) uses no more of the item: it leaves the active list (Knuth's
    null move; an item whose bound is used up was covered already). The updates of reaching
    a child are not counted: each child's own tweak and cover are, at the child's weight."""
    second = params[P_SECOND]
    last_itm = params[P_LAST_ITM]
    loop = params[P_LOOP] != 0
    mirror = params[P_MIRROR] != 0
    aux = params[P_AUX]
    weight = 1.0
    nodes = 0.0
    updates = 0.0
    sols = 0.0
    level = 0
    while True:
        nodes += weight  # this node: an item is chosen here, or none is left
        score, best = _branch_m(ln, cl, second, mirror, aux)
        if score == NONE_ACTIVE:
            deg[level] = 0
            if _accept(st, params):
                sols += weight
            break
        if score <= 0:
            deg[level] = 0
            break
        degree = score
        deg[level] = degree
        state, r = _draw_child(state, u, level, degree)
        b = get(cl, I * best + BOUND) - 1
        _set_bound(ln, cl, best, b, aux)
        plain = b == 0 and get(cl, I * best + SLACK) == 0
        if b == 0:
            updates += weight * _cover(nd, ln, cl, best, second, last_itm, True)
        cur = get(nd, N * best + DOWN)
        for _ in range(r):
            if not plain:
                _tweak(nd, ln, cur, b != 0)
            cur = get(nd, N * cur + DOWN)
        weight *= degree
        before = st[S_UPDATES]
        level += 1
        if cur == best:  # the child that uses no more of this item
            if b != 0:
                _deactivate(ln, cl, best, second)  # (the null move)
            continue
        if not plain:
            st[S_UPDATES] += _tweak(nd, ln, cur, b != 0)
        bad = _cover_option(nd, ln, cl, cur, second, last_itm, loop, True, aux, st)
        updates += weight * (st[S_UPDATES] - before)
        if bad >= 0:
            break  # the loop rule refuses this child: an empty subtree
    out[0] = nodes
    out[1] = updates
    out[2] = sols
    out[3] = level


def _compiled_loaded() -> bool:
    """Whether this process has loaded the compiled DLX kernels: then a compiled probe costs
    no library load (it is in the ahead-of-time module with them, or numba is imported)."""
    import sys

    compiled = sys.modules.get(f"{__package__}.compiled")
    return compiled is not None and any(
        compiled.is_ready("search_c", t) for t in ("int16", "int32")
    )


def _compiled_probe(dtype: Any, m: bool = False) -> Any:
    """:func:`_probe_kernel` (``m``: :func:`_probe_m_kernel`) compiled as the kernels are
    (same helpers, unchecked array accesses; ahead of time or by numba: ``compiled.py``), for
    ``dtype`` arrays."""
    from . import compiled

    return compiled.kernel("probe_m" if m else "probe", dtype)


def load() -> None:
    """Compile (or load from numba's cache) the compiled probe now, so that a caller can time
    that apart; estimates then run compiled."""
    from ...xcc import parse

    estimate(parse("a b\na\nb\na b\n"), probes=1, compiled=True)
