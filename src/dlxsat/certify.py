"""Certified answers: a DRAT proof that a puzzle has no answer but the one found (``solve
--certify``), and its independent check (``dlxsat verify``); docs/certify.md.

A puzzle's answer is unique when the CNF of its exact-cover problem, with the answer blocked,
has no model that keeps the puzzle's global rules. A *certificate* is a folder of three files:

``formula.cnf``
    The CNF as ``dlxsat export dimacs`` writes it -- the same comment lines naming every
    variable and saying how each global rule is held -- in the formula settings of the
    certificate (the ``sat`` backend's: cardinality encoding, colors, each rule's mode), then
    the *premises*, then the *blocking clause* of the answer (none for a puzzle certified to
    have no answer at all). A rule held ``lazy`` is not in the problem's clauses: the premises
    are the cuts of it the solver needed, each a clause that every answer keeping the rule
    keeps.
``proof.drat``
    A DRAT refutation of that whole CNF in binary DRAT, written by the CaDiCaL 1.9.5 (PySAT's
    ``cadical195``) that searched: its lemmas over both calls (the answer; no other answer)
    follow from the formula, which holds every clause added between them. It is checked
    with deletions ignored (:func:`check_proof`).
``certificate.json``
    What ties the two to the puzzle: the family, the digest of its exact-cover data, the
    answer (its options), the formula settings, each premise as its rule and its cut (the
    data the clause is made from) with a sentence saying why it holds, and the figures.

:func:`verify` trusts none of it: it builds the CNF again from the puzzle (the family's
encoding, the ``sat`` backend's translation -- the trusted part), checks each premise's cut
against the rule's own graph with code that shares nothing with the cut generators
(:func:`loop_cut_fault` here, :func:`dlxsat.xcc.rules.justified`), rebuilds each premise's
clause and the answer's blocking clause, checks the answer by the family's rules, compares
the whole text with ``formula.cnf`` byte for byte (so a certificate verifies no other puzzle),
and hands formula and proof to a checker that is not dlxsat's solver: ``cake_lpr`` (verified
in CakeML) on the LRAT proof that ``drat-trim`` makes of it, when both are on the PATH, else
``drat-trim`` when it is, else ``dratify`` (``pip install 'dlxsat[certify]'``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from . import __version__
from .backends.proof import PROOF_SOLVER, prove
from .errors import InputError, SolverFailure
from .pipeline import Prepared
from .result import SearchResult
from .runtime import cleanup, guard
from .runtime.deadline import Deadline
from .xcc import Problem
from .xcc import rules as xrules

__all__ = ["PROOF_SOLVER", "prove"]  # (their home is dlxsat.backends.proof)

#: The certificate's format, first key of ``certificate.json``.
FORMAT = "dlxsat certificate 1"
#: The three files of a certificate folder.
META, FORMULA, PROOF = "certificate.json", "formula.cnf", "proof.drat"
#: The proof's formats (``certificate.json``'s ``proof.format``): binary DRAT, as CaDiCaL
#: writes it (``solve --certify``), or text DRAT.
BINARY, TEXT = "drat (binary)", "drat (text)"
#: ``verify --checker``: ``auto`` is ``cake_lpr`` when it and ``drat-trim`` are on the PATH,
#: else ``drat-trim`` when it is, else ``dratify``.
CHECKERS = ("auto", "cake_lpr", "drat-trim", "dratify")
#: The name ``verify`` gives the ``cake_lpr`` check.
CAKE_LPR = "cake_lpr (LRAT from drat-trim)"
#: What a certificate claims: one answer and no other, or no answer at all.
CLAIMS = ("unique", "none")


# --------------------------------------------------------------------------- formula


def formula_settings(problem: Problem, options: Mapping[str, Any]) -> dict[str, Any]:
    """The formula settings of a certificate: the ``sat`` backend's ``encoding``, ``colors``
    and each global rule's mode, from ``options`` (the sat backend's, checked) or the
    defaults. ``native`` cardinality is no CNF: refused.

    >>> from dlxsat.xcc import parse
    >>> formula_settings(parse("a\\na\\n"), {})
    {'encoding': 'auto', 'colors': 'binary', 'modes': {}}
    """
    from .backends import cnf as cnf_backend
    from .backends.covering import DEFAULT_COLORS

    encoding = options.get("encoding", cnf_backend.DEFAULT_ENCODING)
    if encoding == "native":
        raise InputError("--certify: encoding 'native' is a solver feature, not CNF")
    given = {k: options[f"{k}_mode"] for k in cnf_backend.RULE_MODES if f"{k}_mode" in options}
    unknown = sorted({r.kind for r in problem.rules} - set(cnf_backend.RULE_MODES))
    if unknown:
        raise InputError(f"--certify: the sat backend has no CNF of the {unknown[0]} rule yet")
    return {
        "encoding": encoding,
        "colors": options.get("colors", DEFAULT_COLORS),
        "modes": cnf_backend.rule_modes(problem, given),
    }


def build_formula(problem: Problem, settings: Mapping[str, Any]) -> Any:
    """The :class:`~dlxsat.backends.cnf.Cnf` of ``problem`` in the certificate's settings."""
    from .backends import cnf as cnf_backend

    return cnf_backend.build(
        problem,
        encoding=settings["encoding"],
        colors=settings["colors"],
        modes=dict(settings["modes"]),
    )


