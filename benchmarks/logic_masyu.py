"""Benchmark of the Masyu logic backend (the Masyu half of ``benchmarks/logic.py``).

Yen, Chiu, Chou and Chen solved 182 published Nikoli puzzles of four sizes with their five
heuristics, the intersection method and elimination search, and reported in Table I the average
time per puzzle and the share of the board that elimination search had to decide. This
benchmark runs our implementation (``dlxsat.reasoning.masyu``) on *published* puzzles and
prints the same figures next to theirs.

The boards (``puzzles/masyu-published/``, sources in ``puzzles/README.md``) are Otto Janko's
Masyu collection (janko.at, as gathered in the public ``SmilingWayne/puzzlekit-dataset``): the
first 40 by Janko's number of each of the paper's four sizes, and every board larger than
36 × 20 -- 168 boards from 10 × 10 to 58 × 40. ``--import FILE`` remakes the files from
that data set's ``Masyu_dataset.json`` (the conversion to Knuth's text is below).

Each board is solved by deduction alone (no fallback search) in a fresh solver, at the default
depth of elimination search and at depth 1 (the paper's literal method), with a time limit
per board; every answer is checked with the family's rule checker and compared with the SAT
backend's (``dlxsat.solve(..., backend="sat")``), and with Janko's published answer when the
data set has it. The Table I figures come from the solver's own ``stats``
(:meth:`dlxsat.reasoning.masyu.Deducer.stats`, what ``dlxsat solve --backend logic`` prints),
averaged over the boards: ``elimination_share``, ``elimination_seconds_per_percent`` and
``intersection_seconds_per_percent`` (heuristics plus propagation, the paper's "heuristic and
testing" column).

``--generated`` runs the older tables on our generator's boards (``puzzles/masyu-bench/``):
``bench-*`` were kept *because* this solver finishes them, so their 100 % is circular, and
``minimal-*`` were made for search.

Run: ``python benchmarks/logic_masyu.py`` (prints Markdown tables; ``run()`` returns them).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from dlxsat.families import masyu as family  # noqa: E402
from dlxsat.reasoning import masyu as logic  # noqa: E402
from dlxsat.result import status_of  # noqa: E402
from dlxsat.runtime.deadline import Deadline  # noqa: E402
from dlxsat.solvers import Request  # noqa: E402

BOARDS = ROOT / "puzzles" / "masyu-bench"
PUBLISHED = ROOT / "puzzles" / "masyu-published"

#: The paper's sizes, as (columns, rows) like its "10X10, 18X10, 24X14, 36X20".
SIZES = [(10, 10), (18, 10), (24, 14), (36, 20)]
BENCH_SEEDS = range(1, 11)
MINIMAL_SEEDS = range(1, 6)
#: Boards taken per Table I size, and the area above which every published board is taken.
PER_SIZE = 40
LARGE = 36 * 20

#: Table I of the paper, quoted from the seed: (puzzles, average seconds per puzzle, rate of
#: elimination search, seconds of elimination search per 1 % of the board, seconds of the
#: heuristics and testing per 1 %). MATLAB 2009 on an E8400 CPU.
PAPER = {
    (10, 10): (36, "0.0376", "3.53%", "28*10e-4", "2.88*10e-4"),
    (18, 10): (56, "1.1329", "22.56%", "473*10e-4", "8.48*10e-4"),
    (24, 14): (62, "18.8176", "29.74%", "6269*10e-4", "25*10e-4"),
    (36, 20): (28, "268.0739", "32.75%", "81719*10e-4", "66*10e-4"),
}


# ---------------------------------------------------------------------------------------------
# The published boards


def knuth_rows(problem: str) -> list[str]:
    """A puzzlekit-dataset Masyu problem ("R C" then rows of tokens) as Knuth's rows.

    The data set writes a white circle ``w`` or ``1`` and a black one ``b`` or ``2`` (both
    spellings occur; checked against its answers, where white circles are passed straight),
    no circle ``-``. Knuth's MASYU-DLX input has ``0`` white, ``1`` black, ``.`` none.

    >>> knuth_rows("2 3\\nw - b\\n2 1 -")
    ['0.1', '10.']
    """
    head, *lines = problem.strip().split("\n")
    rows, cols = map(int, head.split())
    code = {"-": ".", "w": "0", "1": "0", "b": "1", "2": "1"}
    out = ["".join(code[t] for t in line.split()) for line in lines]
    if len(out) != rows or any(len(r) != cols for r in out):
        raise ValueError(f"not a {rows} x {cols} board")
    return out


def published_name(key: str, source: str, rows: int, cols: int) -> str:
    """The file name of a published board: ``janko-NNN-COLSxROWS.txt`` (or the site's id)."""
    if "janko.at" in source:
        number = source.rsplit("/", 1)[1].split(".")[0]
        return f"janko-{number}-{cols}x{rows}.txt"
    return f"puzzle-masyu-{key.split('_')[0].removeprefix('masyu')}-{cols}x{rows}.txt"


def import_published(dataset: Path) -> None:
    """Write the selected boards of puzzlekit-dataset's ``Masyu_dataset.json`` to
    ``puzzles/masyu-published/`` (and Janko's answers, as loops, to ``answers.json``)."""
    data = json.loads(dataset.read_text())["data"]
    taken: dict[tuple[int, int], int] = {}
    answers = {}
    PUBLISHED.mkdir(parents=True, exist_ok=True)
    for key, entry in data.items():
        rows_ = knuth_rows(entry["problem"])
        rows, cols = len(rows_), len(rows_[0])
        size = (cols, rows)
        if size in SIZES and taken.get(size, 0) < PER_SIZE:
            taken[size] = taken.get(size, 0) + 1
        elif rows * cols <= LARGE:
            continue
        name = published_name(key, entry["source"], rows, cols)
        (PUBLISHED / name).write_text("".join(r + "\n" for r in rows_))
        if entry.get("solution"):
            answers[name] = answer_edges(entry["solution"])
        print(name, entry["source"])
    (PUBLISHED / "answers.json").write_text(json.dumps(answers, sort_keys=True) + "\n")


def answer_edges(solution: str) -> list[list[int]]:
    """The data set's answer (a direction pair per cell: ``ns``, ``ew``, ``se``, ...) as the
    loop's edges in the doubled coordinates of docs/conventions.md §4 (each edge from its east
    or south end, so once)."""
    edges = set()
    for i, line in enumerate(solution.strip().split("\n")[1:]):
        for j, token in enumerate(line.split()):
            if "s" in token:
                edges.add((2 * i + 1, 2 * j))
            if "e" in token:
                edges.add((2 * i, 2 * j + 1))
    return [list(e) for e in sorted(edges)]


def published() -> list[Path]:
    return sorted(PUBLISHED.glob("*.txt"))


def size_of(path: Path) -> tuple[int, int]:
    cols, rows = path.stem.rsplit("-", 1)[1].split("x")
    return int(cols), int(rows)


def solve_published(path: Path, timeout: float, depth: int, sat: bool) -> dict:
    """One published board by deduction alone: its figures, its answer checked."""
    import dlxsat

    text = path.read_text()
    puzzle = family.read(text)
    out = logic.solve(
        puzzle, Request.for_mode("unique", deadline=Deadline.after(timeout)), {"depth": depth}
    )
    status = status_of("unique", out)
    for answer in out.answers:
        problems = family.check(puzzle, answer)
        if problems:
            raise AssertionError(f"{path.name}: wrong answer: {problems[0]}")
    agrees = None
    if sat and status == "unique":
        report = dlxsat.solve("masyu", text, backend="sat")
        agrees = report.status == "unique" and report.solutions == out.answers
        if not agrees:
            raise AssertionError(f"{path.name}: the SAT backend says {report.status}")
    answer = [list(e) for e in out.answers[0]["edges"]] if out.answers else None
    return {"name": path.name, "status": status, "agrees": agrees, "answer": answer, **out.stats}


def mean(values: Iterable[float | None]) -> float | None:
    got = [v for v in values if v is not None]
    return statistics.mean(got) if got else None


def fmt_per_percent(value: float | None) -> str:
    return "-" if value is None else f"{value * 1e4:.2f}*10e-4"


def run_published(timeout: float = 60.0, sat: bool = True, only: str = "") -> str:
    """The published-board tables (Markdown): the boards whose name contains ``only``."""
    answers_path = PUBLISHED / "answers.json"
    janko = json.loads(answers_path.read_text()) if answers_path.exists() else {}
    groups: dict[str, list[Path]] = {}
    for path in published():
        if only not in path.name:
            continue
        cols, rows = size_of(path)
        key = f"{cols} × {rows}" if (cols, rows) in SIZES else "larger than 36 × 20"
        groups.setdefault(key, []).append(path)
    order = [f"{c} × {r}" for c, r in SIZES] + ["larger than 36 × 20"]
    out = ["## Masyu: published puzzles, Table I of Yen et al. next to ours\n"]
    out.append(
        f"Janko's published boards (`puzzles/masyu-published/`), deduction alone, time limit "
        f"{timeout:g} s per board. *Finished* = the deductions completed the loop (a proof of "
        "uniqueness); the answer is checked against the rules, the SAT backend and Janko's "
        "answer. Depth: elimination search nesting (default 2; 1 is the paper's literal "
        "method). Time in seconds per board (ours: Python, one core of a shared 2-core "
        "machine; the paper: MATLAB 2009, E8400). Elimination share and the per-1 % times are "
        "the solver's own `stats`, averaged over the boards.\n"
    )
    out.append(
        "| size | boards | finished (depth 2) | finished (depth 1) | avg time | max time "
        "| elimination share | elim. per 1 % | heur.+inter. per 1 % | paper: puzzles "
        "| paper: avg time | paper: elim. share | paper: elim. per 1 % | paper: heur. per 1 % |"
    )
    out.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    unfinished, detail = [], []
    total = finished_all = 0
    for key in order:
        figs, shallow = [], []
        for path in groups.get(key, []):
            f = solve_published(path, timeout, logic.DEFAULT_DEPTH, sat)
            if f["answer"] is not None and path.name in janko:
                if f["answer"] != janko[path.name]:
                    raise AssertionError(f"{path.name}: differs from Janko's answer")
            s1 = solve_published(path, timeout, 1, False)
            figs.append(f)
            shallow.append(s1)
            if f["status"] != "unique":
                unfinished.append(f"{path.name} ({f['status']})")
            detail.append(
                f"| {path.name} | {f['status']} | {s1['status']} | {f['seconds']:.3f} "
                f"| {f['elimination_share']:.1f}% | {f['hypotheses']} | {f['deepest']} |"
            )
        if not figs:
            continue
        done = sum(f["status"] == "unique" for f in figs)
        done1 = sum(f["status"] == "unique" for f in shallow)
        total += len(figs)
        finished_all += done
        cols_rows = next((cr for cr in SIZES if f"{cr[0]} × {cr[1]}" == key), None)
        p = PAPER.get(cols_rows, ("", "", "", "", "")) if cols_rows else ("", "", "", "", "")
        out.append(
            f"| {key} | {len(figs)} | {done} | {done1} "
            f"| {mean(f['seconds'] for f in figs):.3f} | {max(f['seconds'] for f in figs):.3f} "
            f"| {mean(f['elimination_share'] for f in figs):.2f}% "
            f"| {fmt_per_percent(mean(f['elimination_seconds_per_percent'] for f in figs))} "
            f"| {fmt_per_percent(mean(f['intersection_seconds_per_percent'] for f in figs))} "
            f"| {p[0]} | {p[1]} | {p[2]} | {p[3]} | {p[4]} |"
        )
    out.append("")
    out.append(
        f"Finished by deduction alone: {finished_all} of {total} "
        f"({100.0 * finished_all / max(1, total):.1f} %); every answer equal to the SAT "
        f"backend's{' and to Janko' + chr(39) + 's' if janko else ''}."
    )
    out.append("Not finished: " + (", ".join(unfinished) if unfinished else "none") + ".\n")
    out.append("### Every published board\n")
    out.append(
        "| board | depth 2 | depth 1 | seconds (depth 2) | elimination share | assumptions "
        "| deepest level used |"
    )
    out.append("|---|---|---|---|---|---|---|")
    out.extend(detail)
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------------
# The generated boards (the older, circular benchmark)


def board_path(kind: str, cols: int, rows: int, seed: int) -> Path:
    return BOARDS / f"{kind}-{cols}x{rows}-{seed:02d}.txt"


def generate() -> None:
    """(Re)make every board file with the generator (takes several minutes)."""
    from dlxsat.generators.masyu import generate_masyu

    BOARDS.mkdir(parents=True, exist_ok=True)
    for kind, seeds, logic_only in (
        ("bench", BENCH_SEEDS, True),
        ("minimal", MINIMAL_SEEDS, False),
    ):
        for cols, rows in SIZES:
            for seed in seeds:
                start = time.perf_counter()
                text = generate_masyu(rows, cols, seed=seed, logic_only=logic_only)
                path = board_path(kind, cols, rows, seed)
                path.write_text(text)
                print(f"{path.relative_to(ROOT)}: {time.perf_counter() - start:.1f} s", flush=True)


def solve_board(path: Path, timeout: float) -> dict:
    """Solve one board by deduction; its figures."""
    puzzle = family.read(path.read_text())
    out = logic.solve(puzzle, Request.for_mode("unique", deadline=Deadline.after(timeout)))
    for answer in out.answers:
        problems = family.check(puzzle, answer)
        if problems:
            raise AssertionError(f"{path.name}: wrong answer: {problems[0]}")
    st = out.stats
    return {
        "status": status_of("unique", out),
        "seconds": st["seconds"],
        "share": st["elimination_share"],
        "decided": 100.0 * st["decided"] / st["edges"],
        "el_per": st["elimination_seconds_per_percent"],
        "in_per": st["intersection_seconds_per_percent"],
        "circles": sum(ch in "01" for ch in path.read_text()),
    }


def solve_set(
    kind: str, cols: int, rows: int, seeds: Iterable[int], timeout: float, detail: list[str]
) -> list[dict]:
    """The figures of ``solve_board`` for each board of one kind and size; a detail row each."""
    figs = []
    for seed in seeds:
        path = board_path(kind, cols, rows, seed)
        f = solve_board(path, timeout)
        figs.append(f)
        detail.append(
            f"| {path.name} | {f['circles']} | {f['status']} | {f['seconds']:.3f} "
            f"| {f['share']:.1f}% |"
        )
    return figs


def run_generated(timeout: float = 120.0) -> str:
    """Solve every generated board and return the report (Markdown)."""
    out = []
    out.append("## Masyu: generated boards (circular: kept because this solver finishes them)\n")
    out.append(
        "Boards made by `generate_masyu(..., logic_only=True)` (solvable by reasoning, like "
        "Nikoli's), solved by deduction alone. Time in seconds per puzzle (ours: Python, one "
        "core; the paper: MATLAB 2009, E8400). Elimination share: the share of the board's "
        "edges decided by elimination search. Per 1 %: seconds (x 10^-4) spent per 1 % of the "
        "board, by elimination search and by heuristics plus intersection.\n"
    )
    out.append(
        "| size | puzzles | avg time | max time | elimination share | elim. per 1 % "
        "| heur.+inter. per 1 % | paper: puzzles | paper: avg time | paper: elim. share "
        "| paper: elim. per 1 % | paper: heur. per 1 % |"
    )
    out.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
    detail = []
    for cols, rows in SIZES:
        figs = solve_set("bench", cols, rows, BENCH_SEEDS, timeout, detail)
        solved = [f for f in figs if f["status"] == "unique"]
        p = PAPER[(cols, rows)]
        out.append(
            f"| {cols} × {rows} | {len(solved)}/{len(figs)} solved "
            f"| {statistics.mean(f['seconds'] for f in figs):.3f} "
            f"| {max(f['seconds'] for f in figs):.3f} "
            f"| {statistics.mean(f['share'] for f in figs):.2f}% "
            f"| {fmt_per_percent(mean(f['el_per'] for f in figs))} "
            f"| {fmt_per_percent(mean(f['in_per'] for f in figs))} "
            f"| {p[0]} | {p[1]} | {p[2]} | {p[3]} | {p[4]} |"
        )
    out.append("")
    out.append("## Masyu: minimal puzzles (circles removed while the answer stays unique)\n")
    out.append(
        "Boards made by `generate_masyu(...)`: no circle can go without losing uniqueness, "
        "but nothing guarantees that reasoning finds the answer. Deduction alone; `stalled` "
        "means it stopped with part of the board open (a search, or `--fallback`, finishes).\n"
    )
    out.append("| size | puzzles | solved by deduction | avg time | avg share decided |")
    out.append("|---|---|---|---|---|")
    for cols, rows in SIZES:
        figs = solve_set("minimal", cols, rows, MINIMAL_SEEDS, timeout, detail)
        solved = sum(f["status"] == "unique" for f in figs)
        out.append(
            f"| {cols} × {rows} | {len(figs)} | {solved} "
            f"| {statistics.mean(f['seconds'] for f in figs):.3f} "
            f"| {statistics.mean(f['decided'] for f in figs):.1f}% |"
        )
    out.append("")
    out.append("## Masyu: every board\n")
    out.append("| board | circles | status | seconds | elimination share |")
    out.append("|---|---|---|---|---|")
    out.extend(detail)
    return "\n".join(out) + "\n"


def run(timeout: float = 60.0, only: str = "") -> str:
    """The benchmark's default report: the published boards (whose name contains ``only``)."""
    return run_published(timeout, only=only)


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    what = ap.add_mutually_exclusive_group()
    what.add_argument(
        "--generated", action="store_true", help="the tables of our generator's boards"
    )
    what.add_argument("--generate", action="store_true", help="make puzzles/masyu-bench again")
    what.add_argument(
        "--import",
        dest="source",
        metavar="JSON",
        type=Path,
        help="remake puzzles/masyu-published from the data set's Masyu_dataset.json",
    )
    what.add_argument("--no-sat", action="store_true", help="published boards, no SAT check")
    ap.add_argument("--only", default="", help="published boards whose name contains this")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per board (default 60)")
    args = ap.parse_args()
    if args.generate:
        generate()
    elif args.source is not None:
        import_published(args.source)
    elif args.generated:
        print(run_generated(), end="")
    elif args.no_sat:
        print(run_published(args.timeout, sat=False, only=args.only), end="")
    else:
        print(run(args.timeout, args.only), end="")
