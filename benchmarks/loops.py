"""Benchmark the backends on loop puzzles (Masyu, Slitherlink, SuperSlitherlink).

Solves each puzzle as ``dlxsat solve`` does (look for two answers, the single-loop rule on, the
empty edge set excluded) with several backends and settings, and prints one table row per
puzzle and setting: variables, clauses (constraints for cpsat), rounds (solver calls), cuts
(lazy loop cuts), build / solve / total seconds, and the answer count. A summary per setting
follows (total and worst time over the puzzles it solved), so the default settings can be
chosen by measurement.

Puzzles: every loop-family file under ``puzzles/`` (the hard ones: Tatham's 20 × 15 and
30 × 25 Slitherlink, 18 × 10 Masyu, ...), the extra hard ones in ``puzzles/benchmarks/``
(three more 30 × 25 and two 40 × 30 Slitherlink, see its README), plus the golden cases with a
unique answer (``tests/data/golden``; those already in ``puzzles/`` are skipped).

    python benchmarks/loops.py                 # default settings of every backend
    python benchmarks/loops.py --set encodings # every cardinality encoding (sat)
    python benchmarks/loops.py --set solvers   # every SAT solver
    python benchmarks/loops.py --set all --timeout 30
    python benchmarks/loops.py --only 30x25    # puzzles whose name contains this
    python benchmarks/loops.py --csv runs.csv  # also one CSV row per puzzle and setting
                                               # (plot it: benchmarks/plot.py runs.csv -o x.svg)
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from dlxsat.backends import cnf  # noqa: E402
from dlxsat.errors import InputError  # noqa: E402
from dlxsat.solvers import get_solver as get_backend  # noqa: E402
from dlxsat.xcc import Problem, parse  # noqa: E402

LOOP_FAMILIES = ("masyu", "slitherlink", "superslitherlink")

#: Setting sets: (label, backend, options).
DEFAULTS = [
    ("sat (defaults)", "sat", {}),
    ("cpsat (defaults)", "cpsat", {}),
    ("cpsat lazy", "cpsat", {"loop_mode": "lazy"}),
    ("sat eager", "sat", {"loop_mode": "eager"}),
    ("dlx", "dlx", {}),
]
# Every encoding the SAT backend offers but "native", which needs a cardinality-capable solver.
ENCODINGS = [(f"sat {e}", "sat", {"encoding": e}) for e in cnf.ENCODINGS if e != "native"] + [
    ("sat onehot colors", "sat", {"colors": "onehot"})
]
SOLVERS = [
    (f"sat {s}", "sat", {"solver": s})
    for s in (
        "cadical195",
        "cadical153",
        "cadical300",
        "glucose4",
        "glucose42",
        "minisat22",
        "maplechrono",
        "maplecm",
        "mergesat3",
        "lingeling",
    )
]
SETS = {
    "defaults": DEFAULTS,
    "encodings": ENCODINGS,
    "solvers": SOLVERS,
    "all": DEFAULTS
    + ENCODINGS[1:]
    + SOLVERS[1:]
    + [
        ("cpsat onehot colors", "cpsat", {"colors": "onehot"}),
        ("cpsat lazy onehot", "cpsat", {"loop_mode": "lazy", "colors": "onehot"}),
        ("sat eager onehot", "sat", {"loop_mode": "eager", "colors": "onehot"}),
    ],
}


def puzzles(only: str | None) -> list[tuple[str, Problem]]:
    """(name, problem) for every loop puzzle in puzzles/ and the unique golden cases."""
    from dlxsat.pipeline import prepare

    found: list[tuple[str, Problem]] = []
    seen: set[str] = set()
    for family in LOOP_FAMILIES:
        for path in sorted((ROOT / "puzzles" / family).glob("*.txt")):
            try:
                prep = prepare(family, path.read_text())
            except InputError as e:
                print(f"skipping {path}: {e}", file=sys.stderr)
                continue
            seen.add(hashlib.sha256(prep.dlx_text.encode()).hexdigest())
            found.append((f"{family}/{path.stem}", prep.problem))
    # More hard ones made for this benchmark: puzzles/benchmarks/<family>-<name>.txt.
    for path in sorted((ROOT / "puzzles" / "benchmarks").glob("*.txt")):
        family = path.stem.split("-", 1)[0]
        if family not in LOOP_FAMILIES:
            continue
        try:
            prep = prepare(family, path.read_text())
        except InputError as e:
            print(f"skipping {path}: {e}", file=sys.stderr)
            continue
        found.append((f"benchmarks/{path.stem}", prep.problem))
    golden = ROOT / "tests" / "data" / "golden"
    for case in json.loads((golden / "manifest.json").read_text()):
        if case["family"] not in LOOP_FAMILIES or "solution_edges" not in case:
            continue
        if case["dlx_sha256"] in seen:
            continue
        found.append(
            (f"golden {case['family']}/{case['name']}", parse((golden / case["dlx"]).read_text()))
        )
    if only:
        found = [(n, p) for n, p in found if only in n]
    return found


def run(problem: Problem, backend: str, options: dict[str, Any], timeout: float) -> dict:
    start = time.perf_counter()
    try:
        r = get_backend(backend).solve(
            problem,
            loop=True,
            allow_empty_loop=False,
            limit=2,
            keep=0,
            timeout=timeout,
            **options,
        )
    except InputError as e:
        return {"error": str(e)}
    st = r.stats
    total = time.perf_counter() - start
    if r.timed_out:
        result = "timeout"
    elif r.count == 1 and r.exhausted:
        result = "unique"
    else:
        result = f"{r.count}{'' if r.exhausted else '+'}"
    return {
        "variables": st.get("variables", ""),
        "clauses": st.get("clauses", st.get("constraints", "")),
        "rounds": st.get("rounds", ""),
        "cuts": st.get("cuts", ""),
        "build": st.get("build_seconds"),
        "solve": st.get("solve_seconds", st.get("seconds")),
        "total": total,
        "result": result,
    }


def fmt(x: Any) -> str:
    if isinstance(x, float):
        return f"{x:.3f}"
    return "" if x is None else str(x)


#: Columns of ``--csv``: the table's fields plus the setting's backend and options (empty when
#: the backend's default is used), so the runs can be plotted and grouped without the labels.
CSV_COLUMNS = [
    "puzzle",
    "setting",
    "backend",
    "encoding",
    "colors",
    "loop_mode",
    "solver",
    "variables",
    "clauses",
    "rounds",
    "cuts",
    "build",
    "solve",
    "total",
    "result",
]


#: The CSV columns that are not table cells: the backend and the options it was given.
OPTION_COLUMNS = ("backend", "encoding", "colors", "loop_mode", "solver")
#: The others, in the order of the printed table's cells.
TABLE_CSV_COLUMNS = [c for c in CSV_COLUMNS if c not in OPTION_COLUMNS]


def write_csv(path: str, records: list[dict[str, str]]) -> None:
    """Write ``records`` (``CSV_COLUMNS`` keys) to ``path`` whole: a temporary file beside it,
    then a rename, so an interrupted run never leaves a half-written CSV behind."""
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=target.name + ".", suffix=".tmp", dir=target.parent or ".")
    try:
        with os.fdopen(fd, "w", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, fieldnames=CSV_COLUMNS)
            w.writeheader()
            w.writerows(records)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--set", choices=sorted(SETS), default="defaults")
    ap.add_argument("--only", help="puzzles whose name contains this")
    ap.add_argument("--timeout", type=float, default=20.0, help="per puzzle and setting")
    ap.add_argument("--repeat", type=int, default=1, help="runs per cell (the fastest is kept)")
    ap.add_argument("--markdown", action="store_true", help="a Markdown table")
    ap.add_argument("--csv", metavar="FILE", help="also write one CSV row per puzzle and setting")
    a = ap.parse_args(argv)

    # Warm up: imports of pysat, ortools, networkx and the numba kernel are not solve time.
    warm = parse(
        "00 02 20 22 | 01 10 12 21\n00 01:1 10:1\n02 01:1 12:1\n20 10:1 21:1\n22 12:1 21:1\n"
    )
    for _, backend, _ in SETS[a.set]:
        try:
            get_backend(backend).solve(warm, loop=True, limit=2)
        except Exception as e:  # a backend still being written elsewhere
            print(f"warm-up of {backend} failed: {e}", file=sys.stderr)

    cols = [
        "puzzle",
        "setting",
        "vars",
        "clauses",
        "rounds",
        "cuts",
        "build s",
        "solve s",
        "total s",
        "result",
    ]
    rows: list[list[str]] = []
    records: list[dict[str, str]] = []
    summary: dict[str, list[float]] = {}
    failures: dict[str, int] = {}
    for name, problem in puzzles(a.only):
        for label, backend, options in SETS[a.set]:
            best: dict | None = None
            for _ in range(a.repeat):
                try:
                    cell = run(problem, backend, options, a.timeout)
                except Exception as e:  # report, don't stop the table
                    cell = {"error": f"{type(e).__name__}: {e}"}
                if best is None or cell.get("total", 1e9) < best.get("total", 1e9):
                    best = cell
            assert best is not None
            if "error" in best:
                row = [name, label, "", "", "", "", "", "", "", "error: " + best["error"][:50]]
                failures[label] = failures.get(label, 0) + 1
            else:
                # The cells after puzzle and setting, in the CSV's order.
                row = [name, label] + [fmt(best[k]) for k in TABLE_CSV_COLUMNS[2:]]
                if best["result"] == "unique":
                    summary.setdefault(label, []).append(best["total"])
                else:
                    failures[label] = failures.get(label, 0) + 1
            rows.append(row)
            # The table row's cells under CSV names, plus the backend and its options.
            # Seconds to the microsecond: the table's milliseconds would put fast runs at 0.000,
            # which a log-scale plot cannot show.
            record = dict(zip(TABLE_CSV_COLUMNS, row, strict=True), backend=backend)
            record.update({k: str(options.get(k, "")) for k in OPTION_COLUMNS[1:]})
            for k in ("build", "solve", "total"):
                if isinstance(best.get(k), float):
                    record[k] = f"{best[k]:.6f}"
            records.append(record)
            print("  ".join(row), file=sys.stderr, flush=True)
    print_table(cols, rows, a.markdown)
    print()
    srows = []
    for label, _, _ in SETS[a.set]:
        times = summary.get(label, [])
        srows.append(
            [
                label,
                str(len(times)),
                str(failures.get(label, 0)),
                fmt(sum(times)) if times else "",
                fmt(max(times)) if times else "",
            ]
        )
    print_table(["setting", "solved", "not solved", "total s", "worst s"], srows, a.markdown)
    if a.csv:
        write_csv(a.csv, records)
    return 0


def print_table(cols: list[str], rows: list[list[str]], markdown: bool) -> None:
    widths = [
        max(len(c), *(len(r[k]) for r in rows)) if rows else len(c) for k, c in enumerate(cols)
    ]
    if markdown:
        print("| " + " | ".join(cols) + " |")
        print("|" + "|".join("---" for _ in cols) + "|")
        for r in rows:
            print("| " + " | ".join(r) + " |")
        return
    print("  ".join(c.ljust(w) for c, w in zip(cols, widths, strict=True)))
    for r in rows:
        print(
            "  ".join(
                v.ljust(w) if k < 2 else v.rjust(w)
                for k, (v, w) in enumerate(zip(r, widths, strict=True))
            )
        )


if __name__ == "__main__":
    sys.exit(main())
