"""Knuth's DLX text format: read what his generators print, write it back.

The reader follows the input routines of DLX1/DLX2/DLX3 (names of at most 8 characters,
``u:v|name`` bounds, single-character colors, comment lines starting with ``|``), so any file
his solvers accept is accepted here and any file they reject is an :class:`InputError`.
"""

from __future__ import annotations

from ..errors import InputError
from .model import Entry, Item, Problem
from .rules import RuleReader, rule_lines

MAX_NAME = 8


def _fail(line_no: int, message: str) -> InputError:
    return InputError(f"line {line_no}: {message}")


def _parse_bound(text: str, line_no: int) -> int:
    if not text.isdigit() or not text.isascii():
        raise _fail(line_no, f"illegal digit in bound spec {text!r}")
    return int(text)


def _parse_item_spec(token: str, primary: bool, line_no: int) -> Item:
    """One token of the item line: ``name``, ``v|name`` or ``u:v|name`` (bounds: primary only)."""
    lo = hi = 1
    name = token
    if "|" in token:
        if not primary:
            raise _fail(
                line_no, f"illegal '|' in item name {token!r} (bounds are for primary items)"
            )
        spec, _, name = token.rpartition("|")
        if "|" in spec:
            raise _fail(line_no, f"illegal '|' in item name {token!r}")
        if ":" in spec:
            a, _, b = spec.partition(":")
            lo, hi = _parse_bound(a, line_no), _parse_bound(b, line_no)
        else:
            lo = hi = _parse_bound(spec, line_no)
        if hi == 0:
            raise _fail(line_no, f"upper bound is zero in {token!r}")
        if lo > hi:
            raise _fail(line_no, f"lower bound exceeds upper bound in {token!r}")
    elif ":" in token:
        if primary:
            raise _fail(line_no, f"lower bound without upper bound in {token!r}")
        raise _fail(line_no, f"illegal ':' in item name {token!r}")
    if not name:
        raise _fail(line_no, f"item name empty in {token!r}")
    if len(name) > MAX_NAME:
        raise _fail(line_no, f"item name too long: {name!r} (at most {MAX_NAME} characters)")
    return Item(name, primary, lo, hi)


def parse(text: str, allow_empty: bool = False) -> Problem:
    """Read DLX/XCC/MCC text into a :class:`Problem`.

    ``allow_empty`` accepts data with no item line as the empty problem (whose one solution
    chooses nothing): a Sudoku whose cells are all given encodes that way. Comment lines that
    begin ``|@`` declare the problem's global rules (:mod:`dlxsat.xcc.rules`).

    >>> p = parse("| a comment\\n2|a b | x\\na b x:1\\na\\n")
    >>> [(it.name, it.lo, it.hi, it.primary) for it in p.items]
    [('a', 2, 2, True), ('b', 1, 1, True), ('x', 1, 1, False)]
    >>> p.options
    [((0, None), (1, None), (2, '1')), ((0, None),)]
    """
    lines = text.replace("\r\n", "\n").split("\n")
    comments: list[str] = []
    items: list[Item] = []
    index: dict[str, int] = {}
    options: list[tuple[Entry, ...]] = []
    warnings: list[str] = []
    have_items = False
    n_primary = 0
    known: dict[str, Entry] = {}
    rules = RuleReader()
    for line_no, raw in enumerate(lines, 1):
        stripped = raw.strip()
        if not stripped:
            continue
        if stripped.startswith("|"):
            if stripped.startswith("|@"):
                rules.add(line_no, stripped[2:])
            else:
                comments.append(raw)
            continue
        if not have_items:
            have_items = True
            primary = True
            for token in stripped.split():
                if token == "|":
                    if not primary:
                        raise _fail(line_no, "item name line contains | twice")
                    primary = False
                    continue
                it = _parse_item_spec(token, primary, line_no)
                if it.name in index:
                    raise _fail(line_no, f"duplicate item name {it.name!r}")
                index[it.name] = len(items)
                items.append(it)
            n_primary = sum(it.primary for it in items)
            if not items:
                raise _fail(line_no, "no items")
            known = {it.name: (k, None) for k, it in enumerate(items)}
            continue
        tokens = stripped.split()
        entries = _entries(tokens, known, index, n_primary)
        if entries is None:
            entries = _checked_entries(tokens, index, n_primary, line_no)
        if any(k < n_primary for k, _ in entries):
            options.append(tuple(entries))
        else:  # Knuth's solvers drop it with this warning (DLX1-3: show_warnings is on)
            comments.append(f"| option ignored (no primary items): {stripped}")
            warnings.append(f"line {line_no}: option ignored (no primary items): {stripped}")
    if not have_items:
        if rules.blocks:
            raise InputError(f"line {rules.blocks[0].line}: a rule, but no items")
        if allow_empty:
            return Problem([], [], comments)
        raise InputError("no items: the DLX data has no item-name line")
    problem = Problem(items, options, comments, warnings)
    if rules.blocks:
        problem.rules = rules.rules(problem)
    return problem


