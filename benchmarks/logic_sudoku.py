"""Benchmark of the Sudoku logic backend (the Sudoku half of ``benchmarks/logic.py``).

Runs the strategies alone (no fallback search) on the golden sudoku cases that have one answer
(tests/data/golden/sudoku) and on the hard 9 × 9 puzzles of puzzles/sudoku-hard/ (made with
Simon Tatham's ``sgt-solo`` at its grades *advanced*, *extreme* and *unreasonable*, plus
X-sudoku at *unreasonable*; see puzzles/README.md), and reports per puzzle the outcome, the
hardest strategy used and the time, then the solving rate (solved without fallback) per
group, how often each strategy was used, the distribution of the hardest strategy and the
total time. Every answer is checked with the family's rule checker (and against Knuth's answer
for the golden cases); a puzzle that stalls is finished by the fallback search, timed apart.

Run: ``python benchmarks/logic_sudoku.py`` (prints the Markdown tables); ``run()`` returns
them as a string. The files in puzzles/sudoku-hard are what ``dlxsat from-tatham sudoku
GAME_ID`` prints for the game ids listed in puzzles/README.md.
"""

from __future__ import annotations

import json
import re
import statistics
import time
from collections import Counter
from pathlib import Path

from dlxsat.families import sudoku as family
from dlxsat.reasoning import sudoku as logic
from dlxsat.result import status_of
from dlxsat.runtime.deadline import Deadline
from dlxsat.solvers import Request

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "data" / "golden"
HARD = ROOT / "puzzles" / "sudoku-hard"


def cases() -> list[tuple[str, str, str, list[str] | None]]:
    """(name, group, text, known answer) for every benchmark puzzle."""
    out = []
    for e in json.loads((GOLDEN / "manifest.json").read_text()):
        if e["family"] == "sudoku" and e["exit_status"] == 0 and e.get("solution"):
            out.append((e["name"], "golden", (GOLDEN / e["puzzle"]).read_text(), e["solution"]))
    for path in sorted(HARD.glob("*.txt")):
        group = re.sub(r"^tatham-9x9-|-\d+$", "", path.stem)
        out.append((path.stem, f"hard {group}", path.read_text(), None))
    return out


def zambon_only(puzzle: family.SudokuPuzzle) -> bool:
    """Do Zambon's strategies alone (the ladder without the two additions) complete the grid?"""
    board = logic.board_from_puzzle(puzzle)
    state, clash = logic.initial_state(board)
    ladder = tuple(s for s in logic.STRATEGIES if s[0] in logic.ZAMBON_NAME)
    if clash is not None:
        return False
    return logic.run_strategies(board, state, strategies=ladder).result == "solved"


def run(timeout: float = 60.0, only: str = "") -> str:
    """Solve every benchmark puzzle (those whose name contains ``only``) by logic alone and
    return the report (Markdown)."""
    rows = []
    uses: Counter[str] = Counter()
    used_in: Counter[str] = Counter()
    hardest: Counter[str] = Counter()
    groups: dict[str, list[tuple[bool, bool]]] = {}
    times: list[float] = []
    fallback_times: list[float] = []
    for name, group, text, known in cases():
        if only not in name:
            continue
        puzzle = family.read(text)
        start = time.perf_counter()
        out = logic.solve(puzzle, Request.for_mode("unique", deadline=Deadline.after(timeout)))
        seconds = time.perf_counter() - start
        times.append(seconds)
        solved = status_of("unique", out) == "unique" and out.stats["solved_by"] == "logic"
        note = ""
        if status_of("unique", out) == "stalled":
            start = time.perf_counter()
            out2 = logic.solve(
                puzzle,
                Request.for_mode("unique", deadline=Deadline.after(timeout)),
                {"fallback": True},
            )
            fallback_times.append(time.perf_counter() - start)
            note = f"fallback: {status_of('unique', out2)}, {out2.stats.get('search_nodes')} nodes"
            answers = out2.answers
        else:
            answers = out.answers
        for answer in answers:
            problems = family.check(puzzle, answer)
            if problems:
                raise AssertionError(f"{name}: wrong answer: {problems[0]}")
            if known is not None and answer["grid"] != known:
                raise AssertionError(f"{name}: the answer differs from Knuth's")
        if out.stats["assumed_uniqueness"]:
            note = (note + "; " if note else "") + "uniqueness checked by search"
        groups.setdefault(group, []).append((solved, zambon_only(puzzle)))
        uses.update(out.stats["strategy_uses"])
        used_in.update(out.stats["strategy_uses"].keys())
        hardest[out.stats["hardest"]] += 1
        rows.append(
            f"| {name} | {puzzle.n} | {status_of('unique', out)} | {out.stats['hardest']} "
            f"({out.stats['grade']}) | {out.stats['deductions']} | {seconds:.3f} | {note} |"
        )

    if not rows:
        return f"### Sudoku: strategies without fallback\n\nNo puzzle's name contains {only!r}.\n"
    report = [
        "### Sudoku: strategies without fallback",
        "",
        "| puzzle | n | status | hardest (grade) | deductions | seconds | notes |",
        "|---|---:|---|---|---:|---:|---|",
        *rows,
        "",
        "| group | puzzles | solved by logic | rate | Zambon's strategies only | rate |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    everything = [r for results in groups.values() for r in results]
    for group, results in [*groups.items(), ("all", everything)]:
        k, z = sum(a for a, _ in results), sum(b for _, b in results)
        report.append(
            f"| {group} | {len(results)} | {k} | {100 * k / len(results):.0f}% | {z} | "
            f"{100 * z / len(results):.0f}% |"
        )
    report += [
        "",
        "| strategy (grade) | uses | puzzles using it | hardest in |",
        "|---|---:|---:|---:|",
    ]
    for name, _ in logic.STRATEGIES:
        report.append(
            f"| {name} ({logic.LEVEL[name]}) | {uses[name]} | {used_in[name]} | {hardest[name]} |"
        )
    if hardest["none"]:
        report.append(f"| (givens only) | 0 | 0 | {hardest['none']} |")
    report += [
        "",
        f"Time: {sum(times):.2f} s for {len(times)} puzzles by logic "
        f"(median {statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.0f} ms)"
        + (
            f"; fallback search on {len(fallback_times)} stalled: {sum(fallback_times):.2f} s."
            if fallback_times
            else "; no puzzle stalled."
        ),
    ]
    return "\n".join(report) + "\n"


if __name__ == "__main__":
    import argparse

    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args()
    print(run(), end="")
