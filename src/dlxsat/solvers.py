"""The solvers dlxsat has: one registry, one type of solver, one request, one settings grammar.

A solver is a module that exports ``SPEC``, a :class:`SolverSpec` stating everything about it
(name, kind, options, families, libraries, memory figures, signal behaviour, capabilities), and
a ``solve`` function. :data:`SOLVERS` maps each name to its module's path; the module is
imported only when asked for, so naming a solver costs nothing at start-up. Adding a search
solver is one module and one line of :data:`SOLVERS`.

The two faces of ``solve``, written once here::

    solve(problem: Problem, request: Request, options: Mapping[str, Any]) -> SearchResult
    solve(family: str, puzzle: Any, request: Request, options: Mapping[str, Any]) -> SearchResult

The first is a *search* solver's (``dlx``, ``sat``, ``cpsat``, ``portfolio``, ``external``):
it solves an exact-cover :class:`~dlxsat.xcc.Problem` and knows nothing of puzzles. The second
a *reasoning* solver's (``logic``): it reasons on the puzzle itself, like a person, for the
families of its ``SPEC.families``. ``request`` (:class:`Request`) says what to look for and
until when; ``options`` are the solver's own settings by their python names, already checked
against its ``SPEC`` (:meth:`SolverSpec.check`, run once by the caller -- the pipeline,
:func:`solve_problem`, ``compare``): a solver trusts both and leaves out what was not given
(its default applies). A search solver reports progress through ``request.found(count)``,
stops cleanly at ``request.deadline`` with ``timed_out`` and the figures so far, and returns a
:class:`~dlxsat.result.SearchResult`.

>>> sorted(names())
['auto', 'cpsat', 'dlx', 'logic', 'portfolio', 'sat']
>>> "external" in SOLVERS, spec_of("external").public
(True, False)
>>> [o.key for o in options_of("sat")]
['encoding', 'colors', 'solver', 'loop', 'connected', 'acyclic', 'sized', 'enumerate', \
'branching', 'proof']
>>> check_options("dlx", {"encoding": "ladder"})
Traceback (most recent call last):
...
dlxsat.errors.InputError: backend dlx does not take option 'encoding' (it is for sat; dlx takes \
ties)
>>> name, grid = parse_setting("sat:encoding=ladder;loop=eager")
>>> name, grid
('sat', {'encoding': ['ladder'], 'loop': ['eager']})
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Literal, Protocol

from .errors import InputError
from .options import Option
from .result import MODES, SearchResult, Settled
from .runtime.deadline import Deadline

#: Solver name → module. The order is the order of ``--help``, ``crosscheck`` and the presets.
SOLVERS: dict[str, str] = {
    "dlx": "dlxsat.backends.dlx",
    "sat": "dlxsat.backends.cnf",
    "cpsat": "dlxsat.backends.cpsat",
    "logic": "dlxsat.reasoning",
    "portfolio": "dlxsat.backends.portfolio",
    "external": "dlxsat.backends.external",
    "auto": "dlxsat.backends.auto",
    "counter": "dlxsat.backends.counter",
}

#: The kinds of global rule (:data:`dlxsat.xcc.rules.KINDS`, repeated here so that naming a
#: solver imports nothing more); a solver's way of enforcing kind ``K`` is its option
#: ``K_mode`` (typed ``--K MODE``).
RULE_KINDS = ("loop", "connected", "acyclic", "sized")
#: Why a rule's mode is refused for a problem without that rule.
RULE_MODE_ALONE = {
    "loop": "a loop mode applies only with the single-loop rule (loop families)",
    "connected": "a connected mode applies only with a connected rule",
    "acyclic": "an acyclic mode applies only with an acyclic rule",
    "sized": "a sized mode applies only with a sized rule",
}

#: The largest solution limit: the dlx kernels count in int64.
MAX_COUNT = 1 << 62

#: In ``count`` mode answers are not returned, but this many are still decoded and checked
#: (kept in memory to be checked: counts run into millions); ``stats["checked"]`` says how
#: many were, and the CLI says so when it is fewer than the count.
CHECKED_WHEN_COUNTING = 1000

#: A 2 x 2 loop as an exact-cover problem with colors (four vertices, four edges): solving it
#: loads everything a solver needs for the loop families too (the cuts, CP-SAT's model, the XCC
#: kernels), and shows whether a solver takes a setting at all (``compare``'s presets).
WARM_UP_PROBLEM = (
    "00 02 20 22 | 01 10 12 21\n"
    "00 01:1 10:1\n00 01:0 10:0\n02 01:1 12:1\n02 01:0 12:0\n"
    "20 10:1 21:1\n20 10:0 21:0\n22 12:1 21:1\n22 12:0 21:0\n"
)


def warm_up_problem(kinds: Collection[str] = ()) -> Any:
    """:data:`WARM_UP_PROBLEM` with a global rule of each of ``kinds`` over its edges: the
    single loop; the edges on connected; the edges on without a cycle; the edges on in pieces
    of all four (none with the loop: a problem to load and probe solvers on, not to solve).

    >>> [r.kind for r in warm_up_problem(["loop", "connected"]).rules]
    ['loop', 'connected']
    """
    from .xcc import parse
    from .xcc.rules import Acyclic, Connected, Rule, SingleLoop, Sized

    problem = parse(WARM_UP_PROBLEM)
    loop = SingleLoop.from_names(problem)
    edges = loop.members()
    ends = [(u, v) for _, u, v in loop.graph.edges]
    links = [
        (a, b)
        for a in range(len(ends))
        for b in range(a + 1, len(ends))
        if set(ends[a]) & set(ends[b])
    ]
    made: dict[str, Rule] = {
        "loop": loop,
        "connected": Connected(edges, tuple(links)),
        "acyclic": Acyclic(edges, tuple(ends)),
        "sized": Sized(edges, tuple(links), size=len(edges)),
    }
    return problem.with_rules(*(made[k] for k in RULE_KINDS if k in kinds))


#: How the option a user wrote is named in an error: ``--key`` on the command line, ``'key'``
#: in a settings text (``compare --settings``, portfolio members), ``option 'name'`` in Python.
Spelling = Literal["flag", "key", "name"]


@dataclass(frozen=True)
class SolverSpec:
    """Everything dlxsat knows about one solver, in one place.

    ``kind``: ``search`` or ``reasoning`` (see the module doc). ``options``: its settings, the
    only list of them. ``families``: the families a reasoning solver has rules for (None: any
    exact-cover problem). ``family_options``: for a reasoning solver, the options each family
    takes. ``libraries``: the distributions it runs on (their versions go into ``compare``'s
    records; ``compare`` loads them before forking its workers). ``bytes_per_entry`` and
    ``library_bytes``: memory of its model per entry of the problem and of its libraries once
    loaded (in the module named ``library_module``), for the memory estimate of
    :meth:`model_bytes`. ``catches_sigint``: its library stops the search on SIGINT itself.
    ``capped``: options counting threads or processes, bounded by :func:`max_workers`.
    ``empty_loop``: it can count the empty edge set as a loop. ``rules``: the kinds of global
    rule it enforces (a problem with another is refused: :meth:`check_rules`; every search
    backend enforces every kind, ``auto`` and ``portfolio`` through their members). ``public``:
    offered by ``solve``, ``crosscheck`` and ``--help`` (False: ``compare`` only -- it needs a
    program outside dlxsat). ``batch``: it has a batch path, ``solve_many(template, puzzles, mode,
    timeout, on_found)``, for many puzzles that share one problem with some options chosen
    beforehand (a family's :class:`Template`), worth it from this many puzzles on (0: no
    batch path; see :func:`solve_many` and :func:`dlxsat.pipeline.solve_many`).
    ``validate``: a check across options, run after each is checked (with ``rules``, as
    :meth:`check` has it).
    ``version``: what ran, for a solver whose version is not its library's (from its options).
    """

    name: str
    kind: Literal["search", "reasoning"]
    summary: str
    options: tuple[Option, ...] = ()
    families: tuple[str, ...] | None = None
    family_options: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    libraries: tuple[str, ...] = ()
    bytes_per_entry: int = 1600
    library_bytes: int = 0
    library_module: str = ""
    catches_sigint: bool = False
    capped: tuple[str, ...] = ()
    empty_loop: bool = True
    rules: tuple[str, ...] = RULE_KINDS
    public: bool = True
    batch: int = 0
    validate: Callable[[dict[str, Any], Collection[str] | None], None] | None = None
    version: Callable[[Mapping[str, Any]], str] | None = None

    @property
    def loop_modes(self) -> tuple[str, ...]:
        """The ways it enforces the single-loop rule (its ``loop_mode`` choices; () if one)."""
        return self.rule_modes("loop")

    def rule_modes(self, kind: str) -> tuple[str, ...]:
        """The ways it enforces a global rule of ``kind`` (its ``KIND_mode`` choices; () if
        it has one way only)."""
        return next((o.choices for o in self.options if o.name == f"{kind}_mode"), ())

    def by_key(self) -> dict[str, Option]:
        """Its options by the word users type."""
        return {o.key: o for o in self.options}

    def module(self) -> ModuleType:
        """The module implementing it."""
        return importlib.import_module(SOLVERS[self.name])

    def model_bytes(self, entries: int) -> int:
        """The estimated memory of its model of a problem with ``entries`` entries, with its
        libraries when they are not loaded yet.

        >>> spec_of("sat").model_bytes(1000)
        900000
        """
        import sys

        library = self.library_bytes if self.library_module not in sys.modules else 0
        return self.bytes_per_entry * entries + library

    def check(
        self,
        given: Mapping[str, Any],
        *,
        rules: Collection[str] | None = None,
        family: str | None = None,
        spelling: Spelling = "name",
    ) -> dict[str, Any]:
        """``given`` (python names → values) checked against this solver's declarations:
        returned with the values converted to their declared kinds, or a one-line
        :class:`InputError`. With ``rules`` (the kinds of global rule the problem has) a rule's
        mode without that rule is refused; with ``family`` an option that family's solver does
        not take. ``spelling`` says how an option is named in an error."""
        declared = {o.name: o for o in self.options}
        checked: dict[str, Any] = {}
        for name, value in given.items():
            option = declared.get(name)
            if option is None:
                raise InputError(self._not_taken(name, spelling))
            checked[name] = self._value(option, value)
        self._check_context(checked, rules, family)
        return checked

    def check_rules(self, problem: Any) -> None:
        """Refuse a problem whose rules this solver cannot enforce as asked: a kind of rule it
        does not enforce (:attr:`rules`), the empty loop of DLX2-LOOP where it always asks for
        a loop (:attr:`empty_loop`)."""
        for rule in problem.rules:
            if rule.kind not in self.rules:
                raise InputError(f"backend {self.name} does not enforce the {rule.kind} rule")
        loop = problem.rule("loop")
        if loop is not None and loop.allow_empty and not self.empty_loop:
            raise InputError(f"backend {self.name} always asks for a non-empty loop")

    def parse(self, texts: Mapping[str, str], *, spelling: Spelling = "key") -> dict[str, Any]:
        """Options users typed (key → text, as on the command line) read by their
        declarations: python names → values. Check the whole with :meth:`check`."""
        declared = self.by_key()
        parsed: dict[str, Any] = {}
        for key, text in texts.items():
            option = declared.get(key)
            if option is None:
                raise InputError(self._not_taken(key, spelling, by_key=True))
            parsed[option.name] = option.parse(text)
        return parsed

    def _value(self, option: Option, value: Any) -> Any:
        try:
            value = option.check(value)
        except InputError as e:
            raise InputError(self._other_choice(option, value) or str(e)) from None
        if option.name in self.capped and value > max_workers():
            raise InputError(f"{option.flag} {value} is too many (at most {max_workers()})")
        return value

    def _check_context(
        self, checked: dict[str, Any], rules: Collection[str] | None, family: str | None
    ) -> None:
        if rules is not None:
            for kind in RULE_KINDS:
                if f"{kind}_mode" in checked and kind not in rules:
                    raise InputError(RULE_MODE_ALONE[kind])
        if family is not None and self.families is not None:
            if family not in self.families:
                raise InputError(
                    f"backend {self.name} has no solver for {family} "
                    f"(it has one for {', '.join(self.families)})"
                )
            takes = self.family_options.get(family)
            if takes is not None:
                for name in checked:
                    if name not in takes:
                        others = [f for f, t in self.family_options.items() if name in t]
                        flags = ", ".join("--" + t for t in takes)
                        raise InputError(
                            f"--{name} is for {' and '.join(others)} (not {family}); "
                            f"{family} takes {flags}"
                        )
        if self.validate is not None:
            self.validate(checked, rules)

    def _not_taken(self, word: str, spelling: Spelling, by_key: bool = False) -> str:
        """Why this solver refuses option ``word`` (a key users typed, or a python name)."""
        others = [
            n
            for n in names()
            if n != self.name
            and any((o.key if by_key else o.name) == word for o in spec_of(n).options)
        ]
        key = word if by_key else word.replace("_", "-")
        flag = f"--{key}"
        for n in others:  # the flag another solver declares for it (its key may differ)
            for o in spec_of(n).options:
                if (o.key if by_key else o.name) == word:
                    flag, key = o.flag, o.key
        spelled = {"flag": flag, "key": repr(key), "name": f"option {word!r}"}[spelling]
        takes = self._takes(spelling)
        if others and spelling == "name":
            return (
                f"backend {self.name} does not take {spelled} (it is for {', '.join(others)}; "
                f"{self.name} takes {takes})"
            )
        return f"backend {self.name} does not take {spelled} (it takes {takes})"

    def _takes(self, spelling: Spelling) -> str:
        if not self.options:
            return "no options"
        if spelling == "flag":
            return ", ".join(o.flag for o in self.options)
        if spelling == "key":
            return ", ".join(o.key for o in self.options)
        return ", ".join(o.name for o in self.options)

    def _other_choice(self, option: Option, value: Any) -> str | None:
        """When ``value`` is not one of ``option``'s choices but another solver's same option
        has it: a message naming that solver."""
        if not option.choices or value in option.choices:
            return None
        others = [
            n
            for n in names()
            if n != self.name
            and any(o.name == option.name and value in o.choices for o in spec_of(n).options)
        ]
        if not others:
            return None
        what = "loop mode" if option.name == "loop_mode" else option.key
        return (
            f"{what} {value!r} is for the {' and '.join(others)} backend; "
            f"{self.name} has {' and '.join(option.choices)}"
        )


def spec_of(name: str) -> SolverSpec:
    """The :class:`SolverSpec` of solver ``name`` (an :class:`InputError` for an unknown name)."""
    spec: SolverSpec = get_solver(name).SPEC
    return spec


def get_solver(name: str) -> ModuleType:
    """The module of solver ``name``."""
    try:
        module = SOLVERS[name]
    except KeyError:
        known = ", ".join(names(public=None))
        raise InputError(f"unknown backend {name!r} (choose from {known})") from None
    return importlib.import_module(module)


def names(kind: str | None = None, public: bool | None = True) -> list[str]:
    """The solvers of ``kind`` (any when None) that are ``public`` (or all when None)."""
    return [
        n
        for n in SOLVERS
        if (kind is None or spec_of(n).kind == kind)
        and (public is None or spec_of(n).public == public)
    ]


def search_solvers() -> list[str]:
    """The names of the solvers ``solve`` offers that work on exact-cover problems."""
    return names("search")


def options_of(name: str) -> tuple[Option, ...]:
    """The options solver ``name`` declares."""
    return spec_of(name).options


def check_options(name: str, given: Mapping[str, Any], **context: Any) -> dict[str, Any]:
    """``given`` checked against solver ``name``'s declarations (:meth:`SolverSpec.check`)."""
    return spec_of(name).check(given, **context)


