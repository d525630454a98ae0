"""Benchmark the backends on loop puzzles (Masyu, Slitherlink, SuperSlitherlink): a preset run
of ``dlxsat compare`` followed by ``dlxsat report``.

The measurement is fixed here -- which puzzles, which settings -- and the harness is dlxsat's
own: ``dlxsat compare`` runs every puzzle × setting as a job (a worker process with a time
limit, looking for two answers as ``dlxsat solve`` does) and appends the records to a results
store; ``dlxsat report`` prints one row per setting (solved, PAR-2 score, total / median /
worst time, mean variables / clauses / rounds) and can draw a cactus plot. One run of
``compare`` per family (it takes one family at a time), all into the same store.

Puzzles: every loop-family file under ``puzzles/<family>/`` (the hard ones: Tatham's 20 × 15
and 30 × 25 Slitherlink, 18 × 10 Masyu, ...), the extra hard ones in ``puzzles/benchmarks/``
(three more 30 × 25 and two 40 × 30 Slitherlink, see its README), plus the golden cases with a
unique answer (``tests/data/golden``; those whose exact-cover problem is already among the
others are skipped).

    python3 benchmarks/loops.py                  # default settings of every backend
    python3 benchmarks/loops.py --set encodings  # every cardinality encoding (sat)
    python3 benchmarks/loops.py --set solvers    # every SAT solver
    python3 benchmarks/loops.py --set all --timeout 30
    python3 benchmarks/loops.py --only 30x25     # puzzles whose path contains this
    python3 benchmarks/loops.py -o runs.jsonl    # keep the store (a re-run resumes it)
    python3 benchmarks/loops.py --plot-out cactus.svg --format csv
    python3 benchmarks/loops.py --dry-run        # print the commands, run nothing

The store is kept only with ``-o``; it can then be reported and plotted again
(``dlxsat report runs.jsonl``, ``benchmarks/plot.py runs.jsonl -o x.svg``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from dlxsat.errors import InputError  # noqa: E402

LOOP_FAMILIES = ("masyu", "slitherlink", "superslitherlink")

#: The settings of each set, as ``compare --settings`` grids: ``backend:key=v1,v2;key=v``. The
#: defaults of every backend are left implicit, so ``sat:loop=lazy`` is reported as ``sat``.
DEFAULTS = ["sat:loop=lazy,eager", "cpsat:loop=circuit,lazy", "dlx"]
#: Every cardinality encoding of the SAT backend but "native", which needs a solver with
#: cardinality constraints; and one-hot colours.
ENCODINGS = [
    "sat:encoding=auto,pairwise,seqcounter,ladder,totalizer,bitwise,sortnetwrk,cardnetwrk,"
    "mtotalizer,kmtotalizer",
    "sat:colors=onehot",
]
SAT_SOLVERS = (
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
SOLVERS = ["sat:solver=" + ",".join(SAT_SOLVERS)]
SETS = {
    "defaults": DEFAULTS,
    "encodings": ENCODINGS,
    "solvers": SOLVERS,
    # The defaults, then every encoding and solver but the default ones (already there), then
    # one-hot colours with each loop rule.
    "all": DEFAULTS
    + [ENCODINGS[0].replace("encoding=auto,", "encoding="), ENCODINGS[1]]
    + ["sat:solver=" + ",".join(SAT_SOLVERS[1:])]
    + ["cpsat:colors=onehot;loop=circuit,lazy", "sat:colors=onehot;loop=eager"],
}


def puzzles(only: str | None = None) -> dict[str, list[str]]:
    """Family → puzzle files (relative to the repository) of the benchmark, filtered by
    ``only`` (a part of the path)."""
    from dlxsat.pipeline import prepare

    found: dict[str, list[str]] = {f: [] for f in LOOP_FAMILIES}
    seen: set[str] = set()

    def add(family: str, path: Path) -> None:
        if only and only not in str(path.relative_to(ROOT)):
            return
        try:
            prep = prepare(family, path.read_text())
            dlx = prep.dlx_text
            if prep.problem.has_multiplicities:
                COUNTING.add(family)
        except InputError as e:
            print(f"skipping {path}: {e}", file=sys.stderr)
            return
        digest = hashlib.sha256(dlx.encode()).hexdigest()
        if digest not in seen:
            seen.add(digest)
            found[family].append(str(path.relative_to(ROOT)))

    for family in LOOP_FAMILIES:
        for path in sorted((ROOT / "puzzles" / family).glob("*.txt")):
            add(family, path)
    # More hard ones made for this benchmark: puzzles/benchmarks/<family>-<name>.txt.
    for path in sorted((ROOT / "puzzles" / "benchmarks").glob("*.txt")):
        family = path.stem.split("-", 1)[0]
        if family in LOOP_FAMILIES:
            add(family, path)
    golden = ROOT / "tests" / "data" / "golden"
    for case in json.loads((golden / "manifest.json").read_text()):
        if case["family"] in LOOP_FAMILIES and "solution_edges" in case:
            add(case["family"], golden / case["puzzle"])
    return found


#: The families some of whose puzzles need "at least k of n" (multiplicities: SuperSlitherlink's
#: clues), found by :func:`puzzles`.
COUNTING: set[str] = set()


def applicable(spec: str, family: str) -> str | None:
    """``spec`` without the encodings that cannot encode ``family``'s puzzles (the "at most one"
    encodings where a puzzle needs "at least k of n"): such a job would fail, and count as
    unsolved in the report's PAR-2, for a setting that does not apply. None if nothing is left.

    >>> COUNTING.add("superslitherlink")
    >>> applicable("sat:encoding=auto,pairwise,seqcounter", "superslitherlink")
    'sat:encoding=auto,seqcounter'
    >>> applicable("sat:encoding=pairwise", "superslitherlink"), applicable("dlx", "masyu")
    (None, 'dlx')
    """
    from dlxsat.backends.cnf import AMO_ONLY

    if family not in COUNTING or "encoding=" not in spec:
        return spec
    head, _, rest = spec.partition("encoding=")
    values, sep, tail = rest.partition(";")
    kept = [v for v in values.split(",") if v not in AMO_ONLY]
    if not kept:
        return None
    return f"{head}encoding={','.join(kept)}{sep}{tail}"


def dlxsat_command(*args: str) -> list[str]:
    """The command line of ``dlxsat ARGS`` with this checkout's package."""
    return [sys.executable, "-m", "dlxsat", *args]


