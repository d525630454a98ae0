"""The ``dlxsat`` command line (docs/conventions.md §5): argument parsing and printing only.

Exit status (:class:`dlxsat.exits.Exit`): 0 done; 1 internal error (a bug: an answer that fails
its rule check), or ``check``'s wrong answer; 2 bad input or usage; 3 time or memory limit
reached (partial figures still printed); 4 crosscheck disagreement (or the portfolio's members
disagree); 130 interrupted (SIGINT); 143 terminated (SIGTERM).
Output is assembled in full before anything is written, so an error never leaves half a
result on stdout or in an output file.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

from .cli_arguments import parse_arguments
from .errors import Disagreement, InputError, RuleViolation, SolverFailure
from .exits import Exit
from .inputs import puzzle_text
from .outputs import OutputError, together
from .runtime import cleanup, guard, memory


def _solver_options(a: argparse.Namespace, backend: str) -> dict[str, Any]:
    """The solver options the user typed, read by ``backend``'s declarations (checked as a
    whole by the pipeline, against its spec)."""
    from .cli_arguments import LOOP_RULE
    from .solvers import spec_of

    typed = {d[4:]: text for d, text in sorted(vars(a).items()) if d.startswith("opt_")}
    if typed.get("loop") == LOOP_RULE:  # xcc's --loop alone: the rule, the default mode
        del typed["loop"]
    return spec_of(backend).parse(typed, spelling="flag")


def _emit(text: str) -> None:
    """Write ``text`` to stdout, all of it (:func:`dlxsat.outputs.write_stdout`): a full or
    closed stdout is one error line, exit status 2."""
    from .outputs import write_stdout

    write_stdout(text)


def _output(path: str | None, text: str) -> None:
    """Write ``text`` to the file ``path`` whole or not at all (temporary file, then rename),
    or to stdout when there is no path (or it is ``-``, ``/dev/stdout``)."""
    if path is None:
        return _emit(text)
    from .outputs import atomic_output

    with atomic_output(path) as f:
        f.write(text)


def _limit_reached(a: argparse.Namespace, what: str) -> None:
    """Remember that the run reached a limit (``what``: which, and the figures), for the line
    of an output that then cannot be written: the line says both (exit status 2)."""
    a.limit_reached = what


def _time_limit(a: argparse.Namespace, figures: str = "") -> str:
    seconds = getattr(a, "timeout", None)
    limit = "the time limit" if seconds is None else f"the time limit of {seconds:g} s"
    return f"{limit} was reached" + (f" ({figures})" if figures else "")


def _warn(warnings: list[str], most: int = 3) -> None:
    """Print the first few warnings on stderr, and how many more there were."""
    for w in warnings[:most]:
        print(f"dlxsat: warning: {w}", file=sys.stderr)
    if len(warnings) > most:
        print(f"dlxsat: warning: ... and {len(warnings) - most} more like these", file=sys.stderr)


def cmd_encode(a: argparse.Namespace) -> int:
    from .families import get_spec
    from .families.spec import Policy
    from .formats import read

    spec = get_spec(a.family)
    puzzle = read(a.family, puzzle_text(a.file), a.input_format)
    _warn(list(getattr(puzzle, "warnings", ())))
    # The data of the rules asked for, else those the family prints by default (Knuth's).
    policy = Policy(rules=a.rules or spec.data_variant)
    if policy != Policy():
        puzzle = spec.prepare([puzzle], policy)[0][0]
    _emit(spec.encode(puzzle))
    return Exit.OK


def cmd_dlx(a: argparse.Namespace) -> int:
    from .dlxdata import read_data, search
    from .inputs import read_text
    from .xcc.check import check_solutions
    from .xcc.listing import summary_line, write_listing

    problem = read_data(read_text(a.file, "DLX"), loop=a.loop)
    _warn(problem.warnings)
    keep = None if (a.all or a.first) else 0
    r = search(problem, limit=a.first or None, keep=keep, deadline=a.deadline, progress=a.progress)
    guard.finishing()  # (the listing's checks stop at the deadline; the summary line follows)
    a.progress.set_phase("checking and printing the solutions")
    if r.timed_out:
        _limit_reached(a, _time_limit(a, f"{r.count} solutions so far"))
    if a.json:
        from .jsonform import dlx_json, line

        checked = check_solutions(problem, r.solutions, stop=a.deadline.expired)
        _emit(line(dlx_json(problem, r, checked, bool(a.all or a.first))))
    else:
        checked = write_listing(problem, r.solutions, _emit, a.deadline.expired)
        _emit(summary_line(r.count, r.stats, r.timed_out, checked, len(r.solutions)))
    return Exit.LIMIT if r.timed_out or checked < len(r.solutions) else Exit.OK


def cmd_solve(a: argparse.Namespace) -> int:
    from .crosscheck import backend_list
    from .formats import read_records
    from .jsonform import line, solve_json
    from .pipeline import crosscheck_report, default_backend, solve
    from .textform import solve_text

    records = read_records(a.family, puzzle_text(a.file), a.input_format, a.keep_going)
    puzzles = records.puzzles = _prepared(a, records.puzzles)
    backend = a.backend or default_backend(a.family, many=len(puzzles) > 1)
    options = _solver_options(a, backend)
    others = backend_list(a.crosscheck) if a.crosscheck else []
    mode = "count" if a.count else "all" if a.all else "unique"
    if a.certify is not None:
        _check_certify(a, mode, backend, len(puzzles) > 1 or records.numbers is not None)
    if len(puzzles) > 1 or records.numbers is not None:
        return _solve_batch(a, records, mode, backend, options)
    puzzle = puzzles[0]  # read once; rendered as it is, not read and encoded again
    _warn(list(getattr(puzzle, "warnings", ())))  # what the reader let pass, as encode says
    if a.certify is not None:
        return _solve_certified(a, puzzle, others)
    report = solve(
        a.family,
        puzzle,
        backend=backend,
        mode=mode,
        timeout=a.timeout,
        deadline=a.deadline,
        progress=a.progress,
        **options,
    )
    checks = crosscheck_report(
        a.family, puzzle, report, others, mode=mode, deadline=a.deadline, progress=a.progress
    )
    if a.json:
        out = line(solve_json(report, checks if a.crosscheck else None))
    else:
        from .families import get_spec
        from .terminal import fit_to_terminal

        render = get_spec(a.family).render
        shown = [] if a.quiet else report.solutions
        drawings = [fit_to_terminal(render(puzzle, s).rstrip("\n")) for s in shown]
        out = solve_text(report, checks, drawings)
    timed_out = report.status == "timeout" or any(c.status == "timeout" for c in checks)
    if timed_out:
        _limit_reached(a, _time_limit(a, f"{report.count or 0} solutions so far"))
    _draw(a, puzzle, report.solutions)
    _emit(out)
    if any(not c.agree for c in checks):
        return Exit.DISAGREE
    return Exit.LIMIT if timed_out else Exit.OK


def _check_certify(a: argparse.Namespace, mode: str, backend: str, many: bool) -> None:
    """``solve --certify``: one puzzle, the unique mode, the sat backend (or auto's choice)."""
    if mode != "unique":
        raise InputError("--certify certifies a unique answer (or none): not with --count/--all")
    if many:
        raise InputError("--certify is for one puzzle, but the input holds several")
    if backend not in ("auto", "sat"):
        raise InputError(f"--certify solves with the sat backend (its proof), not {backend}")


def _solve_certified(a: argparse.Namespace, puzzle: Any, others: list[str]) -> int:
    """``solve --certify PATH``: solve with the sat backend, write the certificate of a unique
    answer (or of none) to the folder PATH, then print the answer as ``solve`` does (a
    puzzle with several answers: printed, no certificate, exit status 1)."""
    from .certify import solve_certified
    from .jsonform import line, solve_json
    from .pipeline import crosscheck_report

    report, cert = solve_certified(
        a.family, puzzle, _solver_options(a, "sat"), deadline=a.deadline, progress=a.progress
    )
    checks = crosscheck_report(
        a.family, puzzle, report, others, deadline=a.deadline, progress=a.progress
    )
    if cert is not None:
        a.progress.set_phase("writing the certificate")
        cert.write(a.certify)
    if a.json:
        out = line(solve_json(report, checks if a.crosscheck else None))
    else:
        from .families import get_spec
        from .terminal import fit_to_terminal
        from .textform import solve_text

        render = get_spec(a.family).render
        shown = [] if a.quiet else report.solutions
        drawings = [fit_to_terminal(render(puzzle, s).rstrip("\n")) for s in shown]
        out = solve_text(report, checks, drawings)
    _draw(a, puzzle, report.solutions)
    _emit(out)
    if cert is None:
        print(
            f"dlxsat: error: --certify: no certificate written: the puzzle is {report.status}"
            " (a certificate proves one answer, or none)",
            file=sys.stderr,
        )
        return Exit.WRONG
    meta = cert.meta
    print(
        f"dlxsat: certificate written to {a.certify}: claim {meta['claim']}, "
        f"{meta['formula']['premises']} premises, a proof of {meta['proof']['bytes']:,} bytes "
        f"(search and proof {meta['seconds']['search']:.2f} s)",
        file=sys.stderr,
    )
    if any(not c.agree for c in checks):
        return Exit.DISAGREE
    return Exit.OK


def cmd_verify(a: argparse.Namespace) -> int:
    from .certify import verify
    from .families import get_spec
    from .families.spec import Policy
    from .pipeline import prepare

    spec = get_spec(a.family)
    policy = Policy(loop=spec.whole_file and a.loop, boxes=getattr(a, "boxes", None))
    prep = prepare(a.family, puzzle_text(a.file), a.input_format, policy, progress=a.progress)
    a.progress.set_phase("verifying the certificate")
    verdict = verify(prep, a.certificate, a.checker, a.deadline)
    if a.json:
        from .jsonform import line

        _emit(line(verdict.to_json()))
    elif verdict.verified:
        what = "exactly one answer" if verdict.claim == "unique" else "no answer"
        _emit(f"verified: the puzzle has {what} (proof checked by {verdict.checker})\n")
    else:
        by = f" ({verdict.checker})" if verdict.checker else ""
        _emit(f"not verified{by}: {verdict.reason}\n")
    return Exit.OK if verdict.verified else Exit.WRONG


def cmd_export(a: argparse.Namespace) -> int:
    from .roundtrip import export_cnf

    if a.settings or a.more:
        return cmd_export_corpus(a)
    modes = {"loop": a.loop, "connected": a.connected, "acyclic": a.acyclic, "sized": a.sized}
    text = puzzle_text(a.file)
    export = export_cnf(
        a.family, text, modes=modes, format=a.input_format, progress=a.progress, rules=a.rules
    )
    settings = dict(source=f"{a.family} {a.file or '-'}", **_solver_options(a, "sat"))
    from .outputs import is_stdout

    if a.output and not is_stdout(a.output):
        from .outputs import atomic_output

        with atomic_output(a.output) as f:
            export.write(f, **settings)
    else:  # streamed: the model is built (and every option checked) before the first line
        export.write(SimpleNamespace(write=_emit), **settings)  # type: ignore[arg-type]
    return Exit.OK


def cmd_export_corpus(a: argparse.Namespace) -> int:
    from .compare.export import export_corpus

    if not a.output:
        raise InputError("export of several puzzles or settings: give the folder, -o DIR")
    if a.file is None:
        raise InputError("export of a corpus: name its puzzle files, folders or globs")
    rules = a.loop or a.connected or a.acyclic or a.sized
    if hasattr(a, "opt_encoding") or hasattr(a, "opt_colors") or rules:
        raise InputError("export of a corpus: give --encoding/--colors in --settings 'sat:...'")
    puzzles, fmt = [a.file, *a.more], a.input_format
    entries = export_corpus(a.family, puzzles, a.settings, a.output, timeout=a.timeout, format=fmt)
    folder = os.path.join(a.output, "")  # (a trailing slash: it is a folder)
    _emit(f"{len(entries)} CNF files and manifest.json written to the folder {folder}\n")
    return Exit.OK


def cmd_decode(a: argparse.Namespace) -> int:
    from .families.spec import Policy
    from .inputs import read_text
    from .jsonform import decode_json, line
    from .pipeline import prepare
    from .roundtrip import decode_model
    from .terminal import fit_to_terminal

    text = puzzle_text(a.file)
    policy = Policy(loop=a.loop, rules=a.rules)
    prep = prepare(a.family, text, a.input_format, policy, progress=a.progress)
    cnf = None if a.cnf is None else read_text(a.cnf, "CNF")
    output = read_text(a.model, "solver output")
    got = decode_model(a.family, prep, output, name=a.model, cnf=cnf, cnf_name=a.cnf or "CNF")
    if got.answer is not None:
        _draw(a, prep.puzzle, [got.answer])
    if a.json:
        _emit(line(decode_json(a.family, got.answer, got.held)))
    elif got.answer is None:
        _emit(f"no answer: the solver said {got.status}\n")
    else:
        _emit(fit_to_terminal(prep.family.render(prep.puzzle, got.answer).rstrip("\n")) + "\n")
    return Exit.OK


def cmd_instance(a: argparse.Namespace) -> int:
    from . import instances

    if a.name == "list":
        lines = []
        for name, module in instances.families().items():
            known = ", ".join(
                f"{' '.join(map(str, k))}: {v}" for k, v in sorted(module.KNOWN.items())
            )
            lines.append(f"{instances.usage(name)}\n    {module.SUMMARY}\n    known: {known}")
        _emit("\n".join(lines) + "\n")
        return Exit.OK
    _emit(instances.generate(a.name, a.args))
    return Exit.OK


def _prepared(a: argparse.Namespace, puzzles: list[Any]) -> list[Any]:
    """The puzzles as the family's policy makes them (``--loop`` for exact-cover data,
    ``--boxes`` for Sudoku), with the family's notes on stderr."""
    from .families import get_spec
    from .families.spec import Policy

    spec = get_spec(a.family)
    # --loop asks exact-cover data for the loop rule; for a loop puzzle it is a loop mode only.
    policy = Policy(
        loop=spec.whole_file and hasattr(a, "opt_loop"),
        boxes=getattr(a, "boxes", None),
        rules=getattr(a, "rules", None),
    )
    puzzles, notes = spec.prepare(puzzles, policy)
    for note in notes:
        print(f"dlxsat: note: {note}", file=sys.stderr)
    return puzzles


def cmd_check(a: argparse.Namespace) -> int:
    from .checking import check

    answer = None if a.answer is None else puzzle_text(a.answer)
    report = check(
        a.family,
        puzzle_text(a.file),
        answer,
        unique=a.unique,
        format=a.input_format,
        answer_format=a.answer_format,
        deadline=a.deadline,
        progress=a.progress,
        rules=a.rules,
    )
    if report.status == "timeout":
        _limit_reached(a, _time_limit(a, "uniqueness not settled"))
    if a.json:
        from .jsonform import line

        _emit(line(report.to_json()))
    elif report.correct and not report.violations:
        _emit("correct" + (" and unique" if report.unique else "") + "\n")
    elif report.violations:
        _emit(f"wrong: {report.violations[0]}\n")
    else:
        _emit("correct (uniqueness not settled: the time limit came first)\n")
    if report.status == "timeout":
        return Exit.LIMIT
    return Exit.OK if not report.violations else Exit.WRONG


def cmd_crosscheck(a: argparse.Namespace) -> int:
    from .crosscheck import backend_list, crosscheck, format_table
    from .jsonform import line

    backends = backend_list(a.backends)
    rows = crosscheck(
        a.family, a.files, backends, a.timeout, a.input_format, a.loop, a.progress, a.rules
    )
    if any(r.timed_out for r in rows):
        late = sum(1 for r in rows if r.timed_out)
        _limit_reached(a, _time_limit(a, f"on {late} of {len(rows)} puzzles"))
    _emit(line([r.to_json() for r in rows]) if a.json else format_table(rows))
    if any(not r.agree for r in rows):
        return Exit.DISAGREE
    return Exit.LIMIT if any(r.timed_out for r in rows) else Exit.OK


def cmd_compare(a: argparse.Namespace) -> int:
    from .compare import compare, print_notes, print_outcome

    given = ("output", "mode", "timeout", "jobs", "dask", "redo", "quiet", "worker_jobs", "loop")
    kw = {k: getattr(a, k) for k in given}
    kw.update(memory_mb=a.memory, format=a.input_format, on_plan=print_notes, progress=a.progress)
    out = compare(a.family, a.puzzles, a.settings, a.preset, **kw)
    if out.timed_out:
        stopped = out.statuses["timeout"] + out.statuses["memout"]
        _limit_reached(a, f"{stopped} jobs reached their time or memory limit")
    print_outcome(out, a.output)
    return out.exit_status


def cmd_from_tatham(a: argparse.Namespace) -> int:
    from .formats.tatham import knuth_text

    _emit(knuth_text(a.family, a.game_id))
    return Exit.OK


def cmd_generate(a: argparse.Namespace) -> int:
    import importlib

    from .families import get_spec

    module = importlib.import_module(get_spec(a.family).generator or "")
    OutOfTime, generate_within = module.OutOfTime, module.generate_within
    new_seed, parse_size = module.new_seed, module.parse_size

    rows, cols = parse_size(a.size)
    seed = new_seed() if a.seed is None else a.seed
    if a.seed is None:
        print(f"dlxsat: seed {seed}", file=sys.stderr)
    try:
        _emit(generate_within(rows, cols, seed, a.timeout, a.progress))
    except OutOfTime as e:
        # Its own line is the outcome: the run's alarm, should it come while the line is
        # written, adds none (it did add "time limit ... reached" below it, now and then).
        guard.reported()
        print(f"dlxsat: {e}", file=sys.stderr)
        return Exit.LIMIT
    return Exit.OK


def _solve_batch(
    a: argparse.Namespace, records: Any, mode: str, backend: str, options: dict[str, Any]
) -> int:
    """Solve many puzzles, streaming one line (or one JSON object) per puzzle as each is done,
    with a progress bar on stderr when it is a terminal (not with ``--quiet``); with
    ``--keep-going``, the records not read are told first and make the exit status 2."""
    from . import pipeline
    from .jsonform import batch_json
    from .terminal import LinesWithProgress
    from .textform import batch_line

    puzzles = records.puzzles
    for flag, value in (("--svg", a.svg), ("--png", a.png), ("--crosscheck", a.crosscheck)):
        if value:
            raise InputError(f"{flag} is for one puzzle, but the input holds {len(puzzles)}")
    reports = pipeline.solve_many(
        a.family,
        puzzles,
        backend=backend,
        mode=mode,
        timeout=a.timeout,
        progress=a.progress,
        **options,
    )
    for k, line_no, e in records.bad:  # (--keep-going) each bad record, then the answers
        print(f"dlxsat: error: record {k} (line {line_no}): {e}", file=sys.stderr)
    out = LinesWithProgress(len(puzzles), "puzzle", shown=not a.quiet and len(puzzles) >= 20)
    timed_out = False
    for k, report in zip(records.numbers or range(1, len(puzzles) + 1), reports, strict=True):
        if report.status == "timeout" and not timed_out:
            _limit_reached(a, _time_limit(a, f"puzzle {k}"))
        timed_out |= report.status == "timeout"
        out.print(json.dumps(batch_json(k, report)) if a.json else batch_line(k, report))
    out.close()
    if records.bad:
        n = len(records.bad)
        print(
            f"dlxsat: error: {n} of {n + len(puzzles)} records not read (see above); "
            f"{len(puzzles)} answered",
            file=sys.stderr,
        )
        return Exit.INPUT
    return Exit.LIMIT if timed_out else Exit.OK


def _draw(a: argparse.Namespace, puzzle: Any, answers: list[dict[str, Any]]) -> None:
    """Write the pictures ``--svg``/``--png`` ask for: the puzzle and its first answer."""
    for path, kind in ((getattr(a, "svg", None), "svg"), (getattr(a, "png", None), "png")):
        if path:
            from .families import get_spec
            from .pictures import save_picture

            answer = answers[0] if answers else None
            save_picture(get_spec(a.family), puzzle, answer, path, kind)


def cmd_convert(a: argparse.Namespace) -> int:
    from .formats import check_answer_writer, convert
    from .pipeline import solved_answer

    def answer_of(puzzle: Any, where: str) -> Any:
        answer, warning = solved_answer(a.family, puzzle, where, a.timeout, a.progress)
        _warn([warning] if warning else [])
        return answer

    if a.with_answer:
        check_answer_writer(a.family, a.to)
    text = puzzle_text(a.file)
    with_answer = answer_of if a.with_answer else None
    _output(a.output, convert(a.family, text, a.to, a.input_format, a.file or "stdin", with_answer))
    return Exit.OK


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
    _output(a.output, text)
    return Exit.OK


def _start_limits(args: argparse.Namespace, progress: guard.Progress) -> None:
    """The run's deadline and memory limit (the memory limit only in a dlxsat process), and
    its figures, ``progress``: handed down to the commands as ``args.progress`` (as the
    deadline is, ``args.deadline``)."""
    args.progress = progress
    progress.set_phase(f"running {args.command}")
    per_job = args.command in PER_JOB_LIMITS
    megabytes = None if args.command in PER_JOB_MEMORY else getattr(args, "memory", None)
    if guard.installed():
        memory.set_limit(megabytes or memory.default_memory_mb())
    elif megabytes:
        memory.set_limit(megabytes)
    # The run's deadline, counted from the start of the run, as a value handed down (a.deadline).
    seconds = None if per_job or args.command in JOBS_TIMEOUT else getattr(args, "timeout", None)
    args.deadline = guard.run_deadline(seconds)
    if not per_job:
        guard.arm(args.deadline, seconds)


#: Commands whose --timeout bounds each backend, puzzle or job, not the run: crosscheck's
#: through pipeline.solve, compare's in each job's process.
PER_JOB_LIMITS = frozenset({"crosscheck", "compare"})
#: Commands whose --memory bounds each job, not the run: compare's, in each job's process.
#: (crosscheck runs its backends in its own process, one after another: its --memory is the
#: run's, as for solve -- it was once ignored there, and a puzzle of millions of answers,
#: each backend keeping them all, grew past the limit it was given.)
PER_JOB_MEMORY = frozenset({"compare"})
#: Commands whose --timeout is not a limit at all but a figure about the jobs they read:
#: report's is the time limit of records that lack one (armed as the run's deadline, a loaded
#: machine drawing the plots was stopped after 5 s by ``report --timeout 5``).
JOBS_TIMEOUT = frozenset({"report"})


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status (also the process's, via ``sys.exit``)."""
    try:
        return _main(argv)
    finally:
        guard.disarm()
        if not guard.installed():
            memory.forget_limit()


def _main(argv: Sequence[str] | None) -> int:
    progress = guard.begin_run()  # the run's figures, for the line of a stopped run
    args = argparse.Namespace()
    try:
        args = parse_arguments(argv)
        _start_limits(args, progress)
        # Every output of the command appears, or none does (dlxsat.outputs.together).
        with together():
            code: int = globals()["cmd_" + args.command.replace("-", "_")](args)
            guard.reported()  # (a time limit that comes now adds no second line)
            sys.stdout.flush()  # a full or closed stdout is told here, as an input error
        return code
    except SystemExit as e:  # --help and --version: argparse has printed them
        return e.code if isinstance(e.code, int) else Exit.OK
    except guard.Stop as e:
        return _stopped(e)
    except memory.OverMemory as e:
        print(f"dlxsat: error: {e}", file=sys.stderr)
        return Exit.LIMIT
    except OutputError as e:
        also = getattr(args, "limit_reached", "")  # the run's figures are lost: say both
        print(f"dlxsat: error: {e}" + (f"; also, {also}" if also else ""), file=sys.stderr)
        return Exit.INPUT
    except InputError as e:
        print(f"dlxsat: error: {e}", file=sys.stderr)
        return Exit.INPUT
    except (RuleViolation, SolverFailure) as e:
        print(f"dlxsat: internal error (please report): {e}", file=sys.stderr)
        return Exit.BUG
    except Disagreement as e:
        print(f"dlxsat: disagreement: {e}", file=sys.stderr)
        return Exit.DISAGREE
    except KeyboardInterrupt:
        return _stopped(guard.Interrupted())
    except MemoryError:
        limit = memory.limit_mb()
        where = f"the limit of {limit} MB (--memory)" if limit else "the memory of the machine"
        print(
            f"dlxsat: error: out of memory: {where} was reached {progress.figures()}",
            file=sys.stderr,
        )
        return Exit.LIMIT
    except BrokenPipeError:
        # The reader went away (e.g. `| head`); nothing more to say to it.
        _silence_stdout()
        return Exit.OK
    except Exception as e:
        stop = guard.stop_behind(e)
        if stop is None:
            raise
        return _stopped(stop)


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that the flush at exit cannot fail a second time."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, AttributeError, ValueError):
        pass


def _stopped(stop: guard.Stop) -> int:
    """A run stopped by its time limit or a signal: one line with the figures, on stderr.

    What the run printed before it was stopped is flushed first: when stdout cannot take it (a
    full disk), the line says both -- for a time limit as an output error (``dlxsat: error:
    cannot write to stdout: ...; also, time limit of 1 s reached while ...``, exit status 2),
    for a signal after the stop (its exit status stays)."""
    first = guard.claim_exit(stop.code)
    cleanup.remove_temp_files()
    guard.end_children()
    lost = _flush_stdout()
    if not first:  # the watchdog, or an earlier report, has printed the line
        return stop.code
    line = guard.stop_line(stop)
    if lost and isinstance(stop, guard.TimeUp):
        print(f"dlxsat: error: {lost}; also, {line.removeprefix('dlxsat: ')}", file=sys.stderr)
        return Exit.INPUT
    print(line + (f"; also, {lost}" if lost else ""), file=sys.stderr)
    return stop.code


def _flush_stdout() -> str:
    """Flush stdout; why it could not take what it held ("" when it could)."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # the reader left: nothing lost that anyone reads
        _silence_stdout()
    except OutputError as e:
        return str(e)
    except (OSError, ValueError, AttributeError) as e:
        return f"cannot write to stdout: {getattr(e, 'strerror', None) or e}"
    return ""


def run() -> None:
    """The ``dlxsat`` program: guard the process, run, leave with the exit status."""
    guard.install()
    from .outputs import guard_std_streams

    guard_std_streams()  # closed or full stdout and stderr: one line, never a traceback
    try:
        code = main()
    except guard.Stop as e:  # a signal while an error was being reported
        code = _stopped(e)
    guard.claim_exit(code)
    guard.finished()
    # Leave without the interpreter's teardown: unloading numba, LLVM and OR-tools takes up to
    # a second, which a run given --timeout does not have. Output is flushed first.
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            if stream is sys.stdout:
                code = code or Exit.INPUT
    cleanup.remove_temp_files()
    os._exit(code)


if __name__ == "__main__":
    run()
