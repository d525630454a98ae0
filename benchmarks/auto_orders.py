"""The two orders of ``auto``'s loop trial replayed: how much of the budget Knuth's tree gets.

A loop problem's trial (``auto.two_orders_apply``) searches Knuth's DLX tree for a share of
its budgets (``auto.knuth_share``), then the *mirrored* tree (ties between the shortest items
to the rightmost) for the rest; a tree that ends within its part is DLX's answer, one that has
found its answer goes on to ``auto.FOUND_BUDGET_GROWTH`` times the whole budget, any other pays
the trial and then SAT. Which share is best depends on both trees of every board, so this
benchmark first measures them, then replays the rule for a grid of shares and budgets.

1. ``trees``: for every loop board of the genres asked (the corpus, at most ``--max-cells``),
   each order's DLX search with ``limit=1`` (the nodes to the first answer) and ``limit=2``
   (the nodes to the end: the trial's question, "is it unique?"), capped at ``--cap`` nodes,
   with the search's seconds. One JSON line a board.
2. ``replay``: with those lines and ``benchmarks/published.py --jsonl`` runs of the same
   boards (each engine's best time, ``auto``'s as measured), the default's time per board for
   each (nodes an item, share): DLX's time when the trial settles the question (the search's
   nodes at that tree's own rate a node, plus what DLX's measured run spent outside the search),
   else SAT's measured time plus the trial's nodes at those rates. Printed per genre: the
   measured default / VBS, then the replayed one for each budget (the VBS is the per-board best
   of dlx, sat and cpsat; totals over totals). The replay of the rule as it ran sits beside
   the measured figure, so that the replay's own error shows; a choice made here is then run
   for real with ``published.py --variant`` (docs/auto.md, "Two orders on Algorithm M's loop
   genres").

Run::

    python benchmarks/auto_orders.py trees --families country-road,double-back --out trees.jsonl
    python benchmarks/published.py --families country-road,double-back --sample 1000 \\
        --max-cells 400 --jsonl runs.jsonl
    python benchmarks/auto_orders.py replay trees.jsonl --runs runs.jsonl \\
        [--per-item 100,150] [--shares 0.5,0.7,0.8]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus  # noqa: E402

ENGINES = ("dlx", "sat", "cpsat")
#: A tree not ended by the cap counts as endless (the trial never settles it).
ENDLESS = 10**15


def trees(families: Sequence[str], dataset: str, max_cells: int, cap: int, out: Any) -> None:
    """Write one line a loop board: both orders' nodes to the first answer and to the end."""
    import genres

    from dlxsat import formats, pipeline
    from dlxsat.backends import auto, dlx
    from dlxsat.backends.dlx.arrays import build_numpy
    from dlxsat.solvers import Request

    auto.load()
    for family in families:
        puzzles = corpus.load(genres.GENRES[family][0], dataset)
        for key, (text, _answer) in sorted(puzzles.items()):
            if genres.cells(text) > max_cells:
                continue
            problem = pipeline.prepare(family, formats.read(family, text, "grid")).problem
            loop = problem.rule("loop")
            if loop is None:
                continue
            row: dict[str, Any] = {
                "family": family,
                "board": key,
                "primary": problem.n_primary,
                "kind": problem.kind,
            }
            for mirrored, tag in ((False, "knuth"), (True, "mirrored")):
                for limit in (1, 2):
                    arrays = build_numpy(problem, loop.graph)  # type: ignore[attr-defined]
                    start = time.perf_counter()
                    result = dlx.solve(
                        problem,
                        Request.for_mode("unique") if limit == 2 else Request(limit=1),
                        {},
                        max_nodes=cap,
                        arrays=arrays,
                        mirrored=mirrored,
                    )
                    seconds = time.perf_counter() - start
                    nodes = result.stats["nodes"]
                    row[f"{tag}_{limit}"] = None if result.timed_out else nodes
                    if limit == 2:  # (the rate a node of this tree)
                        row[f"{tag}_rate"] = seconds / max(1, nodes)
            print(json.dumps(row), file=out, flush=True)


def best_runs(paths: Sequence[str]) -> dict[tuple[str, str], dict[str, dict[str, Any]]]:
    """Each board's best run of each solver, from ``published.py --jsonl`` files."""
    runs: dict[tuple[str, str], dict[str, dict[str, Any]]] = defaultdict(dict)
    for path in paths:
        for line in Path(path).read_text().splitlines():
            run = json.loads(line)
            here = runs[(run["set"], run["board"])]
            if run["solver"] not in here or run["seconds"] < here[run["solver"]]["seconds"]:
                here[run["solver"]] = run
    return runs


