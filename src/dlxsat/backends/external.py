"""The ``external`` solver: any SAT solver program, on dlxsat's CNF.

A search solver of the registry like ``sat`` (``SPEC``, ``solve``), run by ``dlxsat compare``
(it is not offered by ``solve`` and ``crosscheck``, as it needs a program outside dlxsat): the
problem becomes the DIMACS text ``dlxsat export dimacs`` writes (every global rule -- loop,
connected, acyclic, sized -- in its complete ``eager`` encoding, so every model is an answer), the
program named by ``cmd`` is run on the file with what is left of the time limit, its ``s``/``v``
output is read (:func:`dlxsat.backends.dimacs.read_solver_output`) and the model's option
variables become the chosen options, which the job decodes and checks through the family like
any other answer. For a second answer (``unique`` mode) or more (``count``) the answer found is
blocked by one clause and the program is run again on the larger file.

``cmd=cadical`` runs ``cadical FILE``; arguments may follow the program (``cmd=cadical -q``).
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import tempfile
import time
from collections.abc import Collection, Mapping
from typing import Any

from ..errors import InputError
from ..options import Option, by_key
from ..xcc import Problem
from . import Request, SearchResult, SolverSpec, cnf


def _sat_option(key: str) -> Option:
    return by_key(cnf.OPTIONS)[key]


OPTIONS = (
    Option(
        "cmd",
        str,
        "cadical",
        "the SAT solver program (with arguments); the CNF file is named last",
        metavar="PROGRAM",
    ),
    _sat_option("encoding"),
    _sat_option("colors"),
)


def _check_cmd(options: dict[str, Any], rules: Collection[str] | None) -> None:
    if not shlex.split(options.get("cmd", "cadical")):
        raise InputError("external: cmd is empty")


SPEC = SolverSpec(
    name="external",
    kind="search",
    summary="a SAT solver program run on dlxsat's DIMACS export (complete rule encodings)",
    options=OPTIONS,
    # Its model is the DIMACS text of the eager loop encoding: 1450 bytes per option entry
    # (benchmarks/memory.py, 100 x 100 loop boards), rounded up; the program's memory is its own.
    bytes_per_entry=1600,
    # Every model of the eager loop encoding is a non-empty loop.
    empty_loop=False,
    public=False,
    validate=_check_cmd,
    version=lambda options: program_version(options.get("cmd", "cadical")),
)


def cnf_text(problem: Problem, *, source: str, encoding: str | None, colors: str | None) -> str:
    """The DIMACS text of ``problem`` (its global rules in their complete encodings), comments
    included.

    The one place ``compare`` and ``export`` reach the exporter through.
    """
    from .dimacs import export_dimacs

    return export_dimacs(
        problem,
        source=source,
        encoding=encoding,
        colors=colors,
        modes={rule.kind: "eager" for rule in problem.rules},
    )


#: How long ``PROGRAM --version`` may take (a program that does not know the flag may wait for
#: input or start solving: it is stopped).
VERSION_SECONDS = 2.0


def _run(argv: list[str], timeout: float | None) -> subprocess.CompletedProcess[str]:
    """Run ``argv`` with its output captured; past ``timeout`` (a :class:`TimeoutExpired`) the
    program is killed with everything it started -- it leads a process group of its own, so a
    shell script's ``sleep`` or a solver's helpers do not outlive it."""
    with subprocess.Popen(
        argv,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=_with_worker(os.getpid()),  # and it dies with this worker, killed or not
    ) as p:
        try:
            out, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
            raise
    return subprocess.CompletedProcess(argv, p.returncode, out, err)


def program_version(cmd: str) -> str:
    """``PROGRAM VERSION`` from ``PROGRAM --version`` (just ``PROGRAM`` when it says nothing)."""
    program = shlex.split(cmd)[0] if cmd.strip() else cmd
    try:
        done = _run([program, "--version"], VERSION_SECONDS)
        first = (done.stdout.strip() or done.stderr.strip()).splitlines()
    except (OSError, subprocess.SubprocessError):
        first = []
    return f"{os.path.basename(program)} {first[0]}" if first else os.path.basename(program)


def solve(problem: Problem, request: Request, options: Mapping[str, Any]) -> SearchResult:
    """Find up to ``request.limit`` answers of ``problem`` with the program ``cmd``."""
    argv = shlex.split(options.get("cmd", "cadical"))
    start = time.perf_counter()
    text = cnf_text(
        problem,
        source="dlxsat compare",
        encoding=options.get("encoding"),
        colors=options.get("colors"),
    )
    header, _, body = text.partition("\np cnf ")
    nvars, nclauses = (int(x) for x in body.split("\n", 1)[0].split())
    clauses = body.split("\n", 1)[1]
    stats: dict[str, Any] = {
        "variables": nvars,
        "clauses": nclauses,
        "build_seconds": time.perf_counter() - start,
        "calls": 0,
        "solve_seconds": 0.0,
    }
    result = SearchResult(stats=stats)
    n = len(problem.options)
    with tempfile.TemporaryDirectory(prefix="dlxsat-external-") as folder:
        path = os.path.join(folder, "problem.cnf")
        while request.wants_more(result.count):
            with open(path, "w") as f:
                f.write(f"{header}\np cnf {nvars} {nclauses}\n{clauses}")
            remaining = request.deadline.remaining()
            if remaining is not None and remaining <= 0:
                result.timed_out = True
                break
            t0 = time.perf_counter()
            try:
                done = _run([*argv, path], remaining)
            except subprocess.TimeoutExpired:
                result.timed_out = True
                break
            except OSError as e:
                raise InputError(f"external: cannot run {argv[0]!r}: {e.strerror}") from None
            finally:
                stats["solve_seconds"] += time.perf_counter() - t0
                stats["calls"] += 1
            status, true = _read(done, argv[0])
            if status == "UNSATISFIABLE":
                result.exhausted = True
                break
            chosen = sorted(v - 1 for v in true if 1 <= v <= n)
            result.count = (result.count or 0) + 1
            request.found(result.count)
            if request.keeps(len(result.solutions)):
                result.solutions.append(chosen)
            clauses += " ".join(map(str, _blocking(problem, chosen))) + " 0\n"
            nclauses += 1
    stats["seconds"] = time.perf_counter() - start
    return result


def _with_worker(worker: int) -> Any:
    """What the program's process runs before it starts: die when ``worker`` (the process that
    runs this solver) dies (:func:`dlxsat.runtime.processes.die_with_parent`)."""
    from ..runtime.processes import die_with_parent  # (imported here, not in the fork)

    def arrange() -> None:
        die_with_parent(worker)

    return arrange


def _read(done: subprocess.CompletedProcess[str], program: str) -> tuple[str, set[int]]:
    from .dimacs import read_solver_output

    try:
        status, true = read_solver_output(done.stdout)
    except InputError as e:
        why = (done.stderr.strip().splitlines() or [str(e)])[-1]
        raise InputError(
            f"external: {program} (exit status {done.returncode}) gave no answer: {why}"
        ) from None
    if status == "UNKNOWN":
        raise InputError(f"external: {program} said UNKNOWN")
    return status, true


def _blocking(problem: Problem, chosen: list[int]) -> list[int]:
    """The clause that forbids the answer ``chosen`` (option variables are ``1..n``).

    When no answer's options can contain another's, "not all of these" suffices; otherwise the
    whole assignment of the option variables is forbidden.
    """
    if problem.answers_are_incomparable:
        return [-(i + 1) for i in chosen]
    picked = set(chosen)
    return [-(i + 1) if i in picked else i + 1 for i in range(len(problem.options))]
