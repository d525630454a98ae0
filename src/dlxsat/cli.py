"""The ``dlxsat`` command line (docs/conventions.md §5): argument parsing and printing only.

Exit status: 0 done; 1 internal error (a bug: an answer that fails its rule check); 2 bad input
or usage; 3 time limit reached (partial figures still printed); 4 crosscheck disagreement (or
the portfolio's members disagree); 130 interrupted (SIGINT); 143 terminated (SIGTERM).
Output is assembled in full before anything is written, so an error never leaves half a
result on stdout or in an output file.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from . import __version__, limits
from .errors import Disagreement, InputError, RuleViolation, SolverFailure
from .families import FAMILIES, TATHAM_GAMES
from .runtime.deadline import Deadline

EXIT_OK, EXIT_BUG, EXIT_INPUT, EXIT_TIMEOUT, EXIT_DISAGREE = 0, 1, 2, 3, 4
#: The shell's statuses for a run stopped by SIGINT (Ctrl-C) and SIGTERM: 128 + the signal.
EXIT_INTERRUPTED, EXIT_TERMINATED = 130, 143


class _Parser(argparse.ArgumentParser):
    """argparse, but usage errors are one line and exit status 2 like every other input error."""

    def error(self, message: str) -> None:  # type: ignore[override]
        # "dlxsat: error: " is printed by main(); name only the subcommand, if any.
        where = self.prog.partition(" ")[2]
        raise InputError(f"{where}: {message}" if where else message)


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive: {text!r}")
    return value


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
    if int(text) > limits.MAX_COUNT:
        raise argparse.ArgumentTypeError(f"too large: {text} (at most {limits.MAX_COUNT})")
    return int(text)


TIMEOUT_HELP = "time limit in seconds for the whole run; default: none"


def _add_solve(sub: Any) -> None:
    """The ``solve`` command: its flags for the solvers' options come from their declarations."""
    from .pipeline import BATCH_BACKEND, DEFAULT_BACKEND
    from .solvers import names, spec_of

    defaults = ", ".join(f"{f} {b}" for f, b in DEFAULT_BACKEND.items())
    defaults += "; for a file of many puzzles: " + ", ".join(
        f"{f} {b}" for f, b in BATCH_BACKEND.items()
    )
    backends = "; ".join(f"{n}: {spec_of(n).summary}" for n in names())
    s = sub.add_parser("solve", help="solve a puzzle with a chosen backend")
    s.add_argument("family", choices=FAMILIES)
    s.add_argument("file", nargs="?", help="puzzle file ('-' or omitted: stdin)")
    s.add_argument(
        "--backend",
        choices=names(),
        help=f"the solver ({backends}); default: {defaults}",
    )
    g = s.add_mutually_exclusive_group()
    g.add_argument("--unique", action="store_true", help="look for two answers (the default)")
    g.add_argument("--count", action="store_true", help="count every answer")
    g.add_argument("--all", action="store_true", help="list every answer")
    s.add_argument("--json", action="store_true", help="one JSON object on stdout")
    s.add_argument("--timeout", type=_seconds, metavar="S", help=TIMEOUT_HELP)
    s.add_argument(
        "--crosscheck",
        nargs="?",
        const="dlx",
        metavar="BACKENDS",
        help="solve again with these backends (comma-separated; default dlx) within the same "
        "time limit and compare; exit 4 on a difference",
    )
    s.add_argument("--quiet", action="store_true", help="text output: no drawing of the answer")
    s.add_argument(
        "--keep-going",
        action="store_true",
        help="a file of many puzzles: answer every good one, report each bad one with its line "
        "on stderr, exit 2 at the end (default: a bad one stops the run before any answer)",
    )
    _add_solver_options(s)


def _add_solver_options(
    p: argparse.ArgumentParser, backend: str | None = None, keys: tuple[str, ...] = ()
) -> None:
    """A flag for each declared solver option (of ``backend`` only, or of every solver).

    The help of a flag names the solvers that take it, with their choices and defaults. Flags
    not given are left out of the namespace (``SUPPRESS``), so that :func:`_solver_options` sees
    exactly what the user typed, and a flag the chosen solver does not take can be refused.
    """
    from .solvers import names, options_of

    group = p.add_argument_group("solver options")
    seen: dict[str, list[tuple[str, Any]]] = {}
    for name in [backend] if backend else names():
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


