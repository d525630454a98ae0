"""Benchmark of the logic backend: Sudoku strategies and the Masyu intersection method.

Runs the two halves (``benchmarks/logic_sudoku.py`` and ``benchmarks/logic_masyu.py``) in one
process and prints their tables: for Sudoku the solving rate without search and the use of each
strategy; for Masyu the average time and the share of edges decided by elimination search per
board size, next to Table I of Yen, Chiu, Chou and Chen.

Run from the project's root: ``python benchmarks/logic.py [sudoku|masyu] [--only NAME]
[--timeout S]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("parts", nargs="*", metavar="PART", help="sudoku, masyu (default: both)")
    ap.add_argument("--only", default="", help="puzzles whose name contains this")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per puzzle (default 60)")
    args = ap.parse_args(argv)
    which = args.parts or ["sudoku", "masyu"]
    for part in which:
        if part not in ("sudoku", "masyu"):
            ap.error(f"unknown part {part!r} (sudoku or masyu)")
    for part in which:
        start = time.perf_counter()
        if part == "sudoku":
            import logic_sudoku

            table = logic_sudoku.run(args.timeout, args.only)
        else:
            import logic_masyu

            table = logic_masyu.run(args.timeout, args.only)
        print(f"# {part.capitalize()}\n")
        print(table.rstrip("\n"))
        print(f"\n({part} part: {time.perf_counter() - start:.1f} s in all)\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
