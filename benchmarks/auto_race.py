"""Would a race beat ``auto``'s sequential choice? DLX and SAT at once, the first answer wins.

Issue 34 asks for ``auto`` within 1.15 x the virtual best (VBS: the per-board better of DLX and
SAT) on published loop boards; a replay (``benchmarks/auto_estimate.py``) showed no sequential
policy -- a trial then SAT -- reaching it, since it pays for the loser. A race runs both in one
process, two threads: the first to settle the question (an answer proved unique, or two
answers, or none) wins and stops the other. This is the prototype, outside ``auto``:

- **DLX stops** at its next slice (``dlx._search`` returns to Python every ~10 ms and calls the
  request's ``on_found``, which raises here once SAT has won);
- **SAT stops** by its solver's ``interrupt`` (PySAT's ``solve_limited(expect_interrupt=True)``
  releases the GIL): ``runtime.guard.stop_hook`` -- where ``cnf`` registers that interrupt --
  is wrapped so that the race can call it, and raises at the next solver call once DLX has
  won (the CNF's building is Python and is not stopped: the thread reaches its first call);
- **the GIL**: the DLX kernels hold it (neither numba's JIT kernels nor the ahead-of-time
  module are compiled ``nogil``), so SAT's Python parts (building the CNF, the loop cuts)
  wait for DLX's slices and the other way round. ``race-gil`` races with the kernels as
  shipped (the ahead-of-time module); ``race-nogil`` with ``search_c`` compiled by numba's JIT
  with ``nogil=True`` here (not cached, the project's cache untouched).

Per board (tuned boards, ``--only benchmarks/data/auto-tuned-boards.txt``; problem built once,
one warm process, every engine loaded, "is the answer unique?"): SAT, DLX (given SAT's best
time x 1.2 + 20 ms: past it SAT is the VBS anyway), ``auto`` (sequential), and the two races,
each the best wall time of ``--rounds`` (order rotating), with the process CPU of that round
(all threads; a race's includes stopping and joining the loser). A race's wall time is to the
answer (``answer``) and to the loser joined (``joined``). During SAT's CNF build in a race,
DLX's nodes a second over its rate alone says how much the GIL lets it progress.

The figures and the verdict (not kept: on 2 shared cores the race ran both engines at half
speed, 1.9-2.9 x the VBS against ``auto``'s 1.4-1.9) are in ``docs/auto.md``, "A race of DLX
and SAT".

Run::

    python benchmarks/auto_race.py --dataset DIR --sample 25 --seed 1 \\
        --only benchmarks/data/auto-tuned-boards.txt --jsonl out.jsonl
    python benchmarks/auto_race.py --replay out.jsonl
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import statistics
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

import auto_estimate  # noqa: E402
import published  # noqa: E402

Row = dict[str, Any]
MODES = ("sat", "dlx", "auto", "race-gil", "race-nogil", "trial-race-gil", "trial-race-nogil")
RACES = MODES[3:]


class Lost(Exception):
    """Raised in the losing engine's thread to end it."""


