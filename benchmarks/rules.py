"""Lazy cuts against eager encodings for the connected and acyclic rules, on ``sat`` and ``cpsat``.

The random problems of ``tests/test_rules.py`` grown into puzzles, each with a planted answer so
that every instance has one (and usually many more):

``sea N``
    An N x N grid of cells, shaded (``1``) or white (``0``); every 2 x 2 block is a primary item
    whose options are its patterns but "all four shaded" (a Nurikabe pool) -- neighbouring
    blocks agree through the cells, secondary items. A random shaded region grown without a
    pool is planted; each cell's colour is given with probability ``CLUE``. Rule: the shaded
    cells are connected.
``sea+border N``
    The same, and every white region touches the border (a connected rule with roots), as the
    planted region is grown to keep.
``forest N``
    An N x N grid of tiles and the edges between them, on (``1``) or off (``0``); each tile is a
    primary item whose options are the subsets of its edges, of the given degree where a
    clue gives one (probability ``CLUE``, read off a planted random spanning forest). Rule: the
    edges on hold no cycle.
``tree N``
    The same with a spanning tree planted, and the edges on also connected (through the tiles
    they share): acyclic and connected together.

Each instance is solved the way ``dlxsat solve`` solves a puzzle (two answers asked for: is it
unique?) by every way below, under a time limit, interleaved; the table gives the seconds
(solver statistics: build and search, not loading), the rounds (solver calls) and the cuts
added, summed over the seeds, and how many seeds finished.

    python3 benchmarks/rules.py                          # sizes 8, 10, 12, 15; 3 seeds
    python3 benchmarks/rules.py --sizes 15 --seeds 5 --only sea
    python3 benchmarks/rules.py --ways sat:lazy,sat:eager --timeout 30
    python3 benchmarks/rules.py --only tree --ways cpsat:connected=eager+acyclic=lazy

The machine's load average is printed before and after: timings of a shared machine are
comparable only within one run.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable
from itertools import product
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from dlxsat import solve_problem  # noqa: E402
from dlxsat.xcc import Item, Problem  # noqa: E402
from dlxsat.xcc.names import b62  # noqa: E402
from dlxsat.xcc.rules import Acyclic, Connected, Rule  # noqa: E402

#: The chance that a cell's colour (sea) or a tile's degree (forest, tree) is given.
CLUE = 0.3
#: backend:mode -- the mode of every rule the instance has.
WAYS = ["sat:lazy", "sat:eager", "cpsat:lazy", "cpsat:eager"]
KINDS = ("sea", "sea+border", "forest", "tree")


def _name(x: int, y: int) -> str:
    return b62(x) + b62(y)


# --------------------------------------------------------------------------- the sea


def _plant_sea(n: int, rng: random.Random, border: bool) -> set[tuple[int, int]]:
    """A random connected shaded region of about half the cells, with no 2 x 2 pool (and with
    ``border`` no white region cut off from the border)."""

    def pool(cells: set[tuple[int, int]], i: int, j: int) -> bool:
        return any(
            all((i + di - a, j + dj - b) in cells for di, dj in product((0, 1), repeat=2))
            for a, b in product((0, 1), repeat=2)
        )

    start = (rng.randrange(n), rng.randrange(n))
    shaded = {start}
    frontier = [start]
    while frontier and len(shaded) < n * n // 2:
        i, j = frontier[rng.randrange(len(frontier))]
        options = [
            (i + di, j + dj)
            for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1))
            if 0 <= i + di < n and 0 <= j + dj < n and (i + di, j + dj) not in shaded
        ]
        rng.shuffle(options)
        for c in options:
            if not pool(shaded | {c}, *c) and not (border and _enclosed(n, shaded | {c})):
                shaded.add(c)
                frontier.append(c)
                break
        else:
            frontier.remove((i, j))
    return shaded


def _enclosed(n: int, shaded: set[tuple[int, int]]) -> bool:
    """Whether some white region of the planted sea touches no border."""
    seen: set[tuple[int, int]] = set()
    for i, j in product(range(n), repeat=2):
        if (i, j) in shaded or (i, j) in seen:
            continue
        seen.add((i, j))
        stack, border = [(i, j)], False
        while stack:
            x, y = stack.pop()
            border |= x in (0, n - 1) or y in (0, n - 1)
            for c in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if 0 <= c[0] < n and 0 <= c[1] < n and c not in shaded and c not in seen:
                    seen.add(c)
                    stack.append(c)
        if not border:
            return True
    return False


def sea(n: int, seed: int, border: bool = False, clue: float = CLUE) -> Problem:
    """The ``sea N`` (or ``sea+border N``) instance of the module docstring."""
    rng = random.Random(seed)
    shaded = _plant_sea(n, rng, border)
    given = {
        (i, j): "1" if (i, j) in shaded else "0"
        for i in range(n)
        for j in range(n)
        if rng.random() < clue
    }
    blocks = [(i, j) for i in range(n - 1) for j in range(n - 1)]
    cells = [(i, j) for i in range(n) for j in range(n)]
    items = [Item("b" + _name(2 * i + 2, 2 * j + 2)) for i, j in blocks]
    items += [Item(_name(2 * i + 1, 2 * j + 1), primary=False) for i, j in cells]
    cell_item = {c: len(blocks) + k for k, c in enumerate(cells)}
    options: list[tuple[tuple[int, str | None], ...]] = []
    for b, (i, j) in enumerate(blocks):
        four = [(i + di, j + dj) for di, dj in product((0, 1), repeat=2)]
        for colours in product("01", repeat=4):
            if colours == ("1",) * 4:
                continue
            if any(given.get(c, v) != v for c, v in zip(four, colours, strict=True)):
                continue
            options.append(
                ((b, None), *((cell_item[c], v) for c, v in zip(four, colours, strict=True)))
            )
    at = {c: k for k, c in enumerate(cells)}
    links = tuple(
        (at[(i, j)], at[(i + di, j + dj)])
        for i, j in cells
        for di, dj in ((1, 0), (0, 1))
        if (i + di, j + dj) in at
    )
    rules: list[Rule] = [Connected(tuple((cell_item[c], "1") for c in cells), links, None, "sea")]
    if border:
        edge = tuple(k for k, (i, j) in enumerate(cells) if {i, j} & {0, n - 1})
        rules.append(Connected(tuple((cell_item[c], "0") for c in cells), links, edge, "white"))
    return Problem(items, options, rules=tuple(rules))


# --------------------------------------------------------------------------- forests


def _plant_forest(n: int, rng: random.Random, tree: bool) -> set[tuple[int, int]]:
    """A random spanning tree of the n x n tiles (edges as pairs of tile numbers), less a
    fifth of its edges unless ``tree``."""
    edges = [(i * n + j, i * n + j + 1) for i in range(n) for j in range(n - 1)]
    edges += [(i * n + j, (i + 1) * n + j) for i in range(n - 1) for j in range(n)]
    rng.shuffle(edges)
    parent = list(range(n * n))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    kept = set()
    for u, v in edges:  # randomized Kruskal
        ru, rv = find(u), find(v)
        if ru != rv:
            parent[ru] = rv
            kept.add((u, v))
    if not tree:
        kept = {e for e in kept if rng.random() >= 0.2}
    return kept


def forest(n: int, seed: int, tree: bool = False, clue: float = CLUE) -> Problem:
    """The ``forest N`` (or ``tree N``) instance of the module docstring."""
    rng = random.Random(seed)
    planted = _plant_forest(n, rng, tree)
    edges = sorted(
        [(i * n + j, i * n + j + 1) for i in range(n) for j in range(n - 1)]
        + [(i * n + j, (i + 1) * n + j) for i in range(n - 1) for j in range(n)]
    )
    tiles = n * n
    items = [Item("t" + _name(2 * (t // n), 2 * (t % n))) for t in range(tiles)]
    for u, v in edges:  # the edge's midpoint in doubled coordinates
        items.append(Item(_name(u // n + v // n, u % n + v % n), primary=False))
    incident: list[list[int]] = [[] for _ in range(tiles)]
    for k, (u, v) in enumerate(edges):
        incident[u].append(k)
        incident[v].append(k)
    options: list[tuple[tuple[int, str | None], ...]] = []
    for t in range(tiles):
        degree = sum(e in planted for e in (edges[k] for k in incident[t]))
        given = degree if rng.random() < clue else None
        for on in product("01", repeat=len(incident[t])):
            if given is not None and on.count("1") != given:
                continue
            options.append(
                ((t, None), *((tiles + k, c) for k, c in zip(incident[t], on, strict=True)))
            )
    members = tuple((tiles + k, "1") for k in range(len(edges)))
    rules: list[Rule] = [Acyclic(members, tuple(edges), "forest")]
    if tree:
        links = [
            (a, b)
            for t in range(tiles)
            for x, a in enumerate(incident[t])
            for b in incident[t][x + 1 :]
        ]
        rules.append(Connected(members, tuple(links), None, "tree"))
    return Problem(items, options, rules=tuple(rules))


#: Kind → (N, seed, clue chance) → instance.
MAKERS: dict[str, Callable[[int, int, float], Problem]] = {
    "sea": lambda n, seed, clue: sea(n, seed, clue=clue),
    "sea+border": lambda n, seed, clue: sea(n, seed, border=True, clue=clue),
    "forest": lambda n, seed, clue: forest(n, seed, clue=clue),
    "tree": lambda n, seed, clue: forest(n, seed, tree=True, clue=clue),
}


# --------------------------------------------------------------------------- the run


def run(problem: Problem, way: str, timeout: float) -> tuple[float, int, int, bool]:
    """Seconds, rounds, cuts, and whether it finished, of one way on one instance: a way is
    ``backend:mode`` (every rule of the instance in that mode) or ``backend:kind=mode+...``
    (the rules named in theirs, the others in the backend's default).

    >>> p = forest(3, 0, tree=True)
    >>> run(p, "sat:acyclic=eager+connected=lazy", 10)[3]
    True
    """
    backend, modes = way.split(":")
    kinds = {r.kind for r in problem.rules}
    if "=" in modes:
        pairs = dict(pair.split("=") for pair in modes.split("+"))
        options = {f"{k}_mode": m for k, m in pairs.items() if k in kinds}
    else:
        options = {f"{k}_mode": modes for k in kinds}
    r = solve_problem(problem, backend, limit=2, timeout=timeout, **options)
    finished = not r.timed_out
    return float(r.stats["seconds"]), int(r.stats["rounds"]), int(r.stats["cuts"]), finished


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="8,10,12,15", help="grid sizes N (comma-separated)")
    ap.add_argument("--seeds", type=int, default=3, help="instances per kind and size")
    ap.add_argument("--only", help="kinds (comma-separated): " + ", ".join(KINDS))
    ap.add_argument(
        "--ways", default=",".join(WAYS), help="backend:mode or backend:kind=mode+..., by commas"
    )
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per instance and way")
    ap.add_argument("--clue", type=float, default=CLUE, help="the chance a clue is given")
    a = ap.parse_args(argv)
    kinds = a.only.split(",") if a.only else list(KINDS)
    ways = a.ways.split(",")
    print(
        f"load average {os.getloadavg()[0]:.2f}; timeout {a.timeout:g} s, {a.seeds} seeds, "
        f"clues {a.clue:g}"
    )
    wide = max(12, *(len(w) for w in ways))
    print(f"{'problem':<16} {'backend:mode':<{wide}} {'seconds':>9} {'rounds':>7} {'cuts':>7} done")
    for kind in kinds:
        for n in (int(s) for s in a.sizes.split(",")):
            totals = {w: [0.0, 0, 0, 0] for w in ways}
            for seed in range(a.seeds):
                problem = MAKERS[kind](n, seed, a.clue)
                for way in ways:  # interleaved: the load falls on every way alike
                    seconds, rounds, cuts, done = run(problem, way, a.timeout)
                    t = totals[way]
                    t[0] += seconds
                    t[1] += rounds
                    t[2] += cuts
                    t[3] += done
            for way, (seconds, rounds, cuts, done) in totals.items():
                print(
                    f"{kind + ' ' + str(n):<16} {way:<{wide}} {seconds:>9.2f} {rounds:>7} {cuts:>7}"
                    f" {done}/{a.seeds}",
                    flush=True,
                )
    print(f"load average {os.getloadavg()[0]:.2f} at {time.strftime('%H:%M')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
