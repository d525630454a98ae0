"""A puzzle's CNF out to any SAT solver, and the solver's model back in as a checked answer
(``dlxsat export dimacs`` and ``dlxsat decode``).

Variables ``1..n`` of the CNF are the puzzle's exact-cover options in order
(:mod:`dlxsat.backends.dimacs`), so a model decodes like any search backend's solution and is
judged by the family's rules. A model that breaks them comes from another puzzle or from a CNF
without the single-loop rule (``--loop none``): an input error, not a bug.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TextIO

from .answer import Answer
from .errors import InputError
from .families import get_spec
from .families.spec import Policy
from .pipeline import Prepared, check_model_fits, prepare
from .runtime import guard


@dataclass
class CnfExport:
    """A puzzle read, encoded and checked to fit in memory, with its export's mode of each
    global rule: everything that can fail on the input has failed before an output is
    opened."""

    prep: Prepared
    modes: dict[str, str]
    #: The run's figures (:class:`~dlxsat.runtime.guard.Progress`).
    progress: guard.Progress = field(default_factory=guard.Progress)

    def write(self, out: TextIO, *, source: str = "", **options: Any) -> None:
        """Write the CNF to ``out``; ``options`` are the sat backend's formula options
        (``encoding``, ``colors``)."""
        from .backends import dimacs

        self.progress.set_phase("writing the CNF")
        dimacs.write_dimacs(self.prep.problem, out, source=source, **options, modes=self.modes)


def export_cnf(
    family: str,
    text: Any,
    *,
    modes: Mapping[str, str | None] | None = None,
    format: str | None = None,
    progress: guard.Progress | None = None,
    rules: str | None = None,
) -> CnfExport:
    """Prepare the DIMACS export of a puzzle (text in ``format``, or a puzzle object), each
    global rule (by kind) in the mode ``modes`` gives it: ``eager`` (the default: the complete
    encoding) or ``none`` (left out). Exact-cover data (``xcc``) asked for the loop rule in
    ``eager`` mode get it, as ``--loop`` gives it to them elsewhere. ``progress``: the run's
    figures (:class:`~dlxsat.runtime.guard.Progress`); ``rules``: which of the family's sets of
    rules (:class:`~dlxsat.families.spec.Policy`).

    >>> import io
    >>> out = io.StringIO()
    >>> export_cnf("sudoku", "4..3.3....1.1..2").write(out, source="demo")
    >>> out.getvalue().splitlines()[1]
    'c source: demo'
    """
    from .backends import dimacs

    given = {k: v for k, v in (modes or {}).items() if v is not None}
    spec = get_spec(family)
    policy = Policy(loop=spec.whole_file and given.get("loop") == "eager", rules=rules)
    progress = progress or guard.Progress()
    prep = prepare(family, text, format, policy, progress=progress)
    chosen = dimacs.export_modes(prep.problem, given, prep.name)
    check_model_fits(prep, "export")
    return CnfExport(prep, chosen, progress)


@dataclass
class Decoded:
    """A SAT solver's verdict on an exported puzzle: its ``status`` (``SATISFIABLE``,
    ``UNSATISFIABLE``, ``UNKNOWN``) and, when satisfiable, the answer (rule-checked);
    ``held``: how the CNF held each global rule (kind → mode, from its ``c rule`` lines),
    when the CNF was given."""

    prep: Prepared
    status: str
    answer: Answer | None
    held: dict[str, str] | None = None


def cnf_header(cnf: str, name: str = "CNF") -> tuple[int, dict[str, str]]:
    r"""The number of options and how each global rule is held (kind → mode), read from the
    comment lines :func:`dlxsat.backends.dimacs.write_dimacs` begins a CNF with.

    >>> cnf_header("c problem: xcc, 3 items (2 primary), 5 options\nc rule loop: eager - ...\n")
    (5, {'loop': 'eager'})
    """
    options: int | None = None
    held: dict[str, str] = {}
    for line in cnf.splitlines():
        if not line.startswith("c"):
            break  # the comments come first; the clauses need not be read
        words = line.split()
        if line.startswith("c problem: ") and "options" in words:
            options = int(words[words.index("options") - 1])
        elif line.startswith("c rule ") and len(words) > 3 and words[2].endswith(":"):
            held[words[2][:-1]] = words[3]
    if options is None:
        raise InputError(f"{name}: not a CNF written by dlxsat export (no 'c problem:' line)")
    return options, held


def decode_model(
    family: str,
    text: Any,
    solver_output: str,
    *,
    format: str | None = None,
    name: str = "model",
    cnf: str | None = None,
    cnf_name: str = "CNF",
) -> Decoded:
    r"""Turn a SAT solver's output (``s``/``v`` lines) for a puzzle's exported CNF into the
    puzzle's answer, checked by the family's rules; ``name`` names the output in errors.
    ``text`` is the puzzle's text (in ``format``), a puzzle object, or the puzzle already
    :func:`prepared <dlxsat.pipeline.prepare>`. ``cnf``, the exported CNF's text (its comment
    lines suffice), says how the CNF held each global rule, and is checked to be this puzzle's.

    A model that breaks a global rule is refused naming the rule, what breaks it and how the
    CNF held it -- a CNF exported with ``--loop none`` has such models.

    >>> decode_model("sudoku", "4..3.3....1.1..2", "s UNSATISFIABLE\n").status
    'UNSATISFIABLE'
    """
    from .backends import dimacs
    from .xcc.rules import violation

    prep = text if isinstance(text, Prepared) else prepare(family, text, format)
    held = None
    if cnf is not None:
        options, held = cnf_header(cnf, cnf_name)
        if options != len(prep.problem.options):
            raise InputError(
                f"{cnf_name}: not this puzzle's CNF (it has {options} options, the puzzle's "
                f"exact-cover problem {len(prep.problem.options)})"
            )
    status, true_vars = dimacs.read_solver_output(solver_output)
    if status != "SATISFIABLE":
        return Decoded(prep, status, None, held)
    chosen = dimacs.chosen_options(prep.problem, true_vars)
    for rule in prep.problem.rules:
        broken = violation(prep.problem, rule, chosen)
        if broken is None:
            continue
        mode = None if held is None else held.get(rule.kind, "none")
        how = (
            f"the CNF holds the {rule.kind} rule as '{mode}'"
            if mode is not None
            else f"was the CNF exported with --{rule.kind} none?"
        )
        raise InputError(f"{name}: the model is not an answer to this puzzle: {broken} ({how})")
    answer = prep.family.decode(prep.puzzle, prep.problem, chosen)
    problems = prep.family.check(prep.puzzle, answer)
    if problems:
        raise InputError(
            f"{name}: the model is not an answer to this puzzle ({problems[0]}); "
            "was a rule left out of the export (--loop none), or is it another puzzle's?"
        )
    return Decoded(prep, status, answer, held)