def replayed(
    tree: Mapping[str, Any],
    runs: Mapping[str, Mapping[str, Any]],
    per_item: int,
    share: float | None,
    growth: float | None,
    seconds: float,
    small_seconds: float | None = None,
) -> tuple[float, str]:
    """The default's time on one board and its engine (``dlx`` or ``sat``) under a trial of
    ``per_item`` nodes an item and ``seconds`` of search, Knuth's tree getting ``share`` of
    both (None: Knuth's tree alone), grown ``growth`` times once an answer is found. A board
    of at most ``auto.NODE_BUDGET_MIN_ITEMS`` primary items has no node budget (Knuth's tree
    for ``auto.TRIAL_SECONDS_SMALL_LOOP``), or with ``small_seconds`` the node budget as the
    others with that time budget."""
    from dlxsat.backends import auto

    def nodes(name: str) -> int:
        n = tree[name]
        return ENDLESS if n is None else int(n)

    sat = float(runs["sat"]["seconds"])
    knuth_end = nodes("knuth_2")
    if tree["knuth_2"] is None and runs["dlx"]["status"] != "timeout":
        knuth_end = int(runs["dlx"].get("nodes") or ENDLESS)  # (ended past the cap)
    rate_k, rate_m = float(tree["knuth_rate"]), float(tree["mirrored_rate"])
    dlx_run = float(runs["dlx"]["seconds"])
    outside = max(0.0, dlx_run - knuth_end * rate_k) if knuth_end < ENDLESS else 0.3 * sat
    if tree["primary"] <= auto.NODE_BUDGET_MIN_ITEMS and small_seconds is None:
        if knuth_end * rate_k <= auto.TRIAL_SECONDS_SMALL_LOOP:
            return outside + knuth_end * rate_k, "dlx"
        return sat + auto.TRIAL_SECONDS_SMALL_LOOP, "sat"
    if tree["primary"] <= auto.NODE_BUDGET_MIN_ITEMS and small_seconds is not None:
        seconds = small_seconds
    budget = per_item * int(tree["primary"])

    def part(first: int, end: int, rate: float, n: float, s: float) -> tuple[str, float, float]:
        """One tree's part of the trial: (outcome, seconds, nodes searched)."""
        reach = min(n, s / rate)
        if end <= reach:
            return "done", end * rate, end
        if first <= reach and growth is not None:
            grown = min(growth * budget, growth * seconds / rate)
            if end <= grown:
                return "done", end * rate, end
            return "sat", grown * rate, grown
        return "over", reach * rate, reach

    first = 1.0 if share is None else share
    k = part(nodes("knuth_1"), knuth_end, rate_k, first * budget, first * seconds)
    if k[0] == "done":
        return outside + k[1], "dlx"
    if k[0] == "sat" or share is None:
        return sat + k[1], "sat"
    m = part(
        nodes("mirrored_1"),
        nodes("mirrored_2"),
        rate_m,
        max(1.0, budget - k[2]),
        (1 - share) * seconds,
    )
    if m[0] == "done":
        return outside + k[1] + m[1], "dlx"
    return sat + k[1] + m[1], "sat"


def replay(
    tree_paths: Sequence[str],
    run_paths: Sequence[str],
    per_items: Sequence[int],
    shares: Sequence[float | None],
    small_seconds: float | None = None,
) -> None:
    """Print, per genre, the measured and the replayed default / VBS (a tree of a board the
    runs lack, or lack an engine of, is left out: ``published.py`` skips boards it cannot
    read; so is a board no engine settled, which has no VBS); ``small_seconds``: see
    :func:`replayed`."""
    from dlxsat.backends import auto

    runs = best_runs(run_paths)
    boards: dict[str, list[tuple[dict[str, Any], dict[str, dict[str, Any]]]]] = defaultdict(list)
    for path in tree_paths:
        for line in Path(path).read_text().splitlines():
            tree = json.loads(line)
            here = runs.get((tree["family"], tree["board"]))
            if (
                here
                and all(e in here for e in (*ENGINES, "auto"))
                and any(here[e]["status"] != "timeout" for e in ENGINES)
            ):
                boards[tree["family"]].append((tree, here))
    growth = auto.FOUND_BUDGET_GROWTH
    for family, rows in boards.items():
        vbs = sum(
            min(r[e]["seconds"] for e in ENGINES if r[e]["status"] != "timeout") for _, r in rows
        )
        measured = sum(r["auto"]["seconds"] for _, r in rows) / vbs
        print(f"{family} ({len(rows)} boards): measured {measured:.3f}")
        for per_item in per_items:
            cells = []
            for share in shares:
                total, engines = 0.0, Counter[str]()
                for tree, r in rows:
                    seconds, engine = replayed(
                        tree, r, per_item, share, growth, auto.TRIAL_SECONDS, small_seconds
                    )
                    total += seconds
                    engines[engine] += 1
                cells.append(f"share {share}: {total / vbs:.3f} (dlx {engines['dlx']})")
            print(f"  {per_item} an item | " + " | ".join(cells))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("trees", help="measure both orders' trees of every loop board")
    t.add_argument("--families", required=True)
    corpus.dataset_argument(t)
    t.add_argument("--max-cells", type=int, default=400)
    t.add_argument("--cap", type=int, default=2_000_000, help="nodes a search may make")
    t.add_argument("--out", default="-")
    r = sub.add_parser("replay", help="replay the trial's shares on measured trees and runs")
    r.add_argument("trees", nargs="+")
    r.add_argument("--runs", action="append", required=True, help="published.py --jsonl")
    r.add_argument("--per-item", default="100")
    r.add_argument("--shares", default="0.5,0.7,0.8,none")
    r.add_argument(
        "--small-seconds",
        type=float,
        help="give boards of at most 128 items the node budget too, with this time budget",
    )
    a = parser.parse_args(argv)
    if a.command == "trees":
        if not a.dataset:
            parser.error("--dataset (or $DLXSAT_CORPUS): a clone of puzzlekit-dataset")
        out = sys.stdout if a.out == "-" else open(a.out, "a")
        trees(a.families.split(","), a.dataset, a.max_cells, a.cap, out)
    else:
        try:
            shares = [None if s == "none" else float(s) for s in a.shares.split(",")]
            per_items = [int(n) for n in a.per_item.split(",")]
        except ValueError:
            parser.error(
                "--shares takes numbers or 'none', --per-item whole numbers, comma-separated"
            )
        try:
            replay(a.trees, a.runs, per_items, shares, a.small_seconds)
        except OSError as e:
            parser.error(f"cannot read {e.filename}: {e.strerror}")
        except (ValueError, KeyError, TypeError) as e:
            parser.error(f"not a trees or published.py --jsonl record: {e!r}")


if __name__ == "__main__":
    main()
