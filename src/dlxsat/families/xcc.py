"""Any exact-cover problem as a puzzle: Knuth's DLX/XCC/MCC data given as it is.

The "puzzle" is the parsed :class:`~dlxsat.xcc.Problem`, read exactly as ``dlxsat dlx`` reads
it (primary and secondary items, colors, multiplicities ``u:v|``, comment lines); encoding
gives the data back, and an answer is the chosen options, as text. So every command that takes
a puzzle family (``solve``, ``crosscheck``, ``export dimacs``, ``decode``, ``compare``) takes
any exact-cover file, and every backend solves it.

The global rules the data declare (``|@`` lines, :mod:`dlxsat.xcc.rules`) are the problem's.
Knuth's single-loop rule is not a property of his data but of the question asked (DLX2 or
DLX2-LOOP on the same file): :func:`with_loop` (``--loop``, the family's
:class:`~dlxsat.families.spec.Policy`) turns it on for a puzzle, after checking that the data
follow the loop convention (docs/conventions.md §4). It then has DLX2-LOOP's meaning, the
empty edge set included, so counts equal ``dlxsat dlx --loop``'s and Knuth's.

Every answer is judged by the one checker of exact covers,
:func:`dlxsat.xcc.check.solution_problem`, which knows the problem and its rules only --
nothing of the backend that found it.

>>> p = read("| a comment\\na b | x\\na x:1\\nb x:1\\na b\\n")
>>> p.problem.kind, decode(p, p.problem, [0, 1])
('XCC', {'options': ['a x:1', 'b x:1']})
>>> check(p, {"options": ["a x:1", "a b"]})
["primary item 'a' covered 2 times, not 1"]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cached_property

from ..answer import Answer
from ..errors import InputError
from ..xcc import Problem, parse
from ..xcc.check import solution_problem
from ..xcc.rules import SingleLoop
from .spec import FamilySpec, Policy

#: The first line of SUPERSLITHERLINK-GENERAL-DLX's data (``superslitherlink.HEADER``).
SUPERSLITHERLINK_HEADER = "| slitherlink-dlx:"


@dataclass(eq=False)
class XccPuzzle:
    """Exact-cover data: its text, and the problem read from it with its global rules."""

    text: str
    problem: Problem
    warnings: list[str] = field(default_factory=list)

    @property
    def loop(self) -> bool:
        """Whether the single-loop rule applies."""
        return self.problem.rule("loop") is not None

    @property
    def m(self) -> int:
        """Options: with :attr:`n`, the "size" reports and plots show."""
        return len(self.problem.options)

    @property
    def n(self) -> int:
        """Items."""
        return len(self.problem.items)

    @cached_property
    def option_index(self) -> dict[str, list[int]]:
        """Option text → the indices of the options written so (the data may repeat one)."""
        index: dict[str, list[int]] = {}
        for k in range(len(self.problem.options)):
            index.setdefault(self.problem.option_text(k), []).append(k)
        return index


def read_problem(text: str) -> Problem:
    """Knuth's DLX data as ``dlxsat dlx`` reads it: an :class:`InputError` naming the line for
    anything his readers reject. SUPERSLITHERLINK-GENERAL-DLX's data (which name undeclared
    letters of clue 0) are read by that family's rule, as his DLX3 reads them."""
    if text.startswith(SUPERSLITHERLINK_HEADER):  # his header line (the module is slow to load)
        from . import superslitherlink

        problem = superslitherlink.problem_from_data(text)
        if problem is not None:
            return problem
    return parse(text)


def read(text: str, loop: bool = False) -> XccPuzzle:
    """Read exact-cover data; with ``loop``, the single-loop rule applies (see :func:`with_loop`).

    >>> read("a\\nb\\n").problem.items[0].name
    Traceback (most recent call last):
    ...
    dlxsat.errors.InputError: line 2: unknown item name 'b'
    """
    problem = read_problem(text)
    puzzle = XccPuzzle(text, problem, list(problem.warnings))
    return with_loop(puzzle) if loop else puzzle


def from_problem(problem: Problem) -> XccPuzzle:
    """A problem built in Python as a puzzle, checked as Knuth's reader checks the text
    :func:`dlxsat.xcc.write` gives of it: a bad name or color is an :class:`InputError`
    naming the line of that text (line 1 the items, option ``k`` on line ``k + 2``), and so is
    an option naming no primary item (an empty one too), which his solvers would drop.

    >>> from dlxsat.xcc import Item
    >>> from_problem(Problem([Item("a"), Item("x", primary=False)], [((0, None),), ()]))
    Traceback (most recent call last):
    ...
    dlxsat.errors.InputError: line 3: an empty option (option 1)
    >>> from_problem(parse("a b\\na\\nb\\n")).text
    'a b\\na\\nb\\n'
    """
    from ..xcc import write

    puzzle = read(write(problem))
    if len(puzzle.problem.options) != len(problem.options):
        k, option = next(
            (k, o)
            for k, o in enumerate(problem.options)
            if not any(problem.items[i].primary for i, _ in o)
        )
        what = "an empty option" if not option else "an option naming no primary item"
        raise InputError(f"line {k + 2}: {what} (option {k})")
    return puzzle


