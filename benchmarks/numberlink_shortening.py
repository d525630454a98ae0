"""NumberLink: proving a published answer unique through touch-free answers (an experiment).

The family now argues this way itself, through exact-cover problems on every backend
(:func:`dlxsat.families.numberlink.shortened`, ``docs/genres/numberlink.md``); this script
keeps the first measurement, a plain CNF of the same touch-free answers built outside the
pipeline, to compare encodings.

dlxsat's exact encoding of NumberLink (cells may stay empty) leaves SAT without a first answer
on most corpus boards of 15 x 15 and more: the first solver call itself runs out of time, with no
cycle cut made (``rounds: 1, cuts: 0`` in the ``--json`` figures), and a textbook one-hot CNF
(a color per cell, edges joining equal colors) is as slow. This script measures another road to
the same verdict, outside the exact-cover encoding.

*Shortening.* A path that touches itself (two of its cells side by side that it does not pass
between) can be cut short there: another answer. Every answer therefore shortens, step by step,
to a *touch-free* one (T). With no touch, no cycle but the 2 x 2 one can be drawn, so T is a
plain CNF: one-hot colors, degrees, equal colors along an edge, a clause per neighbouring pair
and color given exactly twice (both cells of the color -> the edge between them on), a clause
per 2 x 2 block. Then:

1. ``fill``: the answers of T that use every cell (F). Propagation is strong here.
2. ``hole``: the answers of T that leave a cell empty.

If F is one answer A and ``hole`` has none, T = {A}; every answer shortens to A, and as A uses
every cell, shortening took no step: A is the only answer. (If ``hole`` finds one, the verdict
is open here; dlxsat's exact encoding decides.) Each phase runs in its own process under
``--timeout``.

Run::

    python benchmarks/numberlink_shortening.py --dataset puzzlekit-dataset --min-cells 225
"""

from __future__ import annotations

import argparse
import itertools
import json
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus  # noqa: E402

from dlxsat.families.codecs import BLANK  # noqa: E402
from dlxsat.families.numberlink import read  # noqa: E402

Cell = tuple[int, int]


def cnf(text: str, phase: str) -> tuple[list[list[int]], dict[frozenset[Cell], int]]:
    """The clauses of T (see the module doc) with ``fill`` (every cell used) or ``hole``
    (some empty cell unused), and the edge variables."""
    puzzle = read(text)
    m, n = puzzle.m, puzzle.n
    values = puzzle.values()
    count = itertools.count(1)
    color = {(i, j, k): next(count) for i in range(m) for j in range(n) for k in values}
    used = {(i, j): next(count) for i in range(m) for j in range(n)}
    edge: dict[frozenset[Cell], int] = {}

    def near(i: int, j: int) -> list[Cell]:
        return [
            (a, b)
            for a, b in ((i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1))
            if 0 <= a < m and 0 <= b < n
        ]

    for i in range(m):
        for j in range(n):
            for q in near(i, j):
                edge.setdefault(frozenset(((i, j), q)), next(count))
    out: list[list[int]] = []
    for i in range(m):
        for j in range(n):
            u, clue = used[(i, j)], puzzle.clues[i][j]
            cs = [color[(i, j, k)] for k in values]
            out += [[-a, -b] for a, b in itertools.combinations(cs, 2)]
            out += [[-u, *cs]] + [[-c, u] for c in cs]
            es = [edge[frozenset(((i, j), q))] for q in near(i, j)]
            if clue != BLANK:  # an end: its own color, exactly one edge
                out += [[color[(i, j, clue)]], es]
                out += [[-a, -b] for a, b in itertools.combinations(es, 2)]
                continue
            out += [[-e, u] for e in es]  # an edge on uses the cell
            out += [[-a, -b, -c] for a, b, c in itertools.combinations(es, 3)]
            out += [[-u, *es[:x], *es[x + 1 :]] for x in range(len(es))]  # used: two edges
            if phase == "fill":
                out.append([u])
    # No touch, for a value given exactly twice (its one path): two cells of it side by side
    # are joined. Two paths of one value may lie side by side, so other values get no such
    # clause (T here may then hold more than the touch-free answers: still a sound proof).
    twice = {k for k in values if sum(row.count(k) for row in puzzle.clues) == 2}
    for pair, e in edge.items():
        p, q = sorted(pair)
        for k in values:
            a, b = color[(p[0], p[1], k)], color[(q[0], q[1], k)]
            out += [[-e, -a, b], [-e, a, -b]]  # equal colors along an edge
            if k in twice:
                out.append([-a, -b, e])
    for i in range(m - 1):
        for j in range(n - 1):
            ring = [(i, j), (i, j + 1), (i + 1, j + 1), (i + 1, j), (i, j)]
            out.append([-edge[frozenset((ring[x], ring[x + 1]))] for x in range(4)])
    if phase == "hole":
        out.append(
            [-used[(i, j)] for i in range(m) for j in range(n) if puzzle.clues[i][j] == BLANK]
        )
    return out, edge