def puzzle_digest(prep: Prepared) -> str:
    """The SHA-256 of the puzzle's exact-cover data (Knuth's format, as ``encode`` prints it)."""
    return hashlib.sha256(prep.dlx_text.encode()).hexdigest()


def blocking_clause(problem: Problem, chosen: Sequence[int]) -> list[int]:
    """The clause that the answer of the ``chosen`` options breaks and every other answer
    keeps, over the option variables (``k + 1`` for option ``k``): the chosen options negated
    when no answer can hold another (:attr:`Problem.answers_are_incomparable`), else every
    option with the sign it does not have in the answer.

    >>> from dlxsat.xcc import parse
    >>> blocking_clause(parse("a b\\na\\nb\\na b\\n"), [0, 1])
    [-1, -2]
    """
    if problem.answers_are_incomparable:
        return [-(k + 1) for k in sorted(chosen)]
    held = set(chosen)
    return [-(k + 1) if k in held else k + 1 for k in range(len(problem.options))]


def write_formula(
    out: TextIO,
    prep: Prepared,
    cnf: Any,
    settings: Mapping[str, Any],
    premises: Sequence[Premise],
    blocking: list[int] | None,
) -> None:
    """Write the text of ``formula.cnf`` to ``out``: the export's CNF, the premises'
    clauses, the blocking clause; comment lines say where each part starts."""
    from .backends import dimacs

    m = len(cnf.clauses)
    k = len(premises)
    notes = [
        f"certificate: {'unique answer' if blocking is not None else 'no answer'} of this "
        f"{prep.name} puzzle (exact-cover data sha256 {puzzle_digest(prep)})",
        f"clauses 1..{m}: the problem; {m + 1}..{m + k}: {k} premises (global-rule cuts, "
        "justified in certificate.json)",
    ]
    if blocking is not None:
        notes.append(f"clause {m + k + 1}: the answer blocked (certificate.json's options)")
    extra = [premise_clause(prep.problem, cnf, p) for p in premises]
    if blocking is not None:
        extra.append(blocking)
    source = f"certificate of a {prep.name} puzzle"
    dimacs.write_cnf(
        prep.problem, cnf, settings["modes"], out, source=source, notes=notes, extra=extra
    )


def formula_text(
    prep: Prepared,
    cnf: Any,
    settings: Mapping[str, Any],
    premises: Sequence[Premise],
    blocking: list[int] | None,
) -> str:
    """The text of ``formula.cnf`` (:func:`write_formula`)."""
    out = io.StringIO()
    write_formula(out, prep, cnf, settings, premises, blocking)
    return out.getvalue()


# --------------------------------------------------------------------------- premises


@dataclass(frozen=True)
class Premise:
    """A cut of a global rule used as a premise: ``rule``, the rule's position in the
    problem's rules; ``cut``, the cut's data (``type`` ``loop``: item numbers ``inside``,
    ``outside``, ``boundary``; else a cut class of :mod:`dlxsat.xcc.rules` and its fields,
    member positions); ``why``: a sentence for the reader (not trusted)."""

    rule: int
    cut: dict[str, Any]
    why: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "cut": self.cut, "why": self.why}


def _premise_of(problem: Problem, rule: Any, cut: Any) -> Premise:
    """The premise of a cut the sat backend logged (:attr:`dlxsat.backends.cnf.Cnf.log`)."""
    from .backends.loopcuts import Cut as LoopCut

    items = problem.items
    if isinstance(cut, LoopCut):
        index = next(i for i, r in enumerate(problem.rules) if r.kind == "loop")
        loop_data = {
            "type": "loop",
            "inside": cut.inside,
            "outside": cut.outside,
            "boundary": list(cut.boundary),
        }
        why = (
            f"every path of the board's possible edges from edge {items[cut.inside].name} to "
            f"edge {items[cut.outside].name} uses one of the {len(cut.boundary)} boundary "
            "edges, so a single loop through both does"
        )
        return Premise(index, loop_data, why)
    index = next(i for i, r in enumerate(problem.rules) if r is rule)
    fields = {f.name: getattr(cut, f.name) for f in dataclasses.fields(cut)}
    data: dict[str, Any] = {"type": type(cut).__name__}
    data.update({k: list(v) if isinstance(v, tuple) else v for k, v in fields.items()})
    whys = {
        "Separation": "every path over the links from member a to member b (with b null: to "
        "a root) passes through the boundary, so a connected answer holding a holds one of it",
        "Cycle": "these members close a cycle, so an acyclic answer lacks one of them",
        "Piece": "the held members can be no right piece unless one of the grown ones is present",
    }
    return Premise(index, data, whys.get(type(cut).__name__, ""))