def with_loop(puzzle: XccPuzzle) -> XccPuzzle:
    """The same puzzle with the single-loop rule; an :class:`InputError` when its data do not
    follow the loop convention (no vertex and edge items, or misnamed ones).

    >>> with_loop(read("a b | x\\na x\\nb\\n"))
    Traceback (most recent call last):
    ...
    dlxsat.errors.InputError: --loop: these data do not follow the loop convention (no edge \
item: a secondary item named by two coordinates of odd sum, e.g. 01, joining two vertex items)
    >>> with_loop(read("00 02 | 01\\n00 01:1\\n02 01:1\\n")).loop
    True
    """
    if puzzle.loop:
        return puzzle
    try:
        rule = SingleLoop.from_names(puzzle.problem, allow_empty=True)
    except InputError as e:
        why = str(e).removeprefix("loop rule: ")
        raise InputError(f"--loop: these data do not follow the loop convention ({why})") from None
    if rule.graph.empty:
        raise InputError(
            "--loop: these data do not follow the loop convention (no edge item: a secondary "
            "item named by two coordinates of odd sum, e.g. 01, joining two vertex items)"
        )
    return replace(puzzle, problem=puzzle.problem.with_rules(rule))


def prepare(puzzles: list[XccPuzzle], policy: Policy) -> tuple[list[XccPuzzle], list[str]]:
    """The family's policy (:class:`~dlxsat.families.spec.Policy`): ``loop`` is
    :func:`with_loop`'s."""
    if policy.boxes is not None:
        raise InputError("--boxes is for sudoku; exact-cover data have no boxes")
    return ([with_loop(p) for p in puzzles] if policy.loop else puzzles), []


def encoding_bytes(puzzle: XccPuzzle) -> int:
    """Nothing more: the problem was read with the puzzle, and encoding gives its text back
    (the backend's model is estimated apart, :func:`dlxsat.pipeline.check_model_fits`)."""
    return 0


def write(puzzle: XccPuzzle) -> str:
    """The data as they were given."""
    return puzzle.text


def encode(puzzle: XccPuzzle) -> str:
    """The exact-cover data: the text given, unchanged."""
    return puzzle.text


def decode(puzzle: XccPuzzle, problem: Problem, chosen: Iterable[int]) -> Answer:
    """The chosen options as text, in the order the backend gives them."""
    return {"options": [problem.option_text(k) for k in chosen]}


def check(puzzle: XccPuzzle, answer: Answer) -> list[str]:
    """What is wrong with ``answer`` as an exact cover of the puzzle's problem (and with its
    global rules); [] when it is right."""
    chosen: list[int] = []
    used: dict[str, int] = {}
    for text in answer.get("options", ()):
        key = " ".join(str(text).split())
        ks = puzzle.option_index.get(key, [])
        if not ks:
            return [f"no option {text!r} in the data"]
        # The same text twice is two equal options (an MCC item may take both).
        nth = used.get(key, 0)
        used[key] = nth + 1
        chosen.append(ks[min(nth, len(ks) - 1)])
    wrong = solution_problem(puzzle.problem, chosen)
    return [] if wrong is None else [wrong]


def render(puzzle: XccPuzzle, answer: Answer | None = None) -> str:
    """The chosen options one a line, as ``dlxsat dlx --all`` and Knuth's solvers print them.

    >>> print(render(read("a b\\na\\nb\\n"), {"options": ["a", "b"]}), end="")
     a
     b
    """
    if answer is None:
        return puzzle.text
    return "".join(f" {text}\n" for text in answer["options"])


def problem(puzzle: XccPuzzle, dlx_text: str) -> Problem:
    """The problem already read (no second parse)."""
    return puzzle.problem


SPEC = FamilySpec(
    name="xcc",
    summary="any exact-cover problem in Knuth's DLX/XCC/MCC format (rules as |@ lines)",
    read=read,
    write=write,
    encode=encode,
    decode=decode,
    check=check,
    render=render,
    problem_of=problem,
    build=lambda puzzle: puzzle.problem,
    # Exact-cover data are only parsed: 12 to 37 bytes per character (peak, ``tracemalloc``,
    # on five classic instances and a Masyu's data), counted as 100.
    bytes_per_cell=100,
    whole_file=True,
    prepare_puzzles=prepare,
    from_problem=from_problem,
    encoding_bytes=encoding_bytes,
    example="tests/data/queens-6.dlx",
)
