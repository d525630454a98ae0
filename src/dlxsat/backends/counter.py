"""The ``counter`` backend: a knowledge-compilation model counter counts an exact-cover
problem's answers -- d4 (``d4solver`` on PyPI, ``pip install 'dlxsat[count]'``) or Ganak
(``pip install pyganak``).

The CNF is the sat backend's (:mod:`.cnf`), every global rule in its ``eager`` encoding (the
only complete one: lazy cuts are no formula to count). Its models must be counted as the
answers they stand for, once each: where an auxiliary variable can be free -- a cardinality
encoding's counters, the rules' labels and arcs -- the count is **projected on the option
variables** ``1..n`` (counting them too gave 5.4 x 10^9 for 12 queens instead of 14,200,
issue 33); d4 reads the projection from the DIMACS line ``c p show 1 .. n 0``, Ganak takes it as
its sampling set. Projection costs much: d4 took 59 s for the 5,735,478 disjoint-loop covers of
an empty 6 x 6 Masyu projected, 1.1 s unprojected. So "at most one" is encoded pairwise where
every bound allows it (no auxiliary variable), and a formula whose only other variables are
those a set of options determines (colors, presence: "true exactly when one of these options
is chosen") is counted unprojected -- its models and its answers are in one-to-one
correspondence.

Neither counter can be interrupted where it runs, and d4 prints its statistics on the C-level
stdout: each count runs in a child process (``python -m dlxsat.backends.counter FILE ...``),
killed at the deadline, its stdout kept apart. d4 asks for a first cache page of 4 GiB, which a
memory limit (``--memory``, inherited by the child) refuses: its pages are set to 64 MiB and 16
MiB here (issue 33's notes: then it counts under a 1000 MB limit).

Counts only (``mode`` ``count``): a counter finds no answer, so none is decoded or checked (the
report's ``checked`` is 0); the count is exact, a Python int of any size. Measured (one run,
2 cores at load 14, each with the child's start of about 1 s; docs/backends.md): an empty 7 x 7
Masyu's 4,468,252,414 disjoint-loop covers in 4.6 s, where DLX needs about half an hour; but
8 queens 1.41 s (DLX 0.23 s), Langford 11 27 s (DLX 0.17 s) -- so ``auto`` chooses d4 only
for a count both DLX and SAT are predicted to need long for
(:data:`.auto.COUNTER_MIN_SECONDS`). Ganak was 10-100 times slower than d4 on queens.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from typing import Any

from ..errors import InputError, SolverFailure
from ..options import Option
from ..xcc import Problem
from . import Request, SearchResult, SolverSpec
from . import cnf as cnf_backend

#: The counters, by the ``counter`` option's value: the module each needs.
COUNTERS = {"d4": "py_d4", "ganak": "pyganak"}
DEFAULT_COUNTER = "d4"
#: d4's cache pages (bytes): the first one, then each added one (its default first page, 4
#: GiB, fails under any memory limit below about 6 GB).
D4_FIRST_PAGE, D4_MORE_PAGES = 64 << 20, 16 << 20

OPTIONS = (
    Option(
        "counter",
        str,
        DEFAULT_COUNTER,
        "model counter: d4 (pip install d4solver) or ganak (pip install pyganak)",
        tuple(COUNTERS),
    ),
    Option(
        "encoding",
        str,
        "pairwise",
        "cardinality encoding (pysat.card); by default pairwise where every bound is at most "
        "one, else auto",
        tuple(e for e in cnf_backend.ENCODINGS if e != "native"),
    ),
)

SPEC = SolverSpec(
    name="counter",
    kind="search",
    summary="model counter (d4 or Ganak) on the CNF, projected on the options: counts only",
    options=OPTIONS,
    # Not offered by ``solve --backend`` (it counts only, and needs an extra): the API
    # (``dlxsat.solve(..., backend="counter", mode="count")``) and ``compare --settings``.
    public=False,
    bytes_per_entry=900,
)


def solve(problem: Problem, request: Request, options: Mapping[str, Any]) -> SearchResult:
    """Count the answers of ``problem`` (``request``: count mode, its deadline).

    >>> from dlxsat.xcc import parse
    >>> from dlxsat.solvers import Request
    >>> solve(parse("a b\\na\\nb\\na b\\n"), Request.for_mode("count"), {}).count
    2
    """
    if request.limit is not None:
        raise InputError("backend counter counts answers only: ask for a count (--count)")
    start = time.perf_counter()
    counter = options.get("counter", DEFAULT_COUNTER)
    _need(counter)
    modes = {rule.kind: "eager" for rule in problem.rules}
    cnf, encoding = _formula(problem, options.get("encoding"), modes)
    built = time.perf_counter()
    n = cnf.n_options
    # Whether a variable beyond the options is free: then the count is projected on them.
    project = bool(cnf.ranges) or bool(problem.rules)
    stats: dict[str, Any] = {
        "counter": counter,
        "variables": cnf.nvars,
        "clauses": len(cnf.clauses),
        "encoding": encoding,
        "projected": project,
        **{f"{kind}_mode": "eager" for kind in modes},
        "build_seconds": round(built - start, 6),
    }
    result = SearchResult(stats=stats, count=0)
    if n == 0:  # (d4 reads "c p show 0" as no projection at all)
        from pysat.solvers import Solver

        with Solver(name="cadical195", bootstrap_with=cnf.clauses) as s:
            result.count = 1 if s.solve() else 0
        result.exhausted = True
    else:
        count = _count_in_child(counter, cnf, n if project else 0, request)
        if count is None:
            result.timed_out = True
            result.count = 0
        else:
            result.count, result.exhausted = count, True
            request.found(count)
    stats["count_seconds"] = round(time.perf_counter() - built, 6)
    stats["seconds"] = round(time.perf_counter() - start, 6)
    return result


def _formula(problem: Problem, encoding: str | None, modes: dict[str, str]) -> tuple[Any, str]:
    """The CNF to count: in the ``encoding`` asked for, else pairwise "at most one" where every
    bound allows it -- no auxiliary variable but those a set of options determines (colors,
    presence), so that the count need not be projected (d4 counted the 5,735,478 disjoint-loop
    covers of an empty 6 x 6 Masyu in 1.1 s so, in 59 s projected) -- else ``auto``. The CNF
    and the encoding used."""
    if encoding is None:
        try:
            return cnf_backend.build(problem, encoding="pairwise", modes=modes), "pairwise"
        except InputError:  # a bound above one: pairwise has no such constraint
            encoding = cnf_backend.DEFAULT_ENCODING
    return cnf_backend.build(problem, encoding=encoding, modes=modes), encoding


def _need(counter: str) -> None:
    """The counter's module is installed, or an :class:`InputError` naming the install."""
    import importlib.util

    if importlib.util.find_spec(COUNTERS[counter]) is None:
        install = "'dlxsat[count]'" if counter == "d4" else "pyganak"
        raise InputError(
            f"backend counter: the {counter} counter is not installed; run: pip install {install}"
        )


