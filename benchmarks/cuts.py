"""The lazy connected rule's least separators: Python's maximum flow against OR-tools'.

The `sat` backend cuts a lazy connected rule of at most 256 members by *least separators*, a
maximum flow each (``dlxsat.backends.rulecuts.ConnectedCuts.least_cut``), found in Python
until the process has spent ``rulecuts.PYTHON_FLOW_SECONDS`` on them, then by OR-tools' C++
maximum flow. Both give the same separator (the cut nearest the source is the same for every
maximum flow), so the same rounds, cuts and answers; this measures what the second saves.

For each genre given (``benchmarks/genres.py``'s names), a sample of its published boards
(``--sample`` of at most ``--max-cells`` cells, drawn with ``--seed`` as
``benchmarks/published.py`` draws them) is solved by the `sat` backend, asking "is the answer
unique?", once with every flow in Python and once with every flow by OR-tools, the two
alternating board by board and round by round in one process (OR-tools loaded first, not
counted). Printed per genre: the boards, each way's seconds in all (each board's best over
``--rounds``) and their ratio; the run exits with status 1 if a board's rounds, cuts or answer
differ between the two.

Run::

    python benchmarks/cuts.py --dataset puzzlekit-dataset --genres cave,creek,aqre [--sample 25]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import corpus  # noqa: E402

import dlxsat  # noqa: E402
from dlxsat.backends import rulecuts  # noqa: E402

#: The genres with a connected rule the `sat` backend cuts lazily (docs/backends.md).
GENRES = "cave,creek,aqre,lits,nurikabe,heyawake"


def solved(family: str, text: str, native: bool, timeout: float) -> tuple[float, tuple]:
    """One `sat` solve with every least separator found one way: its seconds, and what must
    not depend on the way (status, rounds, cuts, answers)."""
    saved = rulecuts._native_flow
    rulecuts._native_flow = (lambda: True) if native else (lambda: False)  # type: ignore[assignment]
    try:
        start = time.perf_counter()
        r = dlxsat.solve(family, text, backend="sat", mode="unique", timeout=timeout)
        seconds = time.perf_counter() - start
    finally:
        rulecuts._native_flow = saved  # type: ignore[assignment]
    same = (r.status, r.stats.get("rounds"), r.stats.get("cuts"), sorted(map(sorted, r.solutions)))
    return seconds, same


def main() -> None:
    import genres
    import published

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    corpus.dataset_argument(parser)
    parser.add_argument("--genres", default=GENRES, help=f"comma-separated (default {GENRES})")
    parser.add_argument("--sample", type=int, default=25, help="boards per genre")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--max-cells", type=int, default=published.MAX_CELLS)
    parser.add_argument("--rounds", type=int, default=2, help="solves of a board each way")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds a solve")
    a = parser.parse_args()
    if not a.dataset:
        parser.error("no corpus: give --dataset DIR or set DLXSAT_CORPUS")
    names = genres.named(parser, a.genres)
    from ortools.graph.python import max_flow  # noqa: F401  (loaded before any timing)

    loads = [os.getloadavg()[0]]
    started = time.perf_counter()
    differ = []
    print("| genre | boards | Python's flows s | OR-tools' flows s | OR-tools / Python |")
    print("|---|---|---|---|---|")
    for name in names:
        family = published.family_of(name, a.max_cells)[0]
        boards = published.sample(name, a.dataset, a.sample, a.seed, most=a.max_cells)
        total = {False: 0.0, True: 0.0}
        for key, text in boards:
            best = {False: float("inf"), True: float("inf")}
            seen = {}
            for rnd in range(a.rounds):
                for native in (False, True) if rnd % 2 == 0 else (True, False):
                    seconds, same = solved(family, text, native, a.timeout)
                    best[native] = min(best[native], seconds)
                    seen[native] = same
            if seen[False] != seen[True]:
                differ.append(f"{name} {key}: the two flows gave different solves")
            for native in best:
                total[native] += best[native]
            loads.append(os.getloadavg()[0])
        ratio = total[True] / max(total[False], 1e-9)
        print(f"| {name} | {len(boards)} | {total[False]:.2f} | {total[True]:.2f} | {ratio:.2f} |")
    print(
        f"\n{a.rounds} rounds, {time.perf_counter() - started:.0f} s;"
        f" load average {min(loads):.1f}-{max(loads):.1f}"
    )
    print("the same rounds, cuts and answers on every board" if not differ else "\n".join(differ))
    if differ:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
