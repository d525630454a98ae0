"""Is this a correct answer to this puzzle, and if not, which rule does it break? (``dlxsat check``)

The answer is judged by the family's rule checker (its spec's ``check``): the rules as a player
reads them, on the board, sharing no code with the encoding or any backend. An answer comes in
the forms people keep them in: the answer grid of the public puzzlekit corpus in its notation
for the family (``grid``), a pzprv3 file with its answer drawn (then the puzzle may be that
same file), or a Penpa+ URL with its answer layer filled (the family's spec lists its
``answers`` formats). With ``unique`` the puzzle is also solved, to prove that no other answer
exists.

>>> right = "4 4\\n4 1 2 3\\n2 3 4 1\\n3 2 1 4\\n1 4 3 2\\n"
>>> r = check("sudoku", "4..3.3....1.1..2", right)
>>> r.correct, r.violations
(True, [])
>>> check("sudoku", "4..3.3....1.1..2", right.replace("1 4 3 2", "1 4 2 3")).violations[0]
'row 4, column 4: the clue 2 was changed to 3'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .answer import Answer, answer_key
from .errors import InputError
from .families import get_spec
from .families.spec import Policy
from .runtime.deadline import Deadline
from .runtime.guard import Progress


@dataclass
class CheckReport:
    """The verdict on an answer: ``correct`` when it breaks no rule, else ``violations`` (each
    one line naming the rule broken and where; the first is the one reported). ``unique``:
    with the uniqueness check, whether no other answer exists (None: not asked, or the time
    limit came first: ``status`` then says ``timeout``)."""

    family: str
    correct: bool
    violations: list[str] = field(default_factory=list)
    unique: bool | None = None
    status: str = ""
    answer: Answer | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "family": self.family,
            "correct": self.correct,
            "violations": self.violations,
            "unique": self.unique,
            "status": self.status,
        }


def read_answer(
    family: str, puzzle: Any, text: str | None, puzzle_text: str, format: str | None = None
) -> Answer:
    """The answer to check: read from ``text`` (in ``format``, detected when None), or, when
    ``text`` is None, from the puzzle's own text (a pzprv3 file or Penpa+ URL that holds both);
    an :class:`InputError` when there is none."""
    from . import formats

    where = text if text is not None else puzzle_text
    answer = formats.read_answer(family, puzzle, where, format)
    if answer is None:
        what = "answer text" if text is not None else "puzzle's text"
        raise InputError(f"the {what} holds no answer (nothing drawn in it)")
    checked: Answer = answer
    return checked


def check(
    family: str,
    puzzle: Any,
    answer: Any = None,
    *,
    unique: bool = False,
    format: str | None = None,
    answer_format: str | None = None,
    timeout: float | None = None,
    deadline: Deadline | None = None,
    progress: Progress | None = None,
    rules: str | None = None,
) -> CheckReport:
    """Judge ``answer`` for ``puzzle`` of ``family`` (see the module doc).

    ``puzzle`` is its text (in ``format``, detected when None) or a puzzle object; ``answer``
    is an answer in dlxsat's form (a dict), or a text holding one (in ``answer_format``), or
    None: the puzzle's own text holds it. With ``unique``, the puzzle is solved within
    ``timeout`` seconds (and before ``deadline``, the run's) to show that no other answer
    exists; ``progress``: the run's figures (:class:`~dlxsat.runtime.guard.Progress`);
    ``rules``: which of the family's sets of rules it is solved under (``--rules``).
    """
    from . import formats

    spec = get_spec(family)
    text = puzzle if isinstance(puzzle, str) else None
    board = formats.read(spec.name, puzzle, format) if isinstance(puzzle, str) else puzzle
    if isinstance(answer, dict):
        given: Answer = answer
    else:
        if answer is None and text is None:
            raise InputError("no answer given, and a puzzle object holds none")
        given = read_answer(spec.name, board, answer, text or "", answer_format)
    given = dict(given)
    if rules is not None:  # the rules asked for judge the answer too (Kurotto's variant)
        board = spec.prepare([board], Policy(rules=rules))[0][0]
    # An answer grid that contradicts itself (formats.grid): its first contradiction is the
    # rule it breaks, before the rules of the puzzle.
    violations = list(given.pop("disagree", [])) + spec.check(board, given)
    report = CheckReport(spec.name, not violations, violations, answer=given)
    if unique and report.correct:
        from .pipeline import solve

        solved = solve(
            spec.name,
            board,
            mode="unique",
            timeout=timeout,
            deadline=deadline,
            progress=progress,
            policy=None if rules is None else Policy(rules=rules),
        )
        report.status = solved.status
        if solved.status == "timeout":
            report.unique = None
        else:
            keys = {answer_key(a) for a in solved.solutions}
            report.unique = solved.status == "unique" and keys == {answer_key(given)}
            if not report.unique:
                report.violations = [_not_unique(solved.status)]
    return report


def _not_unique(status: str) -> str:
    if status == "multiple":
        return "uniqueness: the answer is right, but the puzzle has another answer"
    return f"uniqueness: the solvers found no answer (status {status}): a bug, please report it"