def all_options() -> list[Option]:
    """Every declared option of every public solver, each key once (first declaration wins)."""
    seen: dict[str, Option] = {}
    for name in names():
        for o in options_of(name):
            seen.setdefault(o.key, o)
    return list(seen.values())


def takers(key: str) -> list[tuple[str, Option]]:
    """The public solvers that take the option typed as ``key``, with their declarations."""
    return [(name, o) for name in names() for o in options_of(name) if o.key == key]


def max_workers() -> int:
    """The most search workers (threads or processes) a run may ask for: four per core it may
    use (:func:`dlxsat.runtime.host.cores`), and at least 64 -- more only slows a search down
    and can exhaust the machine.

    >>> max_workers() >= 64
    True
    """
    from .runtime.host import cores

    return max(64, 4 * cores())


# --------------------------------------------------------------------------- the request


def _no_progress(count: int) -> None:
    """The progress callback of a request that nobody watches."""


@dataclass(frozen=True)
class Request:
    """What a solver is asked for, built once by the caller and trusted by the solver.

    ``mode`` is the caller's (``unique``, ``count``, ``all``; see :meth:`for_mode`), and
    ``limit`` and ``keep`` follow from it: stop after ``limit`` solutions (None: all of them),
    store at most ``keep`` (None: all found; 0: count only). The global rules to enforce (the
    single loop and the others) are not asked for here: they are parts of the problem
    (:attr:`Problem.rules <dlxsat.xcc.model.Problem.rules>`). ``deadline``:
    when to stop with ``timed_out`` and the figures so far. ``loading_counts``: whether loading
    a solver's libraries counts against the deadline (False: a library caller's time limit is
    on the search, and the dlx backend moves it back by its kernel's load). ``on_found``: told
    the number of solutions found so far, as the search goes (the run's figures, should it be
    stopped).

    >>> r = Request.for_mode("unique")
    >>> r.limit, r.keep
    (2, None)
    >>> Request.for_mode("count").keep
    1000
    >>> Request(limit=-1)
    Traceback (most recent call last):
    ...
    dlxsat.errors.InputError: solution limit must not be negative: -1
    """

    limit: int | None = None
    keep: int | None = None
    deadline: Deadline = field(default_factory=Deadline.never)
    on_found: Callable[[int], None] = field(default=_no_progress, compare=False)
    mode: str = "all"
    loading_counts: bool = True

    def __post_init__(self) -> None:
        if self.limit is not None and self.limit < 0:
            raise InputError(f"solution limit must not be negative: {self.limit}")
        if self.limit is not None and self.limit > MAX_COUNT:
            raise InputError(f"solution limit too large: {self.limit} (at most {MAX_COUNT})")
        if self.keep is not None and self.keep < 0:
            raise InputError(f"number of solutions to keep must not be negative: {self.keep}")
        if self.mode not in MODES:
            raise InputError(f"unknown mode {self.mode!r} (choose from {', '.join(MODES)})")

    @classmethod
    def for_mode(
        cls,
        mode: str,
        *,
        deadline: Deadline | None = None,
        on_found: Callable[[int], None] | None = None,
        loading_counts: bool = True,
    ) -> Request:
        """The request of a puzzle's solve in ``mode``: ``unique`` looks for two answers,
        ``count`` counts them all (keeping :data:`CHECKED_WHEN_COUNTING` to be checked),
        ``all`` returns them all."""
        if mode not in MODES:
            raise InputError(f"unknown mode {mode!r} (choose from {', '.join(MODES)})")
        return cls(
            limit=2 if mode == "unique" else None,
            keep=CHECKED_WHEN_COUNTING if mode == "count" else None,
            deadline=deadline or Deadline.never(),
            on_found=on_found or _no_progress,
            mode=mode,
            loading_counts=loading_counts,
        )

    def found(self, count: int) -> None:
        """Report ``count`` solutions found so far."""
        self.on_found(count)

    def wants_more(self, count: int | None) -> bool:
        """Whether a search that found ``count`` solutions should look for another."""
        return self.limit is None or (count or 0) < self.limit

    def keeps(self, stored: int) -> bool:
        """Whether a solution found when ``stored`` are stored is stored too."""
        return self.keep is None or stored < self.keep


