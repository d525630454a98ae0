"""DIMACS CNF out, SAT solver output in: the exact-cover CNF of :mod:`.cnf` for other solvers.

The CNF is written clause by clause to its destination rather than assembled as one string: on
a 200 x 200 Masyu the text is several times larger than the clause lists it comes from (see
``benchmarks/memory.py``), so streaming it saves most of the export's peak memory. A file is
still written whole or not at all (:func:`dlxsat.outputs.atomic_output`); stdout receives the
text once the model is built.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping
from typing import TextIO

from ..errors import InputError
from ..xcc import Problem
from . import cnf as cnf_backend

#: What the CNF says of each global rule, by (kind, mode): its first comment lines.
RULE_NOTES = {
    ("loop", "none"): "rule loop: none - the single-loop rule is NOT encoded: models may have "
    "several disjoint loops (and no edge at all), like DLX2 without DLX2-LOOP",
    ("loop", "eager"): "rule loop: eager - complete: every model is exactly one loop (rooted "
    "ordering: edges oriented, root = first used vertex, labels increase along arcs not into "
    "the root)",
    ("connected", "none"): "rule connected: none - NOT encoded: the members present in a model "
    "may form several pieces (or pieces without a root)",
    ("connected", "eager"): "rule connected: eager - complete: the members present in every "
    "model are connected (parent ordering: every present member but the root -- the first "
    "present one, or with roots any root member -- has a present linked parent with a smaller "
    "label)",
    ("acyclic", "none"): "rule acyclic: none - NOT encoded: the members present in a model may "
    "hold cycles",
    ("acyclic", "eager"): "rule acyclic: eager - complete: the members present in every model "
    "hold no cycle (orientation: each present edge directed, at most one arc out of a vertex, "
    "labels falling along every arc)",
    ("sized", "none"): "rule sized: none - NOT encoded: the members present in a model may "
    "form pieces of any size (and without an anchor, or with two)",
    ("sized", "eager"): "rule sized: eager - complete: the members present in every model fall "
    "into pieces of the rule's sizes (roots and counts: every piece in the class of one root -- "
    "its anchor, or its first member -- counted to the root's size, or at least it; a parent "
    "ordering joins each piece to its root)",
}
#: The modes of export, in the order ``--help`` gives them.
EXPORT_MODES = ("eager", "none")


def export_modes(
    problem: Problem, given: Mapping[str, str], what: str = "this problem"
) -> dict[str, str]:
    """The export mode of each global rule of ``problem`` (by kind): ``given``, else
    ``eager``; ``eager`` for a rule the problem lacks (``what``, e.g. the family's name) is an
    :class:`InputError`.

    >>> from dlxsat.xcc import parse
    >>> export_modes(parse("a\\na\\n"), {})
    {}
    """
    kinds = {rule.kind for rule in problem.rules}
    for kind, mode in given.items():
        if mode not in EXPORT_MODES:
            raise InputError(
                f"unknown {kind} mode {mode!r} for export (choose from {', '.join(EXPORT_MODES)})"
            )
        if kind not in kinds and mode != "none":
            rule = "is not a loop puzzle" if kind == "loop" else f"has no {kind} rule"
            raise InputError(f"--{kind} {mode}: {what} {rule}; use --{kind} none")
    return {kind: given.get(kind, "eager") for kind in sorted(kinds, key=_KIND_ORDER.index)}


_KIND_ORDER = ["loop", "connected", "acyclic", "sized"]

#: Clauses are joined into text in batches of this many (one write call per batch).
BATCH = 4096


def write_dimacs(
    problem: Problem,
    out: TextIO,
    *,
    source: str = "",
    encoding: str | None = None,
    colors: str | None = None,
    modes: Mapping[str, str] | None = None,
) -> None:
    """Write a DIMACS CNF of ``problem`` to ``out``; comments say what every variable means and
    how each global rule is held.

    ``modes`` gives each of the problem's global rules (by kind) ``eager`` -- its complete
    encoding, the default, so that every model is an answer -- or ``none``: the rule is left
    out (the bare exact-cover problem: a loop puzzle's models may then hold several loops, or
    none). Variables ``1..len(problem.options)`` are the options in order. A rule no answer can
    keep (a loop where Knuth's reductions left no edge) makes a CNF with no model.
    """
    if encoding == "native":
        raise InputError("encoding 'native' is a solver feature, not CNF: it can't be exported")
    chosen = export_modes(problem, modes or {})
    cnf = cnf_backend.build(problem, encoding=encoding, colors=colors, modes=chosen)
    write_cnf(problem, cnf, chosen, out, source=source)


def rule_note(kind: str, mode: str) -> str:
    """The comment line (without its ``c``) saying how a CNF holds a global rule: one of
    :data:`RULE_NOTES`, or for ``lazy`` (a certificate's CNF, :mod:`dlxsat.certify`) that the
    rule's clauses are the premise cuts after the problem's own.

    >>> rule_note("loop", "lazy").split(" - ")[0]
    'rule loop: lazy'
    """
    if mode == "lazy":
        return (
            f"rule {kind}: lazy - NOT encoded by the problem's clauses: the premise clauses "
            f"after them are cuts that every answer keeping the {kind} rule keeps (each "
            "justified in certificate.json)"
        )
    if mode == "auto":  # (the sized rule: each rule's mode is on its own line above)
        return (
            f"rule {kind}: auto - each {kind} rule eager (encoded here) or lazy (its premise "
            "cuts after the problem's clauses), as its own line says"
        )
    return RULE_NOTES[kind, mode]


def write_cnf(
    problem: Problem,
    cnf: cnf_backend.Cnf,
    modes: Mapping[str, str],
    out: TextIO,
    *,
    source: str = "",
    notes: Iterable[str] = (),
    extra: list[list[int]] | None = None,
) -> None:
    """Write ``cnf``, built from ``problem`` with its rules in ``modes``, as DIMACS: the
    comment lines of :func:`write_dimacs`, then ``notes`` (more comment lines), and the
    clauses, ``extra`` ones after the formula's own (a certificate's premises and blocking
    clause)."""
    extra = extra or []
    head = [
        "c dlxsat: an exact-cover problem as CNF",
        f"c source: {source}" if source else "c source: (not given)",
        f"c problem: {problem.kind}, {len(problem.items)} items ({problem.n_primary} primary),"
        f" {len(problem.options)} options",
        *(f"c {line}" for line in cnf.describe),
        *(f"c {rule_note(kind, mode)}" for kind, mode in modes.items()),
    ]
    if not modes:
        head.append("c rules: none (the problem has no global rule)")
    head.append(f"c variables 1..{cnf.n_options} are the options in order (true = chosen)")
    if cnf.on:
        head.append("c 'c var N edge X Y': true = the edge at doubled coordinates (X, Y) is on")
    head += [f"c {line}" for line in notes]
    out.write("\n".join(head) + "\n")
    described = [(v, v, text) for v, text in cnf.described(problem).items()] + cnf.ranges
    described.sort()
    _write_lines(
        out,
        (
            f"c var {first if first == last else f'{first}-{last}'} {text}"
            for first, last, text in described
        ),
    )
    del described
    out.write(f"p cnf {cnf.nvars} {len(cnf.clauses) + len(extra)}\n")
    _write_clauses(out, cnf.clauses)
    _write_clauses(out, extra)


def _write_clauses(out: TextIO, clauses: list[list[int]]) -> None:
    """Write ``clauses`` a line each, ``0`` ending it, :data:`BATCH` lines a write. One
    ``%`` format a clause: half the time of joining its literals' ``str`` (20,518 clauses of
    a 20 x 15 Slitherlink: 10 ms against 22; ``solve --certify`` writes them, issue 33).

    >>> import io
    >>> out = io.StringIO()
    >>> _write_clauses(out, [[1, -2], [], [3]])
    >>> out.getvalue()
    '1 -2 0\\n0\\n3 0\\n'
    """
    for k in range(0, len(clauses), BATCH):
        out.write("".join([("%d " * len(c)) % tuple(c) + "0\n" for c in clauses[k : k + BATCH]]))


def _write_lines(out: TextIO, lines: Iterable[str]) -> None:
    batch: list[str] = []
    for line in lines:
        batch.append(line)
        if len(batch) >= BATCH:
            out.write("\n".join(batch) + "\n")
            batch.clear()
    if batch:
        out.write("\n".join(batch) + "\n")


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