def _entries(
    tokens: list[str], known: dict[str, Entry], index: dict[str, int], n_primary: int
) -> list[Entry] | None:
    """The entries of an option line, or None if the line has anything to complain of (then
    :func:`_checked_entries` says what). The path of every well-formed line: a token seen
    before is one look-up in ``known`` (token -> its entry, which it adds to), as the same
    few thousand tokens make up all of a puzzle's options; reading a 36 x 20 Masyu's 4,448
    options so takes half the time of checking each token."""
    entries: list[Entry] = []
    for token in tokens:
        entry = known.get(token)
        if entry is None:
            name, _, color = token.partition(":")
            k = index.get(name)
            if k is None or k < n_primary or len(color) != 1:
                return None  # (a plain name of ``index`` is in ``known`` from the start)
            entry = known[token] = (k, color)
        entries.append(entry)
    if len({k for k, _ in entries}) != len(entries):
        return None
    return entries


def _checked_entries(
    tokens: list[str], index: dict[str, int], n_primary: int, line_no: int
) -> list[Entry]:
    """The entries of an option line, each token checked as Knuth's readers check it: raises
    the :class:`InputError` of the first fault."""
    entries: list[Entry] = []
    used: set[int] = set()
    for token in tokens:
        name, colon, color = token.partition(":")
        if not name:
            raise _fail(line_no, f"empty item name in {token!r}")
        if len(name) > MAX_NAME:
            raise _fail(line_no, f"item name too long: {name!r}")
        k = index.get(name)
        if k is None:
            raise _fail(line_no, f"unknown item name {name!r}")
        if k in used:
            raise _fail(line_no, f"duplicate item name {name!r} in this option")
        used.add(k)
        if colon:
            if k < n_primary:
                raise _fail(line_no, f"primary item must be uncolored: {token!r}")
            if len(color) != 1:
                raise _fail(line_no, f"color must be a single character: {token!r}")
            entries.append((k, color))
        else:
            entries.append((k, None))
    return entries


def write(problem: Problem) -> str:
    """Write ``problem`` as DLX text, its rules as ``|@`` lines first; ``parse(write(p)) == p``.

    >>> write(parse("1:3|a b | x\\na x:0\\nb\\n"))
    '1:3|a b | x\\na x:0\\nb\\n'
    """

    def spec(it: Item) -> str:
        if (it.lo, it.hi) == (1, 1) or not it.primary:
            return it.name
        if it.lo == it.hi:
            return f"{it.hi}|{it.name}"
        return f"{it.lo}:{it.hi}|{it.name}"

    prim = [spec(it) for it in problem.items if it.primary]
    sec = [it.name for it in problem.items if not it.primary]
    head = " ".join(prim) + (" | " + " ".join(sec) if sec else "")
    out = [line for rule in problem.rules for line in rule_lines(problem, rule)]
    out.append(head)
    out.extend(problem.option_text(k) for k in range(len(problem.options)))
    return "\n".join(out) + "\n"
