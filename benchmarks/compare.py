"""Benchmark the harness of ``dlxsat compare``: its scaling over cores and its cost per job.

On the same puzzles (by default the 40 ``puzzles/masyu-bench/bench-*`` Masyu boards, 10 × 10 to
36 × 20, with the ``sat`` backend), measures in one run:

* ``--jobs 1`` against ``--jobs 2``: jobs per second of each, and their ratio (goal ≥ 1.8 on
  two idle cores); beside it the machine's own scaling at that moment (two warmed processes
  solving half the puzzles each, against one solving all), since other programs take their
  share of the cores;
* the harness's overhead per job: the wall time of ``compare --jobs 1`` (planning, the worker
  process, sending each job and its record, the store) against solving the same puzzles one
  after the other in this process with :func:`dlxsat.pipeline.solve` (goal ≤ 20 %); and the
  same with ``--worker-jobs 1``, a fresh process for every job, the price of that isolation.

Every figure is a ratio to a reference measured in the same run, so a busy machine shifts both
sides; still, run it when the machine is calm.

    python benchmarks/compare.py                   # the 40 Masyu boards, sat
    python benchmarks/compare.py --setting dlx --family sudoku --puzzles 'puzzles/sudoku-hard/*'
"""

from __future__ import annotations

import argparse
import glob
import os
import resource
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "src"))

from dlxsat.compare import compare, plan  # noqa: E402
from dlxsat.compare.corpus import load  # noqa: E402
from dlxsat.compare.jobs import warm  # noqa: E402
from dlxsat.compare.settings import parse_spec  # noqa: E402
from dlxsat.pipeline import solve  # noqa: E402


def _cpu(who: int) -> float:
    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime


def timed_compare(
    family: str,
    files: list[str],
    setting: str,
    jobs: int,
    timeout: float,
    worker_jobs: int | None = None,
) -> tuple[float, float]:
    """Wall seconds of a ``compare`` run, and the CPU seconds its workers and it used."""
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "r.jsonl")
        cpu = _cpu(resource.RUSAGE_CHILDREN) + _cpu(resource.RUSAGE_SELF)
        t0 = time.perf_counter()
        result = compare(
            family,
            files,
            [setting],
            output=out,
            jobs=jobs,
            timeout=timeout,
            worker_jobs=worker_jobs,
            quiet=True,
        )
        seconds = time.perf_counter() - t0
        cpu = _cpu(resource.RUSAGE_CHILDREN) + _cpu(resource.RUSAGE_SELF) - cpu
    bad = {s: n for s, n in result.statuses.items() if s not in ("unique", "multiple", "none")}
    if bad or result.disagreements:
        print(f"warning: {bad} {result.disagreements[:1]}", file=sys.stderr)
    return seconds, cpu


def in_process(family: str, files: list[str], setting: str) -> float:
    (s,) = parse_spec(setting)
    jobs, _ = plan(family, files, [setting])
    warm(jobs[0])  # libraries loaded, kernels compiled: the harness does it once too
    texts = [p.text for p in load(files, family)]
    t0 = time.perf_counter()
    for text in texts:
        solve(family, text, backend=s.backend, **s.keywords())
    return time.perf_counter() - t0


def _warm_worker(family: str, files: list[str], setting: str) -> None:
    jobs, _ = plan(family, files[:1], [setting])
    warm(jobs[0])


def _solve_all(family: str, texts: list[str], setting: str) -> float:
    (s,) = parse_spec(setting)
    t0 = time.perf_counter()
    for text in texts:
        solve(family, text, backend=s.backend, **s.keywords())
    return time.perf_counter() - t0


def machine_scaling(family: str, files: list[str], setting: str) -> float:
    """How much faster two warmed processes solving half the puzzles each are than one process
    solving them all, right now: the reference for the harness's own scaling (other programs
    on the machine take their share of the cores from both)."""
    from concurrent.futures import ProcessPoolExecutor

    texts = [p.text for p in load(files, family)]
    halves = [texts[0::2], texts[1::2]]
    with ProcessPoolExecutor(2, initializer=_warm_worker, initargs=(family, files, setting)) as ex:
        list(ex.map(_solve_all, [family] * 2, [[], []], [setting] * 2))  # both started, warm
        t0 = time.perf_counter()
        list(ex.map(_solve_all, [family] * 2, halves, [setting] * 2))
        two = time.perf_counter() - t0
    one = _solve_all(family, texts, setting)
    return one / two


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--family", default="masyu")
    p.add_argument("--puzzles", default=os.path.join(ROOT, "puzzles/masyu-bench/bench-*.txt"))
    p.add_argument("--count", type=int, default=40, help="use the first N puzzles")
    p.add_argument("--setting", default="sat")
    p.add_argument("--timeout", type=float, default=60.0)
    p.add_argument("--repeat", type=int, default=3, help="runs of each measure (medians)")
    a = p.parse_args()
    files = sorted(glob.glob(a.puzzles))[: a.count]
    n = len(files)
    print(
        f"{n} puzzles ({a.family}), setting {a.setting}, {os.cpu_count()} cores, "
        f"medians of {a.repeat} interleaved rounds"
    )
    # Interleaved rounds, medians: a machine that gets busier during the run shifts every
    # measure alike.
    rounds = []
    for _ in range(a.repeat):
        rounds.append(
            (
                in_process(a.family, files, a.setting),
                *timed_compare(a.family, files, a.setting, 1, a.timeout),
                *timed_compare(a.family, files, a.setting, 2, a.timeout),
                timed_compare(a.family, files, a.setting, 1, a.timeout, worker_jobs=1)[0],
            )
        )
    medians = (statistics.median(m) for m in zip(*rounds, strict=True))
    base, one, cpu_one, two, cpu_two, fresh = medians
    machine = machine_scaling(a.family, files, a.setting)
    print(f"in-process solve:   {base:8.2f} s  {n / base:6.2f} jobs/s")
    print(
        f"compare --jobs 1:   {one:8.2f} s  {n / one:6.2f} jobs/s  "
        f"(CPU {cpu_one:.2f} s: {cpu_one / one:.2f} cores busy)"
    )
    print(
        f"compare --jobs 2:   {two:8.2f} s  {n / two:6.2f} jobs/s  "
        f"(CPU {cpu_two:.2f} s: {cpu_two / two:.2f} cores busy)"
    )
    print(f"scaling, jobs/s with 2 against 1:  {one / two:.2f}x  (goal >= 1.8 on idle cores)")
    print(
        f"  CPU per job with 2 against 1: {cpu_two / cpu_one:.2f}x (1.00: the workers do not "
        "slow each other down; the rest of the gap is cores taken by other programs)"
    )
    print(
        f"  the machine's own scaling now (2 warm processes against 1, in-process): "
        f"{machine:.2f}x; compare reaches {one / two / machine:.0%} of it"
    )
    print(
        f"harness overhead:   {(one - base) / base:+.1%} of the in-process time, "
        f"{(one - base) / n * 1000:.1f} ms per job  (goal <= 20 %)"
    )
    print(
        f"  with --worker-jobs 1 (a fresh process per job): {(fresh - base) / base:+.1%}, "
        f"{(fresh - base) / n * 1000:.1f} ms per job"
    )


if __name__ == "__main__":
    main()
