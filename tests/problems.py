"""Random small exact-cover problems and an obviously correct brute-force solver, for tests.

The brute force decides each option in turn (in or out), pruning only where no completion can
exist -- an item over its upper bound, a secondary item given two colors, a primary item that
the options left cannot bring up to its lower bound -- and checks everything else at the
leaves, so that its correctness can be seen at a glance. Every backend's property tests compare
their counts with it. (Without the last prune, one drawn 4 x 4 loop problem in some took 0.5 s,
its 2**20 leaves visited, in each of the tests that draw it: 7 s of the suite in some runs.)
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

from hypothesis import strategies as st

from dlxsat.xcc import Item, Problem
from dlxsat.xcc.loop import is_single_cycle
from dlxsat.xcc.names import b62, parse_point_name


def brute_force(problem: Problem, loop: bool = False, allow_empty_loop: bool = True) -> list:
    """All solutions (sorted option-index lists) of ``problem``, by exhaustive search."""
    items = problem.items
    n_primary = problem.n_primary
    counts = [0] * len(items)
    colors: list[list] = [[] for _ in items]  # colors given to each secondary item so far
    chosen: list[int] = []
    found: list[list[int]] = []
    # left[k][i]: how many of options k, k + 1, ... hold primary item i.
    left = [[0] * n_primary]
    for opt in reversed(problem.options):
        row = list(left[0])
        for i, _ in opt:
            if i < n_primary:
                row[i] += 1
        left.insert(0, row)

    def secondary_ok(i: int) -> bool:
        cs = colors[i]
        if len(cs) <= 1:
            return True
        return None not in cs and len(set(cs)) == 1

    def leaf() -> None:
        for i, it in enumerate(items[:n_primary]):
            if not it.lo <= counts[i] <= it.hi:
                return
        if loop:
            edges = []
            for k in chosen:
                for i, c in problem.options[k]:
                    xy = parse_point_name(items[i].name)
                    if c == "1" and i >= n_primary and xy and (xy[0] + xy[1]) % 2:
                        edges.append(xy)
            edges = sorted(set(edges))
            if not edges:
                if not allow_empty_loop:
                    return
            elif not is_single_cycle(edges):
                return
        found.append(sorted(chosen))

    def go(k: int) -> None:
        if any(counts[i] + left[k][i] < items[i].lo for i in range(n_primary)):
            return  # some item can no longer get the options it needs
        if k == len(problem.options):
            leaf()
            return
        go(k + 1)
        opt = problem.options[k]
        ok = True
        for i, c in opt:
            if i < n_primary:
                counts[i] += 1
                ok &= counts[i] <= items[i].hi
            else:
                colors[i].append(c)
                ok &= secondary_ok(i)
        if ok:
            chosen.append(k)
            go(k + 1)
            chosen.pop()
        for i, _ in opt:
            if i < n_primary:
                counts[i] -= 1
            else:
                colors[i].pop()

    go(0)
    return found


# The strategies the generators below draw from, made once each: hypothesis works out a
# strategy's properties on its first draw, and a fresh strategy object per draw made that most of
# the generators' time (cProfile: some 10 ms of 11 per example; the examples are the same).
@cache
def _integers(lo: int, hi: int) -> st.SearchStrategy[int]:
    return st.integers(lo, hi)


@cache
def _index_lists(lo: int, hi: int, max_size: int, min_size: int = 0) -> st.SearchStrategy:
    return st.lists(st.integers(lo, hi), min_size=min_size, max_size=max_size, unique=True)


@cache
def _orders(n: int) -> st.SearchStrategy:
    """A random order of ``n`` things, as a permutation of their indices."""
    return st.permutations(range(n))


@cache
def _flags(n: int) -> st.SearchStrategy[list[bool]]:
    return st.lists(st.booleans(), min_size=n, max_size=n)


_COLORS = st.sampled_from([None, "a", "b"])


@st.composite
def exact_cover_problems(draw, kind: str = "XCC", max_options: int = 10) -> Problem:
    """A random small problem of ``kind`` ``XC``, ``XCC`` or ``MCC``."""
    n_primary = draw(_integers(1, 5))
    n_secondary = draw(_integers(0, 3))
    items = []
    for i in range(n_primary):
        lo, hi = 1, 1
        if kind == "MCC":
            hi = draw(_integers(1, 3))
            lo = draw(_integers(0, hi))
        items.append(Item(f"p{i}", True, lo, hi))
    items += [Item(f"s{i}", False) for i in range(n_secondary)]
    n_options = draw(_integers(0, max_options))
    options = []
    for _ in range(n_options):
        prim = draw(_index_lists(0, n_primary - 1, 3, min_size=1))
        sec = draw(_index_lists(n_primary, n_primary + n_secondary - 1, 2)) if n_secondary else []
        entries = [(i, None) for i in prim]
        for i in sec:
            color = draw(_COLORS) if kind != "XC" else None
            entries.append((i, color))
        entries = [entries[k] for k in draw(_orders(len(entries)))]
        options.append(tuple(entries))
    return Problem(items, options)


@st.composite
def loop_problems(draw, max_rows: int = 3, max_cols: int = 3) -> Problem:
    """A random small loop problem in Knuth's naming: vertices ``2i 2j`` (primary), edges
    between them (secondary, colors ``0``/``1``), each vertex's options giving degree 0 or 2,
    a random subset of them kept (as clues would do)."""
    rows = draw(_integers(2, max_rows))
    cols = draw(_integers(2, max_cols))
    verts = [(2 * i, 2 * j) for i in range(rows) for j in range(cols)]
    edge_list = [(2 * i + 1, 2 * j) for i in range(rows - 1) for j in range(cols)]
    edge_list += [(2 * i, 2 * j + 1) for i in range(rows) for j in range(cols - 1)]
    edge_list.sort()
    names = [b62(x) + b62(y) for x, y in verts] + [b62(x) + b62(y) for x, y in edge_list]
    items = [Item(n) for n in names[: len(verts)]] + [Item(n, False) for n in names[len(verts) :]]
    index = {n: k for k, n in enumerate(names)}
    options = []
    for x, y in verts:
        inc = [e for e in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)) if e in edge_list]
        choices = [()] + list(combinations(inc, 2))
        keep = draw(_flags(len(choices)))
        if rows * cols > 6:
            # Keep the brute force small on the larger grids.
            keep = [k and draw(st.booleans()) for k in keep]
        for on, choice in zip(keep, choices, strict=True):
            if not on:
                continue
            entries = [(index[b62(x) + b62(y)], None)]
            for e in inc:
                entries.append((index[b62(e[0]) + b62(e[1])], "1" if e in choice else "0"))
            options.append(tuple(entries))
    return Problem(items, options)
