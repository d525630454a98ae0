"""The node budget of ``auto``'s DLX trial replayed per family from measured runs.

``benchmarks/published.py --jsonl FILE`` records, for every board of a sample, the best time
of each engine (``dlx`` with its number of nodes, ``sat``, ``cpsat``) and of ``auto`` (with
its features and its trial's figures). On a problem with a connected, sized or acyclic rule,
``auto``'s trial of DLX may search ``max(per_item * primary items, floor)`` nodes
(``auto.TRIAL_NODES_PER_ITEM_RULES`` and ``auto.TRIAL_MIN_NODES_RULES``); a tree DLX ends
within that budget is DLX's answer, any other pays the trial and then SAT. Replayed here for a
grid of budgets, without running anything again: a board's time is DLX's when its tree fits,
else the trial's share of DLX's time (the nodes searched over all its nodes: DLX's time is
near-linear in its nodes) plus SAT's; when DLX ran out of time, the trial's own time a node.
Printed per family: the replayed default / VBS (the per-board best of dlx, sat and cpsat,
totals over totals) for each (per item, floor), beside ``auto``'s measured ratio and the
replay of the budgets it ran with, so that the replay's own error shows.

``--scales`` replays every family's trial as it ran (nodes or, for a problem without a node
budget, seconds: converted to nodes at the trial's own time a node) scaled by each factor, and
beside it the best any choice made at the trial's end could do -- DLX on when its tree ends
before SAT would, else SAT -- which bounds what a better prediction after the trial could gain
(docs/auto.md, "Where `auto` stands": Star Battle).

A replay ranks budgets on the boards it was given; a budget chosen by it is then run for real
on boards it was not chosen on (``published.py --seed NEW --variant``). docs/auto.md, "A
family's own floor of trial nodes", has a replay whose choice did not hold out.

Run::

    python benchmarks/published.py --families nurikabe,cave --sample 10 --seed 66 \\
        --jsonl runs-66.jsonl
    python benchmarks/auto_replay.py runs-66.jsonl runs-67.jsonl [--floors 2000,4000] \\
        [--per-item 16] [--families nurikabe] [--scales 0.5,1,2]
"""

from __future__ import annotations

import argparse
import json
import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ENGINES = ("dlx", "sat", "cpsat")
PER_ITEM = (0, 8, 16, 24, 32, 64)
FLOORS = (0, 1000, 2000, 3000, 4000, 6000, 8000, 16000)


@dataclass(frozen=True)
class Board:
    """One board's best times (seconds), DLX's nodes (None: it ran out of time) and its
    number of primary items; ``auto`` as measured and the budget it ran with."""

    primary: int
    dlx: float
    nodes: int | None
    sat: float
    vbs: float
    auto: float
    budget: int | None
    #: Seconds a node of ``auto``'s trial took (its time over the nodes it searched).
    per_node: float
    #: The trial's budget of seconds (of search) when it had no budget of nodes.
    seconds_budget: float | None = None

    def scaled(self, scale: float) -> int | None:
        """The trial's budget as it ran, times ``scale``, in nodes (a budget of seconds at the
        trial's own time a node); None when the trial had neither."""
        if self.budget is not None:
            return max(1, round(scale * self.budget))
        if self.seconds_budget is None or self.per_node <= 0:
            return None
        return max(1, round(scale * self.seconds_budget / self.per_node))

    def best_choice(self, budget: int) -> float:
        """The time with a trial of ``budget`` nodes and, at its end, the better of going on
        with DLX and SAT, known beforehand: what no prediction made there can beat. (DLX on is
        DLX's whole time; SAT after the trial is :meth:`replayed`; a DLX that ran out of time
        is no choice.)"""
        replayed = self.replayed(budget)
        return replayed if self.nodes is None else min(self.dlx, replayed)

    def replayed(self, budget: int) -> float:
        """The default's time with a trial of ``budget`` nodes: DLX's when its tree fits,
        else the trial's share of DLX's time (at the trial's own time a node when DLX ran
        out of time) and SAT's."""
        if self.nodes is not None and self.nodes <= budget:
            return self.dlx
        trial = self.dlx * budget / self.nodes if self.nodes else self.per_node * budget
        return trial + self.sat


