"""The family type: everything dlxsat knows about one puzzle family, stated in one place.

A family is one module that ends with ``SPEC = FamilySpec(...)``; the registry
(:data:`dlxsat.families.FAMILIES`) maps its names to that module, and every other part of
dlxsat -- the pipeline, the command line, the formats, the pictures, the memory estimates,
``compare`` -- asks the spec, never the family's name. Adding a family is one module and one
registry line (``tests/test_new_family.py`` proves it), as adding a solver is
(:class:`dlxsat.solvers.SolverSpec`).

The pipeline reads one way: text → :attr:`FamilySpec.read` (or a format's codec) → puzzle →
:meth:`FamilySpec.prepare` (the family's policy: Sudoku's boxes, the loop rule of exact-cover
data) → :meth:`FamilySpec.problem` (the exact-cover problem with its global rules) → a backend
→ :attr:`FamilySpec.decode` → answer → :attr:`FamilySpec.check` (the rules, judged directly).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..xcc.model import Problem

#: An answer: a plain dict, its own JSON form (docs/conventions.md §5).
Answer = dict[str, Any]


@dataclass(frozen=True)
class Policy:
    """What a user may say about how puzzles are to be read, beyond their text: the family's
    :meth:`FamilySpec.prepare` applies it, the one place it is applied.

    ``loop``: exact-cover data obey Knuth's single-loop rule (``--loop``: DLX2-LOOP's meaning,
    the empty edge set included). ``boxes``: ``standard`` gives a Sudoku without box lines its
    standard boxes (``--boxes standard``). ``rules``: which of the family's sets of rules
    (:attr:`FamilySpec.variants`) its problem states (``--rules``).
    """

    loop: bool = False
    boxes: str | None = None
    rules: str | None = None


@dataclass(frozen=True)
class Codec:
    """A format as one family writes it, where the family module implements it (the format
    module, :mod:`dlxsat.formats`, finds the text's frame and hands over the rest).

    ``read(text) -> puzzle``; ``write(puzzle, answer or None) -> text`` (None: the format is
    read only); ``answer(puzzle, text) -> answer or None``: the answer a text holds, for
    ``dlxsat check``; ``names``: the format's own names of the family (puz.link's ``pid``s).
    """

    read: Callable[[str], Any]
    write: Callable[[Any, Answer | None], str] | None = None
    answer: Callable[[Any, str], Answer | None] | None = None
    looks_like: Callable[[str], bool] | None = None
    names: tuple[str, ...] = ()


@dataclass(frozen=True)
class Picture:
    """How a family draws a board and an answer (``--svg``/``--png``, the notebook).

    ``size(puzzle) -> (rows, columns)`` of cells; ``draw(canvas, puzzle, answer)`` draws on a
    :class:`dlxsat.drawing.Canvas` (matplotlib, imported only when a picture is drawn).
    """

    size: Callable[[Any], tuple[int, int]]
    draw: Callable[[Any, Any, Answer | None], None]


@dataclass(frozen=True)
class Tatham:
    """A converter from Simon Tatham's game ids: ``game`` is his name for the family (Pearl,
    Loopy, Solo), ``knuth_text(game_id)`` the puzzle's text in the family's own form."""

    game: str
    knuth_text: Callable[[str], str]


@dataclass(frozen=True)
class Bounded:
    """A model that stands for some answers by a bound (Fillomino's regions larger than a
    bound share one label) and can tell from the covers using the bound whether it hid an
    answer; the pipeline then solves the wider puzzle again, until it did not.

    ``probe(puzzle, problem) -> Problem or None``: the problem whose covers are those that use
    the bound (the same options in the same order, with an item that only they cover), for a
    count, which keeps no covers to look at; None: none can. ``wider(puzzle, problem,
    covers) -> puzzle or None``: the puzzle with a larger bound when these covers show the
    bound too low, else None.
    """

    probe: Callable[[Any, Problem], Problem | None]
    wider: Callable[[Any, Problem, Sequence[Sequence[int]]], Any]


@dataclass(frozen=True)
class Argument:
    """A family's shorter road to the verdict of a ``unique`` search: two exact-cover problems
    other than its own, and a proof that they settle it (NumberLink's touch-free answers:
    :mod:`dlxsat.families.numberlink`). The pipeline runs them on the backend asked for
    (:func:`dlxsat.pipeline.argued`); counting and listing every answer never use them.

    ``problems(puzzle) -> (narrow, rest)`` or None (the argument does not apply to this
    puzzle). Every cover of either decodes, by the family's ``decode``, to an answer of the
    puzzle (which the checker judges as any other); every answer *reduces* to a cover of one
    of them; and an answer that covers ``narrow`` reduces from itself alone. So: two covers of
    ``narrow`` are two answers (``multiple``); one, A, and a cover of ``rest``: two answers
    (``multiple``); one and none of ``rest``: every answer reduces to A, and A only from
    itself, so A is the only answer (``unique``). No cover of ``narrow`` settles nothing: the
    family's own problem decides. ``name`` names the argument in the figures and steps.
    """

    problems: Callable[[Any], tuple[Problem, Problem] | None]
    name: str = "argument"


@dataclass(frozen=True)
class Counter:
    """A family's own exact count of a puzzle's answers, outside its exact-cover problem
    (NumberLink's sweep of the board: :mod:`dlxsat.families.numberlink_sweep`), for a genre
    whose answers are too many, or too slow to rule out one by one, for a search to count.
    ``solve --count`` on the default backend uses it (:func:`dlxsat.pipeline.counted`); a
    named backend counts the family's problem, so the two check each other.

    ``count(puzzle, deadline) -> (count, figures)``: the number of answers, or None when the
    counter gives up on this puzzle (then the backend counts), and its figures for the
    report's ``stats``; it stops by ``deadline`` (a
    :class:`~dlxsat.runtime.deadline.Deadline`; the pipeline tells a give-up from a time out
    by it). It lists no answer. ``name`` names it in the figures.
    """

    count: Callable[[Any, Any], tuple[int | None, dict[str, Any]]]
    name: str = "counter"


@dataclass(frozen=True)
class Batch:
    """Reading and solving many puzzles of the family at once (:func:`dlxsat.pipeline.solve_many`).

    ``template(puzzle)``: the problem the puzzles of one shape share, with their given options,
    answers and a fast rule check (a :class:`dlxsat.solvers.Template`), for a solver's batch
    path, its ``solve_many`` (None: not this shape);
    ``many_reader()``: a reader of many texts sharing work; ``read_bulk(texts)``: many texts at
    once (None where one is not read); ``backend``: the backend many puzzles use by default.
    """

    template: Callable[[Any], Any] | None = None
    many_reader: Callable[[], Callable[[str], Any]] | None = None
    read_bulk: Callable[[Sequence[Any]], list[Any]] | None = None
    backend: str | None = None


@dataclass(frozen=True)
class FamilySpec:
    """Everything dlxsat knows about one puzzle family.

    The family's functions:
        ``read(text) -> puzzle``: the family's own input form (Knuth's, for his families),
        an :class:`~dlxsat.errors.InputError` with a one-line message naming line and column
        for anything wrong. ``write(puzzle) -> text``: back to that form. ``encode(puzzle) ->
        text``: the exact-cover data, Knuth's bytes for his families (their global rules as
        ``|@`` lines where his data do not state them, :mod:`dlxsat.xcc.rules`).
        ``decode(puzzle, problem, chosen) -> answer``. ``check(puzzle, answer) -> [why, ...]``:
        the rules judged on the answer directly, not through the encoding; each line names the
        rule broken and where (empty: the answer is right). ``render(puzzle, answer) -> text``.
    The exact-cover problem:
        ``rules``: the kinds of global rule the family's problems carry (``loop``,
        ``connected``, ``acyclic``, ``sized``); ``variants``: the sets of rules a user may
        choose (``--rules``, :class:`Policy`), the first the one solved by default, and
        ``data_variant`` the one ``encode`` prints when not told (Fillomino: Knuth's data);
        ``bounded`` (:class:`Bounded`): a model that stands for some answers by a bound, and
        says when the answers found show it too low; ``argument`` (:class:`Argument`): other
        problems that settle a ``unique`` search sooner, the family's own the fallback;
        ``counter`` (:class:`Counter`): the family's own count of answers, for ``count`` mode;
        ``problem_of(puzzle, text) -> Problem``: the problem of the data ``text`` (default:
        :meth:`problem`, the text parsed, with Knuth's single-loop rule added when the
        family has it and the data do not declare it); ``build(puzzle) -> Problem``: the same
        problem without writing the text (for many puzzles; tests check that the two agree).
    Names:
        ``name`` (used on the command line and in the API), ``aliases`` (puz.link's name and
        others, which work everywhere the name does), ``summary`` (one line for ``--help``).
    Running:
        ``default_backend``; ``bytes_per_cell``: the memory to read, encode and parse a puzzle,
        per character of its text (measured), or ``memory(cells, rows) -> bytes``;
        ``whole_file``: a file is one puzzle however it is spaced (exact-cover data).
    Formats:
        ``formats`` the formats it reads, ``writes`` those it writes, ``answers`` those that hold
        an answer (read by ``check``, written by ``convert --with-answer``); ``codecs`` the
        formats the family module implements itself (:class:`Codec`), the others are
        implemented by the format modules.
    Capabilities (None: the family has none):
        ``picture`` (:class:`Picture`), ``batch`` (:class:`Batch`), ``tatham``
        (:class:`Tatham`), ``generator`` (the module of ``dlxsat generate FAMILY``), ``logic``
        (the reasoning solver's module, for ``--backend logic``), ``prepare_puzzles`` (the
        family's :class:`Policy`), ``from_problem`` (a problem built in Python, as a puzzle),
        ``encoding_bytes(puzzle)`` (memory to encode a puzzle that is not a board of cells).
    ``example``: a bundled puzzle file of the family (docs and tests).
    """

    name: str
    summary: str
    read: Callable[[str], Any]
    encode: Callable[[Any], str]
    decode: Callable[[Any, Problem, Any], Answer]
    check: Callable[[Any, Answer], list[str]]
    render: Callable[[Any, Answer | None], str]
    write: Callable[[Any], str]
    aliases: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    variants: tuple[str, ...] = ()
    data_variant: str | None = None
    bounded: Bounded | None = None
    argument: Argument | None = None
    counter: Counter | None = None
    problem_of: Callable[[Any, str], Problem] | None = None
    build: Callable[[Any], Problem] | None = None
    default_backend: str = "auto"
    bytes_per_cell: int = 10_000
    memory: Callable[[int, int], int] | None = None
    whole_file: bool = False
    formats: tuple[str, ...] = ("knuth",)
    writes: tuple[str, ...] = ("knuth",)
    answers: tuple[str, ...] = ()
    codecs: Mapping[str, Codec] = field(default_factory=dict)
    picture: Picture | None = None
    batch: Batch | None = None
    tatham: Tatham | None = None
    generator: str | None = None
    logic: str | None = None
    prepare_puzzles: Callable[[list[Any], Policy], tuple[list[Any], list[str]]] | None = None
    from_problem: Callable[[Problem], Any] | None = None
    encoding_bytes: Callable[[Any], int] | None = None
    example: str = ""

    @property
    def names(self) -> tuple[str, ...]:
        """The family's name and its aliases."""
        return (self.name, *self.aliases)

    def problem(self, puzzle: Any, text: str) -> Problem:
        """The exact-cover problem of ``puzzle`` from its data ``text`` (:attr:`encode`'s),
        with the family's global rules."""
        if self.problem_of is not None:
            return self.problem_of(puzzle, text)
        from ..xcc import parse

        return self.with_rules(parse(text, allow_empty=True))

    def build_problem(self, puzzle: Any) -> Problem:
        """The problem of ``puzzle`` built directly where the family can (:attr:`build`),
        else its data encoded and read (:meth:`problem`)."""
        if self.build is not None:
            return self.build(puzzle)
        return self.problem(puzzle, self.encode(puzzle))

    def with_rules(self, problem: Problem) -> Problem:
        """``problem`` with the single-loop rule of a loop family when its data do not declare
        it (Knuth's loop data state it by their names only: :meth:`SingleLoop.from_names
        <dlxsat.xcc.rules.SingleLoop.from_names>`)."""
        if "loop" in self.rules and problem.rule("loop") is None:
            from ..xcc.rules import SingleLoop

            return problem.with_rules(SingleLoop.from_names(problem))
        return problem

    def prepare(self, puzzles: list[Any], policy: Policy = Policy()) -> tuple[list[Any], list[str]]:
        """The puzzles as the family's policy makes them (:class:`Policy`), with notes for the
        user; a policy the family has no use for is an :class:`~dlxsat.errors.InputError`."""
        from ..errors import InputError

        if self.prepare_puzzles is not None:
            return self.prepare_puzzles(puzzles, policy)
        if policy.loop:
            raise InputError(f"--loop is for xcc data; a {self.name} puzzle has its own rules")
        if policy.boxes is not None:
            raise InputError(f"--boxes is for sudoku; a {self.name} puzzle has no boxes")
        if policy.rules is not None:
            raise InputError(f"--rules: a {self.name} puzzle has one set of rules")
        return puzzles, []

    def reads(self, format: str) -> bool:
        """Whether the family can be read in ``format``."""
        return format in self.formats

    def cells_bytes(self, cells: int, rows: int) -> int:
        """The estimated memory of reading, encoding and parsing a puzzle of ``cells``
        characters in ``rows`` rows."""
        if self.memory is not None:
            return self.memory(cells, rows)
        return self.bytes_per_cell * cells
