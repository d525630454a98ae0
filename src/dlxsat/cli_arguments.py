"""The ``dlxsat`` command line's arguments: every command's flags, declared here only.

Usage errors are input errors (one line, exit status 2). The solvers' own options become flags
from their declarations (:mod:`dlxsat.options`); what the commands do with the arguments is in
:mod:`dlxsat.cli`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from . import __version__
from .errors import InputError
from .families import FAMILIES, canonical
from .runtime import guard

TIMEOUT_HELP = "time limit in seconds for the whole run; default: none"
JSON_HELP = "one JSON object on stdout"


class _Parser(argparse.ArgumentParser):
    """argparse, but usage errors are one line and exit status 2 like every other input error."""

    def error(self, message: str) -> None:  # type: ignore[override]
        # "dlxsat: error: " is printed by main(); name only the subcommand, if any.
        where = self.prog.partition(" ")[2]
        raise InputError(f"{where}: {message}" if where else message)


def _seconds(text: str) -> float | None:
    """A ``--timeout``: :func:`dlxsat.runtime.deadline.seconds_of` (inf is no limit; beyond a
    year is refused), the one reader of a user's time limit."""
    from .runtime.deadline import seconds_of

    try:
        return seconds_of(text)
    except InputError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _count(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"not a positive whole number: {text!r}")
    if int(text) > guard.MAX_COUNT:
        raise argparse.ArgumentTypeError(f"too large: {text} (at most {guard.MAX_COUNT})")
    return int(text)


