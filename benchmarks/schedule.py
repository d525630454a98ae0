"""Replaying a recorded ``compare`` run under job orders: how long each schedule takes.

A record (``benchmarks/data/compare-16-cores-jobs.jsonl``: 520 jobs of one run, each with its
time alone on a 16-core machine) is replayed as ``compare`` schedules it: each worker, when
free, takes the next job of the order. The end of the last job is the schedule's length; it is
given over the bound no schedule beats, ``max(sum of times / workers, longest job)``. The orders:

``input``
    the jobs as ``compare`` planned them (board by board, each board's settings in turn): the
    order before :mod:`dlxsat.compare.schedule`;
``size``
    the longest predicted first with nothing stored (the boards' size alone);
``store K``
    the same, with a store that knows the records of K other boards of the run (drawn at
    random, ``--seed``): their times fitted per setting against the boards' size, then the
    run's other jobs ordered by it (the known boards' own jobs by their stored times);
``oracle``
    the longest first by the recorded times themselves.

``--real``, instead, runs a real ``dlxsat compare`` (the arguments after ``--real``, with a
fresh store and ``--quiet``) with each source tree given (``--tree DIR``, default this one:
``git archive COMMIT src | tar -x -C DIR`` makes an older one), in turn, ``--rounds`` times:
its wall time over ``max(sum of the run's job times / jobs, longest job)``, the job times
being those the run recorded (on a loaded machine a job takes longer than alone).

Run::

    python benchmarks/schedule.py [--record benchmarks/data/compare-16-cores-jobs.jsonl]
        [--workers 2,4,16] [--known 0,4,10] [--seed 1]
    python benchmarks/schedule.py [--tree DIR ...] --real masyu FILES... --settings sat \
        --jobs 2
"""

from __future__ import annotations

import argparse
import heapq
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from dlxsat.compare.jobs import Job  # noqa: E402
from dlxsat.compare.schedule import longest_first  # noqa: E402

RECORD = ROOT / "benchmarks/data/compare-16-cores-jobs.jsonl"


def replay(times: list[float], workers: int) -> float:
    """When the last of ``times`` ends, each started by the first worker free, in order."""
    free = [0.0] * workers
    for t in times:
        heapq.heappush(free, heapq.heappop(free) + t)
    return max(free)


def job_of(record: dict) -> Job:
    """The job a record is of (its text is not needed to order it)."""
    return Job(
        puzzle=record["puzzle"],
        text="",
        puzzle_sha256=record["puzzle"],
        family=record["family"],
        backend=record["backend"],
        setting=record["setting"],
        options=record.get("options", {}),
        keywords={},
        mode=record.get("mode", "unique"),
        size=tuple(record["size"]) if record.get("size") else None,
    )


def real(args: list[str], trees: list[str], rounds: int) -> None:
    """``--real``: the compare run ``args`` with each tree, timed against its bound."""
    jobs = int(args[args.index("--jobs") + 1]) if "--jobs" in args else os.cpu_count() or 1
    print(
        "| tree | round | jobs | wall s | sum of job s | longest s | bound s | wall / bound "
        "| load |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for r in range(rounds):
        for tree in trees:
            with tempfile.TemporaryDirectory() as tmp:
                store = Path(tmp) / "r.jsonl"
                env = dict(os.environ, PYTHONPATH=str(Path(tree).resolve() / "src"))
                cmd = [
                    sys.executable,
                    "-m",
                    "dlxsat",
                    "compare",
                    *args,
                    "-o",
                    str(store),
                    "--quiet",
                ]
                start = time.perf_counter()
                done = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=ROOT)
                wall = time.perf_counter() - start
                if done.returncode not in (0, 3):
                    raise SystemExit(f"{tree}: {done.stderr.strip()[-2000:]}")
                times = [json.loads(x)["wall_seconds"] for x in store.read_text().splitlines()]
            bound = max(sum(times) / jobs, max(times))
            print(
                f"| {tree} | {r + 1} | {len(times)} | {wall:.1f} | {sum(times):.1f} | "
                f"{max(times):.1f} | {bound:.1f} | {wall / bound:.2f} | {os.getloadavg()[0]:.1f} |",
                flush=True,
            )


def main() -> None:
    if "--real" in sys.argv:
        at = sys.argv.index("--real")
        head = argparse.ArgumentParser()
        head.add_argument("--tree", action="append", default=[])
        head.add_argument("--rounds", type=int, default=1)
        h = head.parse_args(sys.argv[1:at])
        real(sys.argv[at + 1 :], h.tree or [str(ROOT)], h.rounds)
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--record", default=str(RECORD))
    parser.add_argument("--workers", default="2,4,16")
    parser.add_argument("--known", default="0,4,10", help="boards the store knows (0: size)")
    parser.add_argument("--seed", type=int, default=1)
    a = parser.parse_args()
    records = [json.loads(line) for line in Path(a.record).read_text().splitlines() if line]
    jobs = [job_of(r) for r in records]
    seconds = {j.id: float(r["wall_seconds"]) for j, r in zip(jobs, records, strict=True)}
    for j, r in zip(jobs, records, strict=True):
        r["job"] = j.id  # (the store's records name their job by this id)
    orders: dict[str, list[Job]] = {"input": jobs}
    boards = sorted({r["puzzle"] for r in records})
    for k in (int(x) for x in a.known.split(",")):
        known = set(random.Random(a.seed).sample(boards, k))
        stored = [r for r in records if r["puzzle"] in known]
        orders["size" if k == 0 else f"store {k}"] = longest_first(jobs, stored)
    orders["oracle"] = sorted(jobs, key=lambda j: -seconds[j.id])
    total, longest = sum(seconds.values()), max(seconds.values())
    widths = [int(w) for w in a.workers.split(",")]
    print(f"{len(jobs)} jobs, {total:.1f} s of work, longest {longest:.1f} s ({a.record})")
    print("| order | " + " | ".join(f"{w} workers" for w in widths) + " |")
    print("|---|" + "---|" * len(widths))
    for name, order in orders.items():
        cols = []
        for w in widths:
            bound = max(total / w, longest)
            end = replay([seconds[j.id] for j in order], w)
            cols.append(f"{end:.1f} s ({end / bound:.2f} x)")
        print(f"| {name} | " + " | ".join(cols) + " |")
    print("(x: over max(sum / workers, longest job), the bound no schedule beats)")


if __name__ == "__main__":
    main()