def _count_in_child(counter: str, cnf: Any, n: int, request: Request) -> int | None:
    """The count by ``counter`` in a child process, projected on variables ``1..n`` (0: not
    projected); None at the deadline."""
    fd, path = tempfile.mkstemp(prefix="dlxsat-count-", suffix=".cnf")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(f"p cnf {cnf.nvars} {len(cnf.clauses)}\n")
            if n:
                f.write("c p show " + " ".join(map(str, range(1, n + 1))) + " 0\n")
            for k in range(0, len(cnf.clauses), 4096):
                f.write("".join(" ".join(map(str, c)) + " 0\n" for c in cnf.clauses[k : k + 4096]))
        left = request.deadline.remaining()
        if left is not None and left <= 0:
            return None
        child = subprocess.Popen(
            [sys.executable, "-m", __name__, counter, path, str(n)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            out, err = child.communicate(timeout=left)
        except subprocess.TimeoutExpired:
            return None
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
        lines = out.split()
        if child.returncode != 0 or not lines or not lines[-1].isdigit():
            why = (err.strip().splitlines() or [f"exit status {child.returncode}"])[-1]
            if "MemoryError" in why or "bad_alloc" in why:
                raise MemoryError(why)
            raise SolverFailure(f"the {counter} counter failed: {why}")
        return int(lines[-1])
    finally:
        try:
            os.unlink(path)
        except OSError:
            pass


def count_file(counter: str, path: str, n: int) -> int:
    """The number of models of the DIMACS file ``path`` projected on variables ``1..n`` (0:
    not projected; d4 reads its ``c p show`` line), by ``counter`` (in this process: its C
    code prints on stdout, and cannot be interrupted)."""
    if counter == "d4":
        import py_d4

        d = py_d4.dump_options_to_dict(py_d4.OptionDpllStyleMethod())
        d["cache"]["bucket"]["sizeFirstPage"] = str(D4_FIRST_PAGE)
        d["cache"]["bucket"]["sizeAdditionalPage"] = str(D4_MORE_PAGES)
        options = py_d4.load_options_from_dict(d)
        return int(py_d4.Solver(path, options).count().getResult())
    import pyganak

    clauses: list[list[int]] = []
    nvars = 0
    with open(path) as f:
        for line in f:
            if line.startswith("p cnf"):
                nvars = int(line.split()[2])
            elif line and line[0] not in "cp\n":
                clauses.append([int(x) for x in line.split()[:-1]])
    c = pyganak.Counter(verbose=0)
    c.new_vars(nvars)
    c.add_clauses(clauses)
    if n:
        c.set_sampling_set(list(range(1, n + 1)))
    return int(c.count())


def _main(argv: list[str]) -> None:
    """The child: count, with the C-level stdout sent to stderr, and print the count."""
    counter, path, n = argv[0], argv[1], int(argv[2])
    out = os.dup(1)
    os.dup2(2, 1)
    count = count_file(counter, path, n)
    os.write(out, f"{count}\n".encode())


if __name__ == "__main__":
    _main(sys.argv[1:])