class Race:
    """One race's shared state: the winner, the SAT thread's stop hooks."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.stopped = threading.Event()  # a winner is known: the other must stop
        self.settled = threading.Event()  # a winner is known, or both engines ended
        self.winner: str | None = None
        self.result: Any = None
        self.ended = 0
        self.hooks: dict[int, Callable[[], object]] = {}
        self.sat_thread: threading.Thread | None = None
        self.sat_build: tuple[float, float] | None = None
        self.trace: list[tuple[float, int]] = []  # DLX's (time, nodes) after each slice

    def check(self, engine: str) -> None:
        if self.stopped.is_set() and self.winner != engine:
            raise Lost

    def finish(self, engine: str, result: Any) -> None:
        with self.lock:
            self.ended += 1
            if result is not None and not result.timed_out and self.winner is None:
                self.winner, self.result = engine, result
                self.stopped.set()
                for hook in list(self.hooks.values()):
                    hook()
            if self.winner is not None or self.ended == 2:
                self.settled.set()


#: The race under way (one at a time), for the wrapped stop hook and kernel.
RACE: Race | None = None
#: ``search_c`` compiled with ``nogil=True`` by dtype name, when racing ``race-nogil``.
NOGIL: dict[str, Any] = {}
USE_NOGIL = [False]


def install() -> None:
    """Wrap ``guard.stop_hook`` (SAT's interrupt, reachable by the race), ``cnf._build`` (the
    build's window) and ``dlx._compiled_kernel`` (the nogil kernel, a trace of each slice)."""
    from dlxsat.backends import cnf, dlx
    from dlxsat.backends.dlx import kernel as k
    from dlxsat.runtime import guard

    original_hook = guard.stop_hook

    @contextlib.contextmanager
    def stop_hook(hook: Callable[[], object]) -> Iterator[None]:
        race = RACE
        if race is None or threading.current_thread() is not race.sat_thread:
            with original_hook(hook):
                yield
            return
        with race.lock:
            race.hooks[id(hook)] = hook
        try:
            race.check("sat")
            yield
        finally:
            with race.lock:
                race.hooks.pop(id(hook), None)

    guard.stop_hook = stop_hook  # type: ignore[assignment]

    original_build = cnf._build

    def build(*args: Any) -> Any:
        t0 = time.perf_counter()
        out = original_build(*args)
        if RACE is not None and threading.current_thread() is RACE.sat_thread:
            RACE.sat_build = (t0, time.perf_counter())
        return out

    cnf._build = build  # type: ignore[assignment]

    original_kernel = dlx._compiled_kernel

    def compiled_kernel(name: str, dtype: Any) -> tuple[Any, float]:
        import numpy as np

        inner, seconds = original_kernel(name, dtype)
        if USE_NOGIL[0] and name == "search_c":
            inner = NOGIL[np.dtype(dtype).name]

        def traced(*a: Any) -> Any:
            status = inner(*a)
            if RACE is not None:
                RACE.trace.append((time.perf_counter(), int(a[5][k.S_NODES])))
            return status

        return traced, seconds

    dlx._compiled_kernel = compiled_kernel  # type: ignore[assignment]


def compile_nogil() -> float:
    """``search_c`` for both dtypes compiled by numba with ``nogil=True`` (seconds taken)."""
    from numba import njit

    from dlxsat.backends.dlx import jit
    from dlxsat.backends.dlx import kernel as source
    from dlxsat.backends.dlx.catalog import DTYPES, HELPERS, SIGNATURES

    start = time.perf_counter()
    env = dict(vars(source))
    env.update(get=jit.get, put=jit.put, wide=jit.np.int64, popcount=jit.popcount, ctz=jit.ctz)
    for name in HELPERS:
        env[name] = njit(jit.rebind(getattr(source, name), env))
    for t in DTYPES:
        signature = SIGNATURES["search_c"].format(t=t)
        NOGIL[t] = njit(signature, nogil=True)(jit.rebind(source.search_c, env))
    return time.perf_counter() - start


def request(timeout: float, on_found: Callable[[int], None] | None = None) -> Any:
    from dlxsat.runtime.deadline import Deadline
    from dlxsat.solvers import Request

    return Request.for_mode("unique", deadline=Deadline.after(timeout), on_found=on_found)


#: The interpreter's switch interval during a race (Python's default is 5 ms): a thread back
#: from a kernel slice or a solver call waits up to that long for the GIL.
SWITCH_INTERVAL = [0.0005]
#: DLX's slice during a race (``dlx.SLICE``, 10 ms alone): each return to Python hands the GIL
#: over twice, and on a loaded machine each hand-over waits for the other thread to be
#: scheduled.
RACE_SLICE = [0.01]


def race(problem: Any, timeout: float, nogil: bool, trial: bool = False) -> tuple[Row, Any]:
    """Race DLX and SAT on ``problem``: (figures, the winner's result or None). DLX's arrays
    are laid out first, before either thread starts (``auto`` lays them out before its
    estimate anyway), so that DLX's thread is in the kernel while SAT's builds the CNF.
    ``trial``: ``auto``'s DLX trial first, on this thread (200 nodes an item, 30 ms), and the
    race only when it does not settle the question (DLX then starts over)."""
    global RACE
    from dlxsat.backends import auto, cnf, dlx
    from dlxsat.backends.dlx.arrays import build_numpy

    r = Race()
    USE_NOGIL[0] = nogil
    arrays: Any = None
    spent: dict[str, tuple[float, float]] = {}

    def run(engine: str) -> None:
        result = None
        t0, c0 = time.perf_counter(), time.thread_time()
        try:
            req = request(timeout, lambda _: r.check(engine))
            if engine == "dlx":
                result = dlx.solve(problem, req, {}, arrays=arrays)
            else:
                result = cnf.solve(problem, req, {})
        except Lost:
            pass
        # (each thread's own wall and CPU: how much of a core it got while racing)
        spent[engine] = (time.perf_counter() - t0, time.thread_time() - c0)
        r.finish(engine, result)

    threads = {e: threading.Thread(target=run, args=(e,), name=f"race-{e}") for e in ("dlx", "sat")}
    r.sat_thread = threads["sat"]
    RACE = r
    switch, slice_ = sys.getswitchinterval(), dlx.SLICE
    sys.setswitchinterval(SWITCH_INTERVAL[0])
    dlx.SLICE = RACE_SLICE[0]
    try:
        start, cpu = time.perf_counter(), time.process_time()
        loop = problem.rule("loop")
        graph = None if loop is None else loop.graph
        arrays = build_numpy(problem, graph)
        if trial:
            first = dlx.solve(
                problem,
                request(timeout),
                {},
                max_nodes=auto.TRIAL_NODES_PER_ITEM_LOOP * problem.n_primary,
                trial_seconds=auto.TRIAL_SECONDS,
                arrays=arrays,
            )
            if not first.timed_out:
                wall, cpu = time.perf_counter() - start, time.process_time() - cpu
                return {"answer": wall, "joined": wall, "cpu": cpu, "winner": "trial"}, first
            arrays = build_numpy(problem, graph)  # (the trial left the links mid-search)
            r.trace.clear()
        for t in threads.values():
            t.start()
        r.settled.wait()
        answer = time.perf_counter() - start
        for t in threads.values():
            t.join()
        joined = time.perf_counter() - start
        cpu = time.process_time() - cpu
    finally:
        RACE = None
        USE_NOGIL[0] = False
        sys.setswitchinterval(switch)
        dlx.SLICE = slice_
    row: Row = {"answer": answer, "joined": joined, "cpu": cpu, "winner": r.winner}
    for engine, (wall, thread_cpu) in spent.items():
        row[f"{engine}_wall"], row[f"{engine}_cpu"] = wall, thread_cpu
    if r.sat_build is not None:
        b0, b1 = r.sat_build
        row["sat_build"] = b1 - b0
        inside = [(t, n) for t, n in r.trace if b0 <= t <= b1]
        before = [n for t, n in r.trace if t < b0]
        if inside:
            row["dlx_nodes_in_build"] = inside[-1][1] - (before[-1] if before else 0)
    return row, r.result


def verdict(result: Any) -> Any:
    if result is None or result.timed_out:
        return None
    return (result.count, result.exhausted)


def measure_board(problem: Any, rounds: int, timeout: float) -> Row:
    from dlxsat.backends import auto, cnf, dlx

    best: dict[str, Row] = {}

    def keep(mode: str, row: Row) -> None:
        wall = row.get("answer", row.get("wall", math.inf))
        old = best.get(mode)
        if old is None or wall < old.get("answer", old.get("wall", math.inf)):
            best[mode] = row

    def single(mode: str, run: Callable[[], Any]) -> Row:
        start, cpu = time.perf_counter(), time.process_time()
        result = run()
        row = {"wall": time.perf_counter() - start, "cpu": time.process_time() - cpu}
        row["verdict"] = verdict(result)
        row["nodes"] = result.stats.get("nodes")
        row["search_s"] = result.stats.get("seconds")
        if mode == "auto":
            row["engine"] = result.stats["auto"]["engine"]
        return row

    for _ in range(rounds):
        keep("sat", single("sat", lambda: cnf.solve(problem, request(timeout), {})))
    dlx_limit = 1.2 * best["sat"]["wall"] + 0.02
    best["sat"]["dlx_limit"] = dlx_limit
    others = MODES[1:]
    for i in range(rounds):
        for mode in others[i % len(others) :] + others[: i % len(others)]:
            if mode == "dlx":
                keep(mode, single(mode, lambda: dlx.solve(problem, request(dlx_limit), {})))
            elif mode == "auto":
                keep(mode, single(mode, lambda: auto.solve(problem, request(timeout), {})))
            else:
                row, result = race(problem, timeout, "nogil" in mode, mode.startswith("trial"))
                row["verdict"] = verdict(result)
                keep(mode, row)
    return best


def measure(a: argparse.Namespace) -> None:
    from dlxsat import formats
    from dlxsat.families import get_spec

    only = published.keys_of(a.only) if a.only else None
    exclude = published.keys_of(a.exclude) if a.exclude else frozenset()
    published.load_engines()
    install()
    print(f"nogil search_c compiled in {compile_nogil():.1f} s", flush=True)
    print(f"switch interval {a.switch} s, DLX's slice in a race {a.slice} s", flush=True)
    print(f"load average before: {os.getloadavg()}", flush=True)
    with open(a.jsonl, "w") as log:
        for name in a.families.split(","):
            family = published.SETS[name][0]
            spec = get_spec(family)
            drawn = auto_estimate.boards(name, a.dataset, a.sample, a.seed, only, exclude)
            for key, text in drawn:
                problem = spec.build_problem(formats.read(family, text, "grid"))
                best = measure_board(problem, a.rounds, a.timeout)
                row = {"set": name, "board": key, "load": os.getloadavg()[0], **best}
                log.write(json.dumps(row) + "\n")
                log.flush()
                print(
                    f"{name} {key}: "
                    + ", ".join(
                        f"{m} {best[m].get('answer', best[m].get('wall')):.3f}" for m in MODES
                    )
                    + f" (load {row['load']:.1f})",
                    flush=True,
                )
    print(f"load average after: {os.getloadavg()}")


def replay(files: list[str]) -> None:
    rows = [json.loads(line) for f in files for line in Path(f).read_text().splitlines()]
    for name in sorted({r["set"] for r in rows}):
        fam = [r for r in rows if r["set"] == name]

        def vbs(r: Row) -> float:
            sat = r["sat"]["wall"]
            dlx = r["dlx"]["wall"] if r["dlx"]["verdict"] is not None else math.inf
            return min(sat, dlx)

        total = sum(vbs(r) for r in fam)
        auto_cpu = sum(r["auto"]["cpu"] for r in fam)
        loads = [r["load"] for r in fam]
        print(f"\n{name}: {len(fam)} boards, load {min(loads):.1f}-{max(loads):.1f}")
        print(f"  sat {sum(r['sat']['wall'] for r in fam) / total:.3f} x the VBS")
        print(f"  auto {sum(r['auto']['wall'] for r in fam) / total:.3f} x the VBS")
        for mode in RACES:
            answer = sum(r[mode]["answer"] for r in fam) / total
            joined = sum(r[mode]["joined"] for r in fam) / total
            cpu = sum(r[mode]["cpu"] for r in fam) / auto_cpu
            cpu_vbs = sum(r[mode]["cpu"] for r in fam) / total
            wins = sum(r[mode]["winner"] == "dlx" for r in fam)
            trials = sum(r[mode]["winner"] == "trial" for r in fam)
            wrong = sum(
                r[mode]["verdict"] is not None
                and r[mode]["verdict"] != r["sat"]["verdict"]
                and r["sat"]["verdict"] is not None
                for r in fam
            )
            print(
                f"  {mode}: {answer:.3f} x the VBS to the answer, {joined:.3f} to the loser "
                f"joined; CPU {cpu:.2f} x auto's ({cpu_vbs:.2f} x the VBS's wall); "
                f"DLX won {wins} (trial {trials}); verdicts differing from SAT's {wrong}"
            )
            slow = [
                (r[mode]["sat_wall"] / r["sat"]["wall"], r[mode]["sat_cpu"] / r[mode]["sat_wall"])
                for r in fam
                if r[mode]["winner"] == "sat" and "sat_wall" in r[mode]
            ]
            if slow:
                print(
                    f"    where SAT won: its wall over SAT alone, median "
                    f"{statistics.median(a for a, _ in slow):.2f}; the share of a core its "
                    f"thread got {statistics.median(b for _, b in slow):.2f} (alone "
                    f"{statistics.median(r['sat']['cpu'] / r['sat']['wall'] for r in fam):.2f})"
                )
            rates = []
            for r in fam:
                n = r[mode].get("dlx_nodes_in_build")
                alone = r["dlx"]
                if n is None or not alone.get("search_s") or not alone.get("nodes"):
                    continue
                rates.append((n / r[mode]["sat_build"]) / (alone["nodes"] / alone["search_s"]))
            if rates:
                print(
                    f"    DLX's rate during SAT's CNF build over its rate alone: median "
                    f"{statistics.median(rates):.2f} ({len(rates)} boards)"
                )
        print(f"  auto's CPU {auto_cpu / total:.2f} x the VBS's wall")


def main() -> None:
    parser = auto_estimate.board_parser(25, 20.0, "SAT's and the race's limit")
    parser.description = __doc__.split("\n\n")[0]
    parser.add_argument(
        "--switch", type=float, default=0.0005, help="the switch interval during a race (s)"
    )
    parser.add_argument("--slice", type=float, default=0.01, help="DLX's slice in a race (s)")
    a = parser.parse_args()
    if a.replay:
        replay(a.replay)
        return
    auto_estimate.check_measuring(parser, a)
    SWITCH_INTERVAL[0], RACE_SLICE[0] = a.switch, a.slice
    measure(a)


if __name__ == "__main__":
    main()
