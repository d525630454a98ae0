"""The n queens problem as Knuth's XC data: no two queens attack each other.

As in TAOCP 7.2.2.1, (23): one primary item per row ``r<i>`` and column ``c<j>``, and the
diagonals ``a<i+j>`` and ``b<i-j+n-1>`` secondary (each used at most once, since not every
diagonal holds a queen). Indices are base-62 digits, so names stay within Knuth's 8
characters. Option ``r<i> c<j> a<i+j> b<i-j+n-1>``: a queen on row i, column j.
"""

from __future__ import annotations

from ..xcc.names import b62
from . import Arg

NAME = "queens"
SUMMARY = "n queens on an n x n board, no two attacking (rows, columns primary)"
ARGS = (Arg("n", "the size of the board", 1, 31),)

#: OEIS A000170, the number of ways to place n nonattacking queens on an n x n board.
KNOWN = {
    (1,): 1,
    (2,): 0,
    (3,): 0,
    (4,): 2,
    (5,): 10,
    (6,): 4,
    (7,): 40,
    (8,): 92,
    (9,): 352,
    (10,): 724,
    (11,): 2680,
    (12,): 14200,
}


#: The case the tests solve with every backend and encoding (small, many answers).
TESTED = (8,)


def generate(n: int) -> str:
    """The DLX data of the n queens problem.

    >>> print(generate(2), end="")
    | queens 2: 2 queens on a 2x2 board
    r0 r1 c0 c1 | a0 a1 a2 b0 b1 b2
    r0 c0 a0 b1
    r0 c1 a1 b0
    r1 c0 a1 b2
    r1 c1 a2 b1
    """
    rows = [f"r{b62(i)}" for i in range(n)]
    cols = [f"c{b62(j)}" for j in range(n)]
    diag = [f"a{b62(s)}" for s in range(2 * n - 1)]
    anti = [f"b{b62(d)}" for d in range(2 * n - 1)]
    lines = [
        f"| queens {n}: {n} queens on a {n}x{n} board",
        " ".join([*rows, *cols, "|", *diag, *anti]),
    ]
    for i in range(n):
        for j in range(n):
            lines.append(f"{rows[i]} {cols[j]} {diag[i + j]} {anti[i - j + n - 1]}")
    return "\n".join(lines) + "\n"
