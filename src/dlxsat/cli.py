"""The ``dlxsat`` command line (SPEC.md §5): argument parsing and printing only.

Exit status: 0 done; 1 internal error (a bug: an answer that fails its rule check); 2 bad input
or usage; 3 time limit reached (partial figures still printed); 4 crosscheck disagreement.
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

from . import limits
from .errors import InputError, RuleViolation
from .families import FAMILIES, TATHAM_GAMES

EXIT_OK, EXIT_BUG, EXIT_INPUT, EXIT_TIMEOUT, EXIT_DISAGREE = 0, 1, 2, 3, 4


class _Parser(argparse.ArgumentParser):
    """argparse, but usage errors are one line and exit status 2 like every other input error."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise InputError(f"{self.prog}: {message}")


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive: {text!r}")
    return value


def _count(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"not a positive whole number: {text!r}")
    if int(text) > limits.MAX_COUNT:
        raise argparse.ArgumentTypeError(f"too large: {text} (at most {limits.MAX_COUNT})")
    return int(text)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="dlxsat",
        description="Pencil puzzles as Knuth's exact-cover problems, solved by dancing links, "
        "SAT and CP-SAT.",
    )
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
    d.add_argument("--json", action="store_true", help="one JSON object on stdout")
    d.add_argument("--timeout", type=_positive, metavar="S")

    s = sub.add_parser("solve", help="solve a puzzle with a chosen backend")
    s.add_argument("family", choices=FAMILIES)
    s.add_argument("file", help="puzzle file ('-' for stdin)")
    s.add_argument("--backend", choices=["dlx", "sat", "cpsat", "logic"])
    g = s.add_mutually_exclusive_group()
    g.add_argument("--unique", action="store_true", help="look for two answers (the default)")
    g.add_argument("--count", action="store_true", help="count every answer")
    g.add_argument("--all", action="store_true", help="list every answer")
    s.add_argument("--json", action="store_true", help="one JSON object on stdout")
    s.add_argument("--timeout", type=_positive, metavar="S")
    s.add_argument(
        "--encoding",
        help="sat: cardinality encoding (auto, pairwise, seqcounter, ladder, totalizer, bitwise, "
        "sortnetwrk, cardnetwrk, mtotalizer, kmtotalizer, native)",
    )
    s.add_argument("--colors", choices=["onehot", "binary"], help="sat, cpsat: color variables")
    s.add_argument("--solver", help="sat: PySAT solver name (cadical195, glucose4, ...)")
    s.add_argument(
        "--loop",
        dest="loop_mode",
        choices=["lazy", "eager", "circuit"],
        help="single-loop rule: lazy cuts (sat default; cpsat too), eager CNF encoding "
        "(sat), or AddCircuit (cpsat default)",
    )
    s.add_argument("--workers", type=int, help="cpsat: number of search workers")
    s.add_argument("--explain", action="store_true", help="logic: print every deduction")
    s.add_argument("--fallback", action="store_true", help="logic: search when reasoning stalls")
    s.add_argument("--quiet", action="store_true", help="text output: no drawing of the answer")

    x = sub.add_parser("export", help="export a puzzle's exact-cover problem for other solvers")
    x.add_argument("format", choices=["dimacs"])
    x.add_argument("family", choices=FAMILIES)
    x.add_argument("file", help="puzzle file ('-' for stdin)")
    x.add_argument("-o", "--output", metavar="OUT", help="output file (stdout when omitted)")
    x.add_argument("--encoding", help="cardinality encoding")
    x.add_argument("--colors", choices=["onehot", "binary"], help="color variables")
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
    m.add_argument("--json", action="store_true")

    c = sub.add_parser("crosscheck", help="solve with several backends and compare")
    c.add_argument("family", choices=FAMILIES)
    c.add_argument("files", nargs="+", metavar="FILE")
    c.add_argument("--backends", default="dlx,sat,cpsat", help="comma-separated (dlx,sat,cpsat)")
    c.add_argument("--timeout", type=_positive, metavar="S", help="per backend and puzzle")
    c.add_argument("--json", action="store_true")

    t = sub.add_parser(
        "from-tatham",
        help="turn a game id of Simon Tatham's Pearl, Loopy or Solo into a puzzle file",
        description="Print the puzzle text (Knuth's input format) of a game id of Simon "
        "Tatham's Pearl (masyu), Loopy (slitherlink, square grid) or Solo (sudoku), as "
        "'sgt-pearl --generate 1 10x10' and the like print them.",
    )
    t.add_argument("family", choices=list(TATHAM_GAMES))
    t.add_argument("game_id", metavar="GAME_ID", help="e.g. 10x10:BbWmWWcW... (quote it)")

    n = sub.add_parser("generate", help="make a new puzzle with a unique answer")
    n.add_argument("family", choices=["masyu"])
    n.add_argument("size", metavar="ROWSxCOLS")
    n.add_argument("--seed", type=int, default=None)
    n.add_argument("--timeout", type=_positive, metavar="S")
    _add_limit_flags(sub)
    return p


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
                "--timeout", type=_positive, metavar="S", help="time limit for the whole run"
            )
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
    from .inputs import read_text

    fam = get_family(a.family)
    puzzle = fam.read(read_text(a.file, "puzzle"))
    _warn(list(getattr(puzzle, "warnings", ())))
    _emit(fam.encode(puzzle))
    return EXIT_OK


