"""Counting every answer with SAT against DLX: the ways the ``sat`` backend can search.

Each instance is counted with the ``dlx`` backend (the reference, in the same run) and with
``sat`` as a user gets it (``dlxsat solve xcc FILE --backend sat --count``: since issue 20,
answers blocked inside one CaDiCaL call, DLX's branching and CaDiCaL's taking turns, see
``dlxsat.backends.satsearch``), each under a time limit, interleaved, printing answers found,
seconds and answers per second. ``--variants`` adds other settings of the backend:

``calls``
    ``enumerate=calls``: a solver call per answer, a blocking clause between calls, CaDiCaL's
    own branching (the backend's way before issue 20, and still its way for one or two
    answers);
``items``, ``solver``
    one call, with DLX's branching only, or CaDiCaL's only;
``pairwise``
    the default plan with the pairwise encoding for every "at most one";

and enumeration loops built here from :class:`dlxsat.backends.cnf.Session` (the ideas tried
before the propagator, kept to show what they cost):

``blocking``
    the old loop without the backend's bookkeeping;
``unsliced``
    the same with no time limit (CaDiCaL's calls are not cut into conflict budgets,
    ``cnf.SLICE_SECONDS`` and ``cnf.LONG_SLICE_SECONDS``; ``--timeout`` does not bound it);
``phases``
    the same, the option variables' preferred phase set to false (an answer chooses few
    options), through PySAT's ``set_phases``;
``split``
    answer-guided splitting, as DLX branches: each answer found, its options in the order of
    their items' option counts (fewest first, as DLX's MRV heuristic), is followed by
    enumerating, deepest first, every answer sharing each prefix of it, under those options as
    assumptions; an exhausted prefix becomes a clause, so the solver never re-enters it.

    python3 benchmarks/satcount.py                           # issue 20's instances
    python3 benchmarks/satcount.py --timeout 60 --variants calls,items,solver
    python3 benchmarks/satcount.py --only queens --repeat 3 --solver glucose4

Instances are ``FAMILY ARGS`` of ``dlxsat instance``, or ``sudoku:PATH[:blank-N]`` (a bundled
Sudoku, its first N rows blanked). The machine's load average is printed before and after:
timings of a shared machine are comparable only within one run (ratios to dlx).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from dlxsat import encode, parse_dlx, solve_problem  # noqa: E402
from dlxsat.backends import cnf, covering  # noqa: E402
from dlxsat.instances import generate  # noqa: E402
from dlxsat.xcc import Problem  # noqa: E402

#: Issue 20's pentominoes, the two counts docs/xcc.md showed over 15 s, and two Sudokus: a
#: minimal 25 x 25 (one answer; DLX's tree is some 12 million nodes, its branching hopeless
#: there) and a 9 x 9 with two rows blanked (54,620 easy answers).
INSTANCES = [
    "pentominoes 4 15",
    "pentominoes 3 20",
    "queens 12",
    "langford 11",
    "sudoku:puzzles/sudoku-25/minimal-25x25-01.txt",
    "sudoku:puzzles/sudoku/tatham-9x9-1.txt:blank-2",
]
#: Settings of the backend (``--variants``), by name.
PLANS = {
    "calls": {"enumerate": "calls"},
    "items": {"enumerate": "inside", "branching": "items"},
    "solver": {"enumerate": "inside", "branching": "solver"},
    "pairwise": {"encoding": "pairwise"},
}
VARIANTS = (*PLANS, "blocking", "unsliced", "phases", "split")


def _count_dlx(problem: Problem, timeout: float) -> tuple[int, bool]:
    r = solve_problem(problem, backend="dlx", keep=0, timeout=timeout)
    return r.count or 0, r.exhausted


def _count_sat(problem: Problem, timeout: float, solver: str, **plan: str) -> tuple[int, bool]:
    r = solve_problem(problem, backend="sat", keep=0, timeout=timeout, solver=solver, **plan)
    return r.count or 0, r.exhausted


def instance(spec: str) -> Problem:
    """The problem of an entry of :data:`INSTANCES`."""
    if not spec.startswith("sudoku:"):
        family, *rest = spec.split()
        return parse_dlx(generate(family, rest))
    _, path, *blank = spec.split(":")
    lines = (ROOT / path).read_text().splitlines()
    rows = int(blank[0].removeprefix("blank-")) if blank else 0
    text = "\n".join(["." * len(lines[0])] * rows + lines[rows:]) + "\n"
    return parse_dlx(encode("sudoku", text))


def _session(problem: Problem, solver: str) -> tuple[cnf.Session, int]:
    formula = cnf.build(problem)
    return cnf.Session(solver, formula), formula.n_options


def _chosen(session: cnf.Session, n: int, inside: set[int]) -> list[int]:
    return [lit for lit in session.model()[:n] if lit > 0 and lit not in inside]


def _count_blocking(
    problem: Problem, timeout: float | None, solver: str, phases: bool
) -> tuple[int, bool]:
    session, n = _session(problem, solver)
    if phases:
        session.solver.set_phases([-v for v in range(1, n + 1)])
    deadline = None if timeout is None else time.monotonic() + timeout
    count = 0
    try:
        while True:
            answer = session.find(deadline)
            if not answer:
                return count, answer is False
            count += 1
            session.add([-lit for lit in _chosen(session, n, set())])
    finally:
        session.close()


def _count_split(problem: Problem, timeout: float, solver: str) -> tuple[int, bool]:
    session, n = _session(problem, solver)
    # An option's rank: the fewest options of a primary item it covers (MRV's order).
    rank = [1 << 40] * n
    for p in covering.build(problem).primaries:
        for k in p.options:
            rank[k] = min(rank[k], len(p.options) << 20 | p.item)
    deadline = time.monotonic() + timeout
    count = 0

    def exhaust(prefix: list[int]) -> bool | None:
        """Every answer holding all of ``prefix``, then the clause "not all of ``prefix``"."""
        nonlocal count
        while True:
            answer = session.find(deadline, prefix)
            if answer is None:
                return None
            if not answer:
                break
            rest = sorted(_chosen(session, n, set(prefix)), key=lambda lit: rank[lit - 1])
            whole = prefix + rest
            count += 1
            session.add([-lit for lit in whole])
            for k in range(len(whole) - 1, len(prefix), -1):
                if exhaust(whole[:k]) is None:
                    return None
        if prefix:
            session.add([-lit for lit in prefix])
        return False

    if not problem.answers_are_incomparable:
        raise SystemExit("split: only for problems where no answer holds another")
    try:
        done = exhaust([]) is False  # (before ``count`` is read)
        return count, done
    finally:
        session.close()


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--timeout", type=float, default=60.0, help="seconds per count (default 60)")
    p.add_argument("--only", help="instances whose name contains this")
    p.add_argument("--repeat", type=int, default=1, help="rounds, interleaved (default 1)")
    p.add_argument("--solver", default=cnf.DEFAULT_SOLVER, help="PySAT solver for sat")
    p.add_argument("--variants", default="", help=f"also: {', '.join(VARIANTS)}")
    args = p.parse_args()
    variants = [v for v in args.variants.split(",") if v]
    for v in variants:
        if v not in VARIANTS:
            p.error(f"unknown variant {v!r} (known: {', '.join(VARIANTS)})")
    runs: dict[str, Callable[[Problem], tuple[int, bool]]] = {
        "dlx": lambda q: _count_dlx(q, args.timeout),
        "sat": lambda q: _count_sat(q, args.timeout, args.solver),
        **{
            name: (lambda q, plan=plan: _count_sat(q, args.timeout, args.solver, **plan))
            for name, plan in PLANS.items()
        },
        "blocking": lambda q: _count_blocking(q, args.timeout, args.solver, False),
        "unsliced": lambda q: _count_blocking(q, None, args.solver, False),
        "phases": lambda q: _count_blocking(q, args.timeout, args.solver, True),
        "split": lambda q: _count_split(q, args.timeout, args.solver),
    }
    names = ["dlx", "sat", *variants]
    print(f"load average before: {os.getloadavg()[0]:.2f}; solver {args.solver}")
    print("| instance | run | answers | all? | s | answers/s | s / dlx s |")
    print("|---|---|--:|---|--:|--:|--:|")
    for spec in INSTANCES:
        if args.only and args.only not in spec:
            continue
        problem = instance(spec)
        _count_dlx(problem, args.timeout)  # the compiled kernels, loaded apart
        for _ in range(args.repeat):
            reference = None
            for name in names:
                t0 = time.perf_counter()
                count, done = runs[name](problem)
                took = time.perf_counter() - t0
                reference = took if name == "dlx" else reference
                ratio = f"{took / reference:.1f}" if reference else "-"
                rate = f"{count / took:,.0f}" if took > 0 else "-"
                print(
                    f"| {spec} | {name} | {count:,} | {'yes' if done else 'no'} | {took:.2f} "
                    f"| {rate} | {ratio} |",
                    flush=True,
                )
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
