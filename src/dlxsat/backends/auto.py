"""The ``auto`` backend: the engine chosen per problem, by measuring before committing.

Each engine wins somewhere and loses badly elsewhere: dancing links settle most Sudokus in
microseconds and count answers fastest, but their tree can explode (a minimal 25 x 25 Sudoku:
hours) and the loop rule prunes late (Masyu, Slitherlink: SAT solves in a second what DLX
does not finish in a minute); SAT pays for building a formula but learns. ``auto`` decides
like this, within the caller's time limit:

0. **A loop problem's estimate.** A loop problem not counted, of more than
   :data:`NODE_BUDGET_MIN_ITEMS` primary items, whose search starts compiled, is first probed
   (Knuth's estimate, :mod:`.dlx.estimate`: :data:`LOOP_ESTIMATE_PROBES` random root-to-leaf
   paths of the very tree, on the layout the trial then searches; a median 0.3 ms): a tree
   estimated past :data:`LOOP_ESTIMATE_SAT_PER_ITEM` nodes an item goes to SAT untried.
1. **Trial.** (A loop problem larger than :data:`LOOP_TRIAL_MAX_ENTRIES` goes to SAT at
   once, unless counting.) DLX runs for at most :func:`trial_seconds`: :data:`TRIAL_SECONDS`,
   or for a problem without a global rule (loop, connected, sized, acyclic) that is not
   counted, a share of SAT's predicted
   time when that is longer (all of it; a tenth for large problems: :data:`TRIAL_SHARE`),
   and no more than :func:`trial_nodes` nodes (:data:`TRIAL_NODES_PER_ITEM` per item to
   cover, on problems of many items, 1 on large ones: a tree that has backtracked that much
   explodes; 100 an item with the loop rule, whatever the number of items (10 ms at most
   for small loop problems, :data:`TRIAL_SECONDS_SMALL_LOOP`); with a connected, sized or
   acyclic rule :data:`TRIAL_NODES_PER_ITEM_RULES` whatever the number of items). SAT's time
   is predicted from the problem's size, the entries of its options
   (:data:`SAT_SECONDS_PER_ENTRY`). The trial is
   an ordinary DLX run (interpreted when no compiled kernel is loaded yet, moving to the
   compiled tier as any run does), its time budget one of compiled search: the time spent
   interpreted and loading the kernel from the ahead-of-time module do not count. A loop
   problem with a node budget (:func:`two_orders_apply`) spends
   :data:`LOOP_TRIAL_KNUTH_SHARE` of its budgets (:data:`LOOP_TRIAL_KNUTH_SHARE_M` with
   multiplicities) on Knuth's tree and the rest on the
   *mirrored* one (ties between the shortest items to the rightmost): the same answers
   through a tree that is often far smaller, or far larger. Most puzzles end here: the
   answer is DLX's, at no extra cost.
2. **Decide.** A problem not counted goes to SAT: a loop problem because the loop rule
   prunes late in DLX, one with another global rule because its tree outgrew the few nodes
   an item DLX wins with, any other because it outlived its share of SAT's time -- rent or
   buy, which Knuth's tree estimate could not improve on (it runs 10-100 x low on such
   trees: :data:`TRIAL_SHARE` has the figures). When counting, Knuth's Monte Carlo
   estimate of the DLX tree (:mod:`.dlx.estimate`, random root-to-leaf probes for at most
   :data:`ESTIMATE_SECONDS`) predicts DLX's remaining time (estimated nodes over
   :data:`DLX_NODES_PER_SECOND`, plus the kernel load when it is not loaded) and SAT's (a
   solver call per estimated answer, :data:`SAT_SECONDS_PER_ANSWER`, and a search of
   :data:`SAT_SEARCH_FACTOR` times DLX's on trees within :data:`COUNT_DLX_SECONDS`); the
   faster runs, but loop problems go to DLX only when counting many answers
   (:data:`LOOP_COUNT_ANSWERS`); a count both are predicted to need more than
   :data:`COUNTER_MIN_SECONDS` for goes to the model counter (:mod:`.counter`) when installed.
3. **Commit, with a way out.** When DLX is chosen after the estimate it gets a budget of
   :data:`SWITCH_FACTOR` times SAT's predicted time (at least :data:`MIN_BUDGET`, and
   :data:`COUNT_BUDGET_FACTOR` times its own predicted time); past it, SAT takes over. So
   ``auto`` costs at most the trial, the estimate and that budget more than the engine it
   ends with.

The decisions are pure functions of cheap features (:func:`features`, :func:`trial_seconds`,
:func:`choose`), so that other callers (the batch path) decide the same way.

The result is the final engine's, its statistics included, with ``stats["auto"]``: the
``engine`` that gave the answer, the ``reason`` in words, the ``features`` used, the
``estimate`` (nodes, answers, probes, seconds), the predictions, and the seconds spent in the
trial (and in an abandoned DLX run, ``switched_after``). Every answer is checked by the
pipeline as any backend's (``dlxsat.pipeline``).

The constants were measured with ``benchmarks/auto.py`` on 2 loaded cores (engines loaded);
``docs/auto.md`` has the figures.

>>> from dlxsat.xcc import parse
>>> r = solve(parse("a b c\\na b\\nc\\na\\nb c\\n"), Request(), {})
>>> r.count, sorted(r.solutions), r.stats["auto"]["engine"]
(2, [[0, 1], [2, 3]], 'dlx')
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..runtime.deadline import Deadline
from ..xcc.model import Problem
from . import Request, SearchResult, SolverSpec

if TYPE_CHECKING:
    from ..result import Settled
    from ..solvers import Template

SPEC = SolverSpec(
    name="auto",
    kind="search",
    summary="chooses dlx or sat per problem: a short DLX trial, then Knuth's tree estimate",
    libraries=("numba", "python-sat"),
    # Its engines' figures: SAT's model is the larger per entry (see cnf.SPEC), DLX's
    # libraries the larger (see dlx.SPEC), and either may run.
    bytes_per_entry=900,
    library_bytes=260 << 20,
    library_module="numba",
    # Many puzzles sharing one problem: DLX's batch path (:func:`solve_many`), from as many
    # puzzles on as dlx's own (dlx.SPEC.batch).
    batch=32,
)

#: The DLX trial (seconds, laying out the arrays included), at least. Interpreted, about
#: 20-50 nodes a millisecond on 2 loaded cores: enough for the easy 9 x 9 Sudokus and small
#: loop puzzles, short next to the 20-100 ms a SAT solve of the smallest puzzles takes.
TRIAL_SECONDS = 0.03
#: The trial of a loop problem of at most :data:`NODE_BUDGET_MIN_ITEMS` primary items, not
#: counted: measured when it had no node budget (:data:`NODE_BUDGET_WITH_RULES` says why), so
#: that this time was its only bound (it has one since: :data:`NODE_BUDGET_SMALL_LOOP`). It
#: was :data:`TRIAL_SECONDS`; SAT got faster since (the CNF build, CaDiCaL's
#: short calls, the implied "at most one" left out: docs/auto.md) and now answers the 10 x 10
#: boards DLX's trial gives up on in 10-20 ms, less than those 30 ms. Measured on the loop
#: genres' published boards of at most 100 cells (``benchmarks/published.py --max-cells 100
#: --sample 12 --rounds 3``, 13 genres, 30, 15, 10 and 5 ms interleaved in one process, idle,
#: 2026-11-28): on two fresh seeds (57, 58) Geradeweg 1.91 and 1.62 x the VBS with 30 ms, 1.48
#: and 1.33 with 15, 1.34 and 1.24 with 10, 1.19 and 1.13 with 5, but 5 ms sent boards DLX wins
#: in 5-15 ms to SAT (Regional Yajilin 1.29 and 1.36, Dotchi Loop 1.36 and 1.31, against
#: 1.01-1.11); with 10 the other twelve genres stayed within 0.02 of 30 ms either way. A trial
#: of 8 ms for every loop problem (seed 56) had also taken Regional Yajilin from 1.98 to 1.29
#: and Yajilin from 1.56 to 1.31, but cut short the node budgets of larger Slitherlinks (1.12 ->
#: 1.33): hence a bound for the small ones only. Held out (seeds 59 and 60, 30 ms interleaved;
#: the pool of such boards not looked at is nearly used up: 38 boards a seed, of 6 genres):
#: within 0.05 on 9 of the 12 genre samples, better on two (Detour 1.17 -> 1.05, Koburin 1.06
#: -> 0.95, of 4 and 2 boards), worse on one (Yajilin 1.18 -> 1.27: its board 226_10x10, which
#: DLX ends in 58,919 nodes and 20 ms, is stopped at 10 ms, and SAT answers in 12: 22 in all).
TRIAL_SECONDS_SMALL_LOOP = 0.010
#: A problem without the loop rule, not counted, gets a longer trial: a share of SAT's
#: predicted time (:func:`trial_seconds`), and SAT at once when the trial does not finish.
#: It is rent-or-buy: DLX is given a share of what SAT would cost. A share of 1 is the
#: classic bound (never more than 2 x the better engine); a smaller one pays less where SAT
#: wins and loses more where DLX would have won just after the trial. Which is better depends
#: on the trees that outlive a trial, and those change with the problem's size (measured with
#: ``benchmarks/auto.py``, 2 cores at load 6-7, engines loaded):
#:
#: - up to :data:`LARGE_ENTRIES` (16 x 16 Sudokus, 2,900-3,500 entries, SAT predicted
#:   0.15-0.17 s, measured 0.15-0.37 s): DLX's trees past 0.04 s had 10,000-100,000 nodes
#:   and DLX beat SAT on 6 of the 7 generated ones (0.4-0.9 x SAT's time; the seventh 4 x),
#:   so the share is :data:`TRIAL_SHARE` = 1;
#: - above it (25 x 25 Sudokus, about 7,000 entries, SAT predicted 0.35 s): every tree past a
#:   trial had 0.6-12 million nodes, DLX 2.6-50 x SAT's time (Tatham "intermediate" 0.5-2 s
#:   against SAT's 0.18-0.45 s; the minimal one and 3 generated ones likewise), while the
#:   Tatham "basic" ones end within 0.09 s (325-335 nodes): the share was 0.25, a trial of
#:   0.09 s (on the loaded machine's figures for SAT; now :data:`TRIAL_SHARE_LARGE`).
#:
#: The tree estimate is not used there: on such Sudokus it ran 10-100 x low on the trees that
#: outlive a trial (25 x 25 "intermediate": 1.2 million nodes estimated at 12,000-130,000
#: from 128 probes; generated 16 x 16: 26,700 at 1,600, 103,000 at 5,000), so it sent them
#: to DLX, which then passed its budget -- the trial, the estimate (0.03-0.13 s on a 25 x 25)
#: and that budget paid on top of SAT (2.3-2.8 x the best engine).
#:
#: Re-measured idle after the numpy layout and the node budget (:data:`TRIAL_NODES_PER_ITEM`):
#: the 25 x 25 trees stay two kinds, 325-335 nodes (0.25 per item; DLX 2-4 ms in all) or
#: 640,000-5.5 million (480-3,800 per item; SAT 30-200 ms), so the share is 0.1 -- the floor
#: :data:`TRIAL_MIN_SECONDS` -- which saved 4-8 ms on each 25 x 25 that SAT solves.
TRIAL_SHARE = 1.0
TRIAL_SHARE_LARGE = 0.1
#: The shortest such trial (laying out the arrays included): the 9 x 9 Sudokus of the
#: benchmark end in 1-6 ms. With :data:`TRIAL_SECONDS` as the floor instead, every 25 x 25
#: that SAT solves in 0.06-0.07 s (idle) paid 0.03 s more: the generated ones 1.45 x the VBS.
TRIAL_MIN_SECONDS = 0.005
LARGE_ENTRIES = 5_000
#: The trial of a problem without the loop rule, not counted, also ends after this many DLX
#: nodes per primary item (a budget of the search's shape, not of the machine's speed or
#: load). A DLX tree either finishes with few nodes per item to cover -- forced moves, a little
#: backtracking -- or explodes, and SAT wins exactly the trees that explode. Measured on every
#: bundled Sudoku (78: 4 x 4 to 25 x 25, published, jigsaws, generated; DLX's nodes over its
#: primary items, limit 2, idle): DLX was faster than SAT on every puzzle up to 41.7 nodes per
#: item (generated 16 x 16s of 26,243 and 26,687 nodes: 7.4 and 8.0 ms against SAT's 11.7 and
#: 15.8), SAT on every puzzle from 165.8 on (a generated 16 x 16 of 103,440 nodes: DLX 23.6 ms,
#: SAT 14.9; the 25 x 25s that SAT wins, 480-3,800), nothing in between. 64 lies in the gap,
#: nearer DLX's side: on a 16 x 16 Sudoku that DLX loses, the trial then costs 40,000 nodes
#: (about 9 ms) instead of the whole share of SAT's time (15 ms). Set after the generated
#: Sudokus of ``puzzles/sudoku-generated`` were measured, so those are no longer held out for
#: it; ``puzzles/sudoku-fresh`` (made afterwards) is.
#:
#: Loop puzzles split the same way, later (the loop rule prunes late, so their trees are
#: larger): on the 128 bundled Masyu and Slitherlink boards whose trial ran (limit 2, idle,
#: ``benchmarks/auto.py``), DLX was faster than SAT on every one up to 203 nodes per item
#: (0.5-0.7 x SAT's time), SAT on every one from 225 on but four (by 3-180 x on most 24 x 14
#: Masyu boards). The same 64 cuts the trial of a loop puzzle that DLX loses to 15,000-21,000
#: nodes (7-11 ms on a 24 x 14) instead of the 30 ms of :data:`TRIAL_SECONDS`, and costs the
#: few that DLX wins between 64 and 203 nodes per item some 5-10 ms each: replayed on the
#: measured runs, ``auto`` over the VBS on the Masyu corpus went from 1.18 to 1.09 (any budget
#: from 25 to 100 gave 1.07-1.09; measured after, 1.08). ``puzzles/masyu-fresh``, generated
#: afterwards, is held out for it (1.07). Loop puzzles now have their own budget,
#: :data:`TRIAL_NODES_PER_ITEM_LOOP`.
TRIAL_NODES_PER_ITEM = 64
#: Loop puzzles' node budget, 100. It was 200, the top of the range where DLX was faster (203 per
#: item, above). 64 was measured on the bundled boards, where the trees DLX wins between 64 and 203
#: per item were few; on published ones they are not: 15 Masyu and 15 Slitherlink boards of the
#: corpus (``benchmarks/published.py --seed 13``, every engine loaded, 2 cores at load 15) put
#: ``auto`` at 1.23 and 1.48 x the virtual best, its losses boards that DLX ends in 150-200 nodes
#: per item (Slitherlink 415, 438, Masyu 750: DLX 0.12-0.21 s, SAT 0.19-0.46 s) sent to SAT after
#: 64. A tree DLX loses then cost up to 200 nodes an item before SAT -- within the 30 ms of CPU of
#: :data:`TRIAL_SECONDS` whichever ends first, against SAT's 0.2-2 s on such boards. Then 100
#: (2026-11-27, 20:04-20:10 UTC, idle, fresh published boards, ``benchmarks/published.py --rounds 3
#: --timeout 1``, the two budgets interleaved): once the SAT backend was faster on loop boards (its
#: CNF build and its CaDiCaL calls without a stopper: docs/backends.md), the trial's price on the
#: trees SAT wins weighed more -- ``sat`` alone came out at 1.31-1.34 x the VBS beside ``auto``'s
#: 1.25-1.43. Slitherlink, 40 boards each of seeds 42 and 43: 1.31 -> 1.23 and 1.25 -> 1.15 (50 an
#: item: 1.22, 1.23); Masyu of 400-900 cells, 22 boards of seed 44: 1.21 -> 1.16 (50: 1.12); six
#: loop genres (seed 45, 12 boards each): Country Road 1.30 -> 1.14, the others within 0.04.
#: Measured after it, Slitherlink seed 46 went the other way, 1.23 -> 1.35 (DLX's trees of 290-540
#: an item sent to SAT): on Slitherlink the budget is a wash, on Masyu and Country Road a gain.
TRIAL_NODES_PER_ITEM_LOOP = 100
#: How much a trial's budgets of nodes and seconds grow once it has found an answer, when it
#: is asked whether the answer is unique, for a loop problem or one with another global rule
#: (:func:`found_budget`). Such trees mostly end a little past the budget: of 102 published
#: Slitherlinks outliving the trial, the 23 that had found their answer in it ended within 500
#: nodes an item in 18 cases, the other 79 in 13 (Masyu: 7 of 7 against 13 of 66). Measured
#: against no growth on fresh published boards, interleaved (2026-11-28, docs/auto.md, "The
#: trial that found an answer"): default / VBS Slitherlink 1.37 -> 1.29, Masyu 1.18 -> 1.12,
#: Cave 1.43 -> 1.15, Yajilin 1.34 -> 1.07, Koburin 1.29 -> 1.01, Double Back 1.30 -> 1.37, the
#: others within 0.03; growths of 2-3 and 10 did no better. None: no growth.
FOUND_BUDGET_GROWTH: float | None = 5.0
#: A loop trial with a node budget (:func:`two_orders_apply`) searches two trees of the same
#: problem: Knuth's (ties between the shortest items to the leftmost) for this share of its node
#: and seconds budgets, then the *mirrored* one (ties to the rightmost:
#: ``dlx.solve(..., mirrored=True)``) for the rest. A loop problem's DLX tree depends wildly on
#: that tie-break: of 120 published Masyus (2026-11-28, docs/auto.md "Two orders of the loop
#: trial"), 525_12x16 needs 4,530 nodes an item in Knuth's order and 3.2 mirrored, 175_12x18
#: 1,383 and 3.1, the other way 166_12x18 64 and 554; on 120 Slitherlinks 1096_10x18 1,005 and
#: 35, 736_14x14 153 and 26,000. Replayed on those boards (DLX's nodes in either order, SAT's
#: time), default / VBS: Masyu 1.23 (Knuth's order alone) -> 0.87 (half each; 0.82 mirrored
#: alone, 0.81 with a fifth to Knuth's), Slitherlink 1.29 -> 1.26 (mirrored alone 1.38): half is
#: the share that neither family pays for; on 40 boards each of the loop genres of Algorithm M
#: (multiplicities), Double Back 1.23 -> 0.85, Moon or Sun 1.14 -> 0.98, Koburin 1.11 -> 0.85
#: (8 boards), Yajilin 1.36 -> 1.33, Castle Wall 1.15 -> 1.13, Country Road 1.23 -> 1.29.
#: Measured with the rule before interleaved on other boards (40 a family, two seeds; 12 of
#: each family's 79 among those it was chosen on): Masyu 1.18 -> 1.11 and 1.19 -> 1.13, Slitherlink
#: 1.27 -> 1.17 and 1.31 -> 1.16.
#: None: Knuth's order alone.
LOOP_TRIAL_KNUTH_SHARE: float | None = 0.5
#: Algorithm M's loop problems (multiplicities: Yajilin, Country Road, Castle Wall, Moon or
#: Sun, Double Back, Detour, Koburin, Regional Yajilin) give Knuth's tree this share instead.
#: Country Road's trees are the reason: of its 270 published boards (2026-11-28, every one,
#: docs/auto.md "Two orders on Algorithm M's loop genres"), 31 that DLX wins went to SAT after
#: their trial, 22 of them with Knuth's trees of 15,000-41,000 nodes (70-180 an item; DLX
#: 10-26 ms, SAT 18-290), whose mirrored trees were larger on all but one: half the budget, 50
#: an item, was too little for Knuth's. Replayed on those boards and the 546 of Castle Wall,
#: Double Back, Moon or Sun and Koburin (each board's two trees searched to the end, SAT's
#: measured time), default / VBS with shares of 0.5, 0.7, 0.8, 0.85: Country Road 1.29, 1.19,
#: 1.18, 1.17; Castle Wall 1.06, 1.08, 1.08, 1.08; Double Back 0.95, 0.95, 0.96, 1.09 (its
#: 18_18x18 needs the mirrored tree: 13,172 nodes, 18 an item, against over two million in
#: Knuth's order); Moon or Sun 0.98-0.99; Koburin 1.00. A budget of 150 or 200 an item instead,
#: shared half and half, replayed 1.22 and 1.23 on Country Road and cost the others up to 0.06.
#: None: :data:`LOOP_TRIAL_KNUTH_SHARE` (as for every problem when that is None).
LOOP_TRIAL_KNUTH_SHARE_M: float | None = 0.7
#: Large problems without the loop rule (:data:`LARGE_ENTRIES`) get 1 node per item: their
#: trees were two kinds with nothing between, forced moves (the bundled "basic" 25 x 25
#: Sudokus, 325-335 nodes: 0.25 per item) or millions of nodes (480-3,800 per item), so a
#: tree that has searched more nodes than it has items to cover is of the second kind. The
#: trial then ends after some 1,300 nodes (about 2 ms with laying out the arrays) instead of
#: the 5 ms of :data:`TRIAL_MIN_SECONDS`, on each 25 x 25 that SAT solves in 30-90 ms. Set
#: from the bundled 25 x 25 Sudokus and the generated ones; ``puzzles/sudoku-fresh`` was
#: measured once before (its 25 x 25 ones were all SAT's) and ``puzzles/sudoku-fresh2`` not.
TRIAL_NODES_PER_ITEM_LARGE = 1
#: Problems with a connected, sized or acyclic rule (:data:`dlxsat.xcc.rules.KINDS` but the
#: loop: the shading and region genres, NumberLink), not counted, get a trial of
#: :data:`TRIAL_SECONDS` as loop problems do, whatever their size, and a node budget whatever
#: their number of items (:data:`NODE_BUDGET_WITH_RULES`): this many nodes an item. Their
#: DLX checks a rule after every choice, some 2-7 microseconds a node against a Sudoku's
#: 0.2-0.3, and their SAT pays 8-500 microseconds
#: an entry (lazy cuts) against a Sudoku's 5: neither the share of SAT's predicted time
#: (:data:`TRIAL_SAT_SECONDS_PER_ENTRY`) nor the Sudokus' per-item budgets fit. Measured on
#: 10 published boards of each of 14 such genres (``benchmarks/published.py --seed 31
#: --sample 10 --max-cells 225``, every engine loaded, best of 2, load 5-7): DLX was faster
#: on every board up to 11.8 nodes an item but two near-ties (Hitori 264: 1.4 an item, 13 ms
#: against SAT's 12; Heyawake 13: 17, 21 against 19 ms), SAT faster on most from 44 on (10 of
#: 14, by 1.6-90 x), DLX on a few far out (Cave 144 and 158 at 58 and 110 an item, 20-26 ms
#: against SAT's 130-175). Replayed on those runs (the trial's cost from each board's DLX rate,
#: then SAT's measured time), 8, 12, 16 and 24 an item with the 30 ms trial gave auto / VBS
#: Heyawake 1.21, 1.31, 1.40, 1.52, Fillomino 1.09, 1.13, 1.17, 1.26, Hitori 1.04-1.16, but
#: Aqre 2.82 at 8 (its board 30: 11.8 an item, DLX 10 ms, SAT 506) and Kurotto 1.39, 1.29,
#: 1.21, 1.26; 16 is the one within 0.1 of the best on every genre. The old rule (a share of
#: SAT's predicted time, 64 an item above 128 items, 1 above 5,000 entries) replayed: Heyawake
#: 1.57, Fillomino 1.34, Kuromasu 1.80 (its boards of 8,000-11,000 entries stopped after 1
#: node an item, where DLX needs 2-8: 30-65 ms against SAT's 70-95). Held out, the old rule
#: interleaved (10 boards a genre; geometric mean of the genres' auto / VBS): seed 35, 1.42 ->
#: 1.39 (the old rule's 5 % order bias taken out), seed 36, 1.24 -> 1.18 (Heyawake 1.66 ->
#: 1.36, Cave 1.63 -> 1.19, Kuromasu 1.61 -> 1.12; Aqre 1.86 -> 2.24, its boards DLX wins at
#: 40-60 nodes an item); docs/auto.md, "The genres".
TRIAL_NODES_PER_ITEM_RULES: int | None = 16
#: And at least this many nodes: LITS's primary items are its regions (20-69 on published
#: 10 x 10 to 15 x 15 boards), so 16 an item is 320-1,100 nodes, while the boards DLX wins
#: need up to 1,461 (``--seed 31, 32, 34``: 20-1,461 nodes, DLX 17-35 ms against SAT's
#: 23-121). Held out (seed 34, the old rule interleaved), LITS 215 (20 items, 823 nodes: DLX
#: 25 ms) went to SAT after 320 (136 ms), and LITS was 1.54 x the VBS against the old rule's
#: 1.08. 2,000 nodes are 4-14 ms of DLX with rule checks (2-7 microseconds a node); the
#: floor changes nothing above 125 items (Heyawake, Hitori, Nurikabe: 150-700) and raises
#: Fillomino's 64-100 items (1,024-1,600) by at most that.
TRIAL_MIN_NODES_RULES = 2_000
#: The node budget applies to problems of more primary items than this (every puzzle it was
#: measured on has more: a 9 x 9 Sudoku 324, a 10 x 10 Masyu 140-151), and to any problem
#: with a connected, sized or acyclic rule (:data:`NODE_BUDGET_WITH_RULES`). Smaller
#: exact-cover problems -- polyomino packings, n queens, Langford pairs -- run on bitsets at
#: millions of nodes a second, where 64 nodes an item is a fraction of a millisecond and would
#: send a tree that DLX ends in 0.1 s to a SAT search of seconds; their trial is bounded by
#: time.
NODE_BUDGET_MIN_ITEMS = 128
#: Whether a problem with a connected, sized or acyclic rule has a node budget whatever its
#: number of items. Such a problem runs on dancing links and checks its rules at every node
#: (2-7 microseconds): bounded by time alone, published Fillomino boards of 100 items searched
#: 2,400-7,300 nodes in their trials before SAT (``benchmarks/published.py --seed 31``).
#: Loop problems of 128 items or fewer keep their time-only trial: given the loop's 200 nodes
#: an item, the tuning boards gained (seed 31 replayed: Detour 1.29 -> 1.00, Regional Yajilin
#: 1.66 -> 1.23, their 10 x 10 boards of 100-114 items searching 78,000-136,000 nodes before
#: SAT) but the held-out ones lost (seeds 34 and 35, the old rule interleaved, loop genres'
#: geometric mean 1.13 -> 1.16 and 1.24 -> 1.28; Detour 20, 116 items, DLX 24 ms past 200 an
#: item, then SAT 141 ms; Slitherlink 47_8x8, 111 items: 79 -> 206 ms). With this False and
#: :data:`TRIAL_NODES_PER_ITEM_RULES` None, ``auto`` decides as before the shading and region
#: genres were measured (``benchmarks/published.py --variant``).
NODE_BUDGET_WITH_RULES = True
#: Whether a loop problem of at most :data:`NODE_BUDGET_MIN_ITEMS` primary items (a 10 x 10
#: board and smaller) has the loop problems' node budget too -- with its two orders
#: (:func:`two_orders_apply`) and its growth once an answer is found (:data:`FOUND_BUDGET_GROWTH`)
#: -- within its 10 ms (:data:`TRIAL_SECONDS_SMALL_LOOP`). Bounded by time alone, a small board
#: that SAT wins in 10-25 ms searched 40,000-60,000 nodes of Algorithm M (400-550 an item:
#: Regional Yajilin's 10 x 10s) before SAT. Replayed on every published loop board of at most
#: 121 cells (2026-11-28, ``benchmarks/auto_orders.py replay --small-seconds 0.01``; 1,316
#: boards of nine genres, each board's two trees searched to the end, SAT's measured time),
#: default / VBS without and with it: Regional Yajilin 1.29 -> 1.08, Yajilin 1.14 -> 0.98,
#: Geradeweg 1.15 -> 1.00, Detour 1.45 -> 1.35, Masyu 0.98 -> 0.96, Slitherlink 1.02 -> 1.00,
#: Balance Loop 1.23 -> 1.24, Dotchi Loop 1.00 -> 1.01, Simple Loop 1.00 (the replay leaves out
#: ``auto``'s own cost, some 0.05-0.15 on boards this small, the same either way).
#: The budget once tried here, 200 an item in Knuth's order alone and without the growth, had
#: lost held out (below). Measured: docs/auto.md, "The small loop boards' node budget".
NODE_BUDGET_SMALL_LOOP = True
#: The estimate's probes and their time bound. Compiled (when the DLX kernels are loaded) a
#: probe of a 9 x 9 Sudoku takes some 20 microseconds, of a 25 x 25 about 0.2-0.7 ms, after
#: the 5-60 ms of laying out the arrays; interpreted some hundred times more, so the time
#: bound then cuts the probes short (at least one runs).
PROBES = 128
ESTIMATE_SECONDS = 0.05
#: Compiled DLX nodes per second: 250,000-300,000 on 25 x 25 Sudokus (2 loaded cores), far
#: more on small ones; half the low end is used, since the estimate of a heavy-tailed tree
#: (a 25 x 25 of 1.2 million nodes estimated at 12,000-240,000 from 128 probes) is more often
#: low than high.
DLX_NODES_PER_SECOND = 150_000
#: Loading the compiled kernels when a process has not yet, by numba's JIT from its cache
#: (used only when counting).
DLX_LOAD_SECONDS = 0.6
#: The same from the ahead-of-time module (``dlx/aot.py``): the module itself 17 ms (load 11,
#: ``benchmarks/startup.py --kernels``) after numpy's import, 0.06-0.1 s idle. With 0.6 s here
#: instead, counting the 8 pentomino 3 x 20 packings went to SAT (0.37 s predicted, over 60 s
#: in fact; DLX 0.9 s).
DLX_AOT_LOAD_SECONDS = 0.15
#: SAT's time per entry of the problem's options (building the formula and solving, the
#: whole ``solve`` call): a 16 x 16 Sudoku (2,868 entries) 0.16 s, generated ones (about
#: 3,000) 0.12-0.22 s, 25 x 25 ones (about 7,000) 0.14-0.73 s -- the minimal 25 x 25 needs
#: 1.4-9 s, but its DLX tree is some 12 million nodes, so the choice stands.
SAT_SECONDS_PER_ENTRY = 5e-5
#: SAT's time per entry at its best, which DLX's trial is measured against (the rent): idle,
#: the whole ``solve`` call after loading, 16 x 16 Sudokus (2,868 entries) 0.013-0.015 s,
#: 25 x 25 ones (6,900-7,600) 0.029-0.039 s. Trials sized by :data:`SAT_SECONDS_PER_ENTRY`
#: (a loaded machine's figure, ten times this) ran 3-10 x SAT's own time on an idle machine:
#: ``benchmarks/auto.py --only holdout`` gave auto 2.15 x the VBS on the generated Sudokus.
TRIAL_SAT_SECONDS_PER_ENTRY = 5e-6
#: SAT's time per answer when counting (one more solver call with a blocking clause):
#: 27,904 answers of a 9 x 9 Sudoku in 10 s.
SAT_SECONDS_PER_ANSWER = 3e-4
#: The budget of a DLX run chosen by the estimate (when counting), in units of SAT's
#: predicted time; past it, SAT takes over.
SWITCH_FACTOR = 0.5
MIN_BUDGET = 0.2
#: When counting, SAT's predicted time gets a search term: :data:`SAT_SEARCH_FACTOR` times
#: DLX's predicted search, on trees DLX is predicted to finish within this many seconds. A
#: SAT count pays for a search of its own, which its formula and answers leave out, and on
#: such trees it costs far more than DLX's (50-1,000 x on the trees of
#: ``benchmarks/satcount.py``). Without it, counting the 1,472 pentomino packings of 4 x 15
#: (estimated 695,000 nodes, 4.8 s; DLX takes 0.6 s) went to SAT, predicted at 0.5 s for its
#: formula and the few answers the probes saw, and took 44 s (before issue 20's propagator
#: SAT did not finish at all). Beyond the bound no search term is added: a tree the estimate
#: puts that far may be one SAT's learning collapses (a minimal 25 x 25 Sudoku: 7 x 10^8
#: nodes, 4,900 s predicted; SAT counts its one answer in 2-10 s). The bound is generous
#: because :data:`DLX_NODES_PER_SECOND` is dancing links' rate on Sudoku, and the bitset
#: kernels of packings run ten times faster.
COUNT_DLX_SECONDS = 60.0
#: A conservative share of the 50-1,000 x above.
SAT_SEARCH_FACTOR = 10.0
#: A DLX count chosen by the estimate gets this many times its predicted search (and at least
#: the budget of :data:`SWITCH_FACTOR`) before SAT takes over: the estimate runs low on
#: heavy-tailed trees, and a SAT count that takes over starts afresh at 50-1,000 x DLX's cost.
#: With 4, counting the 9,356 packings of 6 x 10 (15 probes, interpreted: 99,000 nodes
#: estimated, 3.6 million searched) passed DLX's budget of 2.8 s at 3 s, and SAT had counted
#: 2,352 of them in 100 s.
COUNT_BUDGET_FACTOR = 10.0
#: Loop problems with more entries than this skip the trial and go straight to SAT (unless
#: counting): in ``benchmarks/auto.py`` no loop puzzle above 9,500 entries (Masyu 24 x 14 and
#: up, Slitherlink 30 x 25) finished a trial, which cost them 0.05-0.14 s each. That was 15,000;
#: with the trial a budget of compiled CPU (at most 30 ms, :data:`TRIAL_SECONDS`) it is 30,000:
#: the published Slitherlink 848 (14 x 24, 15,391 entries) went to SAT untried (0.65 s) where
#: DLX ends in 17,541 nodes, 30 ms of CPU (``benchmarks/published.py --seed 13``).
LOOP_TRIAL_MAX_ENTRIES = 30_000
#: A loop problem not counted is estimated first (Knuth's probes, :mod:`.dlx.estimate`, on the
#: layout its trial then searches): this many probes, and past this many estimated nodes an
#: item SAT runs without a trial. 0 probes: no estimate. The estimate runs low, most of all
#: on the trees that decide (those of more than 300 nodes an item: 20-570 x low, median,
#: from 256 down to 16 probes), and ranks the trees a trial does not settle poorly (AUC
#: 0.55-0.69 between those DLX still wins and those SAT wins), so it cannot set the trial's
#: budget; but a tree it already puts past 100 an item is mostly one SAT wins, and 16 probes
#: cost a median 0.3 ms (90 % within 0.75 ms at load 3-5). Chosen on 160 tuned boards
#: (``benchmarks/auto_estimate.py --replay``: ``auto`` over the VBS 1.287 -> 1.231 on
#: Masyu, 1.518 -> 1.428 on Slitherlink); held out
#: (``--variants``, seeds 23 and 24, 80 fresh boards a family each, interleaved with the rule
#: in one process, 3 rounds, load 3-5): Masyu 1.299 -> 1.292 and 1.250 -> 1.164, Slitherlink
#: 1.292 -> 1.235 and 1.233 -> 1.218. Not kept from the same replay: a longer trial (400 an
#: item) with it or alone (held out, alone: Masyu 1.393, Slitherlink 1.325 against the
#: rule's 1.299 and 1.292).
LOOP_ESTIMATE_PROBES = 16
LOOP_ESTIMATE_SAT_PER_ITEM = 100
#: Loop problems go to DLX, when counting, from this many estimated answers on.
LOOP_COUNT_ANSWERS = 50
#: When counting, a model counter (:mod:`.counter`, d4, when ``dlxsat[count]`` is installed)
#: takes a problem both engines are predicted to need more than this many seconds for: a
#: counter's work follows the formula's structure (independent parts are counted apart), not
#: the number of answers, which DLX and SAT pay one by one. Measured (one run, 2 cores at
#: load 14; docs/backends.md): an empty 7 x 7 Masyu's 4,468,252,414 disjoint-loop covers in
#: 4.6 s by d4, about half an hour by DLX; but 8 queens 1.41 s (DLX 0.23 s) and Langford 11
#: 27 s (DLX 0.17 s), trees DLX is predicted to finish in well under this bound.
COUNTER_MIN_SECONDS = 30.0


def load() -> None:
    """Load the engines ``auto`` may pick (DLX's compiled kernels and probes, PySAT)."""
    from . import cnf, dlx
    from .dlx import estimate

    dlx.load()
    estimate.load()
    cnf.load()


def features(problem: Problem, loop: bool, limit: int | None) -> dict[str, Any]:
    """The cheap features the choice uses: kind, loop rule, size, mode, option density.

    >>> from dlxsat.xcc import parse
    >>> f = features(parse("a b\\na\\nb\\na b\\n"), False, 2)
    >>> f["kind"], f["primary"], f["options"], f["entries"], f["mode"], f["density"], f["rules"]
    ('XC', 2, 3, 4, 'unique', 1.5, [])
    """
    entries = sum(len(o) for o in problem.options)
    primary = problem.n_primary
    return {
        "kind": problem.kind,
        "loop": bool(loop),
        # the problem's other global rules (connected, sized, acyclic), each kind once
        "rules": sorted({r.kind for r in problem.rules} - {"loop"}),
        "primary": primary,
        "options": len(problem.options),
        "entries": entries,
        "mode": "count" if limit is None else "unique" if limit == 2 else f"first {limit}",
        # options per primary item: few when many clues are given (Sudoku), the branching
        "density": round(len(problem.options) / max(1, primary), 3),
    }


def solve(problem: Problem, request: Request, options: Mapping[str, Any]) -> SearchResult:
    """Solve ``problem`` with the engine chosen as the module docstring says (the arguments of
    every search solver, ``dlxsat.solvers``); ``auto`` takes no options of its own, and its
    engines run with their defaults."""
    from . import cnf, dlx

    start = time.monotonic()
    limit = request.limit
    loop = problem.rule("loop") is not None
    feats = features(problem, loop, limit)
    info: dict[str, Any] = {"features": feats}

    def until(seconds: float | None) -> Request:
        """The request with a deadline ``seconds`` from now (None: the caller's), never
        later than the caller's."""
        deadline = request.deadline.sooner(Deadline.after(seconds)) if seconds else None
        return dataclasses.replace(request, deadline=deadline or request.deadline)

    def finish(result: SearchResult, engine: str, reason: str) -> SearchResult:
        info["engine"] = engine
        info["reason"] = reason
        info["seconds"] = round(time.monotonic() - start, 6)
        result.stats["auto"] = info
        return result

    if loop and limit is not None and feats["entries"] > LOOP_TRIAL_MAX_ENTRIES:
        why = "a large loop problem: DLX does not finish a trial on such, SAT prunes loops better"
        return finish(cnf.solve(problem, request, {}), "sat", why)

    # 0. A loop problem's tree estimate, on the layout the trial then searches: a tree the
    # probes already put past LOOP_ESTIMATE_SAT_PER_ITEM goes to SAT untried.
    arrays = None
    if loop_estimate_applies(problem, feats, limit):
        from .dlx.arrays import build_numpy
        from .dlx.estimate import estimate

        graph = problem.rule("loop").graph  # type: ignore[union-attr]
        arrays = build_numpy(problem, graph)
        probed = estimate(problem, probes=LOOP_ESTIMATE_PROBES, compiled=True, arrays=arrays)
        info["estimate"] = {
            "nodes": round(probed.nodes),
            "probes": probed.probes,
            "seconds": round(probed.seconds, 6),
        }
        # (Not the mirrored tree's estimate too: admitting the trees it puts below the bound
        # won as much on the trees DLX then settled as it lost on those that went on to SAT,
        # and lost on Slitherlinks of 400-900 cells: docs/auto.md, "Two orders".)
        if probed.nodes > LOOP_ESTIMATE_SAT_PER_ITEM * feats["primary"]:
            why = (
                f"Knuth's estimate of the DLX tree, over {LOOP_ESTIMATE_SAT_PER_ITEM} nodes an "
                "item: a loop problem's tree that explodes, SAT without a trial"
            )
            return finish(cnf.solve(problem, request, {}), "sat", why)

    # 1. The trial. Its time budget is of compiled search: a search that starts interpreted
    # (no compiled kernel loaded yet) searches some hundred times slower a node until it moves
    # to the compiled tier, and that time and the load do not count -- a 16 x 16 Sudoku's
    # budget of 10-16 ms used to end after the interpreter's first 64 nodes, where DLX needs
    # 130-160 in all, and every such Sudoku of a fresh process went to SAT. Where the compiled
    # kernel would come from numba's JIT (a few tenths of a second), the trial stays bounded
    # by the time alone, as any other run's.
    info["trial_budget"] = round(trial_seconds(feats, limit), 6)
    nodes = trial_nodes(feats, limit)
    if nodes is not None:
        info["trial_nodes"] = nodes
    grown = found_budget(feats, limit)
    load = dlx_load_seconds(problem)
    two_orders = (
        two_orders_apply(feats, limit) and nodes is not None and load <= DLX_AOT_LOAD_SECONDS
    )
    if two_orders:
        # Knuth's tree for a share of the budgets, then the mirrored one for the rest (the
        # layout is the same: each search runs on its own copy of it; Algorithm M's problems,
        # whose trees are not estimated before the trial, have it made here).
        if arrays is None:
            from .dlx.arrays import build_numpy

            arrays = build_numpy(problem, problem.rule("loop").graph)  # type: ignore[union-attr]
        share = knuth_share(feats)
        assert nodes is not None and share is not None
        trial = dlx.solve(
            problem,
            request,
            {},
            max_nodes=max(1, round(share * nodes)),
            trial_seconds=share * info["trial_budget"],
            arrays=arrays,
            found_budget=grown,
        )
        if trial.timed_out and not request.deadline.expired() and "found_by" not in trial.stats:
            knuth = trial.stats.get("nodes", 0)
            knuth_updates = trial.stats.get("updates", 0)
            info["trial_knuth_searched"] = knuth
            trial = dlx.solve(
                problem,
                request,
                {},
                max_nodes=max(1, nodes - knuth),
                trial_seconds=(1 - share) * info["trial_budget"],
                arrays=arrays,
                found_budget=grown,
                mirrored=True,
            )
            # (the figures of both searches: what the trial cost)
            trial.stats["nodes"] = trial.stats.get("nodes", 0) + knuth
            trial.stats["updates"] = trial.stats.get("updates", 0) + knuth_updates
            if "found_by" in trial.stats:
                trial.stats["found_by"] += knuth
            info["trial_mirrored"] = True
    elif load <= DLX_AOT_LOAD_SECONDS:
        trial = dlx.solve(
            problem,
            request,
            {},
            max_nodes=nodes,
            trial_seconds=info["trial_budget"],
            arrays=arrays,
            found_budget=grown,
        )
    else:
        trial = dlx.solve(problem, until(info["trial_budget"]), {}, max_nodes=nodes)
    info["trial_seconds"] = round(time.monotonic() - start, 6)
    info["trial_searched"] = trial.stats.get("nodes", 0)
    if "found_by" in trial.stats:
        info["trial_found_by"] = trial.stats["found_by"]
    if trial.stats.get("kernel") == "compiled":
        load = 0.0
    if not trial.timed_out:
        return finish(trial, "dlx", "DLX finished within its trial")
    if request.deadline.expired():
        return finish(trial, "dlx", "the time limit ended DLX's trial")

    # 2. The estimate (when the choice depends on it) and the two predictions.
    est = None
    if needs_estimate(feats, limit):
        from .dlx.estimate import estimate

        est = estimate(
            problem,
            probes=PROBES,
            deadline=time.monotonic() + ESTIMATE_SECONDS,
        )
    if est is not None:
        info["estimate"] = {
            "nodes": round(est.nodes),
            "answers": round(est.solutions),
            "probes": est.probes,
            "seconds": round(est.seconds, 6),
        }
    engine, reason, predicted = choose(
        feats,
        None if est is None else est.nodes,
        0.0 if est is None else est.solutions,
        trial.stats.get("nodes", 0),
        load,
        limit,
    )
    info["predicted"] = {k: _round(v) for k, v in predicted.items()}

    # 3. Commit.
    # (Only for a count: a counter lists no answer, so a caller keeping answers other than
    # those a count checks gets the engines.)
    if (
        limit is None
        and (request.mode == "count" or request.keep == 0)
        and min(predicted["dlx"], predicted["sat"]) > COUNTER_MIN_SECONDS
        and counter_installed()
    ):
        from . import counter

        why = (
            f"both engines predicted over {COUNTER_MIN_SECONDS:.0f} s to count: "
            "a model counter counts the answers without listing them"
        )
        return finish(counter.solve(problem, request, {}), "counter", why)
    if engine == "sat":
        return finish(cnf.solve(problem, request, {}), "sat", reason)
    own = COUNT_BUDGET_FACTOR * (predicted["dlx"] - predicted["load"]) if limit is None else 0
    budget = max(SWITCH_FACTOR * predicted["sat"], MIN_BUDGET, own) + predicted["load"]
    remaining = request.deadline.remaining()
    if remaining is not None and remaining <= budget:
        return finish(dlx.solve(problem, request, {}), "dlx", reason)
    run_start = time.monotonic()
    result = dlx.solve(problem, until(budget), {})
    if not result.timed_out:
        return finish(result, "dlx", reason)
    info["switched_after"] = round(time.monotonic() - run_start, 6)
    reason = f"DLX passed its budget of {budget:.2f} s; SAT took over"
    return finish(cnf.solve(problem, request, {}), "sat", reason)


def loop_estimate_applies(problem: Problem, feats: Mapping[str, Any], limit: int | None) -> bool:
    """Whether ``auto`` estimates the DLX tree before a loop problem's trial: a compiled loop
    trial (:func:`_compiled_loop_trial`; compiled, else the probes would run interpreted, some
    hundred times slower) not of Algorithm M, when :data:`LOOP_ESTIMATE_PROBES` is not 0. (On
    Algorithm M's loop genres the estimate ranks trees worse than on Masyu and Slitherlink: a
    replay of the estimate before their trials on 1,110 published boards gained nothing
    that its probes did not cost -- docs/auto.md, "Algorithm M's tree estimated".)"""
    return (
        LOOP_ESTIMATE_PROBES > 0 and feats["kind"] != "MCC" and _compiled_loop_trial(feats, limit)
    )


def two_orders_apply(feats: Mapping[str, Any], limit: int | None) -> bool:
    """Whether ``auto``'s trial searches Knuth's tree and then the mirrored one
    (:func:`knuth_share`): a compiled loop trial (:func:`_compiled_loop_trial`; both trees'
    searches then run on one layout), of any size when small loop problems have the node
    budget too (:data:`NODE_BUDGET_SMALL_LOOP`)."""
    small = NODE_BUDGET_SMALL_LOOP
    return knuth_share(feats) is not None and _compiled_loop_trial(feats, limit, small)


def knuth_share(feats: Mapping[str, Any]) -> float | None:
    """The share of a two-order loop trial's budgets that Knuth's tree gets
    (:data:`LOOP_TRIAL_KNUTH_SHARE`; :data:`LOOP_TRIAL_KNUTH_SHARE_M` for Algorithm M's
    problems), None when the trial searches Knuth's tree alone.

    >>> knuth_share({"kind": "XCC"}), knuth_share({"kind": "MCC"})  # Masyu, Country Road
    (0.5, 0.7)
    """
    if LOOP_TRIAL_KNUTH_SHARE is None:
        return None
    if feats["kind"] == "MCC" and LOOP_TRIAL_KNUTH_SHARE_M is not None:
        return LOOP_TRIAL_KNUTH_SHARE_M
    return LOOP_TRIAL_KNUTH_SHARE


def _compiled_loop_trial(feats: Mapping[str, Any], limit: int | None, small: bool = False) -> bool:
    """A loop problem not counted, of more than :data:`NODE_BUDGET_MIN_ITEMS` primary items
    (or of any number with ``small``), whose search starts compiled."""
    from . import dlx

    algorithm = "M" if feats["kind"] == "MCC" else "C"
    return (
        feats["loop"]
        and limit is not None
        and (small or feats["primary"] > NODE_BUDGET_MIN_ITEMS)
        and dlx._starts_compiled(algorithm, feats["entries"])
    )


def counter_installed() -> bool:
    """Whether the default model counter (:data:`.counter.DEFAULT_COUNTER`) can run here,
    asked without importing it (its package loads a large native library)."""
    import importlib.util

    from .counter import COUNTERS, DEFAULT_COUNTER

    return importlib.util.find_spec(COUNTERS[DEFAULT_COUNTER]) is not None


def predicted_sat(feats: Mapping[str, Any], answers: float, limit: int | None) -> float:
    """SAT's predicted seconds: the formula's size, and a solver call per answer wanted.

    >>> round(predicted_sat({"entries": 7000}, 2, 2), 4)  # a 25 x 25 Sudoku, is it unique?
    0.3506
    """
    wanted = answers if limit is None else min(answers, limit)
    seconds: float = SAT_SECONDS_PER_ENTRY * feats["entries"] + SAT_SECONDS_PER_ANSWER * wanted
    return seconds


def trial_seconds(feats: Mapping[str, Any], limit: int | None) -> float:
    """How long DLX's trial may run: :data:`TRIAL_SECONDS` for a loop problem
    (:data:`TRIAL_SECONDS_SMALL_LOOP` for one of few items without another rule), a problem with
    another global rule (:data:`TRIAL_NODES_PER_ITEM_RULES`) or a count; for any other, a
    share of SAT's time at its best (:data:`TRIAL_SAT_SECONDS_PER_ENTRY`; all of it up to
    :data:`LARGE_ENTRIES` entries, :data:`TRIAL_SHARE_LARGE` above), at least
    :data:`TRIAL_MIN_SECONDS`.

    >>> trial_seconds({"loop": False, "entries": 500}, 2)  # a 9 x 9 Sudoku
    0.005
    >>> round(trial_seconds({"loop": False, "entries": 3000}, 2), 4)  # a 16 x 16 one
    0.0156
    >>> round(trial_seconds({"loop": False, "entries": 7000}, 2), 4)  # a 25 x 25: the floor
    0.005
    >>> round(trial_seconds({"loop": False, "entries": 60000}, 2), 4)  # a tenth of 0.3 s
    0.0301
    >>> trial_seconds({"loop": True, "primary": 1320, "entries": 7000}, 2)  # loop problems
    0.03
    >>> trial_seconds({"loop": True, "primary": 111, "entries": 2300}, 2)  # a small one
    0.01
    >>> small = {"loop": True, "rules": ["connected"], "primary": 111, "entries": 2300}
    >>> trial_seconds(small, 2)  # a small one with another rule: it has a node budget
    0.03
    >>> trial_seconds({"loop": False, "rules": ["connected"], "entries": 2000}, 2)  # Heyawake
    0.03
    >>> trial_seconds({"loop": False, "entries": 7000}, None)  # counting: the floor
    0.03
    """
    if limit is not None and _small_loop(feats):
        return TRIAL_SECONDS_SMALL_LOOP
    if feats["loop"] or _other_rules(feats) or limit is None:
        return TRIAL_SECONDS
    share = TRIAL_SHARE_LARGE if feats["entries"] > LARGE_ENTRIES else TRIAL_SHARE
    rent = TRIAL_SAT_SECONDS_PER_ENTRY * feats["entries"] + SAT_SECONDS_PER_ANSWER * limit
    seconds: float = max(TRIAL_MIN_SECONDS, share * rent)
    return seconds


def trial_nodes(feats: Mapping[str, Any], limit: int | None) -> int | None:
    """The most nodes DLX's trial may search (:data:`TRIAL_NODES_PER_ITEM` per primary item;
    :data:`TRIAL_NODES_PER_ITEM_LOOP` with the loop rule, :data:`TRIAL_NODES_PER_ITEM_RULES`
    with another global rule (at least :data:`TRIAL_MIN_NODES_RULES`),
    :data:`TRIAL_NODES_PER_ITEM_LARGE` on large problems without either) for a problem not
    counted with more than :data:`NODE_BUDGET_MIN_ITEMS` primary items, with a connected,
    sized or acyclic rule, or with the loop rule (:data:`NODE_BUDGET_SMALL_LOOP`); None (no
    bound but the time) for the others, whose trees are not the ones it was measured on.

    >>> f = {"loop": False, "primary": 624, "entries": 2500}  # a 16 x 16 Sudoku
    >>> trial_nodes(f, 2), trial_nodes(f, None)
    (39936, None)
    >>> trial_nodes({"loop": False, "primary": 1320, "entries": 7000}, 2)  # 25 x 25: large
    1320
    >>> trial_nodes({"loop": True, "primary": 1320, "entries": 7000}, 2)  # a 24 x 14 Masyu
    132000
    >>> trial_nodes({"loop": False, "primary": 72, "entries": 12336}, 2) is None  # pentominoes
    True
    >>> trial_nodes({"loop": True, "primary": 100, "entries": 3000}, 2)  # a 10 x 10 loop
    10000
    >>> trial_nodes({"loop": False, "rules": ["sized"], "primary": 200, "entries": 2000}, 2)
    3200
    >>> trial_nodes({"loop": False, "rules": ["connected"], "primary": 20, "entries": 1700}, 2)
    2000
    """
    if limit is None or (_few_items(feats) and not (feats["loop"] and NODE_BUDGET_SMALL_LOOP)):
        return None
    if feats["loop"]:
        per_item = TRIAL_NODES_PER_ITEM_LOOP
    elif TRIAL_NODES_PER_ITEM_RULES is not None and _other_rules(feats):
        budget: int = max(TRIAL_NODES_PER_ITEM_RULES * feats["primary"], TRIAL_MIN_NODES_RULES)
        return budget
    elif feats["entries"] > LARGE_ENTRIES:
        per_item = TRIAL_NODES_PER_ITEM_LARGE
    else:
        per_item = TRIAL_NODES_PER_ITEM
    nodes: int = per_item * feats["primary"]
    return nodes


def found_budget(feats: Mapping[str, Any], limit: int | None) -> tuple[int, float] | None:
    """The trial's budgets of nodes and seconds once it has found an answer, when it is to go
    on for a second one: :data:`FOUND_BUDGET_GROWTH` times its own (:func:`trial_nodes`,
    :func:`trial_seconds`), for a loop problem or one with another global rule that has a node
    budget, asked for two answers or more; None for any other.

    >>> found_budget({"loop": True, "primary": 302, "entries": 8631}, 2)  # a 12 x 16 loop
    (151000, 0.15)
    >>> found_budget({"loop": True, "primary": 302, "entries": 8631}, 1) is None
    True
    >>> found_budget({"loop": False, "primary": 624, "entries": 2500}, 2) is None  # Sudoku
    True
    >>> found_budget({"loop": False, "rules": ["connected"], "primary": 200, "entries": 2000}, 2)
    (16000, 0.15)
    """
    nodes = trial_nodes(feats, limit)
    if (
        FOUND_BUDGET_GROWTH is None
        or not (feats["loop"] or _other_rules(feats))
        or nodes is None
        or limit is None
        or limit < 2
    ):
        return None
    seconds = trial_seconds(feats, limit)
    return round(FOUND_BUDGET_GROWTH * nodes), round(FOUND_BUDGET_GROWTH * seconds, 6)


def _few_items(feats: Mapping[str, Any]) -> bool:
    """A problem of at most :data:`NODE_BUDGET_MIN_ITEMS` primary items whose trial is not set
    by a connected, sized or acyclic rule (:data:`NODE_BUDGET_WITH_RULES`)."""
    ruled = NODE_BUDGET_WITH_RULES and _other_rules(feats)
    return feats["primary"] <= NODE_BUDGET_MIN_ITEMS and not ruled


def _small_loop(feats: Mapping[str, Any]) -> bool:
    """A loop problem of :func:`_few_items`: its trial lasts :data:`TRIAL_SECONDS_SMALL_LOOP`."""
    return bool(feats["loop"]) and _few_items(feats)


def _other_rules(feats: Mapping[str, Any]) -> bool:
    """Whether ``auto`` decides for a problem by its global rules other than the loop
    (:data:`TRIAL_NODES_PER_ITEM_RULES`): it has such rules, and that constant is set."""
    return TRIAL_NODES_PER_ITEM_RULES is not None and bool(feats.get("rules"))


def needs_estimate(feats: Mapping[str, Any], limit: int | None) -> bool:
    """Whether the choice after a trial depends on the tree estimate: only when counting
    (then SAT's work grows with the answers, which the estimate predicts too). Otherwise a
    loop problem goes to SAT, and so does any other that outlived its trial (see
    :data:`TRIAL_SHARE`).

    >>> needs_estimate({"loop": False, "entries": 2916}, 2), needs_estimate({"loop": True}, None)
    (False, True)
    """
    return limit is None


def choose(
    feats: Mapping[str, Any],
    nodes: float | None,
    answers: float,
    done_nodes: int,
    load: float,
    limit: int | None,
) -> tuple[str, str, dict[str, float]]:
    """The engine for a problem a DLX trial of :func:`trial_seconds` did not settle:
    ``(engine, reason, predictions)``. Pure: the same features give the same choice (the
    batch path calls it for puzzles that outgrow its own trial).

    ``feats`` are :func:`features`; ``nodes`` and ``answers`` the DLX tree estimate (``nodes``
    None: none was made, :func:`needs_estimate`), ``done_nodes`` the nodes the trial searched,
    ``load`` the seconds DLX still needs to load its compiled kernel (:func:`dlx_load_seconds`),
    ``limit`` the answers wanted (None: count them all). The predictions are seconds (``dlx``,
    ``sat``, and ``load``: DLX's share for loading its kernel). In order:

    - a loop problem goes to SAT (its trees prune late, and the probes underrate them),
      unless counting at least :data:`LOOP_COUNT_ANSWERS` estimated answers;
    - a problem with another global rule, not counted, goes to SAT: it outlived its trial's
      :data:`TRIAL_NODES_PER_ITEM_RULES` nodes an item;
    - any other problem not counted goes to SAT: it outlived a trial of a share of SAT's
      predicted time (:data:`TRIAL_SHARE`; the estimate is not trusted there);
    - when counting, the engine predicted faster: DLX's estimated nodes at
      :data:`DLX_NODES_PER_SECOND` (plus its load) against SAT's formula, a call per
      estimated answer and, on trees DLX is predicted to finish within
      :data:`COUNT_DLX_SECONDS`, :data:`SAT_SEARCH_FACTOR` times DLX's search (SAT when there
      is no estimate).

    >>> f = {"loop": False, "entries": 2916}
    >>> choose(f, 5e3, 1, 100, 0.0, None)[0], choose(f, 5e7, 1, 100, 0.0, None)[0]
    ('dlx', 'sat')
    >>> choose(f, 5e3, 1, 100, 0.0, 2)[:2]
    ('sat', "DLX did not finish its trial (a share of SAT's predicted time)")
    >>> choose({"loop": True, "entries": 4000}, None, 0, 100, 0.0, 2)[:2]
    ('sat', 'a loop problem: SAT prunes loops better than DLX')
    >>> choose({"loop": False, "rules": ["connected"], "entries": 2000}, None, 0, 100, 0.0, 2)[1]
    'DLX did not finish its trial (16 nodes an item: a problem with connected rules)'
    """
    if nodes is None:
        predicted_dlx = math.inf
    else:
        # A trial that searched more than the estimate shows the estimate low (as it often
        # is, for a heavy-tailed tree): then assume at least as much again is left.
        predicted_dlx = load + max(nodes - done_nodes, done_nodes) / DLX_NODES_PER_SECOND
    sat = predicted_sat(feats, answers if nodes is not None else (limit or 0), limit)
    if limit is None and predicted_dlx - load <= COUNT_DLX_SECONDS:
        sat += SAT_SEARCH_FACTOR * (predicted_dlx - load)
    predicted = {"dlx": predicted_dlx, "sat": sat, "load": load}
    if feats["loop"] and not (limit is None and answers >= LOOP_COUNT_ANSWERS):
        return "sat", "a loop problem: SAT prunes loops better than DLX", predicted
    if limit is not None and _other_rules(feats):
        why = (
            f"DLX did not finish its trial ({TRIAL_NODES_PER_ITEM_RULES} nodes an item: "
            f"a problem with {' and '.join(feats['rules'])} rules)"
        )
        return "sat", why, predicted
    if limit is not None:
        why = "DLX did not finish its trial (a share of SAT's predicted time)"
        return "sat", why, predicted
    if nodes is None:
        why = "no tree estimate: SAT is the safe choice"
        return "sat", why, predicted
    if predicted_dlx <= sat:
        return "dlx", "the estimated DLX tree is smaller than SAT's predicted work", predicted
    return "sat", "the estimated DLX tree is larger than SAT's predicted work", predicted


def dlx_load_seconds(problem: Problem) -> float:
    """Seconds DLX would still spend loading the compiled kernel ``problem`` needs: none when
    this process has it; :data:`DLX_AOT_LOAD_SECONDS` when the ahead-of-time module is built
    (asking costs hashing the kernels' sources, a few milliseconds, once a process; not
    numpy's import); :data:`DLX_LOAD_SECONDS` (numba's JIT cache) otherwise."""
    import sys

    from . import dlx

    compiled = sys.modules.get("dlxsat.backends.dlx.compiled")
    name = "search_m" if problem.kind == "MCC" else "search_c"
    if compiled is not None and any(compiled.is_ready(name, t) for t in ("int16", "int32")):
        return 0.0
    return DLX_AOT_LOAD_SECONDS if dlx.ahead_of_time_built() else DLX_LOAD_SECONDS


# --------------------------------------------------------------------------- the batch path

#: On the batch path (:func:`solve_many`), the seconds of DLX search a puzzle gets on its own
#: (one its chunk did not settle, or any when there are no chunks) before it is handed to
#: ``auto``'s choice (a hard 9 x 9 takes well under a millisecond there; a minimal 25 x 25
#: runs for hours).
BATCH_TRIAL_SECONDS = 0.05

#: What ``stats["auto"]`` says of a puzzle settled on the batch path's DLX.
AUTO_IN_TRIAL = {"engine": "dlx", "reason": "DLX finished within its trial"}


def solve_many(
    template: Template,
    puzzles: Sequence[Any],
    mode: str,
    timeout: float | None,
    on_found: Callable[[int], None] | None = None,
) -> Iterator[Settled]:
    """``auto``'s batch path (``SPEC.batch``): DLX's (:mod:`.dlx.batch`), which is each
    puzzle's DLX trial -- many puzzles in one call of the kernel, their clues pre-covered; a
    puzzle the chunk does not settle gets :data:`BATCH_TRIAL_SECONDS` of that DLX on its own,
    and one that outgrows it goes to ``auto``'s own choice on its own problem (the template's
    :meth:`~dlxsat.solvers.Template.problem_of`), ``on_found`` told its answers. One
    :class:`~dlxsat.result.Settled` per puzzle, in order."""
    from ..result import Settled
    from .dlx import batch

    def beyond_trial(puzzle: Any, deadline: Deadline, start: float) -> Settled:
        problem = template.problem_of(puzzle)
        request = Request.for_mode(mode, deadline=deadline, on_found=on_found)
        result = solve(problem, request, {})
        result.stats["auto"]["batch_trial_seconds"] = BATCH_TRIAL_SECONDS
        return Settled.of(result, puzzle, time.perf_counter() - start, problem=problem)

    run = batch.Batch(
        template,
        mode,
        timeout,
        chunks=_dlx_first(template.problem, mode),
        trial=BATCH_TRIAL_SECONDS,
        beyond_trial=beyond_trial,
        tag={"auto": AUTO_IN_TRIAL},  # (settled by the batch's DLX, within its trial)
    )
    return run.settle(puzzles)


def _dlx_first(problem: Problem, mode: str) -> bool:
    """Whether ``auto`` starts a puzzle of ``problem`` (a batch's shared problem) with a DLX
    trial, as :func:`solve` decides: yes, unless it is a large loop problem not counted. The
    batch path runs that trial for many puzzles at once."""
    known = _DLX_FIRST.get((id(problem), mode))
    if known is not None:
        return known[1]
    limit = Request.for_mode(mode).limit
    feats = features(problem, problem.rule("loop") is not None, limit)
    first = not (feats["loop"] and limit is not None and feats["entries"] > LOOP_TRIAL_MAX_ENTRIES)
    if len(_DLX_FIRST) > 16:
        _DLX_FIRST.clear()
    _DLX_FIRST[id(problem), mode] = (problem, first)  # (the problem kept: its id stays its own)
    return first


#: :func:`_dlx_first`'s answers, by problem and mode.
_DLX_FIRST: dict[tuple[int, str], tuple[Problem, bool]] = {}


def _round(x: float) -> float | None:
    return None if math.isinf(x) else round(x, 6)
