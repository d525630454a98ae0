"""Running the jobs of a comparison: on this machine's cores, or on a Dask cluster.

Either way the process that runs ``dlxsat compare`` is the only writer of the store: it appends
each record as it comes back, so an interrupted run loses only the jobs in flight, and the next
run of the same command skips what is stored.
"""

from __future__ import annotations

import gc
import selectors
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import InputError
from ..extras import need, wanted
from ..runtime import guard
from .jobs import Job, warm
from .worker import Worker, collect, expire, give, spawn, stays, stop_all

#: ``record -> None``: called in the parent for each finished job, in the order they end.
Sink = Callable[[dict[str, Any]], None]
#: ``job -> bool``: called in the parent just before a job starts; False leaves the job to
#: another run on the same store (:class:`.store.Sharing`).
Claim = Callable[[Job], bool]


class Progress:
    """A tqdm bar on stderr: jobs done, running and failed, and the time left (None: quiet)."""

    def __init__(self, total: int, quiet: bool) -> None:
        self.bar = None
        self.running = 0
        self.failed = 0
        if quiet or total == 0:
            return
        tqdm = wanted("tqdm", "progress bars")  # a comfort, not a dependency
        if tqdm is None:
            return
        # No monitor thread: the runner forks, and a fork should not copy a running thread.
        tqdm.tqdm.monitor_interval = 0
        self.bar = tqdm.tqdm(total=total, unit="job", file=sys.stderr, dynamic_ncols=True)

    def elsewhere(self) -> None:
        """A job left to another run: one fewer to wait for."""
        if self.bar is not None:
            self.bar.total -= 1
            self.bar.refresh()

    def started(self) -> None:
        self.running += 1
        self._show()

    def done(self, record: dict[str, Any]) -> None:
        self.running -= 1
        if record["status"] in ("timeout", "memout", "error"):
            self.failed += 1
        if self.bar is not None:
            self.bar.update(1)
        self._show()

    def _show(self) -> None:
        if self.bar is not None:
            self.bar.set_postfix(running=self.running, failed=self.failed, refresh=False)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def run_local(
    jobs: Sequence[Job],
    workers: int,
    sink: Sink,
    progress: Progress,
    worker_jobs: int | None = None,
    claim: Claim | None = None,
) -> None:
    """Run ``jobs`` with at most ``workers`` at once, in worker processes forked here (each
    runs up to ``worker_jobs`` jobs, see :mod:`.worker`); each only if ``claim`` allows."""
    for job in jobs:
        warm(job)
    guard.raise_swallowed()  # a Ctrl-C during the warm-up (numba compiling) may have been lost
    # Objects that exist now are never collected: the workers' copies of their pages stay
    # shared with this process instead of being written by the collector (copy on write).
    gc.freeze()
    run = object()  # this run's token: its workers are the ones it ends (see worker.stop_all)
    pending = list(reversed(jobs))
    idle: list[Worker] = []
    busy: dict[int, Worker] = {}  # by the worker's records pipe
    # (selectors, not select.select: that fails on descriptors past 1023, which a caller with
    # many files or sockets open hands us)
    selector = selectors.DefaultSelector()
    try:
        while pending or busy:
            guard.raise_swallowed()
            while pending and len(busy) < workers:
                job = pending.pop()
                if claim is not None and not claim(job):
                    progress.elsewhere()
                    continue
                worker = idle.pop() if idle else spawn(run)
                while not give(worker, job):  # it died while idle: another takes the job
                    worker = spawn(run)
                busy[worker.records_fd] = worker
                selector.register(worker.records_fd, selectors.EVENT_READ)
                progress.started()
            if not busy:  # every job left was another run's: nothing to wait for
                continue
            now = time.monotonic()
            deadlines = [w.deadline for w in busy.values() if w.deadline is not None]
            wait = max(0.0, min(deadlines) - now) if deadlines else None
            for key, _ in selector.select(wait):
                worker = busy[key.fd]
                record = collect(worker)
                if record is not None:
                    del busy[key.fd]
                    selector.unregister(key.fd)
                    if stays(worker, worker_jobs):
                        idle.append(worker)
                    _done(record, sink, progress)
            now = time.monotonic()
            for fd, worker in list(busy.items()):
                if worker.deadline is not None and now >= worker.deadline:
                    del busy[fd]
                    selector.unregister(fd)
                    record = expire(worker)
                    if stays(worker, worker_jobs):  # (its record came just in time)
                        idle.append(worker)
                    _done(record, sink, progress)
    finally:
        try:
            stop_all(run)  # finished or interrupted: no worker outlives the run
        finally:
            selector.close()
            gc.unfreeze()


def _done(record: dict[str, Any], sink: Sink, progress: Progress) -> None:
    sink(record)
    progress.done(record)


def check_dask() -> None:
    """An :class:`InputError` when the ``distributed`` package (the ``dask`` extra) is missing."""
    need("distributed", "--dask")


def run_dask(
    jobs: Sequence[Job],
    address: str,
    sink: Sink,
    progress: Progress,
    worker_jobs: int | None = None,
    claim: Claim | None = None,
) -> None:
    """Run ``jobs`` on the Dask cluster at ``address``; each still in a worker process forked
    on the Dask worker, with the same limits (:func:`worker.run_isolated`). The jobs ``claim``
    allows are claimed before any is submitted."""
    distributed = need("distributed", "--dask")
    Client, as_completed = distributed.Client, distributed.as_completed
    from .worker import run_isolated

    try:
        client = Client(address, timeout="10s")
    except (OSError, TimeoutError) as e:
        raise InputError(f"--dask {address}: cannot reach the cluster ({e})") from None
    if claim is not None:
        claimed = []
        for job in jobs:
            if claim(job):
                claimed.append(job)
            else:
                progress.elsewhere()
        jobs = claimed
    try:
        # In the order given (the longest predicted first): Dask runs the higher priority first.
        futures = {
            client.submit(run_isolated, j, worker_jobs, pure=False, priority=len(jobs) - i): j
            for i, j in enumerate(jobs)
        }
        progress.running = len(futures)  # queued or running: the scheduler decides
        for future in as_completed(futures):
            try:
                record = future.result()
            except Exception as e:  # the Dask worker itself failed: record it, go on
                from .jobs import base_record, now_iso

                record = base_record(futures[future])
                record["error"] = f"dask: {type(e).__name__}: {e}".splitlines()[0]
                record["finished"] = now_iso()
            sink(record)
            progress.done(record)
    finally:
        try:  # the Dask workers keep their idle workers only for the length of a run
            from .worker import retire_idle

            client.run(retire_idle)
        except Exception:  # noqa: BLE001 - a cluster that went away has none left either
            pass
        client.close()
