"""Graceful labelings of the path with n vertices, as Knuth's XCC data (colors).

A labeling gives the vertices distinct labels 0..n-1 so that the n-1 edges get the distinct
differences 1..n-1. The label of vertex i is the color of secondary item ``x<i>``: option
``v<i> l<a> x<i>:<a>`` labels vertex i with a, and option ``e<i> d<k> x<i>:<a> x<i+1>:<b>``
gives edge i the difference k = |a - b|; the colors make the edges agree with the vertices,
which is what colors are for (TAOCP 7.2.2.1, exact covering with colors). Primary items: the
vertices ``v<i>``, the labels ``l<a>``, the edges ``e<i>`` and the differences ``d<k>``.
Labels are base-62 digits, one character as colors must be.
"""

from __future__ import annotations

from ..xcc.names import b62
from . import Arg

NAME = "graceful"
SUMMARY = "graceful labelings of the path with n vertices (vertex labels as colors)"
ARGS = (Arg("n", "vertices of the path", 1, 62),)

#: OEIS A006967, graceful permutations of length n = graceful labelings of the path P_n:
#: 1, 1, 2, 4, 4, 8, 24, 32, 40, 120, 296, 648, 1328 for n = 0..12.
KNOWN = {
    (1,): 1,
    (2,): 2,
    (3,): 4,
    (4,): 4,
    (5,): 8,
    (6,): 24,
    (7,): 32,
    (8,): 40,
    (9,): 120,
    (10,): 296,
    (11,): 648,
    (12,): 1328,
}


#: The case the tests solve with every backend and encoding (small, many answers).
TESTED = (6,)


def generate(n: int) -> str:
    """The DLX data of the graceful labelings of the path with ``n`` vertices.

    >>> print(generate(2), end="")
    | graceful 2: graceful labelings of the path with 2 vertices
    v0 v1 l0 l1 e0 d1 | x0 x1
    v0 l0 x0:0
    v0 l1 x0:1
    v1 l0 x1:0
    v1 l1 x1:1
    e0 d1 x0:0 x1:1
    e0 d1 x0:1 x1:0
    """
    d = b62
    items = [f"v{d(i)}" for i in range(n)] + [f"l{d(a)}" for a in range(n)]
    items += [f"e{d(i)}" for i in range(n - 1)] + [f"d{d(k)}" for k in range(1, n)]
    lines = [
        f"| graceful {n}: graceful labelings of the path with {n} vertices",
        " ".join([*items, "|", *(f"x{d(i)}" for i in range(n))]),
    ]
    for i in range(n):
        for a in range(n):
            lines.append(f"v{d(i)} l{d(a)} x{d(i)}:{d(a)}")
    for i in range(n - 1):
        for a in range(n):
            for b in range(n):
                if a != b:
                    lines.append(f"e{d(i)} d{d(abs(a - b))} x{d(i)}:{d(a)} x{d(i + 1)}:{d(b)}")
    return "\n".join(lines) + "\n"