def loop_cut_fault(
    edges: Sequence[tuple[int, int, int]], inside: int, outside: int, boundary: Sequence[int]
) -> str | None:
    """Why the loop cut "edges ``inside`` and ``outside`` both on imply an edge of
    ``boundary`` on" is not valid for every single loop over ``edges`` (``(edge, vertex,
    vertex)``: the edges that can be on); None when it is.

    It is valid when removing the boundary edges leaves no path from an end of ``outside`` to
    an end of ``inside``: a single loop holding both edges is a path between them on each
    side. Written apart from :mod:`dlxsat.backends.loopcuts`, which makes such cuts.

    >>> square = [(10, 0, 1), (11, 1, 2), (12, 2, 3), (13, 3, 0)]
    >>> loop_cut_fault(square, 10, 12, [11, 13]), loop_cut_fault(square, 10, 12, [11])
    (None, 'edge 12 reaches edge 10 avoiding the boundary')
    """
    return _loop_fault(_loop_graph(edges), inside, outside, boundary)


#: A loop graph for :func:`_loop_fault`: each edge's ends, each vertex's (neighbour, edge).
_LoopGraph = tuple[dict[int, tuple[int, int]], dict[int, list[tuple[int, int]]]]


def _loop_graph(edges: Sequence[tuple[int, int, int]]) -> _LoopGraph:
    ends = {e: (u, v) for e, u, v in edges}
    adj: dict[int, list[tuple[int, int]]] = {}
    for e, u, v in edges:
        adj.setdefault(u, []).append((v, e))
        adj.setdefault(v, []).append((u, e))
    return ends, adj


def _loop_fault(
    graph: _LoopGraph, inside: int, outside: int, boundary: Sequence[int]
) -> str | None:
    ends, adj = graph
    wall = set(boundary)
    for e in (inside, outside, *boundary):
        if e not in ends:
            return f"edge {e} is no edge that can be on"
    if inside == outside or wall.intersection((inside, outside)):
        return "the clause's two edges are one, or one is in the boundary"
    start = set(ends[outside])
    seen, stack = set(start), list(start)
    while stack:  # a search from the ends of outside over the edges not in the boundary
        for y, e in adj.get(stack.pop(), ()):
            if y not in seen and e not in wall:
                seen.add(y)
                stack.append(y)
    if seen.intersection(ends[inside]):
        return f"edge {outside} reaches edge {inside} avoiding the boundary"
    return None


def _ints(value: Any, what: str) -> list[int]:
    if not isinstance(value, list) or not all(type(x) is int for x in value):
        raise ValueError(f"{what} is not a list of whole numbers")
    return list(value)


def _member_cut(data: Mapping[str, Any]) -> Any:
    """The :mod:`dlxsat.xcc.rules` cut of a premise's data."""
    kinds = {"Separation": xrules.Separation, "Cycle": xrules.Cycle, "Piece": xrules.Piece}
    cls = kinds.get(str(data.get("type")))
    if cls is None:
        raise ValueError(f"unknown cut type {data.get('type')!r}")
    names = [f.name for f in dataclasses.fields(cls)]
    if set(data) != {"type", *names}:
        raise ValueError(f"a {cls.__name__} cut has the fields {', '.join(names)}")
    args: dict[str, Any] = {}
    for name in names:
        value = data[name]
        if name == "b" and value is None:
            args[name] = None
        elif isinstance(value, list):
            args[name] = tuple(_ints(value, name))
        elif type(value) is int:
            args[name] = value
        else:
            raise ValueError(f"field {name} is not a member position")
    return cls(**args)


def premise_fault(
    problem: Problem, cnf: Any, premise: Premise, cache: dict[int, Any] | None = None
) -> str | None:
    """Why ``premise`` does not hold for every answer of ``problem`` (one line), None when it
    does: its rule is one of the problem's, held lazily, and its cut is justified by the
    rule's graph alone (:func:`loop_cut_fault`, :func:`dlxsat.xcc.rules.justified`).
    ``cache``: a dict kept across the premises of one problem (each loop graph made once)."""
    if not 0 <= premise.rule < len(problem.rules):
        return f"rule {premise.rule}: the problem has {len(problem.rules)} rules"
    rule = problem.rules[premise.rule]
    data = premise.cut
    try:
        if isinstance(rule, xrules.SingleLoop):
            if data.get("type") != "loop" or set(data) != {
                "type",
                "inside",
                "outside",
                "boundary",
            }:
                return "a loop rule's cut has the fields type 'loop', inside, outside, boundary"
            inside, outside = data["inside"], data["outside"]
            if type(inside) is not int or type(outside) is not int:
                return "inside and outside are not edge items"
            graph = None if cache is None else cache.get(premise.rule)
            if graph is None:
                graph = _loop_graph([(e, u, v) for e, u, v in rule.graph.edges if e in cnf.on])
                if cache is not None:
                    cache[premise.rule] = graph
            return _loop_fault(graph, inside, outside, _ints(data["boundary"], "boundary"))
        why = xrules.justified(rule, _member_cut(data))
    except ValueError as e:
        return str(e)
    return None if why is None else f"rule {rule.kind}: {why}"


