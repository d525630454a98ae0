"""Langford pairs as Knuth's XC data: place two copies of each of 1..n in 2n slots so that
the two copies of k have k numbers between them (TAOCP 7.2.2.1, (16)).

Items: the numbers ``1``..``n`` and the slots ``s1``..``s<2n>`` (all primary). Option
``k s<j> s<j+k+1>``: the two k's in slots j and j + k + 1. Every arrangement and its
reversal are both solutions here (Knuth halves the count by leaving out some options of
one number; these data keep them, so the count is twice the number of arrangements).
"""

from __future__ import annotations

from . import Arg

NAME = "langford"
SUMMARY = "Langford pairs: 1 1 ... n n in 2n slots, k numbers between the two k's"
ARGS = (Arg("n", "the largest number", 1, 30),)

#: Twice OEIS A014552 (Langford arrangements up to reversal): 1, 0, 0, 1, 1, 0, 0, 26, 150,
#: 0, 0, 17792, 108144 for n = 0.., each counted here with its reversal.
KNOWN = {
    (1,): 0,
    (2,): 0,
    (3,): 2,
    (4,): 2,
    (5,): 0,
    (6,): 0,
    (7,): 52,
    (8,): 300,
    (11,): 35584,
    (12,): 216288,
}


#: The case the tests solve with every backend and encoding (small, many answers).
TESTED = (7,)


def generate(n: int) -> str:
    """The DLX data of Langford pairs of 1..n.

    >>> print(generate(2), end="")
    | langford 2: pairs of 1..2 in 4 slots
    1 2 s1 s2 s3 s4
    1 s1 s3
    1 s2 s4
    2 s1 s4
    """
    slots = [f"s{j}" for j in range(1, 2 * n + 1)]
    lines = [
        f"| langford {n}: pairs of 1..{n} in {2 * n} slots",
        " ".join([*(str(k) for k in range(1, n + 1)), *slots]),
    ]
    for k in range(1, n + 1):
        for j in range(1, 2 * n - k):
            lines.append(f"{k} s{j} s{j + k + 1}")
    return "\n".join(lines) + "\n"
