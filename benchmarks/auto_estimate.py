"""Can ``auto`` choose before searching? Knuth's tree estimate against the tree, board by board.

Measure (``--jsonl OUT``): a sample of published loop boards (``benchmarks/published.py``'s sets
and draw; ``--only KEYS``: only boards with these keys, e.g. the boards ``auto`` may be tuned
on, ``benchmarks/data/auto-tuned-boards.txt``; ``--exclude KEYS``: never these), one process
with the engines loaded. Every board's exact-cover problem is built once, then

- estimated by Knuth's random probes (:mod:`dlxsat.backends.dlx.estimate`: the search's own
  item choice and loop rule) with each of ``--probes`` counts: the estimate (the mean), the
  median probe, and the seconds;
- searched by DLX to the end (is the answer unique?, at most ``--timeout`` seconds): nodes,
  seconds, and of those the arrays' layout and the search;
- solved by SAT (the ``sat`` backend): seconds;

each run the best of ``--rounds``, one JSON line a board.

Replay (``--replay FILE...``): from such lines, per family, how well the estimate predicts the
tree (the correlation of the logarithms, how far low it runs on the trees of more than 300
nodes an item, the ones SAT wins) and how it separates, among the trees ``auto``'s trial does
not settle (past 100 nodes an item), those DLX still wins from those SAT wins (AUC: 1 is a
perfect ranking, 0.5 none; beside it the problem's options per item); then the total time of
choices over the virtual best of the two engines (the per-board better of DLX to the end and
SAT): ``auto``'s rule (a trial of 200 nodes an item and 30 ms of search, then SAT), the best
node budget of a grid, a trial of a share of SAT's *actual* time (the best any rent-or-buy
trial could do knowing it), and a trial after which a board whose estimate passes a bound
goes to SAT at once (probes paid). A trial is replayed from the full run: its layout, then its
share of the nodes at the run's rate.

Run::

    python benchmarks/auto_estimate.py --dataset DIR --families masyu,slitherlink \\
        --sample 70 --seed 1 --only benchmarks/data/auto-tuned-boards.txt --jsonl out.jsonl
    python benchmarks/auto_estimate.py --replay out.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

import corpus  # noqa: E402
import published  # noqa: E402

Row = dict[str, Any]

#: ``auto``'s rule for loop problems (``TRIAL_NODES_PER_ITEM_LOOP``, ``TRIAL_SECONDS``).
RULE = (200, 0.03)


def boards(
    name: str, dataset: str, k: int, seed: int, only: frozenset[str] | None, exclude: frozenset[str]
) -> list[tuple[str, str]]:
    every = published.sample(name, dataset, 100_000, 0, exclude)
    if only is not None:
        every = [b for b in every if published.listed(name, b[0], only)]
    every.sort()
    return random.Random(seed).sample(every, min(k, len(every)))


def best_of(rounds: int, run: Callable[[], Any]) -> tuple[float, Any]:
    """(the fastest of ``rounds`` runs' seconds, the last run's result)."""
    best, out = math.inf, None
    for _ in range(rounds):
        start = time.perf_counter()
        out = run()
        best = min(best, time.perf_counter() - start)
    return best, out


def measure_board(problem: Any, probes: Sequence[int], rounds: int, timeout: float) -> Row:
    """One board's figures (see the module docstring): its features, the estimates, DLX to
    the end and SAT."""
    from dlxsat.backends import auto, cnf, dlx
    from dlxsat.backends.dlx.estimate import estimate
    from dlxsat.runtime.deadline import Deadline
    from dlxsat.solvers import Request

    def unique_until(seconds: float) -> Any:
        return Request(limit=2, mode="unique", deadline=Deadline.after(seconds))

    row: Row = dict(auto.features(problem, problem.rule("loop") is not None, 2))
    for p in probes:
        secs, est = best_of(1, lambda p=p: estimate(problem, probes=p, seed=1))
        row[f"est{p}"] = est.nodes
        row[f"med{p}"] = statistics.median(est.samples)
        row[f"est{p}_s"] = secs
    secs, res = best_of(rounds, lambda: dlx.solve(problem, unique_until(timeout), {}))
    row["dlx_s"] = secs
    row["dlx_nodes"] = res.stats.get("nodes")
    row["dlx_timed_out"] = res.timed_out
    row["dlx_search_s"] = res.stats.get("seconds")
    row["dlx_build_s"] = res.stats.get("build_seconds")
    row["sat_s"], _ = best_of(rounds, lambda: cnf.solve(problem, unique_until(600), {}))
    return row


def measure(a: argparse.Namespace) -> None:
    from dlxsat import formats
    from dlxsat.backends import auto
    from dlxsat.families import get_spec

    only = published.keys_of(a.only) if a.only else None
    exclude = published.keys_of(a.exclude) if a.exclude else frozenset()
    auto.load()
    probes = [int(p) for p in a.probes.split(",")]
    print(f"load average before: {os.getloadavg()[0]:.1f}", flush=True)
    with open(a.jsonl, "w") as log:
        for name in a.families.split(","):
            family = published.SETS[name][0]
            spec = get_spec(family)
            for key, text in boards(name, a.dataset, a.sample, a.seed, only, exclude)[a.skip :]:
                problem = spec.build_problem(formats.read(family, text, "grid"))
                row = {"set": name, "board": key}
                row.update(measure_board(problem, probes, a.rounds, a.timeout))
                log.write(json.dumps(row) + "\n")
                log.flush()
                print(
                    f"{name} {key}: dlx {row['dlx_nodes']} nodes {row['dlx_s']:.3f} s, "
                    f"sat {row['sat_s']:.3f} s",
                    flush=True,
                )
    print(f"load average after: {os.getloadavg()[0]:.1f}")


# --------------------------------------------------------------------------- replay


def trial(r: Row, nodes: float, cap: float) -> tuple[float, bool]:
    """(seconds, finished) of a DLX trial of ``nodes`` nodes and ``cap`` seconds of search on
    board ``r``, replayed from its full run (the layout, then the nodes at the run's rate)."""
    n, search, layout = r["dlx_nodes"], r["dlx_search_s"], r["dlx_build_s"]
    if n <= nodes and search <= cap and not r["dlx_timed_out"]:
        return layout + search, True
    return layout + min(cap, search * min(1.0, nodes / n)), False


def per_item(per: float, cap: float) -> Callable[[Row], float]:
    """A trial of ``per`` nodes a primary item and ``cap`` seconds, then SAT."""

    def cost(r: Row) -> float:
        t, done = trial(r, per * r["primary"], cap)
        return t if done else t + r["sat_s"]

    return cost


def sat_share(alpha: float) -> Callable[[Row], float]:
    """A trial of ``alpha`` times SAT's actual seconds (known only after the fact), then SAT."""

    def cost(r: Row) -> float:
        t, done = trial(r, math.inf, alpha * r["sat_s"])
        return t if done else t + r["sat_s"]

    return cost


def estimate_first(probes: int, bound: float, per: float, cap: float) -> Callable[[Row], float]:
    """The estimate of ``probes`` probes first (paid at the probes' measured cost): past
    ``bound`` nodes an item SAT at once, else the trial of :func:`per_item`."""

    def cost(r: Row) -> float:
        paid = (r["est256_s"] - r["est16_s"]) / 240 * probes  # (the probes, not the layout)
        if r[f"est{probes}"] > bound * r["primary"]:
            return paid + r["sat_s"]
        return paid + per_item(per, cap)(r)

    return cost


def over_vbs(rows: Sequence[Row], cost: Callable[[Row], float]) -> float:
    vbs = sum(min(r["dlx_s"], r["sat_s"]) for r in rows)
    return sum(cost(r) for r in rows) / vbs


def auc(wins: Sequence[float], losses: Sequence[float]) -> float:
    """The chance that a board DLX wins ranks below one SAT wins (ties half)."""
    pairs = [(w < s) + 0.5 * (w == s) for w in wins for s in losses]
    return sum(pairs) / len(pairs) if pairs else math.nan


def replay(files: Sequence[str]) -> None:
    rows: dict[tuple[str, str], Row] = {}
    for f in files:
        for line in Path(f).read_text().splitlines():
            r = json.loads(line)
            rows[r["set"], r["board"]] = r
    for name in sorted({s for s, _ in rows}):
        fam = [r for (s, _), r in sorted(rows.items()) if s == name and "dlx_search_s" in r]
        probes = sorted(int(k[3:]) for k in fam[0] if k.startswith("est") and k[3:].isdigit())
        print(f"\n{name}: {len(fam)} boards")
        ended = [r for r in fam if not r["dlx_timed_out"]]
        hard = [r for r in fam if r["dlx_nodes"] > 100 * r["primary"]]
        dlx_wins = [r for r in hard if r["dlx_s"] < r["sat_s"]]
        sat_wins = [r for r in hard if r["dlx_s"] >= r["sat_s"]]
        density = auc([r["density"] for r in dlx_wins], [r["density"] for r in sat_wins])
        print(
            f"  past 100 nodes an item: {len(dlx_wins)} DLX wins, {len(sat_wins)} SAT wins; "
            f"AUC of options per item {density:.2f}"
        )
        for p in probes:
            xs = [math.log10(max(1.0, r[f"est{p}"])) for r in ended]
            ys = [math.log10(r["dlx_nodes"]) for r in ended]
            big = [r for r in ended if r["dlx_nodes"] > 300 * r["primary"]]
            low = [r["dlx_nodes"] / max(1.0, r[f"est{p}"]) for r in big]
            per = (
                [r[f"est{p}"] / r["primary"] for r in dlx_wins],
                [r[f"est{p}"] / r["primary"] for r in sat_wins],
            )
            print(
                f"  {p:4d} probes: corr(log est, log nodes) {statistics.correlation(xs, ys):.2f}, "
                f"trees > 300 an item {statistics.median(low) if low else math.nan:.0f} x the "
                f"estimate (median), AUC {auc(*per):.2f}, "
                f"{statistics.median(r[f'est{p}_s'] for r in fam) * 1e3:.1f} ms (median)"
            )
        print(
            f"  SAT alone {over_vbs(fam, lambda r: r['sat_s']):.2f} x the VBS, DLX alone "
            f"{over_vbs(fam, lambda r: r['dlx_s']):.2f} (runs at the limit counted as the limit)"
        )
        rule = over_vbs(fam, per_item(*RULE))
        print(f"  the rule ({RULE[0]} an item, {RULE[1] * 1e3:.0f} ms): {rule:.3f}")
        grid = [
            (over_vbs(fam, per_item(c, cap)), c, cap)
            for c in (50, 100, 200, 400, 800)
            for cap in (0.01, 0.03, 0.06, 1.0)
        ]
        v, c, cap = min(grid)
        print(f"  best node budget: {v:.3f} ({c} an item, {cap * 1e3:.0f} ms)")
        v, alpha = min((over_vbs(fam, sat_share(x)), x) for x in (0.1, 0.2, 0.3, 0.5, 0.75, 1))
        print(f"  best trial of a share of SAT's actual time: {v:.3f} ({alpha})")
        if {16, 256} <= set(probes):
            grid2 = [
                (over_vbs(fam, estimate_first(p, b, c, cap)), p, b, c, cap)
                for p in probes
                for b in (10, 30, 100, 300, 1000)
                for c, cap in ((200, 0.03), (400, 0.03), (800, 0.06))
            ]
            v, p, b, c, cap = min(grid2)
            print(
                f"  best estimate first: {v:.3f} ({p} probes, SAT past {b} an item, else "
                f"{c} an item and {cap * 1e3:.0f} ms)"
            )


# --------------------------------------------------------------------------- variants

#: ``auto``'s variants compared by ``--variants``: its module constants for each.
VARIANTS: dict[str, dict[str, int]] = {
    "rule": {"LOOP_ESTIMATE_PROBES": 0, "TRIAL_NODES_PER_ITEM_LOOP": 200},
    "n400": {"LOOP_ESTIMATE_PROBES": 0, "TRIAL_NODES_PER_ITEM_LOOP": 400},
    "est200": {"LOOP_ESTIMATE_PROBES": 16, "TRIAL_NODES_PER_ITEM_LOOP": 200},
    "est400": {"LOOP_ESTIMATE_PROBES": 16, "TRIAL_NODES_PER_ITEM_LOOP": 400},
}


def variants(a: argparse.Namespace) -> None:
    """``auto``'s variants and the engines on a sample drawn as ``published.py`` draws it
    (``--exclude``: held out), interleaved in one process (the order rotating), each board's
    best of ``--rounds``: every variant's total over the VBS of dlx and sat."""
    from dlxsat.backends import auto

    exclude = published.keys_of(a.exclude) if a.exclude else frozenset()
    names = a.variants.split(",")
    solvers = ["dlx", "sat", *names]
    published.load_engines()
    print(f"load average before: {os.getloadavg()[0]:.1f}", flush=True)
    log = open(a.jsonl, "w") if a.jsonl else None  # noqa: SIM115
    for name in a.families.split(","):
        family = published.SETS[name][0]
        drawn = published.sample(name, a.dataset, a.sample, a.seed, exclude)
        best: dict[tuple[str, str], float] = {}
        for r in range(a.rounds):
            for i, (key, text) in enumerate(drawn):
                shift = (i + r) % len(solvers)
                for solver in solvers[shift:] + solvers[:shift]:
                    if solver in VARIANTS:
                        for constant, value in VARIANTS[solver].items():
                            setattr(auto, constant, value)
                        seconds, out = published.ours(family, text, "auto", a.timeout)
                    else:
                        seconds, out = published.ours(family, text, solver, a.timeout)
                    best[key, solver] = min(seconds, best.get((key, solver), math.inf))
                    if log:
                        row = {"set": name, "board": key, "solver": solver, "seconds": seconds}
                        log.write(json.dumps({**row, **out}) + "\n")
        keys = [k for k, _ in drawn]
        vbs = sum(min(best[k, "dlx"], best[k, "sat"]) for k in keys)
        ratios = ", ".join(f"{s} {sum(best[k, s] for k in keys) / vbs:.3f}" for s in solvers)
        print(
            f"{name}: {len(keys)} boards, over the VBS of dlx and sat: {ratios} "
            f"(load {os.getloadavg()[0]:.1f})",
            flush=True,
        )
        print("# " + " ".join(keys), flush=True)
    print(f"load average after: {os.getloadavg()[0]:.1f}")


def board_parser(sample: int, timeout: float, timeout_help: str) -> argparse.ArgumentParser:
    """The options of a measure-or-replay benchmark on published loop boards, shared with
    ``auto_race.py``: the corpus, the boards drawn (``--families``, ``--sample``, ``--seed``,
    ``--only``, ``--exclude``: ``published.sample``'s), the rounds and limit, where the
    measurement goes (``--jsonl``) or which to replay (``--replay``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    corpus.dataset_argument(parser)
    parser.add_argument("--families", default="masyu,slitherlink")
    parser.add_argument("--sample", type=int, default=sample, help="boards per family")
    parser.add_argument("--seed", type=int, default=1, help="which boards")
    parser.add_argument("--only", default=None, help="draw only boards with these keys (a file)")
    parser.add_argument("--exclude", default=None, help="never draw these keys (a file)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=timeout, help=timeout_help)
    parser.add_argument("--jsonl", default=None, help="measure: one JSON line a board here")
    parser.add_argument("--replay", nargs="+", default=None, help="replay such files instead")
    return parser


def check_measuring(parser: argparse.ArgumentParser, a: argparse.Namespace) -> None:
    """A measurement needs where its lines go and a corpus to draw from."""
    if not a.jsonl:
        parser.error("give --jsonl OUT to measure, or --replay FILE... to replay")
    if not a.dataset:
        parser.error("no corpus: give --dataset DIR or set DLXSAT_CORPUS")


def main() -> None:
    parser = board_parser(40, 2.0, "DLX's limit a board")
    parser.add_argument("--skip", type=int, default=0, help="skip the sample's first boards")
    parser.add_argument("--probes", default="16,64,256", help="estimates of these many probes")
    parser.add_argument(
        "--variants", default=None, help=f"compare these variants of auto: {', '.join(VARIANTS)}"
    )
    a = parser.parse_args()
    if a.replay:
        replay(a.replay)
        return
    if a.variants:
        if not a.dataset:
            parser.error("no corpus: give --dataset DIR or set DLXSAT_CORPUS")
        variants(a)
        return
    check_measuring(parser, a)
    measure(a)


if __name__ == "__main__":
    main()
