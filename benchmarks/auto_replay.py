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

A replay ranks budgets on the boards it was given; a budget chosen by it is then run for real
on boards it was not chosen on (``published.py --seed NEW --variant``). docs/auto.md, "A
family's own floor of trial nodes", has a replay whose choice did not hold out.

Run::

    python benchmarks/published.py --families nurikabe,cave --sample 10 --seed 66 \\
        --jsonl runs-66.jsonl
    python benchmarks/auto_replay.py runs-66.jsonl runs-67.jsonl [--floors 2000,4000] \\
        [--per-item 16] [--families nurikabe]
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
            )
        )
    return out


def ratio(rows: Sequence[Board], per_item: int, floor: int) -> float:
    """Replayed total over the VBS's total with ``max(per_item * primary, floor)`` nodes."""
    total = sum(b.replayed(max(per_item * b.primary, floor)) for b in rows)
    return total / sum(b.vbs for b in rows)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=Path, help="published.py --jsonl files")
    parser.add_argument("--per-item", default=",".join(map(str, PER_ITEM)))
    parser.add_argument("--floors", default=",".join(map(str, FLOORS)))
    parser.add_argument("--families", default=None, help="comma-separated (default: all)")
    a = parser.parse_args(argv)
    try:
        per_items = [int(x) for x in a.per_item.split(",")]
        floors = [int(x) for x in a.floors.split(",")]
    except ValueError:
        parser.error("--per-item and --floors take whole numbers, comma-separated")
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
        ran = [b for b in rows if b.budget is not None]
        as_ran = sum(b.replayed(b.budget or 0) for b in ran) / max(sum(b.vbs for b in ran), 1e-9)
        measured = sum(b.auto for b in rows) / vbs
        print(
            f"{family}: {len(rows)} boards; auto / VBS measured {measured:.2f}, "
            f"replayed with its budgets {as_ran:.2f}; sat {sum(b.sat for b in rows) / vbs:.2f}, "
            f"dlx {sum(b.dlx for b in rows) / vbs:.2f}"
        )
        print("| per item | " + " | ".join(f"floor {f:,}" for f in floors) + " |")
        print("|---" * (len(floors) + 1) + "|")
        for k in per_items:
            cells = " | ".join(f"{ratio(rows, k, f):.2f}" for f in floors)
            print(f"| {k} | {cells} |")
        geo = math.exp(sum(math.log(b.auto / b.vbs) for b in rows) / len(rows))
        print(f"(auto's measured geometric mean over boards: {geo:.2f})\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
