"""The ``counter`` backend: a model counter's count of an exact-cover problem equals DLX's,
with and without global rules, projected where auxiliary variables could be free."""

from __future__ import annotations

import pytest

from dlxsat import encode, instances, parse_dlx, solve
from dlxsat.errors import InputError
from dlxsat.solvers import solve_problem

pytest.importorskip("py_d4")

BLANK_4X4 = "....\n....\n....\n....\n"


def _pieces_of_two(n: int) -> str:
    """An n x n grid of cells, each shaded or not, the shaded ones in pieces of two (sized)."""
    cells = [f"{i}{j}" for i in range(n) for j in range(n)]
    links = [f"{i}{j} {i + 1}{j}" for i in range(n - 1) for j in range(n)]
    links += [f"{i}{j} {i}{j + 1}" for i in range(n) for j in range(n - 1)]
    text = f"|@sized\n|@members {' '.join(c + ':1' for c in cells)}\n|@links {' '.join(links)}\n"
    text += f"|@size 2\n{' '.join('P' + c for c in cells)} | {' '.join(cells)}\n"
    return text + "".join(f"P{c} {c}:1\nP{c} {c}:0\n" for c in cells)


def _problem(name: str):
    if name == "masyu 4x4":
        return parse_dlx(encode("masyu", BLANK_4X4))
    if name == "pieces of two 3x3":
        return parse_dlx(_pieces_of_two(3))
    family, *args = name.split()
    return parse_dlx(instances.generate(family, args))


@pytest.mark.parametrize(
    "name, loop, encoding, projected",
    [
        ("queens 6", False, None, False),  # pairwise: no free variable, not projected
        ("queens 6", False, "seqcounter", True),  # a counter's variables: projected
        ("langford 4", False, None, False),
        ("masyu 4x4", False, None, False),  # disjoint loops (322)
        ("masyu 4x4", True, None, True),  # one loop or none (214): eager labels, projected
        ("pieces of two 3x3", False, None, True),  # the sized rule, eager (25)
    ],
)
def test_counts_equal_dlx(name, loop, encoding, projected):
    problem = _problem(name)
    options = {} if encoding is None else {"encoding": encoding}
    got = solve_problem(problem, "counter", loop=loop, **options)
    want = solve_problem(problem, "dlx", loop=loop, keep=0)  # (DLX2-LOOP: the empty loop too)
    assert (got.count, got.exhausted) == (want.count, True), name
    assert got.stats["projected"] is projected


def test_ganak_counts_too():
    pytest.importorskip("pyganak")
    problem = _problem("masyu 4x4")
    assert solve_problem(problem, "counter", counter="ganak", loop=True).count == 214


def test_the_counter_only_counts_and_solve_says_so():
    with pytest.raises(InputError, match="counts answers only"):
        solve_problem(_problem("queens 6"), "counter", limit=2)
    with pytest.raises(InputError, match="counts answers only"):
        solve("masyu", BLANK_4X4, backend="counter")
    report = solve("masyu", BLANK_4X4, backend="counter", mode="count")
    assert (report.status, report.count) == ("counted", 213)  # (a Masyu's loop is not empty)


def test_a_deadline_kills_the_count():
    big = parse_dlx(encode("masyu", ".........\n" * 9))
    got = solve_problem(big, "counter", loop=True, timeout=0.3)
    assert got.timed_out and not got.exhausted


def test_a_missing_counter_names_its_install(monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda n, *a: None if n == "pyganak" else real(n, *a)
    )
    with pytest.raises(InputError, match="pip install pyganak"):
        solve_problem(_problem("queens 6"), "counter", counter="ganak")