def edges_of(answer: str) -> set[frozenset[Cell]]:
    """The edges of an answer in the corpus's line tokens (``ns``, ``e``, ``-``, ...)."""
    rows = [line.split() for line in answer.strip().splitlines()[1:]]
    step = {"n": (-1, 0), "s": (1, 0), "e": (0, 1), "w": (0, -1)}
    return {
        frozenset(((i, j), (i + step[c][0], j + step[c][1])))
        for i, row in enumerate(rows)
        for j, token in enumerate(row)
        if token != "-"
        for c in token
    }


def run_phase(text: str, phase: str, name: str) -> dict[str, object]:
    """Solve one phase: up to two answers (fill) or one (hole); seconds and the answers' edges."""
    from pysat.solvers import Solver

    start = time.perf_counter()
    clauses, edge = cnf(text, phase)
    found: list[list[list[list[int]]]] = []
    with Solver(name=name, bootstrap_with=clauses) as solver:
        while len(found) < (2 if phase == "fill" else 1) and solver.solve():
            model = set(x for x in solver.get_model() or [] if x > 0)
            on = [pair for pair, e in edge.items() if e in model]
            found.append([sorted(list(c) for c in pair) for pair in on])
            solver.add_clause([-e if e in model else e for e in edge.values()])
    return {"seconds": round(time.perf_counter() - start, 3), "answers": found}


def verdict(
    key: str, text: str, answer: str | None, timeout: float, name: str
) -> dict[str, object]:
    """Both phases of one puzzle, each in a fresh process under ``timeout``."""
    row: dict[str, object] = {"puzzle": key}
    for phase in ("fill", "hole"):
        try:
            done = subprocess.run(
                [sys.executable, __file__, "--one", phase, "--solver", name],
                input=text,
                capture_output=True,
                text=True,
                timeout=timeout,
                check=True,
            )
        except subprocess.TimeoutExpired:
            row[phase] = "timeout"
            break
        result = json.loads(done.stdout)
        row[phase] = f"{len(result['answers'])} in {result['seconds']} s"
        if phase == "fill":
            if len(result["answers"]) != 1:
                break
            on = {frozenset(tuple(c) for c in pair) for pair in result["answers"][0]}
            row["published"] = answer is not None and on == edges_of(answer)
        elif not result["answers"]:
            row["unique"] = True
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    corpus.dataset_argument(parser)
    parser.add_argument("--min-cells", type=int, default=225, help="smallest board run (cells)")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds a phase")
    parser.add_argument(
        "--solver",
        default="cadical195",
        help="PySAT solver (default cadical195; glucose4 settled the hole phase of 300_15x15 "
        "in 5.9 s where cadical195 ran over 20 s)",
    )
    parser.add_argument("--one", choices=("fill", "hole"), help=argparse.SUPPRESS)
    parser.add_argument("--puzzles", help="comma-separated corpus keys (default: all large enough)")
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_phase(sys.stdin.read(), args.one, args.solver)))
        return
    puzzles = corpus.load("NumberLink", args.dataset)
    keys = args.puzzles.split(",") if args.puzzles else sorted(puzzles)
    for key in keys:
        text, answer = puzzles[key]
        m, n = (int(x) for x in text.split()[:2])
        if m * n < args.min_cells and not args.puzzles:
            continue
        print(json.dumps(verdict(key, text, answer, args.timeout, args.solver)), flush=True)


if __name__ == "__main__":
    main()