def premise_clause(problem: Problem, cnf: Any, premise: Premise) -> list[int]:
    """The clause of a premise (checked by :func:`premise_fault` first) in the variables of
    ``cnf``: a loop cut's ``not on(inside) or not on(outside) or on(b1) or ...``; a member
    cut's literals over the members' presence variables, where a member no option can make
    present (no variable: never present) drops out of the clause's positive part. A negative
    literal cannot drop out (that would strengthen the clause): a ``ValueError``."""
    rule = problem.rules[premise.rule]
    data = premise.cut
    if isinstance(rule, xrules.SingleLoop):
        on = cnf.on
        return [-on[data["inside"]], -on[data["outside"]], *(on[e] for e in data["boundary"])]
    lits = next(m.lits for m in cnf.lazy if m.cutter.rule is rule)
    clause = []
    for m, positive in _member_cut(data).literals():
        if m in lits:
            clause.append(lits[m] if positive else -lits[m])
        elif not positive:
            raise ValueError(f"member {m} of the clause's head can never be present")
    return clause


# --------------------------------------------------------------------------- certifying


@dataclass
class Certificate:
    """A certificate ready to write: ``meta`` (``certificate.json``), the proof (binary DRAT
    bytes), and what ``formula.cnf`` is made of -- its text is made only when it is written
    (:meth:`write_formula`) or asked for (:attr:`formula`)."""

    meta: dict[str, Any]
    proof: bytes
    prep: Prepared
    cnf: Any
    settings: dict[str, Any]
    premises: list[Premise]
    blocking: list[int] | None

    def write_formula(self, out: TextIO) -> None:
        """Write ``formula.cnf``'s text to ``out`` (:func:`write_formula`)."""
        write_formula(out, self.prep, self.cnf, self.settings, self.premises, self.blocking)

    @property
    def formula(self) -> str:
        """``formula.cnf``'s text."""
        out = io.StringIO()
        self.write_formula(out)
        return out.getvalue()

    def write(self, path: str) -> None:
        """Write the folder ``path`` whole or not at all: into a temporary folder beside it,
        renamed at the end (an old certificate there is replaced; anything else is refused)."""
        write_folder(path, self)


def certified_search(
    prep: Prepared, options: Mapping[str, Any], deadline: Deadline | None = None
) -> tuple[SearchResult, Certificate | None]:
    """Solve ``prep``'s puzzle in ``unique`` mode as the sat backend does, and certify the
    outcome: the search result, and the certificate when the puzzle has exactly one answer
    or none (None when it has several, or the deadline came first). ``options``: the sat
    backend's, checked; the formula settings come from them.

    The search is the sat backend's incremental one (:class:`dlxsat.backends.cnf.Session`
    on :data:`PROOF_SOLVER`): an answer, then its blocking clause and a search to no model,
    adding the cuts of the rules held lazily as it goes -- those cuts are the premises. The
    solver writes its DRAT proof as it searches: the lemmas of both calls refute the
    formula, the premises and the blocking clause (each clause added between calls is in
    that formula). A fresh solver refuting the formula again cost 1.2-1.8 x the search
    itself, and its proof as text as much again on a 16 x 16 Sudoku (issue 33).
    """
    from .backends import cnf as cnf_backend

    name = options.get("solver", PROOF_SOLVER)
    if name != PROOF_SOLVER:
        raise InputError(f"--certify: the proof is written by {PROOF_SOLVER}, not {name}")
    t0 = time.perf_counter()
    problem = prep.problem
    settings = formula_settings(problem, options)
    cnf = build_formula(problem, settings)
    n = len(problem.options)
    stats: dict[str, Any] = {
        "variables": cnf.nvars,
        "clauses": len(cnf.clauses),
        "solver": PROOF_SOLVER,
        "encoding": settings["encoding"],
        "colors": settings["colors"],
        **{f"{kind}_mode": mode for kind, mode in settings["modes"].items()},
    }
    result = SearchResult(stats=stats)
    cnf.log = []
    session = cnf_backend.Session(PROOF_SOLVER, cnf, proof=True)
    at = None if deadline is None else deadline.at
    blocking: list[int] | None = None
    proof = b""
    try:
        found = session.find(at)
        if found:
            chosen = [lit - 1 for lit in session.model()[:n] if lit > 0]
            result.solutions.append(chosen)
            result.count = 1
            blocking = blocking_clause(problem, chosen)
            session.add(blocking)
            found = session.find(at)
            if found:
                result.solutions.append([lit - 1 for lit in session.model()[:n] if lit > 0])
                result.count = 2
        if found is False:
            proof = session.proof_bytes()
        stats.update(session.search_stats())
    finally:
        session.close()
    stats["rounds"], stats["cuts"] = session.rounds, session.cuts
    t1 = time.perf_counter()
    stats["seconds"] = round(t1 - t0, 6)
    if found is None:
        result.timed_out = True
        return result, None
    result.exhausted = not found
    if found:
        return result, None
    premises: list[Premise] = []
    seen: set[tuple[int, ...]] = set()
    for rule, cut, clause in cnf.log:
        if tuple(clause) not in seen:
            seen.add(tuple(clause))
            premises.append(_premise_of(problem, rule, cut))
    cnf.log = None
    graphs: dict[int, Any] = {}
    for p in premises:  # (each premise's clause is one the search added: checked as it is)
        why = premise_fault(problem, cnf, p, graphs)
        if why is not None:
            raise SolverFailure(f"certify: a cut the sat backend made is not valid: {why}")
    t2 = time.perf_counter()
    first = result.solutions[0] if result.solutions else None
    meta = {
        "format": FORMAT,
        "dlxsat": __version__,
        "family": prep.name,
        "claim": "unique" if first is not None else "none",
        "puzzle": {"sha256": puzzle_digest(prep)},
        "answer": None
        if first is None
        else {"options": first, "texts": [problem.option_text(k) for k in first]},
        "formula": {
            "file": FORMULA,
            **settings,
            "variables": cnf.nvars,
            "problem_clauses": len(cnf.clauses),
            "premises": len(premises),
            "blocking": blocking is not None,
        },
        "premises": [p.to_json() for p in premises],
        "proof": {
            "file": PROOF,
            "format": BINARY,
            "solver": f"{PROOF_SOLVER} (PySAT), the search's own calls",
            "bytes": len(proof),
        },
        "seconds": {"search": round(t1 - t0, 6), "premises": round(t2 - t1, 6)},
    }
    stats["proof_bytes"] = len(proof)
    stats["premises"] = len(premises)
    return result, Certificate(meta, proof, prep, cnf, settings, premises, blocking)