# --------------------------------------------------------------------------- the batch path


class Template(Protocol):
    """What a family says of the puzzles of one shape for a solver's batch path (the family's
    ``batch.template(puzzle)``, :class:`dlxsat.families.spec.Batch`): they share
    :attr:`problem`, each is that problem with some options chosen beforehand
    (:meth:`givens`), and an answer is read back from the options chosen and judged by the
    puzzle's rules here, on the family's side -- so the solver knows no puzzle, and the
    pipeline no solver's arrays.

    The array methods serve many puzzles at once (a chunk, a row each; only when
    :attr:`packs`): :meth:`packed_cells` and :meth:`given_options` give the options the rows
    choose, :meth:`answers_of_chunk` reads back the solutions a solver kept per row
    (``sols[p, s, :sol_len[p, s]]``, option indices) and judges them.
    """

    problem: Any
    packs: bool

    def fitting(self, puzzles: Sequence[Any], start: int, stop: int) -> int:
        """The end of the run of ``puzzles[start:stop]`` that have this shape."""
        ...

    def givens(self, puzzle: Any) -> list[int]:
        """The options of :attr:`problem` that ``puzzle`` chooses beforehand."""
        ...

    def answer(self, puzzle: Any, chosen: Sequence[int]) -> dict[str, Any]:
        """The answer of ``puzzle`` when the options ``chosen`` are chosen too."""
        ...

    def obeys_rules(self, puzzle: Any, answer: dict[str, Any]) -> bool:
        """Whether ``answer`` obeys the puzzle's rules (the family's checker agrees)."""
        ...

    def problem_of(self, puzzle: Any) -> Any:
        """The exact-cover problem of ``puzzle`` alone (its options not chosen beforehand)."""
        ...

    def packed_cells(self, puzzles: Sequence[Any]) -> object:
        """The puzzles as one array, a row each."""
        ...

    def given_options(self, cells: object) -> tuple[object, object]:
        """The options each row of ``cells`` chooses, ``given[p, :counts[p]]``, and ``counts``."""
        ...

    def answers_of_chunk(
        self, cells: object, sols: object, sol_len: object, kept: object, settled: object
    ) -> tuple[list[list[dict[str, Any]]], list[bool]]:
        """Per row of ``cells``: the answers of its first ``kept[p]`` solutions (none for a row
        not ``settled``), and whether they all obey the rules."""
        ...