def boards(paths: Sequence[Path]) -> dict[str, list[Board]]:
    """The boards of ``published.py --jsonl`` files by family, each engine at its best time
    (a board measured in several files counts once per file: another sample's run)."""
    runs: dict[tuple[str, str, str], dict[str, list[dict]]] = defaultdict(lambda: defaultdict(list))
    for path in paths:
        for line in path.read_text().splitlines():
            r = json.loads(line)
            runs[(r["set"], str(path), r["board"])][r["solver"]].append(r)
    out: dict[str, list[Board]] = defaultdict(list)
    for (family, _, _), by in sorted(runs.items()):
        if "auto" not in by or any(e not in by for e in ENGINES):
            continue
        best = {s: min(rs, key=lambda r: r["seconds"]) for s, rs in by.items()}
        trial = best["auto"].get("auto") or {}
        if "features" not in trial:
            continue
        dlx = best["dlx"]
        out[family].append(
            Board(
                primary=trial["features"]["primary"],
                dlx=dlx["seconds"],
                nodes=dlx.get("nodes") if dlx["status"] != "timeout" else None,
                sat=best["sat"]["seconds"],
                vbs=min(best[e]["seconds"] for e in ENGINES),
                auto=best["auto"]["seconds"],
                budget=trial.get("trial_nodes"),
                per_node=trial.get("trial_seconds", 0.0) / max(trial.get("trial_searched", 1), 1),
                seconds_budget=None if "trial_nodes" in trial else trial.get("trial_budget"),
            )
        )
    return out


def ratio(rows: Sequence[Board], per_item: int, floor: int) -> float:
    """Replayed total over the VBS's total with ``max(per_item * primary, floor)`` nodes."""
    total = sum(b.replayed(max(per_item * b.primary, floor)) for b in rows)
    return total / sum(b.vbs for b in rows)


def scaled_ratios(rows: Sequence[Board], scale: float) -> tuple[float, float] | None:
    """Replayed total over the VBS's with every trial's budget times ``scale``, and the same
    with the best choice at the trial's end (:meth:`Board.best_choice`); None when no board's
    trial had a budget."""
    kept = [(b, b.scaled(scale)) for b in rows]
    if any(n is None for _, n in kept):
        return None
    vbs = sum(b.vbs for b in rows)
    replayed = sum(b.replayed(n) for b, n in kept if n is not None)
    best = sum(b.best_choice(n) for b, n in kept if n is not None)
    return replayed / vbs, best / vbs


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=Path, help="published.py --jsonl files")
    parser.add_argument("--per-item", default=",".join(map(str, PER_ITEM)))
    parser.add_argument("--floors", default=",".join(map(str, FLOORS)))
    parser.add_argument("--families", default=None, help="comma-separated (default: all)")
    parser.add_argument(
        "--scales",
        default=None,
        help="also replay each trial's budget as it ran times these factors (comma-separated), "
        "with the best choice at its end beside it",
    )
    a = parser.parse_args(argv)
    try:
        per_items = [int(x) for x in a.per_item.split(",")]
        floors = [int(x) for x in a.floors.split(",")]
    except ValueError:
        parser.error("--per-item and --floors take whole numbers, comma-separated")
    try:
        scales = [float(x) for x in a.scales.split(",")] if a.scales else []
    except ValueError:
        parser.error("--scales takes numbers, comma-separated")
    if any(not (x > 0) for x in scales):
        parser.error("--scales takes positive numbers")
    try:
        found = boards(a.runs)
    except OSError as e:
        parser.error(f"cannot read {e.filename}: {e.strerror}")
    except (ValueError, KeyError, TypeError) as e:
        parser.error(f"not a published.py --jsonl record: {e}")
    wanted = set(a.families.split(",")) if a.families else set(found)
    if not wanted <= set(found):
        parser.error(f"no boards of {', '.join(sorted(wanted - set(found)))} in these runs")
    for family, rows in found.items():
        if family not in wanted:
            continue
        vbs = sum(b.vbs for b in rows)
        ran = [(b, n) for b in rows if (n := b.scaled(1)) is not None]
        as_ran = (
            f"{sum(b.replayed(n) for b, n in ran) / sum(b.vbs for b, _ in ran):.2f}" if ran else "-"
        )
        measured = sum(b.auto for b in rows) / vbs
        print(
            f"{family}: {len(rows)} boards; auto / VBS measured {measured:.2f}, "
            f"replayed with its budgets {as_ran}; sat {sum(b.sat for b in rows) / vbs:.2f}, "
            f"dlx {sum(b.dlx for b in rows) / vbs:.2f}"
        )
        print("| per item | " + " | ".join(f"floor {f:,}" for f in floors) + " |")
        print("|---" * (len(floors) + 1) + "|")
        for k in per_items:
            cells = " | ".join(f"{ratio(rows, k, f):.2f}" for f in floors)
            print(f"| {k} | {cells} |")
        if scales:
            print("| trial's budget as it ran, times | replayed | best choice at its end |")
            print("|---|---|---|")
            for x in scales:
                found_x = scaled_ratios(rows, x)
                cells = "no budget" if found_x is None else "{:.3f} | {:.3f}".format(*found_x)
                print(f"| {x:g} | {cells} |")
        geo = math.exp(sum(math.log(b.auto / b.vbs) for b in rows) / len(rows))
        print(f"(auto's measured geometric mean over boards: {geo:.2f})\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
