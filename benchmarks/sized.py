"""Lazy cuts against eager encodings for the sized rule, on ``sat`` and ``cpsat`` (dlx beside).

Random boards written in the ``|@sized`` text form (docs/conventions.md §3) and read back with
:func:`dlxsat.xcc.parse`, each with a planted answer so that every instance has one:

``fillomino N``
    An N x N grid; every cell is a primary item whose options label it ``1`` .. ``D`` (``D`` =
    :data:`BOUND`) or ``x`` (a region of more than ``D`` cells), a color of the cell's secondary
    item. One sized rule per label ``d``: the cells labelled ``d`` fall into pieces of ``d``
    (two regions of one size must not touch: they would be one piece); ``x``: pieces of at
    least ``D + 1`` (``|@size D+1+``). Planted: random regions of ``1 .. D`` cells, neighbours
    of equal size merged (a merged region larger than ``D`` is labelled ``x``); each cell of
    a numbered region is given with probability :data:`CLUE`.
``nurikabe N``
    An N x N grid of white (``0``) and black (``1``) cells; every 2 x 2 block is a primary item
    whose options are its patterns but "all four black" (no pool), agreeing through the
    cells. One sized rule with anchors: the white cells fall into islands, each holding one
    clue and of its size. Planted: islands grown until no 2 x 2 block is all black, a clue
    on a random cell of each (the clue cells given white).

Each instance is solved the way ``dlxsat solve`` solves a puzzle (two answers asked for: is it
unique?) by every way below, under a time limit, interleaved; the table gives the seconds (the
solver's own: build and search, not loading), the rounds (solver calls) and cuts added, summed
over the seeds, how many seeds finished, and each way's time against ``sat:lazy``'s.

    python3 benchmarks/sized.py                         # sizes 6, 8, 10; 3 seeds
    python3 benchmarks/sized.py --sizes 12 --seeds 5 --only nurikabe
    python3 benchmarks/sized.py --ways sat:lazy,sat:eager --timeout 30

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
from dlxsat.xcc import Problem, parse  # noqa: E402
from dlxsat.xcc.names import b62  # noqa: E402

#: The largest numbered Fillomino region (larger ones are labelled ``x``).
BOUND = 5
#: The chance that a cell's label (fillomino) is given.
CLUE = 0.35
#: The largest planted Nurikabe island.
ISLAND = 6
#: backend:mode -- the mode of the sized rule (dlx has one way).
WAYS = ["dlx", "sat:lazy", "sat:eager", "cpsat:lazy", "cpsat:eager"]
KINDS = ("fillomino", "nurikabe")

Cell = tuple[int, int]


def _name(i: int, j: int) -> str:
    """Cell (i, j)'s item: its doubled coordinates (2i+1, 2j+1)."""
    return b62(2 * i + 1) + b62(2 * j + 1)


def _near(n: int, c: Cell) -> list[Cell]:
    i, j = c
    return [
        (i + di, j + dj)
        for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1))
        if 0 <= i + di < n and 0 <= j + dj < n
    ]


# --------------------------------------------------------------------------- fillomino


def _plant_regions(n: int, rng: random.Random) -> list[set[Cell]]:
    """A partition of the n x n cells into regions, no two of one size (up to :data:`BOUND`)
    touching: random regions of 1 .. BOUND cells, then neighbours of equal size merged."""
    owner: dict[Cell, int] = {}
    regions: list[set[Cell]] = []
    cells = [(i, j) for i in range(n) for j in range(n)]
    rng.shuffle(cells)
    for start in cells:
        if start in owner:
            continue
        want = rng.randint(1, BOUND)
        region = {start}
        owner[start] = len(regions)
        while len(region) < want:
            grow = [y for x in region for y in _near(n, x) if y not in owner]
            if not grow:
                break
            y = rng.choice(grow)
            region.add(y)
            owner[y] = len(regions)
        regions.append(region)
    while True:  # merge two touching regions of one size (at most BOUND) until none touch
        clash = next(
            (
                (a, owner[y])
                for a, region in enumerate(regions)
                if region and len(region) <= BOUND
                for x in region
                for y in _near(n, x)
                if owner[y] != a and len(regions[owner[y]]) == len(region)
            ),
            None,
        )
        if clash is None:
            return [r for r in regions if r]
        a, b = clash
        for x in regions[b]:
            owner[x] = a
        regions[a] |= regions[b]
        regions[b] = set()


def fillomino(n: int, seed: int) -> Problem:
    """The ``fillomino N`` instance of the module docstring, as ``|@sized`` text."""
    rng = random.Random(seed)
    label: dict[Cell, str] = {}
    for region in _plant_regions(n, rng):
        for c in region:
            label[c] = str(len(region)) if len(region) <= BOUND else "x"
    labels = [str(d) for d in range(1, BOUND + 1)] + ["x"]
    cells = [(i, j) for i in range(n) for j in range(n)]
    lines = []
    for d in labels:
        lines.append(f"|@sized label-{d}")
        lines.append("|@members " + " ".join(f"{_name(*c)}:{d}" for c in cells))
        lines.append("|@links grid")
        lines.append(f"|@size {BOUND + 1}+" if d == "x" else f"|@size {d}")
    lines.append(
        " ".join("p" + _name(*c) for c in cells) + " | " + " ".join(_name(*c) for c in cells)
    )
    for c in cells:
        given = label[c] != "x" and rng.random() < CLUE
        for d in [label[c]] if given else labels:
            lines.append(f"p{_name(*c)} {_name(*c)}:{d}")
    return parse("\n".join(lines) + "\n")