def write_folder(path: str, cert: Certificate) -> None:
    """Write ``cert`` as the folder ``path``, whole or not at all (:meth:`Certificate.write`)."""
    target = os.path.abspath(path)
    if os.path.lexists(target):
        if not (os.path.isdir(target) and os.path.isfile(os.path.join(target, META))):
            raise InputError(f"{path}: exists and is not a certificate folder; not replaced")
    parent = os.path.dirname(target)
    try:
        tmp = tempfile.mkdtemp(dir=parent, prefix=".dlxsat-certificate-")
    except OSError as e:
        raise InputError(f"{path}: cannot write: {e.strerror or e}") from None
    cleanup.track_temp(tmp)
    old = None
    try:
        with open(os.path.join(tmp, FORMULA), "w") as f:
            cert.write_formula(f)
        with open(os.path.join(tmp, PROOF), "wb") as fb:
            fb.write(cert.proof)
        with open(os.path.join(tmp, META), "w") as f:
            f.write(meta_text(cert.meta))
        os.chmod(tmp, 0o777 & ~_umask())
        if os.path.lexists(target):
            old = tempfile.mkdtemp(dir=parent, prefix=".dlxsat-old-")
            os.rename(target, os.path.join(old, "certificate"))
        os.rename(tmp, target)
    except OSError as e:
        raise InputError(f"{path}: cannot write: {e.strerror or e}") from None
    finally:
        if os.path.lexists(tmp):
            shutil.rmtree(tmp, ignore_errors=True)
        cleanup.untrack_temp(tmp)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)


def meta_text(meta: Mapping[str, Any]) -> str:
    """``certificate.json``'s text: a key a line, each premise a line of its own.

    >>> print(meta_text({"a": [1, 2], "premises": [{"rule": 0}, {"rule": 0}]}), end="")
    {
     "a": [1, 2],
     "premises": [
      {"rule": 0},
      {"rule": 0}
     ]
    }
    """
    parts = []
    for key, value in meta.items():
        if key == "premises" and value:
            inner = ",\n".join(f"  {json.dumps(p)}" for p in value)
            parts.append(f" {json.dumps(key)}: [\n{inner}\n ]")
        else:
            parts.append(f" {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


# --------------------------------------------------------------------------- verifying


@dataclass
class Verdict:
    """What :func:`verify` concluded: ``verified``, the ``claim`` checked, the ``checker``
    that checked the proof (None when a check before it failed), ``reason`` (why not, or the
    checker's last word), and the ``seconds`` of each step."""

    verified: bool
    claim: str
    checker: str | None
    reason: str
    seconds: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "verified": self.verified,
            "claim": self.claim,
            "checker": self.checker,
            "reason": self.reason,
            "seconds": {k: round(v, 6) for k, v in self.seconds.items()},
        }


