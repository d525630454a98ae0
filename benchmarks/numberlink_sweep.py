"""NumberLink's answers counted by a sweep of the board, for every board of the corpus.

The sweep (a frontier or transfer-matrix count, outside the exact cover) is the family's own
counter, :mod:`dlxsat.families.numberlink_sweep` (its module doc says how it goes); ``solve
--count`` uses it on the default backend. This script runs it over the corpus's NumberLinks
with a limit of states, as a cross-check of the family's verdicts (a board proved unique by
the argument must count 1) and to give the several-answer boards their exact counts
(``docs/genres/numberlink.md``, "Counted by a sweep of the board").

Run::

    python benchmarks/numberlink_sweep.py --dataset puzzlekit-dataset --max-width 12
    python benchmarks/numberlink_sweep.py --dataset puzzlekit-dataset --keys 424_12x12 565_10x10
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus  # noqa: E402

from dlxsat.errors import InputError  # noqa: E402
from dlxsat.families.numberlink import read  # noqa: E402
from dlxsat.families.numberlink_sweep import sweep  # noqa: E402
from dlxsat.runtime.deadline import Deadline  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    corpus.dataset_argument(parser)
    parser.add_argument("--keys", nargs="+", help="these boards only (the corpus's keys)")
    parser.add_argument(
        "--max-width", type=int, default=12, help="boards whose shorter side is at most this"
    )
    parser.add_argument("--max-states", type=int, default=4_000_000, help="give up past this")
    parser.add_argument("--timeout", type=float, help="seconds a board (default: no limit)")
    parser.add_argument(
        "--jsonl", type=Path, help="also write one JSON record a board here, as each ends"
    )
    args = parser.parse_args()
    if not args.dataset:
        parser.error("name the corpus with --dataset or DLXSAT_CORPUS")
    boards = corpus.load("NumberLink", args.dataset)
    keys = args.keys or sorted(boards, key=lambda key: (len(boards[key][0]), key))
    missing = [key for key in keys if key not in boards]
    if missing:
        parser.error(f"the corpus has no NumberLink {missing[0]!r}")
    records = []
    log = args.jsonl.open("w") if args.jsonl else None
    print(f"{'board':<12} {'answers':>16} {'peak states':>12} {'seconds':>8}  swept")
    for key in keys:
        try:
            puzzle = read(boards[key][0])
        except InputError as e:
            print(f"{key:<12} not read: {e}")
            continue
        if args.keys is None and min(puzzle.m, puzzle.n) > args.max_width:
            continue
        try:
            deadline = Deadline.after(args.timeout)
            result = sweep(puzzle.clues, puzzle.values(), args.max_states, deadline=deadline)
        except InputError as e:
            print(f"{key:<12} not swept: {e}")
            continue
        shown = f"{result.count:,}" if result.count is not None else "over the limit"
        if result.timed_out:
            shown = "out of time"
        print(
            f"{key:<12} {shown:>16} {result.peak:>12,} {result.seconds:>8.2f}  "
            f"{result.orientation}",
            flush=True,
        )
        record = {
            "key": key,
            "count": result.count,
            "peak": result.peak,
            "seconds": round(result.seconds, 3),
            "orientation": result.orientation,
            "timed_out": result.timed_out,
        }
        records.append(record)
        if log is not None:
            log.write(json.dumps(record) + "\n")
            log.flush()
    counted = [r for r in records if r["count"] is not None]
    print(
        f"{len(records)} boards: {sum(r['count'] == 1 for r in counted)} with one answer, "
        f"{sum(r['count'] > 1 for r in counted)} with several, "
        f"{sum(r['count'] == 0 for r in counted)} with none, "
        f"{len(records) - len(counted)} over {args.max_states:,} states or out of time"
    )
    if log is not None:
        log.close()


if __name__ == "__main__":
    main()
