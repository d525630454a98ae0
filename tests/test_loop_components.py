"""The loop cuts' own connected components (networkx is no longer imported for them) are
networkx's, in the same order: the cuts, and so the SAT and CP-SAT runs, stay as they were."""

from __future__ import annotations

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from dlxsat.backends.loopcuts import LoopRule
from dlxsat.xcc import Item, Problem
from dlxsat.xcc.names import b62

M = N = 4  # a 4 x 4 board of vertices (doubled coordinates 0, 2, 4, 6)


def board() -> Problem:
    vertices = [f"{b62(2 * i)}{b62(2 * j)}" for i in range(M) for j in range(N)]
    edges = [f"{b62(2 * i + 1)}{b62(2 * j)}" for i in range(M - 1) for j in range(N)]
    edges += [f"{b62(2 * i)}{b62(2 * j + 1)}" for i in range(M) for j in range(N - 1)]
    items = [Item(v) for v in vertices] + [Item(e, primary=False) for e in edges]
    return Problem(items, [((0, None),)])


RULE = LoopRule(board())
EDGES = sorted(RULE.ends)


def networkx_components(on: list[int]) -> list[set[int]]:
    h = nx.Graph()
    h.add_edges_from(RULE.ends[e] for e in on)
    comps = []
    for verts in nx.connected_components(h):
        comps.append({e for e in on if RULE.ends[e][0] in verts})
    return comps


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(EDGES), unique=True))
def test_components_are_networkx_components_in_order(on):
    assert RULE.components(on) == networkx_components(on)