def read_meta(path: str) -> dict[str, Any]:
    """``certificate.json`` of the folder ``path``, its shape checked (an
    :class:`InputError` for what is not a certificate)."""
    name = os.path.join(path, META)
    try:
        with open(name) as f:
            meta = json.load(f)
    except FileNotFoundError:
        raise InputError(f"{path}: not a certificate folder (no {META})") from None
    except (OSError, ValueError) as e:
        raise InputError(f"{name}: cannot read: {e}") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise InputError(f"{name}: not a certificate of this format ({FORMAT!r})")
    for key, kind in (
        ("family", str),
        ("claim", str),
        ("formula", dict),
        ("premises", list),
        ("proof", dict),
    ):
        if not isinstance(meta.get(key), kind):
            raise InputError(f"{name}: '{key}' is missing or not a {kind.__name__}")
    if meta["claim"] not in CLAIMS:
        raise InputError(f"{name}: unknown claim {meta['claim']!r}")
    for p in (os.path.join(path, FORMULA), os.path.join(path, PROOF)):
        if not os.path.isfile(p):
            raise InputError(f"{path}: not a certificate folder (no {os.path.basename(p)})")
    return meta


def verify(
    prep: Prepared,
    path: str,
    checker: str = "auto",
    deadline: Deadline | None = None,
) -> Verdict:
    """Check the certificate folder ``path`` for the prepared puzzle (see the module doc)."""
    times: dict[str, float] = {}
    t0 = time.perf_counter()
    meta = read_meta(path)
    claim = meta["claim"]

    def no(reason: str) -> Verdict:
        times["total"] = time.perf_counter() - t0
        return Verdict(False, claim, None, reason, times)

    if meta["family"] != prep.name:
        return no(f"a certificate of a {meta['family']} puzzle, not of a {prep.name} one")
    problem = prep.problem
    formula_meta = meta["formula"]
    try:
        settings = {
            "encoding": formula_meta["encoding"],
            "colors": formula_meta["colors"],
            "modes": formula_meta["modes"],
        }
        if not isinstance(settings["modes"], dict):
            raise KeyError("modes")
        if set(settings["modes"]) != {r.kind for r in problem.rules}:
            return no("the certificate's global rules are not this puzzle's")
        cnf = build_formula(problem, settings)
    except (KeyError, TypeError) as e:
        raise InputError(f"{META}: the formula settings lack {e}") from None
    times["rebuild"] = time.perf_counter() - t0
    premises = []
    graphs: dict[int, Any] = {}
    for k, raw in enumerate(meta["premises"], 1):
        if not isinstance(raw, dict) or type(raw.get("rule")) is not int:
            raise InputError(f"{META}: premise {k} is not an object with a rule number")
        if not isinstance(raw.get("cut"), dict):
            raise InputError(f"{META}: premise {k} has no cut")
        p = Premise(raw["rule"], raw["cut"], str(raw.get("why", "")))
        # (A premise of a rule held eagerly too is sound: implied by the rule's clauses.)
        why = premise_fault(problem, cnf, p, graphs)
        if why is None:
            try:
                premise_clause(problem, cnf, p)
            except (ValueError, KeyError, StopIteration) as e:
                why = f"its clause cannot be made: {e}"
        if why is not None:
            return no(f"premise {k} is not justified: {why}")
        premises.append(p)
    times["premises"] = time.perf_counter() - t0 - times["rebuild"]
    blocking = None
    if claim == "unique":
        answer = meta.get("answer")
        chosen = answer.get("options") if isinstance(answer, dict) else None
        try:
            chosen = _ints(chosen, "the answer's options")
        except ValueError as e:
            raise InputError(f"{META}: {e}") from None
        fault = _answer_fault(prep, chosen)
        if fault is not None:
            return no(f"the certificate's answer is not an answer to this puzzle: {fault}")
        blocking = blocking_clause(problem, chosen)
    elif meta.get("answer") is not None:
        return no("a certificate of no answer holds an answer")
    expected = formula_text(prep, cnf, settings, premises, blocking)
    formula_path = os.path.join(path, FORMULA)
    try:
        with open(formula_path) as f:
            given = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"{formula_path}: cannot read: {e}") from None
    if given != expected:
        return no(f"{FORMULA} is not this puzzle's CNF: {_first_difference(expected, given)}")
    times["formula"] = time.perf_counter() - t0 - times["rebuild"] - times["premises"]
    t1 = time.perf_counter()
    proof_format = meta["proof"].get("format")
    if proof_format not in (BINARY, TEXT):
        raise InputError(f"{META}: unknown proof format {proof_format!r}")
    ok, name, detail = check_proof(
        formula_path, os.path.join(path, PROOF), checker, deadline, proof_format == BINARY
    )
    times["proof"] = time.perf_counter() - t1
    times["total"] = time.perf_counter() - t0
    return Verdict(ok, claim, name, detail, times)


def _answer_fault(prep: Prepared, chosen: list[int]) -> str | None:
    """What is wrong with the answer of the ``chosen`` options: out of range, a global rule
    broken, the family's rules broken (its own checker); None when nothing is."""
    problem = prep.problem
    if len(set(chosen)) != len(chosen) or any(not 0 <= k < len(problem.options) for k in chosen):
        return "option numbers out of range or repeated"
    from .xcc.check import solution_problem

    fault = solution_problem(problem, chosen)
    if fault:
        return fault
    try:
        answer = prep.family.decode(prep.puzzle, problem, chosen)
    except (ValueError, KeyError, IndexError) as e:
        return f"it does not decode ({e})"
    problems = prep.family.check(prep.puzzle, answer)
    return problems[0] if problems else None


