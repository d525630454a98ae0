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
stays unbiased; the search itself skips such an option without counting a node).

Algorithm M (multiplicities, ``MCC``) branches in a way these probes do not follow (tweaks and
null moves); :func:`estimate` returns None for it.

>>> from dlxsat.xcc import parse
>>> e = estimate(parse("a b c\\na\\na\\nb\\nb\\nc\\nc\\n"), probes=8, seed=1)
>>> e.nodes, e.solutions  # 1 + 2 + 4 internal nodes, 8 solutions: every probe is exact
(15.0, 8.0)
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from ...xcc.model import Problem

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
    #: the deepest level a probe reached.
    depth: int
    seconds: float
    #: each probe's node estimate, in order.
    samples: list[float] = field(default_factory=list)


def estimate(
    problem: Problem,
    *,
    loop: bool = False,
    allow_empty_loop: bool = True,
    probes: int = PROBES,
    seed: int | None = 0,
    deadline: float | None = None,
) -> Estimate | None:
    """Estimate the native search's tree for ``problem`` from ``probes`` random probes.

    ``loop`` and ``allow_empty_loop`` are those of the search (the tree depends on them);
    ``seed`` fixes the probes (None: a fresh random seed). With ``deadline`` (a
    ``time.monotonic`` instant) no probe starts after it (at least one runs). Returns None
    for Algorithm M's problems (``problem.kind == "MCC"``).
    """
    if problem.kind == "MCC":
        return None
    start = time.perf_counter()
    if problem.n_primary == 0:  # the search's one node: a solution that chooses nothing
        sols = 1.0 if not loop or allow_empty_loop else 0.0
        return Estimate(1.0, 0.0, sols, probes, 0, time.perf_counter() - start, [1.0] * probes)
    from ...xcc.loop import loop_graph
    from .arrays import build

    arrays = build(problem, loop_graph(problem) if loop else None)
    rng = random.Random(seed)
    samples: list[float] = []
    updates = solutions = 0.0
    depth = 0
    for _ in range(max(1, probes)):
        n, u, s, d = _probe(arrays, loop, allow_empty_loop, rng)
        samples.append(n)
        updates += u
        solutions += s
        depth = max(depth, d)
        if deadline is not None and time.monotonic() >= deadline:
            break
    k = len(samples)
    return Estimate(
        sum(samples) / k,
        updates / k,
        solutions / k,
        k,
        depth,
        time.perf_counter() - start,
        samples,
    )


def _probe(arrays, loop: bool, allow_empty: bool, rng: random.Random) -> tuple:
    """One random root-to-leaf path: (nodes, updates, solutions, depth) it stands for."""
    from . import kernel as k
    from .arrays import DOWN, NEXT, N

    nd, ln, cl = list(arrays.nd), list(arrays.ln), list(arrays.cl)
    second, last_itm = arrays.second, arrays.last_itm
    st = [0] * k.N_STATE
    params = [0] * k.N_PARAMS
    params[k.P_LOOP] = 1 if loop else 0
    params[k.P_ALLOW_EMPTY] = 1 if allow_empty else 0
    weight = 1.0
    nodes = updates = solutions = 0.0
    level = 0
    while True:
        nodes += weight  # this node: an item is chosen here
        # The leftmost shortest active item, as the kernel picks it (hidden ones are longer).
        lengths = ln[1:second]
        degree = min(lengths)
        best = lengths.index(degree) + 1
        updates += weight * k._cover(nd, ln, cl, best, second, last_itm, True)
        if degree == 0:
            break
        cur = nd[N * best + DOWN]
        for _ in range(rng.randrange(degree)):
            cur = nd[N * cur + DOWN]
        weight *= degree
        before = st[k.S_UPDATES]
        bad = k._cover_option(nd, ln, cl, cur, second, last_itm, loop, False, st)
        updates += weight * (st[k.S_UPDATES] - before)
        if bad >= 0:
            break  # the loop rule refuses this child: an empty subtree
        level += 1
        if cl[NEXT] == 0:  # nothing left to cover: a solution, a node of the tree too
            nodes += weight
            if k._accept(st, params):
                solutions += weight
            break
    return nodes, updates, solutions, level