def cmd_dlx(a: argparse.Namespace) -> int:
    from .inputs import read_text
    from .solvers import get_solver
    from .xcc import parse

    problem = parse(read_text(a.file, "DLX"))
    _warn(problem.warnings)
    limit = a.first if a.first else None
    keep = None if (a.all or a.first) else 0
    limits.set_phase("searching", "dlx")
    timeout = limits.remaining(a.timeout)
    if timeout is not None and timeout <= 0:
        raise limits.TimeUp()
    r = get_solver("dlx").solve(problem, loop=a.loop, limit=limit, keep=keep, timeout=timeout)
    st = r.stats
    limits.set_phase("checking and printing the solutions")
    if a.json:
        checked = _checked_solutions(problem, r.solutions)
        out = (
            json.dumps(
                {
                    "count": r.count,
                    "complete": not r.timed_out and checked == len(r.solutions),
                    "checked": checked,
                    "nodes": st.get("nodes"),
                    "updates": st.get("updates"),
                    "seconds": round(st.get("seconds", 0.0), 6),
                }
            )
            + "\n"
        )
        _emit(out)
        return EXIT_TIMEOUT if r.timed_out or checked < len(r.solutions) else EXIT_OK
    printed = _print_solutions(problem, r.solutions)
    note = " (time limit reached)" if r.timed_out else ""
    if printed < len(r.solutions):
        note = f" (time limit reached: {printed} of them checked and printed)"
    _emit(
        f"{r.count} solution{'s' if r.count != 1 else ''}, {st.get('nodes', 0)} nodes, "
        f"{st.get('updates', 0)} updates, {_short(st.get('seconds', 0.0))} s{note}\n"
    )
    return EXIT_TIMEOUT if r.timed_out or printed < len(r.solutions) else EXIT_OK


def _checked_solutions(problem: Any, solutions: list[list[int]]) -> int:
    """Check each solution is an exact cover of ``problem`` and none comes twice, until the
    deadline; returns how many were checked. A wrong one is a bug: :class:`RuleViolation`."""
    from .xcc.verify import cover_problems

    seen: set[tuple[int, ...]] = set()
    for n, chosen in enumerate(solutions):
        if limits.expired():
            return n
        _check_solution(problem, chosen, seen, cover_problems)
    return len(solutions)


def _check_solution(problem: Any, chosen: list[int], seen: set, cover_problems: Any) -> None:
    wrong = cover_problems(problem, chosen)
    if wrong:
        raise RuleViolation(f"dlx returned a solution that is not an exact cover: {wrong[0]}")
    key = tuple(sorted(chosen))
    if key in seen:
        raise RuleViolation("dlx returned the same solution twice")
    seen.add(key)


def _print_solutions(problem: Any, solutions: list[list[int]]) -> int:
    """Check and print the solutions in Knuth's layout until the deadline; how many printed."""
    from .xcc.verify import cover_problems

    seen: set[tuple[int, ...]] = set()
    chunk: list[str] = []
    for n, chosen in enumerate(solutions):
        if limits.expired():
            _emit("".join(chunk))
            return n
        _check_solution(problem, chosen, seen, cover_problems)
        chunk.append(f"{n + 1}:\n" + "".join(f" {problem.option_text(i)}\n" for i in chosen))
        if len(chunk) >= 256:
            _emit("".join(chunk))
            chunk.clear()
    _emit("".join(chunk))
    return len(solutions)


def _backend_options(a: argparse.Namespace) -> dict[str, Any]:
    names = ("encoding", "colors", "solver", "loop_mode", "workers", "explain", "fallback")
    # Not "not in (None, False)": 0 == False, and --workers 0 must reach the backend's check.
    return {k: v for k in names if (v := getattr(a, k, None)) is not None and v is not False}