def _first_difference(expected: str, given: str) -> str:
    a, b = expected.splitlines(), given.splitlines()
    for n, (x, y) in enumerate(zip(a, b, strict=False), 1):
        if x != y:
            return f"line {n} is {y[:60]!r}, rebuilt {x[:60]!r}"
    return f"it has {len(b)} lines, the rebuilt one {len(a)}"


def check_proof(
    cnf_path: str,
    proof_path: str,
    checker: str = "auto",
    deadline: Deadline | None = None,
    binary: bool = True,
) -> tuple[bool, str, str]:
    """Check the DRAT proof (``binary`` DRAT, else text) against the CNF with ``checker``
    (:data:`CHECKERS`); whether it verified, the checker's name and its last word.

    Deletions are ignored: the proof spans incremental solver calls, and CaDiCaL may delete
    a clause in one and silently bring it back in the next (its variable elimination undone
    by a new clause), so that a checker applying the deletion fails a sound proof (issue
    33's notes). Ignoring them is sound -- every lemma is then checked against more clauses,
    each implied by the formula -- and checks a little slower."""
    if checker not in CHECKERS:
        raise InputError(f"unknown checker {checker!r} (choose from {', '.join(CHECKERS)})")
    if checker == "auto" and shutil.which("drat-trim"):
        checker = "cake_lpr" if shutil.which("cake_lpr") else "drat-trim"
    elif checker == "auto":
        checker = "dratify"
    if checker == "cake_lpr":
        return _cake_lpr(cnf_path, proof_path, deadline, binary)
    if checker == "drat-trim":
        return _drat_trim(cnf_path, proof_path, deadline, binary)
    return _dratify(cnf_path, proof_path, binary)


def _run(args: list[str], deadline: Deadline | None) -> subprocess.CompletedProcess[str]:
    """Run a checker program until ``deadline`` (then :class:`~dlxsat.runtime.guard.TimeUp`)."""
    left = None if deadline is None else deadline.remaining()
    if left is not None and left <= 0:
        raise guard.TimeUp()
    try:
        return subprocess.run(
            args, capture_output=True, text=True, errors="replace", timeout=left, check=False
        )
    except subprocess.TimeoutExpired:
        raise guard.TimeUp() from None
    except OSError as e:
        raise InputError(f"{os.path.basename(args[0])}: cannot run: {e.strerror or e}") from None


def _drat_trim(
    cnf_path: str,
    proof_path: str,
    deadline: Deadline | None,
    binary: bool,
    more: Sequence[str] = (),
) -> tuple[bool, str, str]:
    """drat-trim, a program on the PATH: verified only with exit status 0 *and* its line
    ``s VERIFIED`` (it exits 0 on a time out or a parse error too; its lines begin with a
    carriage return). ``-p``: deletions ignored; ``-i``/``-I``: binary/text, not guessed
    from the first bytes; ``more``: further options."""
    exe = shutil.which("drat-trim")
    if exe is None:
        raise InputError("--checker drat-trim: drat-trim is not on the PATH")
    mode = "-i" if binary else "-I"
    run = _run([exe, cnf_path, proof_path, "-p", mode, "-t", "1000000", *more], deadline)
    status = [s.strip() for s in run.stdout.splitlines() if s.strip().startswith("s ")]
    ok = run.returncode == 0 and "s VERIFIED" in status
    word = status[-1] if status else f"no status line (exit status {run.returncode})"
    return ok, "drat-trim", word


def _cake_lpr(
    cnf_path: str, proof_path: str, deadline: Deadline | None, binary: bool
) -> tuple[bool, str, str]:
    """cake_lpr, the checker verified in CakeML, on the LRAT proof that drat-trim writes
    (``-L``) from the DRAT one: both programs on the PATH. The verdict is cake_lpr's alone --
    its line ``s VERIFIED UNSAT`` (it exits 0 whatever it finds) -- so that drat-trim need
    not be trusted: an LRAT proof cake_lpr accepts refutes the formula, whoever wrote it."""
    exe = shutil.which("cake_lpr")
    if exe is None or shutil.which("drat-trim") is None:
        raise InputError(
            "--checker cake_lpr: cake_lpr and drat-trim (which writes the LRAT proof that "
            "cake_lpr checks) must be on the PATH"
        )
    folder = tempfile.mkdtemp(prefix="dlxsat-lrat-")
    cleanup.track_temp(folder)
    try:
        lrat = os.path.join(folder, "proof.lrat")
        ok, _, word = _drat_trim(cnf_path, proof_path, deadline, binary, ["-L", lrat])
        if not ok or not os.path.isfile(lrat):
            return False, CAKE_LPR, f"drat-trim wrote no LRAT proof: {word}"
        run = _run([exe, cnf_path, lrat], deadline)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        cleanup.untrack_temp(folder)
    lines = [s.strip() for s in run.stdout.splitlines() if s.strip()]
    ok = "s VERIFIED UNSAT" in lines
    word = "s VERIFIED UNSAT" if ok else (lines[-1] if lines else f"exit status {run.returncode}")
    return ok, CAKE_LPR, word