def commands(a: argparse.Namespace, store: str) -> list[list[str]]:
    """The ``compare`` runs (one per family with puzzles) and the ``report`` of the store."""
    runs = []
    for family, paths in puzzles(a.only).items():
        if not paths:
            continue
        specs = [applicable(spec, family) for spec in SETS[a.set]]
        if specs != SETS[a.set]:
            print(
                f"note: {family}: the 'at most one' encodings are not applicable (its clues "
                "need 'at least k of n'); they run on the other families only",
                file=sys.stderr,
            )
        settings = [arg for spec in specs if spec for arg in ("--settings", spec)]
        run = ["compare", family, *paths, *settings, "-o", store, "--timeout", str(a.timeout)]
        if a.jobs:
            run += ["--jobs", str(a.jobs)]
        runs.append(dlxsat_command(*run))
    report = ["report", store, "--format", a.format]
    if a.plot_out:
        report += ["--plot", "cactus", "--plot-out", a.plot_out]
    return runs + [dlxsat_command(*report)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--set", choices=sorted(SETS), default="defaults")
    ap.add_argument("--only", help="puzzles whose path contains this")
    ap.add_argument("--timeout", type=float, default=20.0, help="per puzzle and setting")
    ap.add_argument("--jobs", type=int, help="parallel jobs (compare's default: all cores)")
    ap.add_argument("-o", "--output", metavar="RESULTS", help="keep the results store here")
    ap.add_argument("--format", choices=["markdown", "csv", "json"], default="markdown")
    ap.add_argument("--plot-out", metavar="FILE", help="also a cactus plot (.png or .svg)")
    ap.add_argument("--dry-run", action="store_true", help="print the commands, run nothing")
    a = ap.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="dlxsat-loops-") as tmp:
        store = a.output or ("RESULTS.jsonl" if a.dry_run else os.path.join(tmp, "results.jsonl"))
        cmds = commands(a, store)
        if a.dry_run:
            for cmd in cmds:
                print(shlex.join(["dlxsat", *cmd[3:]]))
            return 0
        # This checkout's dlxsat, whatever is installed.
        path = [str(ROOT / "src"), *filter(None, [os.environ.get("PYTHONPATH")])]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
        worst = 0
        for cmd in cmds:
            print("$ " + shlex.join(["dlxsat", *cmd[3:]]), file=sys.stderr, flush=True)
            code = subprocess.run(cmd, env=env).returncode
            # compare: 3 = some job ran out of time (recorded, reported), 4 = a disagreement
            # (reported loudly by compare, and the exit status of this benchmark too).
            if code not in (0, 3, 4):
                return code
            worst = max(worst, code if code == 4 else 0)
        return worst


if __name__ == "__main__":
    sys.exit(main())