def solve_many(
    backend: str,
    template: Template,
    puzzles: Sequence[Any],
    mode: str,
    timeout: float | None,
    on_found: Callable[[int], None] | None = None,
) -> Iterator[Settled]:
    """The batch path of solver ``backend`` (its ``SPEC.batch``): ``puzzles``, all of
    ``template``'s shape, solved in ``mode`` within ``timeout`` seconds each; one
    :class:`~dlxsat.result.Settled` per puzzle, in order. ``on_found`` is told the answers
    found by a puzzle's search when it leaves the batch's kernel."""
    solved: Iterator[Settled] = get_solver(backend).solve_many(
        template, puzzles, mode, timeout, on_found
    )
    return solved


#: :func:`solve_problem`'s default ``keep``: what the caller asks for -- up to ``limit``
#: solutions, none when counting them all (no ``limit``). Keeping every answer of a count by
#: default tripled its time: Langford pairs of 12 (108,144 answers) 0.9 s counted by DLX,
#: 2.7 s kept (``benchmarks/startup.py --keep``).
ASKED: Literal["asked"] = "asked"


def solve_problem(
    problem: Any,
    backend: str = "dlx",
    *,
    loop: bool = False,
    allow_empty_loop: bool = True,
    limit: int | None = None,
    keep: int | None | Literal["asked"] = ASKED,
    timeout: float | None = None,
    on_found: Callable[[int], None] | None = None,
    **options: Any,
) -> SearchResult:
    """Solve an exact-cover problem with search solver ``backend``: the request and the
    options are checked here, once, then the solver runs (see the module doc).

    The problem's global rules (:attr:`Problem.rules <dlxsat.xcc.model.Problem.rules>`) are
    enforced; ``loop`` adds Knuth's single-loop rule over the items named as vertices and edges
    (:meth:`SingleLoop.from_names <dlxsat.xcc.rules.SingleLoop.from_names>`), the empty edge
    set counting as a loop unless ``allow_empty_loop`` is False -- the meaning of his
    DLX2-LOOP. ``timeout`` (seconds) bounds the search; loading the solver's libraries does
    not count. ``keep`` is how many solutions to store: by default (:data:`ASKED`) those asked
    for -- up to ``limit``, none when counting all (no ``limit``); None stores every one found.

    >>> from dlxsat.xcc import parse
    >>> solve_problem(parse("a b\\na\\nb\\na b\\n"), "sat", limit=1).count
    1
    >>> r = solve_problem(parse("a b\\na\\nb\\na b\\n"), "dlx")  # a count: none kept
    >>> r.count, r.solutions
    (2, [])
    >>> solve_problem(parse("a b\\na\\nb\\na b\\n"), "dlx", keep=None).solutions
    [[0, 1], [2]]
    """
    from .runtime.deadline import seconds_of

    spec = spec_of(backend)
    if spec.kind != "search":
        raise InputError(f"backend {backend} solves puzzles, not exact-cover problems")
    if timeout is not None and not (isinstance(timeout, (int, float)) and timeout > 0):
        raise InputError(f"time limit must be positive: {timeout}")
    if keep == ASKED:
        keep = 0 if limit is None else limit
    request = Request(
        limit=limit,
        keep=keep,
        deadline=Deadline.after(seconds_of(timeout)),
        on_found=on_found or _no_progress,
        loading_counts=False,
    )
    if loop and problem.rule("loop") is None:
        from .xcc.rules import SingleLoop

        problem = problem.with_rules(SingleLoop.from_names(problem, allow_empty_loop))
    checked = spec.check(options, rules=rule_kinds(problem))
    spec.check_rules(problem)
    from .runtime.collector import fewer_collections

    with fewer_collections():  # (as dlxsat.solve does: see dlxsat.runtime.collector)
        result: SearchResult = spec.module().solve(problem, request, checked)
    return result


