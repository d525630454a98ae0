"""Random Sudokus with exactly one answer, for ``benchmarks/auto.py``'s held-out corpus.

A full grid from the usual pattern (``(b * (r % b) + r // b + c) % n``) with its bands, stacks,
rows within bands, columns within stacks and digits shuffled (and a transposition half the
time); then its cells in random order, each clue taken away when the puzzle without it still
has one answer (``dlxsat``'s DLX backend says so within a second; a timeout keeps the clue),
until ``CLUES`` remain or no clue can go. A seed always gives the same puzzle.

Usage: ``python benchmarks/generate_sudokus.py BOX CLUES SEED [SEED ...] -o DIR`` (``BOX`` 3,
4, 5: 9 x 9, 16 x 16, 25 x 25); the file is ``DIR/gen-NxN-SEED.txt``. A 25 x 25 one takes
2-5 minutes on 2 loaded cores.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

DIGITS = "123456789abcdefghijklmnop"
BOXES = "0123456789abcdefghijklmnop"


def full_grid(b: int, rng: random.Random) -> list[list[int]]:
    """A random full grid of ``b*b`` digits (0-based), boxes ``b x b``."""
    n = b * b
    grid = [[(b * (r % b) + r // b + c) % n for c in range(n)] for r in range(n)]

    def lines() -> list[int]:
        bands = list(range(b))
        rng.shuffle(bands)
        out = []
        for band in bands:
            inner = list(range(b))
            rng.shuffle(inner)
            out += [band * b + i for i in inner]
        return out

    rows, cols = lines(), lines()
    digits = list(range(n))
    rng.shuffle(digits)
    grid = [[digits[grid[r][c]] for c in cols] for r in rows]
    return [list(x) for x in zip(*grid, strict=True)] if rng.random() < 0.5 else grid


def text_of(grid: list[list[int]], keep: set[tuple[int, int]], b: int) -> str:
    """Knuth's SUDOKU-GENERAL-DLX input: the clues, then the boxes."""
    n = b * b
    cells = "".join(
        "".join(DIGITS[grid[r][c]] if (r, c) in keep else "." for c in range(n)) + "\n"
        for r in range(n)
    )
    boxes = "".join(
        "".join(BOXES[(r // b) * b + c // b] for c in range(n)) + "\n" for r in range(n)
    )
    return cells + boxes


def is_unique(text: str) -> bool:
    from dlxsat.pipeline import solve

    return solve("sudoku", text, backend="dlx", mode="unique", timeout=1.0).status == "unique"


def generate(b: int, clues: int, seed: int) -> str:
    """The puzzle of ``seed``: a random full grid, clues taken away while the answer stays
    unique, down to ``clues``."""
    rng = random.Random(seed)
    grid = full_grid(b, rng)
    n = b * b
    cells = [(r, c) for r in range(n) for c in range(n)]
    rng.shuffle(cells)
    keep = set(cells)
    for cell in cells:
        if len(keep) <= clues:
            break
        keep.discard(cell)
        if not is_unique(text_of(grid, keep, b)):
            keep.add(cell)
    return text_of(grid, keep, b)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("box", type=int, choices=(2, 3, 4, 5))
    ap.add_argument("clues", type=int)
    ap.add_argument("seeds", type=int, nargs="+")
    ap.add_argument("-o", "--out", type=Path, required=True)
    args = ap.parse_args()
    from dlxsat.backends import dlx

    dlx.load()
    args.out.mkdir(parents=True, exist_ok=True)
    n = args.box * args.box
    for seed in args.seeds:
        path = args.out / f"gen-{n}x{n}-{seed:04d}.txt"
        path.write_text(generate(args.box, args.clues, seed))
        print(path)


if __name__ == "__main__":
    main()
