"""A small puzzle family for the tests: tile a board's free cells with dominoes.

It is registered by ``tests/test_new_family.py`` with one line (``FAMILIES["dominoes"] =
"domino_family"``) and then goes through every command, to show what a family costs: this
module and nothing else. The puzzle is rows of ``.`` (a free cell) and ``#`` (a blocked one);
the exact-cover problem has a primary item per free cell (named by its doubled coordinates
``2i+1 2j+1``, docs/conventions.md §4) and an option per domino; an answer is the grid with
each free cell's partner direction (``n s e w``), and the family implements that grid as its
own ``grid`` format (a :class:`~dlxsat.families.spec.Codec`), read by ``dlxsat check``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dlxsat.errors import InputError
from dlxsat.families.base import Puzzle, puzzle_lines
from dlxsat.families.spec import Codec, FamilySpec, Picture
from dlxsat.xcc.model import Problem
from dlxsat.xcc.names import b62, parse_point_name

#: A cell's partner, by letter: the step to it.
STEPS = {"n": (-1, 0), "s": (1, 0), "w": (0, -1), "e": (0, 1)}


@dataclass(frozen=True)
class DominoPuzzle(Puzzle):
    rows: tuple[str, ...]

    @property
    def m(self) -> int:
        return len(self.rows)

    @property
    def n(self) -> int:
        return len(self.rows[0])

    def free(self) -> list[tuple[int, int]]:
        return [(i, j) for i in range(self.m) for j in range(self.n) if self.rows[i][j] == "."]


def read(text: str) -> DominoPuzzle:
    lines = puzzle_lines(text)
    if not lines:
        raise InputError("empty puzzle: no rows")
    for r, line in enumerate(lines, 1):
        for c, ch in enumerate(line, 1):
            if ch not in ".#":
                raise InputError(f"line {r}, column {c}: {ch!r} is not . (free) or # (blocked)")
        if len(line) != len(lines[0]):
            raise InputError(f"line {r}: {len(line)} cells, but line 1 has {len(lines[0])}")
    return DominoPuzzle(tuple(lines))


def write(puzzle: DominoPuzzle) -> str:
    return "".join(row + "\n" for row in puzzle.rows)


def _name(i: int, j: int) -> str:
    return b62(2 * i + 1) + b62(2 * j + 1)


def encode(puzzle: DominoPuzzle) -> str:
    """An item per free cell, an option per domino (right, then down, row by row)."""
    free = set(puzzle.free())
    lines = ["| dominoes:", *(f"| {row}" for row in puzzle.rows)]
    lines.append(" ".join(_name(i, j) for i, j in sorted(free)))
    for i, j in sorted(free):
        for di, dj in ((0, 1), (1, 0)):
            if (i + di, j + dj) in free:
                lines.append(f"{_name(i, j)} {_name(i + di, j + dj)}")
    return "\n".join(lines) + "\n"


def decode(puzzle: DominoPuzzle, problem: Problem, chosen: Sequence[int]) -> dict[str, Any]:
    grid = [list(row) for row in puzzle.rows]
    for k in chosen:
        (a, _), (b, _) = problem.options[k]
        (i, j), (p, q) = (_cell(problem.items[x].name) for x in (a, b))
        grid[i][j], grid[p][q] = ("e", "w") if i == p else ("s", "n")
    return {"grid": ["".join(row) for row in grid]}


def _cell(name: str) -> tuple[int, int]:
    x, y = parse_point_name(name) or (0, 0)
    return x // 2, y // 2


def check(puzzle: DominoPuzzle, answer: dict[str, Any]) -> list[str]:
    """Every free cell points at a free neighbour that points back; blocked cells stay."""
    grid = answer.get("grid")
    if not isinstance(grid, list) or [len(r) for r in grid] != [puzzle.n] * puzzle.m:
        return [f"the answer is not a {puzzle.m} x {puzzle.n} grid"]
    wrong = []
    for i, j in puzzle.free():
        step = STEPS.get(grid[i][j])
        if step is None:
            wrong.append(f"cell ({i + 1}, {j + 1}) is in no domino")
            continue
        p, q = i + step[0], j + step[1]
        back = {"n": "s", "s": "n", "e": "w", "w": "e"}[grid[i][j]]
        if not (0 <= p < puzzle.m and 0 <= q < puzzle.n) or grid[p][q] != back:
            wrong.append(f"cell ({i + 1}, {j + 1}): its domino's other half is not there")
    return wrong


def render(puzzle: DominoPuzzle, answer: dict[str, Any] | None) -> str:
    return "\n".join(answer["grid"] if answer else puzzle.rows)


def draw(canvas: Any, puzzle: DominoPuzzle, answer: dict[str, Any] | None) -> None:
    canvas.grid(puzzle.m, puzzle.n)
    for i, row in enumerate(puzzle.rows):
        for j, ch in enumerate(row):
            if ch == "#":
                canvas.shade(i, j)
            elif answer:
                canvas.text(i, j, answer["grid"][i][j])


def answer_grid(puzzle: DominoPuzzle, text: str) -> dict[str, Any]:
    """An answer written as the grid of partner letters (``#`` for blocked cells)."""
    return {"grid": [line.strip() for line in text.strip().splitlines()]}


SPEC = FamilySpec(
    name="dominoes",
    summary="tile the free cells with dominoes (a family of the tests)",
    read=read,
    write=write,
    encode=encode,
    decode=decode,
    check=check,
    render=render,
    bytes_per_cell=1000,
    formats=("knuth", "grid"),
    writes=("knuth", "grid"),
    answers=("grid",),
    codecs={
        "grid": Codec(
            read=read,
            write=lambda p, a: render(p, a) + "\n",
            answer=answer_grid,
            looks_like=lambda text: False,
        )
    },
    picture=Picture(lambda p: (p.m, p.n), draw),
)