def rule_kinds(problem: Any) -> set[str]:
    """The kinds of global rule ``problem`` has (``loop``, ``connected``, ``acyclic``,
    ``sized``)."""
    return {r.kind for r in problem.rules}


# --------------------------------------------------------------------------- settings text


def parse_setting(text: str, *, alternatives: bool = False) -> tuple[str, dict[str, list[Any]]]:
    """Read the one grammar of "a solver with some of its options"::

        BACKEND[:key=value[;key=value...]]

    (``:`` may stand for ``;``, as portfolio members were first written). Keys are the
    solver's declared keys (as on the command line), values are read by its declarations.
    Returns the solver's name and each key's values; with ``alternatives`` a value may be a
    comma list of several (``compare --settings``' grid), otherwise each key has one. Portfolio
    members, ``compare --settings`` and ``export --settings`` all read their texts here.

    >>> parse_setting("sat:encoding=ladder,totalizer", alternatives=True)
    ('sat', {'encoding': ['ladder', 'totalizer']})
    >>> parse_setting("cpsat:workers=2:loop=lazy")
    ('cpsat', {'workers': [2], 'loop': ['lazy']})
    >>> parse_setting("dlx:loop=lazy")
    Traceback (most recent call last):
    ...
    dlxsat.errors.InputError: backend dlx does not take 'loop' (it takes ties)
    """
    name, _, rest = text.strip().partition(":")
    name = name.strip()
    spec = spec_of(name)
    declared = spec.by_key()
    grid: dict[str, list[Any]] = {}
    for part in rest.replace(":", ";").split(";"):
        if not part.strip():
            continue
        key, eq, values = part.partition("=")
        key = key.strip()
        if not eq or not key:
            raise InputError(f"expected key=value, not {part.strip()!r}")
        if key not in declared:
            raise InputError(spec._not_taken(key, "key", by_key=True))
        if key in grid:
            raise InputError(f"{key} given twice")
        words = [w.strip() for w in values.split(",")] if alternatives else [values.strip()]
        if not all(words):
            raise InputError(f"empty value for {key}")
        grid[key] = list(spec.parse({key: w})[declared[key].name] for w in dict.fromkeys(words))
    return name, grid