def _dratify(cnf_path: str, proof_path: str, binary: bool) -> tuple[bool, str, str]:
    """dratify (PyPI, pure Python; cdclkit-native's compiled engine when it is installed),
    which reads text DRAT: a binary proof is decoded first (:func:`drat_text`)."""
    from .extras import installed, need

    dratify = need("dratify", "verify (a DRAT proof checker)")
    native = installed("cdclkit_native")
    name = "dratify"
    if native is not None and hasattr(dratify, "register_native"):
        dratify.register_native(native)
        name = "dratify (cdclkit-native engine)"
    with open(cnf_path) as f:
        formula = dratify.parse_dimacs(f.read())
    try:
        if binary:
            with open(proof_path, "rb") as fb:
                proof = drat_text(fb.read())
        else:
            with open(proof_path) as f:
                proof = f.read()
    except (ValueError, UnicodeDecodeError) as e:
        return False, name, f"the proof does not parse: {e}"
    try:
        result = dratify.check_proof(formula, proof, apply_deletions=False)
    except ValueError as e:  # (a literal out of range, a clause not ended: said as such)
        return False, name, f"the proof does not parse: {e}"
    return bool(result.ok), name, str(result.reason)


def drat_text(data: bytes) -> str:
    r"""Binary DRAT as text DRAT: each clause an ``a`` (a lemma) or ``d`` (a deletion)
    byte, its literals as variable-length numbers (7 bits a byte, low first; ``2v`` for
    ``v``, ``2v + 1`` for ``-v``), a zero byte at its end. Written apart from PySAT's own
    decoder; a wrong decoding could only fail a proof: what the checker accepts refutes the
    formula whatever bytes it came from.

    >>> drat_text(bytes([0x61, 2, 5, 0, 0x64, 0x82, 0x01, 0, 0x61, 0]))
    '1 -2 0\nd 65 0\n0\n'
    >>> drat_text(bytes([0x61, 2]))
    Traceback (most recent call last):
    ...
    ValueError: the last clause has no end
    """
    if data and data[-1] != 0:
        raise ValueError("the last clause has no end")
    lines = []
    for chunk in data.split(b"\0")[:-1]:
        if not chunk or chunk[0] not in (0x61, 0x64):
            raise ValueError("a clause begins with neither 'a' nor 'd'")
        words = ["d"] if chunk[0] == 0x64 else []
        value = shift = 0
        for byte in chunk[1:]:
            value |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                if value < 2:
                    raise ValueError(f"literal code {value} names no variable")
                words.append(str(-(value >> 1) if value & 1 else value >> 1))
                value = shift = 0
        if shift:
            raise ValueError("a literal runs into the end of its clause")
        words.append("0")
        lines.append(" ".join(words))
    return "\n".join(lines) + "\n" if lines else ""


# --------------------------------------------------------------------------- the commands


def solve_certified(
    family: str,
    puzzle: Any,
    options: Mapping[str, Any],
    *,
    deadline: Deadline | None = None,
    progress: guard.Progress | None = None,
) -> tuple[Any, Certificate | None]:
    """``solve --certify``: solve ``puzzle`` (text or puzzle object) of ``family`` in
    ``unique`` mode with the sat backend (``options``: its options as typed), by
    :func:`certified_search`; the :class:`~dlxsat.pipeline.SolveReport` (its answers checked
    by the family's rules, as every solve's) and the certificate (None unless the answer is
    unique or there is none). The run's deadline reached: :class:`~dlxsat.runtime.guard.TimeUp`.

    >>> report, cert = solve_certified("sudoku", "4..3.3....1.1..2", {})
    >>> report.status, cert.meta["claim"], cert.meta["answer"]["options"][:3]
    ('unique', 'unique', [0, 2, 3])
    """
    from .pipeline import check_model_fits, checked_answers, make_report, prepare
    from .solvers import rule_kinds, spec_of

    start = time.perf_counter()
    progress = progress or guard.Progress()
    spec = spec_of("sat")
    checked = spec.check(dict(options), family=family)
    prep = prepare(family, puzzle, progress=progress)
    spec.check(checked, rules=rule_kinds(prep.problem))
    spec.check_rules(prep.problem)
    check_model_fits(prep, "sat")
    progress.set_phase("searching and certifying", "sat")
    result, cert = certified_search(prep, checked, deadline)
    progress.found(result.count or 0)
    if result.timed_out:
        raise guard.TimeUp()
    progress.set_phase("checking the answers")
    answers = checked_answers(prep, result, "sat")
    return make_report(prep, "sat", "unique", result, answers, start), cert