def _megabytes(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 1 << 40:
        raise argparse.ArgumentTypeError(f"not a number of megabytes: {text!r}")
    return int(text)


#: The longer description of a command, shown by its --help under the usage line.
DESCRIPTIONS = {
    "from-tatham": "Print the puzzle text (Knuth's input format) of a game id of Simon "
    "Tatham's Pearl (masyu), Loopy (slitherlink, square grid) or Solo (sudoku), as "
    "'sgt-pearl --generate 1 10x10' and the like print them.",
    "compare": "Each puzzle with each setting is one job, run in a worker process with "
    "a time and memory limit (a worker runs jobs one after another; one that passes a "
    "limit or fails is replaced); each job's record is appended to a JSON Lines store. "
    "Jobs already in the store are skipped. Finished jobs of one puzzle must agree "
    "(exit status 4 otherwise; 3 when a job of this run reached its time or memory "
    "limit).",
    "check": "Judge an answer by the puzzle's rules, as a player reads them. ANSWER is an "
    "answer grid in the notation of the public puzzlekit corpus, a pzprv3 file with its answer "
    "drawn, or a Penpa+ URL with its answer layer; without ANSWER, PUZZLE itself holds the "
    "answer (a pzprv3 file or Penpa+ URL). Exit status 0: correct; 1: wrong (one line naming "
    "the rule broken and where); 2: unreadable input; 3: --unique ran out of time.",
    "convert": "Read puzzles (any format, or --format) and write each in the format of "
    "--to, one record per puzzle.",
    "generate": "Print a new Masyu puzzle with exactly one answer. The size is ROWSxCOLS, "
    "rows first as in every puzzle file (Tatham's game ids are WIDTHxHEIGHT: his 10x8 is "
    "our 8x10). Without --seed a seed is chosen and printed on stderr "
    "('dlxsat: seed N'), so the run can be repeated.",
    "instance": "Print Knuth's DLX data of a classic problem, to solve with 'dlxsat dlx' "
    "or 'dlxsat solve xcc'. 'dlxsat instance list' names every family, its arguments "
    "and the counts the literature gives.",
    "verify": "Check the certificate folder PATH that 'solve --certify' wrote for PUZZLE: "
    "the CNF is rebuilt from the puzzle and must equal the certificate's, each premise (a "
    "global rule's cut) must be justified by the rule's graph, the answer must keep the "
    "puzzle's rules, and the DRAT proof must pass a checker that is not dlxsat's solver "
    "(drat-trim when on the PATH, else dratify). Exit status 0: verified; 1: not verified "
    "(one line says why); 2: unreadable input.",
    "report": "Read one or more results stores (JSON Lines, merged as if concatenated: "
    "the last record of a job wins) and print one row per setting: solved / jobs, PAR-2 "
    "score (unsolved jobs count twice the time limit), total / median / worst time of the "
    "solved jobs, mean variables / clauses / rounds, disagreements.",
}


def _family(text: str) -> str:
    """A FAMILY argument: a family's name or alias (:func:`dlxsat.families.canonical`), as the
    family's name."""
    try:
        return canonical(text)
    except InputError:
        raise argparse.ArgumentTypeError(
            f"invalid choice: {text!r} (choose from {', '.join(FAMILIES)}, or a family's "
            "puz.link name)"
        ) from None


def _family_of(families: list[str]) -> Any:
    """A FAMILY argument that must be one of ``families`` (those with a capability)."""

    def family(text: str) -> str:
        name = _family(text)
        if name not in families:
            raise argparse.ArgumentTypeError(
                f"invalid choice: {text!r} (choose from {', '.join(families)})"
            )
        return name

    return family


FAMILY_HELP = "puzzle family: " + ", ".join(FAMILIES) + " (or a family's puz.link name)"


def _command(sub: Any, name: str, family: Any = True, **kw: Any) -> Any:
    """A command's parser, with its FAMILY argument first (none when ``family`` is None; a
    list: only those families)."""
    p = sub.add_parser(name, help=HELP[name], description=DESCRIPTIONS.get(name), **kw)
    if family is True:
        p.add_argument("family", type=_family, metavar="FAMILY", help=FAMILY_HELP)
    elif family is not None:
        text = "puzzle family: " + ", ".join(family)
        p.add_argument("family", type=_family_of(family), metavar="FAMILY", help=text)
    return p


def _modes(p: Any, *modes: tuple[str, str]) -> None:
    g = p.add_mutually_exclusive_group()
    for flag, text in modes:
        g.add_argument(flag, action="store_true", help=text)


#: Every command with its one-line help, in the order ``dlxsat --help`` lists them.
HELP = {
    "encode": "print Knuth's exact-cover (DLX) data for a puzzle",
    "dlx": "solve DLX/XCC/MCC data with the native dancing-links solver",
    "solve": "solve a puzzle with a chosen backend",
    "export": "export a puzzle's exact-cover problem for other solvers",
    "decode": "turn a SAT solver's model of an exported CNF into an answer",
    "crosscheck": "solve with several backends and compare",
    "check": "is this a correct answer to this puzzle? (which rule does it break?)",
    "from-tatham": "turn a game id of Simon Tatham's Pearl, Loopy or Solo into a puzzle file",
    "compare": "run a grid of solver settings over puzzles, record every job, cross-check",
    "generate": "make a new puzzle with a unique answer",
    "instance": "print a classic exact-cover problem (queens, langford, pentominoes, ...)",
    "convert": "write a puzzle in another format (knuth, puzzlink, grid, oneline)",
    "report": "tables and plots from results stores of 'dlxsat compare'",
    "verify": "check a certificate of 'solve --certify': the puzzle's answer is its only one",
}


def parse_arguments(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """Parse a command line (default: ``sys.argv[1:]``), declaring only the command it names.

    A run parses one command, and declaring all twelve with their 150 flags took 3.3 ms of
    every run (a tenth of a solve's start-up beyond Python's own); one takes 0.3-0.6 ms.

    >>> args = parse_arguments(["instance", "queens", "8"])
    >>> args.command, args.name, args.args
    ('instance', 'queens', ['8'])
    """
    words = sys.argv[1:] if argv is None else list(argv)
    command = words[0] if words else None
    parser = build_parser(command)
    if command not in HELP:
        return parser.parse_args(words)
    # Options may come between the positionals (``solve masyu --backend sat FILE``): argparse
    # reads that only with ``parse_intermixed_args``, which a parser with subcommands refuses,
    # so the command's own parser reads its words.
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    args: argparse.Namespace
    args, extra = sub.choices[command].parse_known_intermixed_args(words[1:])
    if extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")  # as the whole parser says
    args.command = command
    return args


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of the whole command line, or (``command``, one of :data:`HELP`) of that
    command alone.

    A parser of one command parses its command lines as the whole one does, with the same
    messages: a bad command line names only its own command's arguments (our ``error`` prints
    no usage line, the one place the other commands would be listed). An unknown ``command``
    gets the whole parser, which lists them in its error.
    """
    p = _Parser(
        prog="dlxsat",
        description="Pencil puzzles as Knuth's exact-cover problems, solved by dancing links, "
        "SAT and CP-SAT.",
    )
    p.add_argument("--version", action="version", version=f"dlxsat {__version__}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    built = [command] if command in HELP else list(HELP)
    for name in built:
        BUILDERS[name](sub)
    _add_format_options(sub, built)
    _add_limit_flags(sub, built)
    return p


def _add_encode(sub: Any) -> None:
    e = _command(sub, "encode")
    e.add_argument("file", nargs="?", help="puzzle file (stdin when omitted)")


def _add_dlx(sub: Any) -> None:
    d = _command(sub, "dlx", family=None)
    d.add_argument("file", nargs="?", help="DLX file (stdin when omitted)")
    d.add_argument("--loop", action="store_true", help="edges of color 1 must form one cycle")
    g = d.add_mutually_exclusive_group()
    g.add_argument("--count", action="store_true", help="count the solutions (the default)")
    g.add_argument("--all", action="store_true", help="print every solution")
    g.add_argument("--first", type=_count, metavar="K", help="print the first K solutions")
    text = JSON_HELP + " (with the solutions' options under --all/--first)"
    d.add_argument("--json", action="store_true", help=text)
    d.add_argument("--timeout", type=_seconds, metavar="S", help=TIMEOUT_HELP)


def _add_export(sub: Any) -> None:
    x = sub.add_parser("export", help=HELP["export"])
    x.add_argument("format", choices=["dimacs"])
    x.add_argument("family", type=_family, metavar="FAMILY", help=FAMILY_HELP)
    x.add_argument("file", nargs="?", help="puzzle file ('-' or omitted: stdin)")
    text = "more puzzles, folders, globs: a corpus export into the folder -o DIR, one CNF per "
    text += "puzzle and setting, plus manifest.json"
    x.add_argument("more", nargs="*", metavar="PUZZLE", help=text)
    text = "corpus export: 'sat:encoding=E1,E2;colors=C' (the CNFs to write)"
    x.add_argument("--settings", action="append", default=[], metavar="SPEC", help=text)
    text = "corpus export: per puzzle, to solve it"
    x.add_argument("--timeout", type=_seconds, metavar="S", help=text)
    text = "output file (stdout when omitted); for a corpus export (--settings, several puzzles) "
    text += "the folder to make, never a .cnf name"
    x.add_argument("-o", "--output", metavar="OUT", help=text)
    add_solver_options(x, backend="sat", keys=("encoding", "colors"))
    text = "none: disjoint loops allowed (like DLX2); eager: complete encoding (default for "
    x.add_argument("--loop", choices=["none", "eager"], help=text + "loop families)")
    for kind in ("connected", "acyclic", "sized"):
        text = f"the {kind} rule: eager, its complete encoding (the default where the puzzle "
        text += "has the rule), or none: left out"
        x.add_argument(f"--{kind}", choices=["none", "eager"], help=text)


def _add_decode(sub: Any) -> None:
    m = _command(sub, "decode")
    m.add_argument("file", help="puzzle file")
    m.add_argument("model", help="solver output with s/v lines ('-' for stdin)")
    m.add_argument("--json", action="store_true", help=JSON_HELP)
    text = "xcc: check the single-loop rule (export --loop eager)"
    m.add_argument("--loop", action="store_true", help=text)
    text = "the exported CNF: checked to be this puzzle's; says how it held each global rule"
    m.add_argument("--cnf", metavar="FILE", help=text)


def _add_crosscheck(sub: Any) -> None:
    c = _command(sub, "crosscheck")
    c.add_argument("files", nargs="+", metavar="FILE")
    text = "comma-separated; default: dlx,sat,cpsat"
    c.add_argument("--backends", default="dlx,sat,cpsat", help=text)
    text = "per backend and puzzle; default: none"
    c.add_argument("--timeout", type=_seconds, metavar="S", help=text)
    c.add_argument("--json", action="store_true", help="one JSON array on stdout")
    text = "xcc: apply the single-loop rule (as dlx --loop), each backend with its loop mode"
    c.add_argument("--loop", action="store_true", help=text)


def _add_check(sub: Any) -> None:
    c = _command(sub, "check")
    c.add_argument("file", metavar="PUZZLE", help="puzzle file or URL ('-': stdin)")
    text = "answer file or URL (omitted: PUZZLE holds the answer)"
    c.add_argument("answer", nargs="?", metavar="ANSWER", help=text)
    text = "also prove that the puzzle has no other answer (solves it)"
    c.add_argument("--unique", action="store_true", help=text)
    text = "the answer's format (detected when omitted: grid, pzprv3, penpa)"
    c.add_argument("--answer-format", metavar="FORMAT", help=text)
    c.add_argument("--json", action="store_true", help=JSON_HELP)
    text = "time limit for the whole run (--unique's solve)"
    c.add_argument("--timeout", type=_seconds, metavar="S", help=text)


def _add_from_tatham(sub: Any) -> None:
    from .formats.tatham import families

    t = _command(sub, "from-tatham", list(families()))
    t.add_argument("game_id", metavar="GAME_ID", help="e.g. 10x10:BbWmWWcW... (quote it)")


def _add_solve(sub: Any) -> None:
    """The ``solve`` command: its flags for the solvers' options come from their declarations."""
    from .solvers import names, spec_of

    defaults = "the family's, auto for every family (many Sudokus: auto on DLX's batch path)"
    # The model counter counts only (and needs an extra): offered by solve for --count alone.
    offered = [*names(), *COUNTING_ONLY]
    backends = "; ".join(f"{n}: {spec_of(n).summary}" for n in offered)
    s = _command(sub, "solve")
    s.add_argument("file", nargs="?", help="puzzle file ('-' or omitted: stdin)")
    text = f"the solver ({backends}); default: {defaults}"
    s.add_argument("--backend", choices=offered, help=text)
    _modes(
        s,
        ("--unique", "look for two answers (the default)"),
        ("--count", "count every answer (auto: by the family's own counter where it has one)"),
        ("--all", "list every answer"),
    )
    s.add_argument("--json", action="store_true", help=JSON_HELP)
    s.add_argument("--timeout", type=_seconds, metavar="S", help=TIMEOUT_HELP)
    text = "solve again with these backends (comma-separated; default dlx) within the same "
    text += "time limit and compare; exit 4 on a difference"
    s.add_argument("--crosscheck", nargs="?", const="dlx", metavar="BACKENDS", help=text)
    s.add_argument("--quiet", action="store_true", help="text output: no drawing of the answer")
    text = "a file of many puzzles: answer every good one, report each bad one with its line on "
    text += "stderr, exit 2 at the end (default: a bad one stops the run before any answer)"
    s.add_argument("--keep-going", action="store_true", help=text)
    text = "write a certificate of the unique answer (or of no answer) to the folder PATH: "
    text += "the CNF, the rules' cuts used as premises, a DRAT proof (sat backend; "
    text += "'dlxsat verify' checks it)"
    s.add_argument("--certify", metavar="PATH", help=text)
    add_solver_options(s, also=COUNTING_ONLY)
    _loop_rule_flag(s)


#: Backends ``solve`` offers besides the public ones: for ``--count`` only.
COUNTING_ONLY = ("counter",)

#: ``solve xcc FILE --loop``: the single-loop rule with the backend's default loop mode.
LOOP_RULE = "rule"


def _loop_rule_flag(p: argparse.ArgumentParser) -> None:
    """``--loop`` without a value: exact-cover data (``xcc``) obey the single-loop rule, as
    ``dlx --loop`` does; ``--loop MODE`` does so with that loop mode of the backend."""
    for action in p._actions:
        if "--loop" in action.option_strings:
            action.nargs = "?"
            action.const = LOOP_RULE
            action.help = f"xcc: apply the single-loop rule (MODE: with this mode); {action.help}"


#: ``verify --checker``'s choices: :data:`dlxsat.certify.CHECKERS`, named here so that building
#: the parser does not import :mod:`dlxsat.certify` and the pipeline behind it (60-120 ms of
#: every ``dlxsat --help``; ``tests/test_certify.py`` checks that the two agree).
CHECKERS = ("auto", "cake_lpr", "drat-trim", "dratify")


def _add_verify(sub: Any) -> None:
    v = _command(sub, "verify")
    v.add_argument("file", metavar="PUZZLE", help="puzzle file or URL ('-': stdin)")
    v.add_argument("certificate", metavar="PATH", help="the folder 'solve --certify' wrote")
    text = (
        "the proof checker (auto: cake_lpr on drat-trim's LRAT proof when both are on the "
        "PATH, else drat-trim when it is, else dratify)"
    )
    v.add_argument("--checker", choices=CHECKERS, default="auto", help=text)
    v.add_argument("--json", action="store_true", help=JSON_HELP)
    text = "xcc: the problem with the single-loop rule, as solve --loop certified it"
    v.add_argument("--loop", action="store_true", help=text)
    text = "sudoku without box lines: the standard boxes, as solve --boxes certified it"
    v.add_argument("--boxes", choices=["standard"], help=text)


def _add_instance(sub: Any) -> None:
    i = _command(sub, "instance", None)
    i.add_argument("name", metavar="FAMILY", help="queens, langford, pentominoes, ... or list")
    i.add_argument("args", nargs="*", metavar="ARG", help="the family's whole-number arguments")


def add_solver_options(
    p: argparse.ArgumentParser,
    backend: str | None = None,
    keys: tuple[str, ...] = (),
    also: tuple[str, ...] = (),
) -> None:
    """A flag for each declared solver option (of ``backend`` only, or of every solver).

    The help of a flag names the solvers that take it, with their choices and defaults. Flags
    not given are left out of the namespace (``SUPPRESS``), so that ``cli._solver_options`` sees
    exactly what the user typed, and a flag the chosen solver does not take can be refused.
    """
    from .solvers import names, options_of

    group = p.add_argument_group("solver options")
    seen: dict[str, list[tuple[str, Any]]] = {}
    for name in [backend] if backend else [*names(), *also]:
        for o in options_of(name):
            if not keys or o.key in keys:
                seen.setdefault(o.key, []).append((name, o))
    for key, users in seen.items():
        first = users[0][1]
        if backend:
            text = first.describe()
        else:
            text = "; ".join(f"{name}: {o.describe()}" for name, o in users)
        kwargs: dict[str, Any] = {"dest": "opt_" + key, "default": argparse.SUPPRESS, "help": text}
        if first.kind is bool:
            group.add_argument(first.flag, action="store_const", const="true", **kwargs)
        else:
            group.add_argument(first.flag, metavar=first.metavar or key.upper(), **kwargs)


def _add_compare(sub: Any) -> None:
    """The parser of ``dlxsat compare`` (settings are read by :mod:`dlxsat.compare.settings`)."""
    c = _command(sub, "compare")
    text = "files, folders, glob patterns"
    c.add_argument("puzzles", nargs="+", metavar="PUZZLE", help=text)
    text = "BACKEND[:key=v1,v2;key=v1...], e.g. 'sat:encoding=seqcounter,totalizer;"
    text += "loop=lazy,eager', 'cpsat:loop=circuit,lazy', dlx, 'external:cmd=cadical' "
    text += "(the cross product of the values; repeatable)"
    c.add_argument("--settings", action="append", default=[], metavar="SPEC", help=text)
    text = "named settings: every sat encoding, every loop mode, every search backend"
    presets = ["encodings", "loops", "backends"]
    c.add_argument("--preset", action="append", default=[], choices=presets, help=text)
    text = "the store (JSON Lines; default results.jsonl)"
    c.add_argument("-o", "--output", default="results.jsonl", metavar="RESULTS", help=text)
    text = "unique: look for two answers, as solve does (status unique, multiple or none); "
    text += "count: count every answer, as solve --count (default: unique)"
    c.add_argument("--mode", choices=["unique", "count"], default="unique", help=text)
    text = "per job (default 60); the worker is killed a little after it"
    c.add_argument("--timeout", type=_seconds, default=60.0, metavar="S", help=text)
    text = "data limit per job, as --memory of the other commands (default: none)"
    c.add_argument("--memory", type=_megabytes, default=None, metavar="MB", help=text)
    text = "jobs at once (default: every core)"
    c.add_argument("--jobs", type=_count, default=None, metavar="N", help=text)
    c.add_argument("--dask", metavar="ADDRESS", help="run on this Dask scheduler instead")
    text = "jobs one worker process runs before a fresh one replaces it (default: no limit; "
    text += "1: a fresh process for every job, a few ms more per job)"
    c.add_argument("--worker-jobs", type=_count, default=None, metavar="N", help=text)
    _modes(c, ("--resume", "skip stored jobs (the default)"), ("--redo", "run every job again"))
    c.add_argument("--quiet", action="store_true", help="no progress bar")
    text = "input format of the puzzles (detected when omitted, as solve does)"
    c.add_argument("--format", dest="input_format", metavar="FORMAT", help=text)
    text = "xcc: every job applies the single-loop rule (as dlx --loop), each setting with its "
    c.add_argument("--loop", action="store_true", help=text + "loop mode (loop=...)")


def _add_format_options(sub: Any, built: list[str]) -> None:
    """``--format`` for the commands that read puzzles; ``--boxes``, ``--svg``, ``--png``."""
    from .formats import FORMATS

    text = "input format (detected when omitted; knuth when nothing else fits)"
    for name in ("encode", "solve", "export", "decode", "crosscheck", "check", "verify"):
        if name in built:  # dest: export already has a positional "format" (dimacs)
            sub.choices[name].add_argument(
                "--format", dest="input_format", choices=sorted(FORMATS), help=text
            )
    text = "sudoku without box lines: add the standard boxes (3x3 for 9, 2x3 for 6, 2x4 for "
    text += "8, 2x5 for 10, 3x4 for 12) instead of solving a Latin square"
    if "solve" in built:
        sub.choices["solve"].add_argument("--boxes", choices=["standard"], help=text)
    text = "which of the family's sets of rules to state (fillomino: standard, the default for "
    text += "solving, or knuth: no region larger than the largest given number, his data, the "
    text += "default for encode; kurotto: standard, the default, or touching: every block also "
    text += "touches a number)"
    for name in ("encode", "solve", "export", "decode", "crosscheck", "check"):
        if name in built:
            sub.choices[name].add_argument("--rules", metavar="RULES", help=text)
    for name in ("solve", "decode"):
        if name in built:
            sub.choices[name].add_argument("--svg", metavar="FILE", help="draw the answer as SVG")
            sub.choices[name].add_argument("--png", metavar="FILE", help="draw the answer as PNG")


def _add_convert(sub: Any) -> None:
    from .formats import WRITERS

    v = _command(sub, "convert")
    v.add_argument("file", nargs="?", help="puzzle file ('-' or omitted: stdin)")
    v.add_argument("--to", required=True, choices=WRITERS, help="output format")
    v.add_argument("--format", dest="input_format", help="input format (detected when omitted)")
    v.add_argument("-o", "--output", metavar="OUT", help="output file (stdout when omitted)")
    text = "solve each puzzle and write its answer too, so that a player opens the solved board: "
    text += "--to pzprv3 (pzprjs's file, which puz.link opens) or --to penpa; puz.link URLs hold "
    v.add_argument("--with-answer", action="store_true", help=text + "no answer")


def _add_generate(sub: Any) -> None:
    from .families import specs

    n = _command(sub, "generate", [f.name for f in specs() if f.generator is not None])
    n.add_argument("size", metavar="ROWSxCOLS", help="board size, rows first (e.g. 8x10)")
    text = "random seed; default: a new one, printed on stderr"
    n.add_argument("--seed", type=int, default=None, help=text)
    text = "seconds. At 70%% of them the removal of circles stops and the puzzle so far (its "
    text += "answer still unique) is printed, after a last check of uniqueness; if by then no "
    text += "loop with a unique answer was found (large boards), or the run ends before the "
    text += "last check does, exit 3 with no puzzle and a line saying so. Default: none"
    n.add_argument("--timeout", type=_seconds, metavar="S", help=text)


def _add_report(sub: Any) -> None:
    r = _command(sub, "report", None)
    r.add_argument("stores", nargs="+", metavar="RESULTS", help="results store(s)")
    text = "the table's format (default: markdown)"
    formats = ["markdown", "csv", "json"]
    r.add_argument("--format", choices=formats, default="markdown", help=text)
    r.add_argument("-o", "--output", metavar="FILE", help="write the table here, not to stdout")
    text = "also draw a plot (matplotlib)"
    r.add_argument("--plot", choices=["cactus", "scatter", "size"], help=text)
    r.add_argument("--plot-out", metavar="FILE", help="the plot's file: .png or .svg")
    r.add_argument("--x", metavar="SETTING", help="scatter: the setting on the x axis")
    r.add_argument("--y", metavar="SETTING", help="scatter: the setting on the y axis")
    r.add_argument("--title", help="the plot's title (and the --html page's)")
    text = "also write one self-contained web page: both tables (sortable, filterable) and the "
    r.add_argument("--html", metavar="FILE", help=text + "plots (with matplotlib)")
    text = "time limit of jobs whose record has none (for PAR-2 and the plots' border)"
    r.add_argument("--timeout", type=_seconds, metavar="S", help=text)


def _add_limit_flags(sub: Any, built: list[str]) -> None:
    """``--timeout`` (where a command lacks it) and ``--memory`` for every command."""
    for parser in (sub.choices[name] for name in built):
        flags = {s for a in parser._actions for s in a.option_strings}
        if "--timeout" not in flags:
            text = "time limit for the whole run"
            parser.add_argument("--timeout", type=_seconds, metavar="S", help=text)
        if "--memory" in flags:  # compare: a limit per job of its own
            continue
        text = "memory limit (default: 75%% of the memory available)"
        parser.add_argument("--memory", type=_megabytes, metavar="MB", help=text)


#: The function that declares each command's parser (:func:`build_parser`).
BUILDERS = {
    "encode": _add_encode,
    "dlx": _add_dlx,
    "solve": _add_solve,
    "export": _add_export,
    "decode": _add_decode,
    "crosscheck": _add_crosscheck,
    "check": _add_check,
    "from-tatham": _add_from_tatham,
    "compare": _add_compare,
    "generate": _add_generate,
    "instance": _add_instance,
    "convert": _add_convert,
    "report": _add_report,
    "verify": _add_verify,
}
