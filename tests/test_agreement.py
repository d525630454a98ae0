"""One judge of agreement: ``report`` and ``compare`` judge the same store the same way, and
``solve --crosscheck``, ``crosscheck`` and the portfolio ask the same module."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from dlxsat.agreement import Outcome, difference
from dlxsat.compare.agreement import disagreements
from dlxsat.report import disagreeing_jobs

STATUSES = ["unique", "multiple", "none", "counted", "timeout", "memout", "error"]


@st.composite
def records(draw):
    """Records of one puzzle by several settings, with statuses, counts and hashes drawn from
    small sets so that agreements and disagreements both happen."""
    n = draw(st.integers(2, 4))
    out = []
    for k in range(n):
        out.append(
            {
                "job": f"job{k}",
                "puzzle": "p.txt",
                "puzzle_sha256": "x",
                "family": "masyu",
                "mode": "unique",
                "setting": f"s{k}",
                "status": draw(st.sampled_from(STATUSES)),
                "count": draw(st.sampled_from([None, 0, 1, 2])),
                "answer_sha256": draw(st.sampled_from([None, "h1", "h2"])),
            }
        )
    return out


@settings(max_examples=300, deadline=None)
@given(records())
def test_report_and_compare_judge_a_store_alike(group):
    """Both find a disagreement on a puzzle or neither does (compare reports each job against
    the first finished one, report every pair, so they agree on *whether*)."""
    judged_by_compare = bool(disagreements(group))
    judged_by_report = bool(disagreeing_jobs(group))
    finished = [r for r in group if r["status"] in ("unique", "multiple", "none", "counted")]
    by_pairs = any(
        difference(
            Outcome(a["setting"], a["status"], a["count"], a["answer_sha256"]),
            Outcome(b["setting"], b["status"], b["count"], b["answer_sha256"]),
        )
        for i, a in enumerate(finished)
        for b in finished[i + 1 :]
    )
    assert judged_by_report == by_pairs
    if len(finished) == 2:
        assert judged_by_compare == judged_by_report


def test_the_case_they_used_to_judge_differently():
    # A finished ``unique`` job without an answer hash: compare called it a disagreement,
    # report did not. Now neither does: an unknown hash is not compared.
    a = {"job": "a", "puzzle": "p", "puzzle_sha256": "x", "mode": "unique", "setting": "dlx"}
    a.update(status="unique", count=1, answer_sha256="h1")
    b = {**a, "job": "b", "setting": "sat", "answer_sha256": None}
    assert disagreements([a, b]) == [] and disagreeing_jobs([a, b]) == set()
    c = {**b, "answer_sha256": "h2"}
    assert disagreements([a, c]) and disagreeing_jobs([a, c]) == {"a", "b"}


def test_the_verdicts():
    assert difference(Outcome("a", "unique", 1), Outcome("b", "none", 0)) == (
        "a says unique, b says none"
    )
    assert difference(Outcome("a", "multiple", 2, "h1"), Outcome("b", "multiple", 2, "h2")) == ""
    assert difference(Outcome("a", "counted", 3), Outcome("b", "counted", 4)) == (
        "a found 3 answers, b found 4"
    )
    assert difference(Outcome("a", "stalled"), Outcome("b", "unique", 1)) == ""
