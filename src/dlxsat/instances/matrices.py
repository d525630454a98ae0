"""0-1 matrices with k ones in every row and column, as Knuth's MCC data (multiplicities).

Items ``k|r<i>`` and ``k|c<j>``: each row and each column is covered exactly k times (DLX3's
bounds); option ``r<i> c<j>`` puts a one at row i, column j. A solution is a set of cells,
so the count is the number of n x n 0-1 matrices with all line sums k (equivalently, of
k-regular bipartite graphs on two labelled sets of n vertices).
"""

from __future__ import annotations

from ..errors import InputError
from ..xcc.names import b62
from . import Arg

NAME = "matrices"
SUMMARY = "n x n 0-1 matrices with k ones in every row and column (multiplicities k|item)"
ARGS = (Arg("n", "rows and columns", 1, 62), Arg("k", "ones in each row and column", 1, 62))

#: k = 1: n! (OEIS A000142); k = 2: OEIS A001499 (1, 0, 1, 6, 90, 2040, 67950, 3110940 for
#: n = 0..7); k = 3: OEIS A001501 (1, 0, 0, 1, 24, 2040, 297200 for n = 0..6).
KNOWN = {
    (4, 1): 24,
    (5, 1): 120,
    (3, 2): 6,
    (4, 2): 90,
    (5, 2): 2040,
    (6, 2): 67950,
    (7, 2): 3110940,
    (4, 3): 24,
    (5, 3): 2040,
    (6, 3): 297200,
}


#: The case the tests solve with every backend and encoding (small, many answers).
TESTED = (4, 2)


def generate(n: int, k: int) -> str:
    """The DLX data of the n x n 0-1 matrices with line sums k.

    >>> print(generate(2, 1), end="")
    | matrices 2 1: 2x2 0-1 matrices with 1 ones in each row and column
    1|r0 1|r1 1|c0 1|c1
    r0 c0
    r0 c1
    r1 c0
    r1 c1
    """
    if k > n:
        raise InputError(f"matrices: k ({k}) cannot exceed n ({n})")
    rows = [f"r{b62(i)}" for i in range(n)]
    cols = [f"c{b62(j)}" for j in range(n)]
    lines = [
        f"| matrices {n} {k}: {n}x{n} 0-1 matrices with {k} ones in each row and column",
        " ".join(f"{k}|{name}" for name in [*rows, *cols]),
    ]
    lines.extend(f"{r} {c}" for r in rows for c in cols)
    return "\n".join(lines) + "\n"