# --------------------------------------------------------------------------- nurikabe


def _plant_islands(n: int, rng: random.Random) -> list[set[Cell]]:
    """Islands (white regions, none touching another) grown until no 2 x 2 block is all
    black: a cell of a black block becomes a new island, or joins the one island beside it."""
    for _ in range(1000):  # a planting that gets stuck starts again
        island: dict[Cell, int] = {}
        islands: list[set[Cell]] = []
        while True:
            pools = [
                (i, j)
                for i in range(n - 1)
                for j in range(n - 1)
                if all((i + di, j + dj) not in island for di, dj in product((0, 1), repeat=2))
            ]
            if not pools:
                return islands
            i, j = rng.choice(pools)
            four = [(i + di, j + dj) for di, dj in product((0, 1), repeat=2)]
            rng.shuffle(four)
            for c in four:
                beside = {island[y] for y in _near(n, c) if y in island}
                if not beside:
                    island[c] = len(islands)
                    islands.append({c})
                    break
                if len(beside) == 1:
                    (k,) = beside
                    if len(islands[k]) < ISLAND:
                        island[c] = k
                        islands[k].add(c)
                        break
            else:
                break  # no cell of this pool can turn white: start again
    raise RuntimeError("could not plant the islands")


def nurikabe(n: int, seed: int) -> Problem:
    """The ``nurikabe N`` instance of the module docstring, as ``|@sized`` text."""
    rng = random.Random(seed)
    clues = {rng.choice(sorted(island)): len(island) for island in _plant_islands(n, rng)}
    cells = [(i, j) for i in range(n) for j in range(n)]
    blocks = [(i, j) for i in range(n - 1) for j in range(n - 1)]
    lines = [
        "|@sized islands",
        "|@members " + " ".join(f"{_name(*c)}:0" for c in cells),
        "|@links grid",
        "|@anchors " + " ".join(f"{_name(*c)} {v}" for c, v in sorted(clues.items())),
        " ".join("b" + b62(2 * i + 2) + b62(2 * j + 2) for i, j in blocks)
        + " | "
        + " ".join(_name(*c) for c in cells),
    ]
    for i, j in blocks:
        four = [(i + di, j + dj) for di, dj in product((0, 1), repeat=2)]
        for colours in product("01", repeat=4):
            if colours == ("1",) * 4 or any(
                c in clues and v != "0" for c, v in zip(four, colours, strict=True)
            ):
                continue
            entries = " ".join(f"{_name(*c)}:{v}" for c, v in zip(four, colours, strict=True))
            lines.append(f"b{b62(2 * i + 2)}{b62(2 * j + 2)} {entries}")
    return parse("\n".join(lines) + "\n")


MAKERS: dict[str, Callable[[int, int], Problem]] = {"fillomino": fillomino, "nurikabe": nurikabe}


# --------------------------------------------------------------------------- running


def run(way: str, problem: Problem, timeout: float) -> tuple[float, int, int, bool]:
    """Seconds (the solver's own), rounds, cuts, and whether it finished."""
    backend, _, mode = way.partition(":")
    options = {"sized_mode": mode} if mode else {}
    start = time.perf_counter()
    r = solve_problem(problem, backend, limit=2, timeout=timeout, **options)
    spent = r.stats.get("seconds", time.perf_counter() - start)
    return spent, r.stats.get("rounds", 0), r.stats.get("cuts", 0), not r.timed_out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="6,8,10", help="board sizes N (default 6,8,10)")
    ap.add_argument("--seeds", type=int, default=3, help="instances per kind and size")
    ap.add_argument("--only", choices=KINDS, action="append", help="only these kinds")
    ap.add_argument("--ways", default=",".join(WAYS), help="backend:mode, comma-separated")
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds per solve")
    args = ap.parse_args(argv)
    ways = args.ways.split(",")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for way in ways:  # load every library first: the first solve should not pay for it
        run(way, fillomino(3, 0), args.timeout)
    head = f"{'instance':<14}" + "".join(f"{w:>24}" for w in ways)
    print(head)
    print(" " * 14 + "".join(f"{'s rounds/cuts ok ratio':>24}" for _ in ways))
    for kind in args.only or KINDS:
        for n in (int(x) for x in args.sizes.split(",")):
            totals = {w: [0.0, 0, 0, 0] for w in ways}
            for seed in range(args.seeds):
                problem = MAKERS[kind](n, seed)
                for way in ways:
                    spent, rounds, cuts, done = run(way, problem, args.timeout)
                    t = totals[way]
                    t[0] += spent
                    t[1] += rounds
                    t[2] += cuts
                    t[3] += done
            base = totals.get("sat:lazy", totals[ways[0]])[0] or 1e-9
            cells = []
            for w in ways:
                spent, rounds, cuts, done = totals[w]
                cells.append(
                    f"{spent:7.2f} {rounds:>4}/{cuts:<5} {done}/{args.seeds} {spent / base:5.2f}"
                )
            print(f"{kind + ' ' + str(n):<14}" + "".join(f"{c:>24}" for c in cells))
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
