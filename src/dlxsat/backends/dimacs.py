"""DIMACS CNF out, SAT solver output in: the exact-cover CNF of :mod:`.cnf` for other solvers.

The CNF is written clause by clause to its destination rather than assembled as one string: on
a 200 x 200 Masyu the text is several times larger than the clause lists it comes from (see
``benchmarks/memory.py``), so streaming it saves most of the export's peak memory. A file is
still written whole or not at all (:func:`dlxsat.outputs.atomic_output`); stdout receives the
text once the model is built.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import TextIO

from ..errors import InputError
from ..xcc import Problem
from ..xcc.loop import loop_graph
from . import cnf as cnf_backend

_LOOP_NOTES = {
    "none": "loop: none - the single-loop rule is NOT encoded: models may have several "
    "disjoint loops (and no edge at all), like DLX2 without DLX2-LOOP",
    "eager": "loop: eager - complete: every model is exactly one loop (rooted ordering: "
    "edges oriented, root = first used vertex, labels increase along arcs not into the root)",
}

#: Clauses are joined into text in batches of this many (one write call per batch).
BATCH = 4096


def write_dimacs(
    problem: Problem,
    out: TextIO,
    *,
    source: str = "",
    encoding: str | None = None,
    colors: str | None = None,
    loop: str = "none",
    loop_required: bool = False,
) -> None:
    """Write a DIMACS CNF of ``problem`` to ``out``; comments say what every variable means.

    ``loop='eager'`` adds the complete single-loop encoding and "some edge is on" (a puzzle's
    answer is a loop), so every model is an answer; ``loop='none'`` is the bare exact-cover
    problem. Variables ``1..len(problem.options)`` are the options in order.

    ``loop_required`` says the problem comes from a loop puzzle: if it has no loop items at all
    (Knuth's reductions already proved that no loop fits, and his generator printed no items),
    the CNF has no model -- an empty clause -- instead of being refused.
    """
    if loop not in ("none", "eager"):
        raise InputError(f"unknown loop mode {loop!r} for export (choose from none, eager)")
    if encoding == "native":
        raise InputError("encoding 'native' is a solver feature, not CNF: it can't be exported")
    no_loop = False
    if loop == "eager":
        g = loop_graph(problem)
        if not g.vertices and not g.edges:
            if not loop_required:
                raise InputError(
                    "--loop eager: this problem has no loop items (vertex and edge names); "
                    "use --loop none"
                )
            no_loop = True
    cnf = cnf_backend.build(
        problem,
        encoding=encoding,
        colors=colors,
        loop="none" if no_loop else loop,
        allow_empty_loop=False,
    )
    head = [
        "c dlxsat: an exact-cover problem as CNF",
        f"c source: {source}" if source else "c source: (not given)",
        f"c problem: {problem.kind}, {len(problem.items)} items ({problem.n_primary} primary),"
        f" {len(problem.options)} options",
        *(f"c {line}" for line in cnf.describe),
        f"c {_LOOP_NOTES[loop]}",
    ]
    if no_loop:
        head.append(
            "c the puzzle has no answer: Knuth's reductions leave no loop edge, so the "
            "formula holds the empty clause"
        )
    head.append(f"c variables 1..{cnf.n_options} are the options in order (true = chosen)")
    if cnf.on:
        head.append("c 'c var N edge X Y': true = the edge at doubled coordinates (X, Y) is on")
    out.write("\n".join(head) + "\n")
    notes = [(v, v, text) for v, text in cnf.names.items()] + cnf.ranges
    notes.sort()
    _write_lines(
        out,
        (
            f"c var {first if first == last else f'{first}-{last}'} {text}"
            for first, last, text in notes
        ),
    )
    del notes
    out.write(f"p cnf {cnf.nvars} {len(cnf.clauses) + no_loop}\n")
    _write_lines(out, (" ".join(map(str, c)) + " 0" for c in cnf.clauses))
    if no_loop:
        out.write("0\n")


def _write_lines(out: TextIO, lines: Iterable[str]) -> None:
    batch: list[str] = []
    for line in lines:
        batch.append(line)
        if len(batch) >= BATCH:
            out.write("\n".join(batch) + "\n")
            batch.clear()
    if batch:
        out.write("\n".join(batch) + "\n")


def loop_mode(asked: str | None, loop_puzzle: bool, what: str = "this problem") -> str:
    """The loop mode of an export: ``asked``, or by default the complete ``eager`` encoding for
    a loop puzzle (so that every model is an answer) and ``none`` for any other; ``eager`` on a
    puzzle without loops (``what``, e.g. the family's name) is refused.

    >>> loop_mode(None, True), loop_mode(None, False), loop_mode("none", True)
    ('eager', 'none', 'none')
    """
    loop = asked or ("eager" if loop_puzzle else "none")
    if loop == "eager" and not loop_puzzle:
        raise InputError(f"--loop eager: {what} is not a loop puzzle; use --loop none")
    return loop


def export_dimacs(problem: Problem, **kwargs: object) -> str:
    """The DIMACS text of :func:`write_dimacs` as one string (for small problems and tests).

    >>> from dlxsat.xcc import parse
    >>> text = export_dimacs(parse("a b\\na\\nb\\na b\\n"), source="demo")
    >>> [line for line in text.splitlines() if not line.startswith("c")]
    ['p cnf 3 4', '1 3 0', '-1 -3 0', '2 3 0', '-2 -3 0']
    """
    buf = io.StringIO()
    write_dimacs(problem, buf, **kwargs)  # type: ignore[arg-type]
    return buf.getvalue()


def chosen_options(problem: Problem, true_vars: Iterable[int]) -> list[int]:
    """The options a model chose, sorted: variable ``k + 1`` is option ``k`` (the variables
    after the options are the encoding's own).

    >>> chosen_options(Problem([], [(), (), ()]), {3, 1, 7})
    [0, 2]
    """
    n = len(problem.options)
    return sorted(v - 1 for v in true_vars if 1 <= v <= n)


_STATUS = {
    "SATISFIABLE": "SATISFIABLE",
    "SAT": "SATISFIABLE",
    "UNSATISFIABLE": "UNSATISFIABLE",
    "UNSAT": "UNSATISFIABLE",
    "UNKNOWN": "UNKNOWN",
    "INDET": "UNKNOWN",
    "INDETERMINATE": "UNKNOWN",
}


def read_solver_output(text: str) -> tuple[str, set[int]]:
    """A SAT solver's answer: its status and the set of variables it made true.

    Reads the competition format (``s SATISFIABLE`` and ``v ... 0`` lines, as picosat and
    cadical print; ``c`` lines are comments) and MiniSat's result files (``SAT`` then a line
    of literals). Status is ``SATISFIABLE``, ``UNSATISFIABLE`` or ``UNKNOWN``.

    >>> read_solver_output("c hello\\ns SATISFIABLE\\nv 1 -2 3\\nv -4 0\\n")
    ('SATISFIABLE', {1, 3})
    """
    status: str | None = None
    true: set[int] = set()
    values = False
    bare = False  # MiniSat style: literal lines without 'v'
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("c"):
            continue
        head, _, rest = line.partition(" ")
        if head == "s" or (head in _STATUS and not rest):
            word = (rest if head == "s" else head).strip().upper()
            if word not in _STATUS:
                raise InputError(f"line {n}: unknown solver status {word!r}")
            if status is not None and status != _STATUS[word]:
                raise InputError(f"line {n}: a second, different status line")
            status = _STATUS[word]
            bare = head != "s"
            continue
        if head == "v":
            fields = rest.split()
        elif bare and head.lstrip("-").isdigit():
            fields = line.split()
        else:
            raise InputError(f"line {n}: not a line of SAT solver output: {line[:40]!r}")
        for word in fields:
            try:
                lit = int(word)
            except ValueError:
                raise InputError(f"line {n}: not a literal: {word!r}") from None
            if lit > 0:
                true.add(lit)
        values = True
    if status is None:
        raise InputError("no status line ('s SATISFIABLE' or 's UNSATISFIABLE') in the output")
    if status == "SATISFIABLE" and not values:
        raise InputError("the solver said SATISFIABLE but printed no values ('v' lines)")
    return status, true