def _solver_options(a: argparse.Namespace, backend: str) -> dict[str, Any]:
    """The solver options the user typed, read by ``backend``'s declarations (checked as a
    whole by the pipeline, against its spec)."""
    from .solvers import spec_of

    typed = {d[4:]: text for d, text in sorted(vars(a).items()) if d.startswith("opt_")}
    return spec_of(backend).parse(typed, spelling="flag")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="dlxsat",
        description="Pencil puzzles as Knuth's exact-cover problems, solved by dancing links, "
        "SAT and CP-SAT.",
    )
    p.add_argument("--version", action="version", version=f"dlxsat {__version__}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    e = sub.add_parser("encode", help="print Knuth's exact-cover (DLX) data for a puzzle")
    e.add_argument("family", choices=FAMILIES)
    e.add_argument("file", nargs="?", help="puzzle file (stdin when omitted)")

    d = sub.add_parser("dlx", help="solve DLX/XCC/MCC data with the native dancing-links solver")
    d.add_argument("file", nargs="?", help="DLX file (stdin when omitted)")
    d.add_argument("--loop", action="store_true", help="edges of color 1 must form one cycle")
    g = d.add_mutually_exclusive_group()
    g.add_argument("--count", action="store_true", help="count the solutions (the default)")
    g.add_argument("--all", action="store_true", help="print every solution")
    g.add_argument("--first", type=_count, metavar="K", help="print the first K solutions")
    d.add_argument(
        "--json",
        action="store_true",
        help="one JSON object on stdout (with the solutions' options under --all/--first)",
    )
    d.add_argument("--timeout", type=_seconds, metavar="S", help=TIMEOUT_HELP)

    _add_solve(sub)

    x = sub.add_parser("export", help="export a puzzle's exact-cover problem for other solvers")
    x.add_argument("format", choices=["dimacs"])
    x.add_argument("family", choices=FAMILIES)
    x.add_argument("file", nargs="?", help="puzzle file ('-' or omitted: stdin)")
    _add_export_corpus(x)
    x.add_argument("-o", "--output", metavar="OUT", help="output file (stdout when omitted)")
    _add_solver_options(x, backend="sat", keys=("encoding", "colors"))
    x.add_argument(
        "--loop",
        choices=["none", "eager"],
        default=None,
        help="none: disjoint loops allowed (like DLX2); eager: complete encoding "
        "(default for loop families)",
    )

    m = sub.add_parser("decode", help="turn a SAT solver's model of an exported CNF into an answer")
    m.add_argument("family", choices=FAMILIES)
    m.add_argument("file", help="puzzle file")
    m.add_argument("model", help="solver output with s/v lines ('-' for stdin)")
    m.add_argument("--json", action="store_true", help="one JSON object on stdout")

    c = sub.add_parser("crosscheck", help="solve with several backends and compare")
    c.add_argument("family", choices=FAMILIES)
    c.add_argument("files", nargs="+", metavar="FILE")
    c.add_argument(
        "--backends", default="dlx,sat,cpsat", help="comma-separated; default: dlx,sat,cpsat"
    )
    c.add_argument(
        "--timeout", type=_seconds, metavar="S", help="per backend and puzzle; default: none"
    )
    c.add_argument("--json", action="store_true", help="one JSON array on stdout")

    t = sub.add_parser(
        "from-tatham",
        help="turn a game id of Simon Tatham's Pearl, Loopy or Solo into a puzzle file",
        description="Print the puzzle text (Knuth's input format) of a game id of Simon "
        "Tatham's Pearl (masyu), Loopy (slitherlink, square grid) or Solo (sudoku), as "
        "'sgt-pearl --generate 1 10x10' and the like print them.",
    )
    t.add_argument("family", choices=list(TATHAM_GAMES))
    t.add_argument("game_id", metavar="GAME_ID", help="e.g. 10x10:BbWmWWcW... (quote it)")

    _add_compare(sub)
    _add_generate(sub)
    _add_format_options(sub)
    _add_convert(sub)
    _add_report(sub)
    _add_limit_flags(sub)
    return p


def _add_export_corpus(x: argparse.ArgumentParser) -> None:
    """The arguments of a corpus export (``export dimacs FAMILY PUZZLES... -o DIR --settings``)."""
    x.add_argument(
        "more",
        nargs="*",
        metavar="PUZZLE",
        help="more puzzles, folders, globs: a corpus export into the folder -o DIR, one CNF per "
        "puzzle and setting, plus manifest.json",
    )
    x.add_argument(
        "--settings",
        action="append",
        default=[],
        metavar="SPEC",
        help="corpus export: 'sat:encoding=E1,E2;colors=C' (the CNFs to write)",
    )
    x.add_argument(
        "--timeout", type=_seconds, metavar="S", help="corpus export: per puzzle, to solve it"
    )


def _add_compare(sub: Any) -> None:
    """The parser of ``dlxsat compare`` (settings are read by :mod:`dlxsat.compare.settings`)."""
    c = sub.add_parser(
        "compare",
        help="run a grid of solver settings over puzzles, record every job, cross-check",
        description="Each puzzle with each setting is one job, run in a worker process with "
        "a time and memory limit (a worker runs jobs one after another; one that passes a "
        "limit or fails is replaced); each job's record is appended to a JSON Lines store. "
        "Jobs already in the store are skipped. Finished jobs of one puzzle must agree "
        "(exit status 4 otherwise; 3 when a job of this run reached its time or memory "
        "limit).",
    )
    c.add_argument("family", choices=FAMILIES)
    c.add_argument("puzzles", nargs="+", metavar="PUZZLE", help="files, folders, glob patterns")
    c.add_argument(
        "--settings",
        action="append",
        default=[],
        metavar="SPEC",
        help="BACKEND[:key=v1,v2;key=v1...], e.g. 'sat:encoding=seqcounter,totalizer;"
        "loop=lazy,eager', 'cpsat:loop=circuit,lazy', dlx, 'external:cmd=cadical' "
        "(the cross product of the values; repeatable)",
    )
    c.add_argument(
        "--preset",
        action="append",
        default=[],
        choices=["encodings", "loops", "backends"],
        help="named settings: every sat encoding, every loop mode, every search backend",
    )
    c.add_argument(
        "-o",
        "--output",
        default="results.jsonl",
        metavar="RESULTS",
        help="the store (JSON Lines; default results.jsonl)",
    )
    c.add_argument(
        "--mode",
        choices=["unique", "count"],
        default="unique",
        help="unique: look for two answers, as solve does (status unique, multiple or none); "
        "count: count every answer, as solve --count (default: unique)",
    )
    c.add_argument(
        "--timeout",
        type=_seconds,
        default=60.0,
        metavar="S",
        help="per job (default 60); the worker is killed a little after it",
    )
    c.add_argument(
        "--memory",
        type=_megabytes,
        default=None,
        metavar="MB",
        help="data limit per job, as --memory of the other commands (default: none)",
    )
    c.add_argument(
        "--jobs", type=_count, default=None, metavar="N", help="jobs at once (default: every core)"
    )
    c.add_argument("--dask", metavar="ADDRESS", help="run on this Dask scheduler instead")
    c.add_argument(
        "--worker-jobs",
        type=_count,
        default=None,
        metavar="N",
        help="jobs one worker process runs before a fresh one replaces it (default: no limit; "
        "1: a fresh process for every job, a few ms more per job)",
    )
    g = c.add_mutually_exclusive_group()
    g.add_argument("--resume", action="store_true", help="skip stored jobs (the default)")
    g.add_argument("--redo", action="store_true", help="run every job again")
    c.add_argument("--quiet", action="store_true", help="no progress bar")
    c.add_argument(
        "--format",
        dest="input_format",
        metavar="FORMAT",
        help="input format of the puzzles (detected when omitted, as solve does)",
    )


def _add_format_options(sub: Any) -> None:
    """``--format`` for the commands that read puzzles; ``--boxes``, ``--svg``, ``--png``."""
    from .formats import FORMATS

    for name in ("encode", "solve", "export", "decode", "crosscheck"):
        sub.choices[name].add_argument(
            "--format",
            dest="input_format",  # export already has a positional "format" (dimacs)
            choices=sorted(FORMATS),
            help="input format (detected when omitted; knuth when nothing else fits)",
        )
    sub.choices["solve"].add_argument(
        "--boxes",
        choices=["standard"],
        help="sudoku without box lines: add the standard boxes (3x3 for 9, 2x3 for 6, "
        "2x4 for 8, 2x5 for 10, 3x4 for 12) instead of solving a Latin square",
    )
    for name in ("solve", "decode"):
        sub.choices[name].add_argument("--svg", metavar="FILE", help="draw the answer as SVG")
        sub.choices[name].add_argument("--png", metavar="FILE", help="draw the answer as PNG")


def _add_convert(sub: Any) -> None:
    from .formats import WRITERS

    v = sub.add_parser(
        "convert",
        help="write a puzzle in another format (knuth, puzzlink, grid, oneline)",
        description="Read puzzles (any format, or --format) and write each in the format of "
        "--to, one record per puzzle.",
    )
    v.add_argument("family", choices=FAMILIES)
    v.add_argument("file", nargs="?", help="puzzle file ('-' or omitted: stdin)")
    v.add_argument("--to", required=True, choices=WRITERS, help="output format")
    v.add_argument("--format", dest="input_format", help="input format (detected when omitted)")
    v.add_argument("-o", "--output", metavar="OUT", help="output file (stdout when omitted)")
    v.add_argument(
        "--with-answer",
        action="store_true",
        help="solve each puzzle and write its answer too, so that a player opens the solved "
        "board: --to pzprv3 (pzprjs's file, which puz.link opens) or --to penpa; puz.link URLs "
        "hold no answer",
    )


def _megabytes(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 1 << 40:
        raise argparse.ArgumentTypeError(f"not a number of megabytes: {text!r}")
    return int(text)


def _add_limit_flags(sub: Any) -> None:
    """``--timeout`` (where a command lacks it) and ``--memory`` for every command."""
    for parser in sub.choices.values():
        flags = {s for a in parser._actions for s in a.option_strings}
        if "--timeout" not in flags:
            parser.add_argument(
                "--timeout", type=_seconds, metavar="S", help="time limit for the whole run"
            )
        if "--memory" in flags:  # compare: a limit per job of its own
            continue
        parser.add_argument(
            "--memory",
            type=_megabytes,
            metavar="MB",
            help="memory limit (default: 75%% of the memory available)",
        )


def _emit(text: str) -> None:
    if sys.stdout is None:
        raise InputError("stdout is closed: nowhere to write the output")
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as e:  # a full disk, `> /dev/full`, a closed descriptor
        _silence_stdout()
        raise InputError(f"cannot write to stdout: {e.strerror or e}") from None


def _write_file(path: str, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (temporary file, then rename)."""
    from .outputs import atomic_output

    with atomic_output(path) as f:
        f.write(text)


def _short(value: Any) -> str:
    """A statistic for people: floats to four significant digits, the rest as they are."""
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def _warn(warnings: list[str], most: int = 3) -> None:
    """Print the first few warnings on stderr, and how many more there were."""
    for w in warnings[:most]:
        print(f"dlxsat: warning: {w}", file=sys.stderr)
    if len(warnings) > most:
        print(f"dlxsat: warning: ... and {len(warnings) - most} more like these", file=sys.stderr)


def cmd_encode(a: argparse.Namespace) -> int:
    from .families import get_family
    from .formats import read

    fam = get_family(a.family)
    puzzle = read(a.family, _puzzle_text(a.file), a.input_format)
    _warn(list(getattr(puzzle, "warnings", ())))
    _emit(fam.encode(puzzle))
    return EXIT_OK


def cmd_dlx(a: argparse.Namespace) -> int:
    from .families import superslitherlink
    from .inputs import read_text
    from .pipeline import CHECK_RESERVE
    from .solvers import Request, get_solver
    from .xcc import parse

    text = read_text(a.file, "DLX")
    # Knuth's SuperSlitherlink data names undeclared letters of clue 0: that family's rule
    # reads it; any other unknown item is an input error of the general reader.
    problem = superslitherlink.problem_from_data(text) or parse(text)
    _warn(problem.warnings)
    limit = a.first if a.first else None
    keep = None if (a.all or a.first) else 0
    limits.set_phase("searching", "dlx")
    # (part of the time left is kept for checking and printing, as pipeline.solve keeps it)
    search = a.deadline.reserve(CHECK_RESERVE, 0.5)
    if search.expired():
        raise limits.TimeUp()
    request = Request(loop=a.loop, limit=limit, keep=keep, deadline=search, on_found=limits.found)
    r = get_solver("dlx").solve(problem, request, {})
    st = r.stats
    limits.set_phase("checking and printing the solutions")
    if a.json:
        checked = _checked_solutions(problem, r.solutions, a.loop, a.deadline)
        data: dict[str, Any] = {
            "count": r.count,
            "complete": not r.timed_out and checked == len(r.solutions),
            "exhaustive": r.exhausted,
            "checked": checked,
            "nodes": st.get("nodes"),
            "updates": st.get("updates"),
            "seconds": round(st.get("seconds", 0.0), 6),
        }
        if a.all or a.first:
            data["solutions"] = [[problem.option_text(i) for i in c] for c in r.solutions[:checked]]
        _emit(json.dumps(data) + "\n")
        return EXIT_TIMEOUT if r.timed_out or checked < len(r.solutions) else EXIT_OK
    printed = _print_solutions(problem, r.solutions, a.loop, a.deadline)
    note = " (time limit reached)" if r.timed_out else ""
    if printed < len(r.solutions):
        note = f" (time limit reached: {printed} of them checked and printed)"
    _emit(
        f"{r.count} solution{'s' if r.count != 1 else ''}, {st.get('nodes', 0)} nodes, "
        f"{st.get('updates', 0)} updates, {_short(st.get('seconds', 0.0))} s{note}\n"
    )
    return EXIT_TIMEOUT if r.timed_out or printed < len(r.solutions) else EXIT_OK


def _checked_solutions(
    problem: Any,
    solutions: list[list[int]],
    loop: bool,
    deadline: Deadline,
    seen: set | None = None,
) -> int:
    """Check each solution is an exact cover of ``problem`` (one loop, with ``loop``) and none
    comes twice, until the deadline; how many were checked (``xcc.check.check_solutions``)."""
    from .xcc.check import check_solutions

    return check_solutions(problem, solutions, loop=loop, stop=deadline.expired, seen=seen)


def _print_solutions(
    problem: Any, solutions: list[list[int]], loop: bool, deadline: Deadline
) -> int:
    """Check and print the solutions in Knuth's layout until the deadline; how many printed."""
    chunk: list[str] = []
    seen: set[tuple[int, ...]] = set()
    for n, chosen in enumerate(solutions):
        if deadline.expired():
            _emit("".join(chunk))
            return n
        _checked_solutions(problem, [chosen], loop, deadline, seen)
        chunk.append(f"{n + 1}:\n" + "".join(f" {problem.option_text(i)}\n" for i in chosen))
        if len(chunk) >= 256:
            _emit("".join(chunk))
            chunk.clear()
    _emit("".join(chunk))
    return len(solutions)


def cmd_solve(a: argparse.Namespace) -> int:
    from .families import get_family
    from .pipeline import crosscheck_report, default_backend, solve

    text = _puzzle_text(a.file)
    puzzles = _solve_inputs(a, text)
    backend = a.backend or default_backend(a.family, many=len(puzzles) > 1)
    options = _solver_options(a, backend)
    others = _backend_list(a.crosscheck) if a.crosscheck else []
    mode = "count" if a.count else "all" if a.all else "unique"
    if len(puzzles) > 1 or a.records is not None:
        return _solve_batch(a, puzzles, mode, backend, options)
    text = puzzles[0]  # the puzzle object, read once
    report = solve(
        a.family,
        text,
        backend=backend,
        mode=mode,
        timeout=a.timeout,
        deadline=a.deadline,
        **options,
    )
    checks = crosscheck_report(a.family, text, report, others, mode=mode, deadline=a.deadline)
    if a.json:
        data = report.to_json()
        # A reasoning solver's steps as data (strategy, cells, 1-based) when it gives them.
        data["stats"] = dict(data["stats"])
        steps = data["stats"].pop("steps", None)
        if steps or report.steps:
            data["steps"] = steps if isinstance(steps, list) else report.steps
        if a.crosscheck:
            data["crosscheck"] = [c.to_json() for c in checks]
        out = json.dumps(data) + "\n"
    else:
        lines = list(report.steps)
        count = "?" if report.count is None else report.count
        lines.append(
            f"{report.status}: {count} solution{'s' if report.count != 1 else ''} "
            f"({report.family}, backend {report.backend}, {report.seconds:.3f} s)"
        )
        lines.extend(_checked_note(report))
        if report.stats:
            lines.append(
                "stats: "
                + ", ".join(
                    f"{k}={_short(v)}"
                    for k, v in report.stats.items()
                    if not isinstance(v, (dict, list))
                )
            )
        for c in checks:
            verdict = "agrees" if c.agree else f"DISAGREES: {c.difference}"
            lines.append(
                f"crosscheck: {c.backend} {verdict} ({c.status}, {c.count} found, "
                f"{c.seconds:.3f} s)"
            )
        if not a.quiet and report.solutions:
            family = get_family(a.family)
            puzzle = text  # the puzzle object (rendered as it is, not read and encoded again)
            for k, answer in enumerate(report.solutions, 1):
                if len(report.solutions) > 1:
                    lines.append(f"solution {k}:")
                lines.append(_fit(family.render(puzzle, answer).rstrip("\n")))
        out = "\n".join(lines) + "\n"
    _draw(a, text, report.solutions)
    _emit(out)
    if any(not c.agree for c in checks):
        return EXIT_DISAGREE
    timed_out = report.status == "timeout" or any(c.status == "timeout" for c in checks)
    return EXIT_TIMEOUT if timed_out else EXIT_OK


def _backend_list(text: str) -> list[str]:
    """A comma-separated list of search backends, each checked against the registry."""
    from .solvers import search_solvers

    names = [b.strip() for b in text.split(",") if b.strip()]
    known = search_solvers()
    for b in names:
        if b not in known:
            raise InputError(f"unknown backend {b!r} (choose from {', '.join(known)})")
    if not names:
        raise InputError("no backend named (e.g. dlx,sat)")
    return names


def _checked_note(report: Any) -> list[str]:
    """Say plainly when fewer answers were checked against the rules than were counted."""
    checked = report.stats.get("checked")
    if checked is None or report.count is None or checked >= report.count:
        return []
    return [f"checked: the first {checked} of the {report.count} answers against the rules"]


def cmd_export(a: argparse.Namespace) -> int:
    from .backends import dimacs
    from .inputs import read_text
    from .outputs import atomic_output
    from .pipeline import prepare

    if a.settings or a.more:
        return cmd_export_corpus(a)
    prep = prepare(a.family, read_text(a.file, "puzzle"), a.input_format)
    loop = a.loop or ("eager" if prep.family.LOOP else "none")
    if loop == "eager" and not prep.family.LOOP:
        raise InputError(f"--loop eager: {a.family} is not a loop puzzle; use --loop none")
    from .pipeline import check_model_fits

    check_model_fits(prep, "export")
    limits.set_phase("writing the CNF")
    settings = dict(
        source=f"{a.family} {a.file or '-'}",
        **_solver_options(a, "sat"),  # --encoding and --colors
        loop=loop,
        loop_required=prep.family.LOOP,
    )
    if a.output:
        with atomic_output(a.output) as f:
            dimacs.write_dimacs(prep.problem, f, **settings)
    else:  # streamed: the model is built (and every option checked) before the first line
        dimacs.write_dimacs(prep.problem, _StdoutWriter(), **settings)  # type: ignore[arg-type]
    return EXIT_OK


class _StdoutWriter:
    """A file-like ``write`` that goes through :func:`_emit` (its checks and error messages)."""

    def write(self, text: str) -> int:
        _emit(text)
        return len(text)


def cmd_export_corpus(a: argparse.Namespace) -> int:
    from .compare.export import export_corpus

    if not a.output:
        raise InputError("export of several puzzles or settings: give the folder, -o DIR")
    if a.file is None:
        raise InputError("export of a corpus: name its puzzle files, folders or globs")
    if hasattr(a, "opt_encoding") or hasattr(a, "opt_colors") or a.loop:
        raise InputError("export of a corpus: give --encoding/--colors in --settings 'sat:...'")
    entries = export_corpus(
        a.family,
        [a.file, *a.more],
        a.settings,
        a.output,
        timeout=a.timeout,
        format=a.input_format,
    )
    _emit(f"{len(entries)} CNF files and manifest.json written to {a.output}\n")
    return EXIT_OK


def cmd_decode(a: argparse.Namespace) -> int:
    from .backends import dimacs
    from .inputs import read_text
    from .pipeline import prepare

    prep = prepare(a.family, read_text(a.file, "puzzle"), a.input_format)
    status, true_vars = dimacs.read_solver_output(read_text(a.model, "solver output"))
    if status != "SATISFIABLE":
        out = {"family": a.family, "status": "none", "count": 0, "solutions": []}
        _emit(json.dumps(out) + "\n" if a.json else f"no answer: the solver said {status}\n")
        return EXIT_OK
    n = len(prep.problem.options)
    chosen = sorted(v - 1 for v in true_vars if 1 <= v <= n)
    answer = prep.family.decode(prep.puzzle, prep.problem, chosen)
    problems = prep.family.check(prep.puzzle, answer)
    if problems:
        raise InputError(
            f"{a.model}: the model is not an answer to this puzzle ({problems[0]}); "
            "was it exported with --loop none, or from another puzzle?"
        )
    _draw(a, prep.puzzle, [answer])
    if a.json:
        # The model holds one answer; whether the puzzle has others the solver did not say:
        # ``counted`` (dlxsat.STATUSES), counting the answers of this output.
        out = {"family": a.family, "status": "counted", "count": 1, "solutions": [answer]}
        _emit(json.dumps(out) + "\n")
    else:
        _emit(_fit(prep.family.render(prep.puzzle, answer).rstrip("\n")) + "\n")
    return EXIT_OK


def cmd_crosscheck(a: argparse.Namespace) -> int:
    from .crosscheck import crosscheck, format_table

    rows = crosscheck(
        a.family, a.files, _backend_list(a.backends), timeout=a.timeout, format=a.input_format
    )
    if a.json:
        _emit(json.dumps([r.to_json() for r in rows]) + "\n")
    else:
        _emit(format_table(rows))
    if any(not r.agree for r in rows):
        return EXIT_DISAGREE
    return EXIT_TIMEOUT if any(r.timed_out for r in rows) else EXIT_OK


def cmd_compare(a: argparse.Namespace) -> int:
    from .compare import compare, print_notes, print_outcome

    out = compare(
        a.family,
        a.puzzles,
        a.settings,
        a.preset,
        output=a.output,
        mode=a.mode,
        timeout=a.timeout,
        memory_mb=a.memory,
        jobs=a.jobs,
        dask=a.dask,
        redo=a.redo,
        quiet=a.quiet,
        format=a.input_format,
        worker_jobs=a.worker_jobs,
        on_plan=print_notes,
    )
    print_outcome(out, a.output)
    return out.exit_status


def cmd_from_tatham(a: argparse.Namespace) -> int:
    from .families import get_family

    fam = get_family(a.family)
    text = fam.from_tatham_id(a.game_id)
    fam.read(text)  # a puzzle the family's reader refuses is not printed
    _emit(text)
    return EXIT_OK


def _add_generate(sub: Any) -> None:
    n = sub.add_parser(
        "generate",
        help="make a new puzzle with a unique answer",
        description="Print a new Masyu puzzle with exactly one answer. The size is ROWSxCOLS, "
        "rows first as in every puzzle file (Tatham's game ids are WIDTHxHEIGHT: his 10x8 is "
        "our 8x10). Without --seed a seed is chosen and printed on stderr "
        "('dlxsat: seed N'), so the run can be repeated.",
    )
    n.add_argument("family", choices=["masyu"])
    n.add_argument("size", metavar="ROWSxCOLS", help="board size, rows first (e.g. 8x10)")
    n.add_argument(
        "--seed", type=int, default=None, help="random seed; default: a new one, printed on stderr"
    )
    n.add_argument(
        "--timeout",
        type=_seconds,
        metavar="S",
        help="seconds. At 70%% of them the removal of circles stops and the puzzle so far "
        "(its answer still unique) is printed, after a last check of uniqueness; if by then no "
        "loop with a unique answer was found (large boards), or the run ends before the last "
        "check does, exit 3 with no puzzle and a line saying so. Default: none",
    )


def cmd_generate(a: argparse.Namespace) -> int:
    from .generate import OutOfTime, generate_masyu, new_seed, parse_size

    rows, cols = parse_size(a.size)
    seed = a.seed
    if seed is None:
        seed = new_seed()
        print(f"dlxsat: seed {seed}", file=sys.stderr)
    # The removal of circles gets most of the run's time; the final check of uniqueness the
    # rest (the run's deadline stops it with exit status 3 if even that is not enough).
    budget = None if a.timeout is None else GENERATE_SHARE * a.timeout
    try:
        text = generate_masyu(rows, cols, seed=seed, timeout=budget)
    except OutOfTime as e:
        print(f"dlxsat: {e}", file=sys.stderr)
        return EXIT_TIMEOUT
    _emit(text)
    return EXIT_OK


#: ``generate --timeout S``: the share of S for removing circles.
GENERATE_SHARE = 0.7


def _puzzle_text(path: str | None) -> str:
    """The text of a puzzle file; a puz.link URL or a Tatham game id given in place of a file
    name (and naming no file) is the puzzle itself."""
    from .formats import puzzlink, tatham
    from .inputs import read_text

    if path not in (None, "-") and not os.path.exists(path):
        if puzzlink.looks_like("", path) or any(
            tatham.looks_like(f, path) for f in tatham.FAMILY_NAMES
        ):
            return path
    return read_text(path, "puzzle")


def _solve_inputs(a: argparse.Namespace, text: str) -> list[Any]:
    """The puzzles of a solve input: one, or a file of many (one per line, or records
    separated by empty lines). A sudoku without boxes gets them with ``--boxes standard``,
    and is otherwise solved as the Latin square it is in Knuth's format -- never silently."""
    from .formats import read_each, read_many

    a.records = None  # the record numbers of the puzzles, when --keep-going dropped some
    a.bad_records = []
    if getattr(a, "keep_going", False):
        each = read_each(a.family, text, a.input_format)
        a.bad_records = [(k, line, e) for k, line, e in each if isinstance(e, InputError)]
        puzzles = [p for _, _, p in each if not isinstance(p, InputError)]
        if a.bad_records or len(each) > 1:
            a.records = [k for k, _, p in each if not isinstance(p, InputError)]
    else:
        try:
            puzzles = read_many(a.family, text, a.input_format)
        except InputError as e:
            if str(e).startswith("record "):  # a file of many: say how to answer the rest
                raise InputError(f"{e} (--keep-going answers the other records)") from None
            raise
    if a.family != "sudoku" or not puzzles:
        return puzzles
    from .families import sudoku

    bare = [k for k, p in enumerate(puzzles) if not p.boxes]
    if bare and a.boxes == "standard":
        for k in bare:
            puzzles[k] = sudoku.with_standard_boxes(puzzles[k])
    elif bare:
        n = puzzles[bare[0]].n
        shape = sudoku.standard_box_shape(n)
        offer = (
            f"--boxes standard adds {shape[0]}x{shape[1]} boxes"
            if shape
            else f"an n={n} sudoku has no standard boxes; add box lines"
        )
        which = "it" if len(puzzles) == 1 else f"{len(bare)} of the {len(puzzles)} puzzles"
        print(
            f"dlxsat: note: no box lines, so {which} is a Latin square in Knuth's format "
            f"(rows and columns only); {offer}",
            file=sys.stderr,
        )
    return puzzles


def _answer_line(answer: dict) -> str:
    """An answer on one line: a sudoku's rows run together, a loop's edges as compact JSON."""
    if "grid" in answer:
        return "".join(answer["grid"])
    return json.dumps(answer["edges"], separators=(",", ":"))


def _solve_batch(
    a: argparse.Namespace, puzzles: list[Any], mode: str, backend: str, options: dict[str, Any]
) -> int:
    """Solve many puzzles, streaming one line (or one JSON object) per puzzle as each is done,
    with a progress bar on stderr when it is a terminal (not with ``--quiet``)."""
    from . import pipeline

    for flag, value in (("--svg", a.svg), ("--png", a.png), ("--crosscheck", a.crosscheck)):
        if value:
            raise InputError(f"{flag} is for one puzzle, but the input holds {len(puzzles)}")
    reports = pipeline.solve_many(
        a.family, puzzles, backend=backend, mode=mode, timeout=a.timeout, **options
    )
    show_bar = sys.stderr.isatty() and not a.quiet and len(puzzles) >= 20
    if show_bar:
        from .extras import wanted

        tqdm = wanted("tqdm", "progress bars")  # the extra dlxsat[progress]: no bar without it
        if tqdm is None:
            show_bar = False
        else:
            reports = tqdm.tqdm(reports, total=len(puzzles), file=sys.stderr, unit="puzzle")
    timed_out = False
    for k, line_no, e in a.bad_records:  # (--keep-going) each bad record, then the answers
        print(f"dlxsat: error: record {k} (line {line_no}): {e}", file=sys.stderr)
    numbers = a.records or range(1, len(puzzles) + 1)
    for k, report in zip(numbers, reports, strict=True):
        timed_out |= report.status == "timeout"
        if a.json:
            line = json.dumps({"record": k, **report.to_json()})
        else:
            answer = _answer_line(report.solutions[0]) if report.solutions else "-"
            line = f"{k} {report.status} {answer}"
        if show_bar:
            reports.write(line, file=sys.stdout)
        else:
            sys.stdout.write(line + "\n")
    sys.stdout.flush()
    if a.bad_records:
        n = len(a.bad_records)
        print(
            f"dlxsat: error: {n} of {n + len(puzzles)} records not read (see above); "
            f"{len(puzzles)} answered",
            file=sys.stderr,
        )
        return EXIT_INPUT
    return EXIT_TIMEOUT if timed_out else EXIT_OK


def _fit(drawing: str) -> str:
    """An ASCII drawing made to fit the terminal when stdout is one (files get it whole)."""
    if not sys.stdout.isatty():
        return drawing
    import shutil

    from .terminal import fit_to_width

    return fit_to_width(drawing, shutil.get_terminal_size().columns)


def _draw(a: argparse.Namespace, puzzle: Any, answers: list[dict]) -> None:
    """Write the pictures ``--svg``/``--png`` ask for: the puzzle and its first answer."""
    if not (getattr(a, "svg", None) or getattr(a, "png", None)):
        return
    from .pictures import save_picture
    from .pipeline import prepare

    prep = prepare(a.family, puzzle) if isinstance(puzzle, str) else None
    board = prep.puzzle if prep else puzzle
    answer = answers[0] if answers else None
    for path, kind in ((a.svg, "svg"), (a.png, "png")):
        if path:
            save_picture(a.family, board, answer, path, kind)


def cmd_convert(a: argparse.Namespace) -> int:
    from .formats import ANSWER_WRITERS, split_records, write
    from .formats import read as read_puzzle

    if a.with_answer and a.to not in ANSWER_WRITERS:
        why = (
            "a puz.link URL holds only the problem (pzprjs writes answers in its files, not its "
            "URLs)"
            if a.to == "puzzlink"
            else f"the {a.to} format holds no answer"
        )
        raise InputError(f"--with-answer: {why}; use --to {' or --to '.join(ANSWER_WRITERS)}")
    text = _puzzle_text(a.file)
    records = split_records(a.family, text, a.input_format)
    if not records:
        raise InputError(f"{a.file or 'stdin'}: no puzzle")
    outs = []
    for k, (line, record) in enumerate(records, 1):
        try:
            puzzle = read_puzzle(a.family, record, a.input_format)
            answer = _answer_to_write(a, puzzle, k, len(records)) if a.with_answer else None
            outs.append(write(a.family, puzzle, a.to, answer))
        except InputError as e:
            if len(records) == 1:
                raise
            raise InputError(f"record {k} (line {line}): {e}") from None
    per_line = a.to in ("puzzlink", "oneline", "penpa")
    out = ("" if per_line else "\n").join(outs)
    if a.output:
        _write_file(a.output, out)
    else:
        _emit(out)
    return EXIT_OK


def _answer_to_write(a: argparse.Namespace, puzzle: Any, k: int, total: int) -> Any:
    """The answer ``convert --with-answer`` writes: the puzzle solved with the default
    backend; a puzzle with no answer is an error, one with several gets the first (said on
    stderr)."""
    from .pipeline import solve

    report = solve(a.family, puzzle, timeout=a.timeout)
    where = f"record {k}: " if total > 1 else ""
    if report.status == "timeout":
        raise InputError(f"{where}the time limit was reached before an answer was found")
    if not report.solutions:
        raise InputError(f"{where}the puzzle has no answer to write")
    if report.status == "multiple":
        _warn([f"{where}the puzzle has more than one answer; writing the first found"])
    return report.solutions[0]


def _add_report(sub: Any) -> None:
    r = sub.add_parser(
        "report",
        help="tables and plots from results stores of 'dlxsat compare'",
        description="Read one or more results stores (JSON Lines, merged as if concatenated: "
        "the last record of a job wins) and print one row per setting: solved / jobs, PAR-2 "
        "score (unsolved jobs count twice the time limit), total / median / worst time of the "
        "solved jobs, mean variables / clauses / rounds, disagreements.",
    )
    r.add_argument("stores", nargs="+", metavar="RESULTS", help="results store(s)")
    r.add_argument(
        "--format",
        choices=["markdown", "csv", "json"],
        default="markdown",
        help="the table's format (default: markdown)",
    )
    r.add_argument("-o", "--output", metavar="FILE", help="write the table here, not to stdout")
    r.add_argument(
        "--plot", choices=["cactus", "scatter", "size"], help="also draw a plot (matplotlib)"
    )
    r.add_argument("--plot-out", metavar="FILE", help="the plot's file: .png or .svg")
    r.add_argument("--x", metavar="SETTING", help="scatter: the setting on the x axis")
    r.add_argument("--y", metavar="SETTING", help="scatter: the setting on the y axis")
    r.add_argument("--title", help="the plot's title (and the --html page's)")
    r.add_argument(
        "--html",
        metavar="FILE",
        help="also write one self-contained web page: both tables (sortable, filterable) and "
        "the plots (with matplotlib)",
    )
    r.add_argument(
        "--timeout",
        type=_seconds,
        metavar="S",
        help="time limit of jobs whose record has none (for PAR-2 and the plots' border)",
    )


def cmd_report(a: argparse.Namespace) -> int:
    from .report import coverage_warnings, read_store, render, summarize

    if a.plot and not a.plot_out:
        raise InputError(f"--plot {a.plot} needs --plot-out FILE.png or FILE.svg")
    if (a.x or a.y) and (a.plot or "cactus") != "scatter":
        raise InputError("--x and --y go with --plot scatter")
    if a.plot_out:
        from .plots import check_output

        check_output(a.plot_out)
    store = read_store(a.stores)
    warnings = store.warnings + coverage_warnings(store)
    rows = summarize(store, a.timeout)
    text = render(rows, store, warnings, a.format)
    if a.plot_out:
        from .plots import draw

        draw(a.plot or "cactus", store, a.plot_out, x=a.x, y=a.y, timeout=a.timeout, title=a.title)
    if a.html:
        from .htmlreport import write_html

        write_html(a.html, rows, store, warnings, a.timeout, a.title)
    _warn(warnings)
    if a.output:
        _write_file(a.output, text)
    else:
        _emit(text)
    return EXIT_OK


COMMANDS = {
    "encode": cmd_encode,
    "dlx": cmd_dlx,
    "solve": cmd_solve,
    "export": cmd_export,
    "decode": cmd_decode,
    "crosscheck": cmd_crosscheck,
    "compare": cmd_compare,
    "from-tatham": cmd_from_tatham,
    "generate": cmd_generate,
    "convert": cmd_convert,
    "report": cmd_report,
}


def _start_limits(args: argparse.Namespace) -> None:
    """The run's deadline and memory limit (the memory limit only in a dlxsat process)."""
    limits.set_phase(f"running {args.command}")
    per_job = args.command in PER_JOB_LIMITS
    memory = None if per_job else getattr(args, "memory", None)
    if limits.guard_installed():
        limits.set_memory_limit(memory or limits.default_memory_mb())
    elif memory:
        limits.set_memory_limit(memory)
    # The run's deadline, counted from the start of the run, as a value handed down (a.deadline).
    seconds = None if per_job else getattr(args, "timeout", None)
    args.deadline = limits.run_deadline(seconds)
    if not per_job:
        limits.arm(args.deadline, seconds)


#: Commands whose --timeout (and --memory) bound each backend, puzzle or job, not the run:
#: crosscheck's through pipeline.solve, compare's in each job's process.
PER_JOB_LIMITS = frozenset({"crosscheck", "compare"})


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status (also the process's, via ``sys.exit``)."""
    try:
        return _main(argv)
    finally:
        limits.disarm()
        if not limits.guard_installed():
            limits.reset_memory_limit()


def _main(argv: Sequence[str] | None) -> int:
    try:
        limits.begin_run()
        args = build_parser().parse_args(argv)
        _start_limits(args)
        code = COMMANDS[args.command](args)
        sys.stdout.flush()  # a full or closed stdout is told here, as an input error
        return code
    except SystemExit as e:  # --help and --version: argparse has printed them
        return e.code if isinstance(e.code, int) else EXIT_OK
    except limits.Stop as e:
        return _stopped(e)
    except limits.OverMemory as e:
        print(f"dlxsat: error: {e}", file=sys.stderr)
        return EXIT_TIMEOUT
    except InputError as e:
        print(f"dlxsat: error: {e}", file=sys.stderr)
        return EXIT_INPUT
    except (RuleViolation, SolverFailure) as e:
        print(f"dlxsat: internal error (please report): {e}", file=sys.stderr)
        return EXIT_BUG
    except Disagreement as e:
        print(f"dlxsat: disagreement: {e}", file=sys.stderr)
        return EXIT_DISAGREE
    except KeyboardInterrupt:
        return _stopped(limits.Interrupted())
    except MemoryError:
        limit = limits.memory_limit_mb()
        where = f"the limit of {limit} MB (--memory)" if limit else "the memory of the machine"
        print(
            f"dlxsat: error: out of memory: {where} was reached {limits.progress.figures()}",
            file=sys.stderr,
        )
        return EXIT_TIMEOUT
    except BrokenPipeError:
        # The reader went away (e.g. `| head`); nothing more to say to it.
        _silence_stdout()
        return EXIT_OK
    except Exception as e:
        stop = limits.stop_behind(e)
        if stop is None:
            raise
        return _stopped(stop)


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that the flush at exit cannot fail a second time."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, AttributeError, ValueError):
        pass


def _stopped(stop: limits.Stop) -> int:
    """A run stopped by its time limit or a signal: one line with the figures, on stderr."""
    first = limits.claim_exit(stop.code)
    limits.remove_temp_files()
    limits.end_children()
    if first:  # (else the watchdog, or an earlier report, has printed the line)
        print(limits.stop_line(stop), file=sys.stderr)
    return stop.code


def run() -> None:
    """The ``dlxsat`` program: guard the process, run, leave with the exit status."""
    limits.install_process_guard()
    from .outputs import guard_std_streams

    guard_std_streams()  # closed or full stdout and stderr: one line, never a traceback
    try:
        code = main()
    except limits.Stop as e:  # a signal while an error was being reported
        code = _stopped(e)
    limits.claim_exit(code)
    limits.finished()
    # Leave without the interpreter's teardown: unloading numba, LLVM and OR-tools takes up to
    # a second, which a run given --timeout does not have. Output is flushed first.
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            if stream is sys.stdout:
                code = code or EXIT_INPUT
    limits.remove_temp_files()
    os._exit(code)


if __name__ == "__main__":
    run()