def cmd_solve(a: argparse.Namespace) -> int:
    from .inputs import read_text
    from .pipeline import prepare, solve

    text = read_text(a.file, "puzzle")
    mode = "count" if a.count else "all" if a.all else "unique"
    report = solve(
        a.family, text, backend=a.backend, mode=mode, timeout=a.timeout, **_backend_options(a)
    )
    if a.json:
        out = json.dumps(report.to_json()) + "\n"
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
        if not a.quiet and report.solutions:
            fam = prepare(a.family, text)
            for k, answer in enumerate(report.solutions, 1):
                if len(report.solutions) > 1:
                    lines.append(f"solution {k}:")
                lines.append(fam.family.render(fam.puzzle, answer).rstrip("\n"))
        out = "\n".join(lines) + "\n"
    _emit(out)
    return EXIT_TIMEOUT if report.status == "timeout" else EXIT_OK


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

    prep = prepare(a.family, read_text(a.file, "puzzle"))
    loop = a.loop or ("eager" if prep.family.LOOP else "none")
    if loop == "eager" and not prep.family.LOOP:
        raise InputError(f"--loop eager: {a.family} is not a loop puzzle; use --loop none")
    from .pipeline import check_model_fits

    check_model_fits(prep, "export")
    limits.set_phase("writing the CNF")
    settings = dict(
        source=f"{a.family} {a.file}",
        encoding=a.encoding,
        colors=a.colors,
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


def cmd_decode(a: argparse.Namespace) -> int:
    from .backends import dimacs
    from .inputs import read_text
    from .pipeline import prepare

    prep = prepare(a.family, read_text(a.file, "puzzle"))
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
    if a.json:
        out = {"family": a.family, "status": "solved", "count": 1, "solutions": [answer]}
        _emit(json.dumps(out) + "\n")
    else:
        _emit(prep.family.render(prep.puzzle, answer).rstrip("\n") + "\n")
    return EXIT_OK


def cmd_crosscheck(a: argparse.Namespace) -> int:
    from .crosscheck import crosscheck, format_table

    backends = [b.strip() for b in a.backends.split(",") if b.strip()]
    rows = crosscheck(a.family, a.files, backends, timeout=a.timeout)
    if a.json:
        _emit(json.dumps([r.to_json() for r in rows]) + "\n")
    else:
        _emit(format_table(rows))
    if any(not r.agree for r in rows):
        return EXIT_DISAGREE
    return EXIT_TIMEOUT if any(r.timed_out for r in rows) else EXIT_OK


def cmd_from_tatham(a: argparse.Namespace) -> int:
    from .families import get_family

    fam = get_family(a.family)
    text = fam.from_tatham_id(a.game_id)
    fam.read(text)  # a puzzle the family's reader refuses is not printed
    _emit(text)
    return EXIT_OK


def cmd_generate(a: argparse.Namespace) -> int:
    from .generate import generate_masyu, parse_size

    rows, cols = parse_size(a.size)
    _emit(generate_masyu(rows, cols, seed=a.seed, timeout=a.timeout))
    return EXIT_OK


COMMANDS = {
    "encode": cmd_encode,
    "dlx": cmd_dlx,
    "solve": cmd_solve,
    "export": cmd_export,
    "decode": cmd_decode,
    "crosscheck": cmd_crosscheck,
    "from-tatham": cmd_from_tatham,
    "generate": cmd_generate,
}


def _start_limits(args: argparse.Namespace) -> None:
    """The run's deadline and memory limit (the memory limit only in a dlxsat process)."""
    limits.set_phase(f"running {args.command}")
    if limits.guard_installed():
        memory = getattr(args, "memory", None) or limits.default_memory_mb()
        limits.set_memory_limit(memory)
    elif getattr(args, "memory", None):
        limits.set_memory_limit(args.memory)
    # crosscheck's --timeout is per backend and puzzle (pipeline.solve enforces each one).
    if args.command != "crosscheck":
        limits.arm_deadline(getattr(args, "timeout", None))


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
        return COMMANDS[args.command](args)
    except limits.Stop as e:
        return _stopped(e)
    except limits.OverMemory as e:
        print(f"dlxsat: error: {e}", file=sys.stderr)
        return EXIT_TIMEOUT
    except InputError as e:
        print(f"dlxsat: error: {e}", file=sys.stderr)
        return EXIT_INPUT
    except RuleViolation as e:
        print(f"dlxsat: internal error (please report): {e}", file=sys.stderr)
        return EXIT_BUG
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
    limits.claim_exit(stop.code)
    limits.remove_temp_files()
    limits.end_children()
    print(limits.stop_line(stop), file=sys.stderr)
    return stop.code


def run() -> None:
    """The ``dlxsat`` program: guard the process, run, leave with the exit status."""
    limits.install_process_guard()
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
