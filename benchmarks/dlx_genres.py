"""The dlx backend's search on the genres' published boards: its time a node, and its trees.

For each genre given (any of ``benchmarks/genres.py``'s table), a sample of its published
boards (``--sample`` boards of at most ``--max-cells`` cells, drawn with ``--seed`` as
``benchmarks/published.py`` draws them) is encoded and searched by the dlx backend alone,
compiled (the kernels loaded first, not counted), asking "is the answer unique?" and stopped
after ``--max-nodes`` nodes: what a change to the kernels' rule checks or item choice is
measured on, since ``auto``'s trial on the shading and region genres is such a search and
what it costs there is its time a node. Printed per genre: the boards, their nodes in all, the
search's seconds in all (each board's best of ``--repeat`` searches in each of ``--rounds``
processes) and microseconds a node.

Several source trees can be measured in one run (``--tree LABEL=DIR``, ``DIR`` holding
``src/dlxsat``; ``git archive COMMIT src | tar -x -C DIR`` makes one; the first is the
reference), each genre in a fresh process of each tree per round, the trees' order rotating
from genre to genre and round to round (two processes of the very same tree came out up to
12 % apart: hence the rounds). Besides each tree's time and its ratio to the reference, the
run checks that every tree searched the same tree: the same nodes, updates and answers on
every board -- a change meant to make a node cheaper must not change which nodes there are. A
board where they differ is named, and the run exits with status 1.

Run::

    python benchmarks/dlx_genres.py --dataset puzzlekit-dataset --genres heyawake,cave
        [--sample 8] [--seed 9] [--max-nodes 100000] [--tree before=/tmp/old] [--tree after=.]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import corpus  # noqa: E402
from corpus_cpu import source_trees, tree_argument  # noqa: E402

#: The child: reads ``{"family", "boards": [[key, text], ...], "max_nodes", "repeat"}`` on
#: stdin, searches every board with the dlx backend, prints one JSON line per board. Only the
#: API every tree measured has (``pipeline.prepare``, ``backends.dlx.solve``).
CHILD = r"""
import json, sys
from dlxsat import pipeline
from dlxsat.backends import dlx
from dlxsat.solvers import Request
job = json.load(sys.stdin)
dlx.load()
for key, text in job["boards"]:
    problem = pipeline.prepare(job["family"], text, "grid").problem
    best = None
    for _ in range(job["repeat"]):
        r = dlx.solve(problem, Request.for_mode("unique"), {}, max_nodes=job["max_nodes"])
        best = r.stats["seconds"] if best is None else min(best, r.stats["seconds"])
    print(json.dumps({"key": key, "seconds": best, "nodes": r.stats["nodes"],
                      "updates": r.stats["updates"], "count": r.count,
                      "answers": sorted(sorted(s) for s in r.solutions)}))
"""


def run_child(
    tree: Path, family: str, boards: list[tuple[str, str]], a: argparse.Namespace
) -> list[dict]:
    """One genre's boards searched in a fresh process of ``tree``'s sources."""
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    job = json.dumps(
        {"family": family, "boards": boards, "max_nodes": a.max_nodes, "repeat": a.repeat}
    )
    done = subprocess.run(
        [sys.executable, "-c", CHILD], input=job, capture_output=True, text=True, env=env
    )
    if done.returncode != 0:
        raise SystemExit(f"{tree}: {done.stderr.strip()[-2000:]}")
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def main() -> None:
    import genres
    import published

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    corpus.dataset_argument(parser)
    parser.add_argument("--genres", required=True, help="comma-separated")
    parser.add_argument("--sample", type=int, default=8, help="boards per genre")
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--max-cells", type=int, default=published.MAX_CELLS)
    parser.add_argument("--max-nodes", type=int, default=100_000, help="a board's search ends here")
    parser.add_argument("--repeat", type=int, default=3, help="searches of a board a process")
    parser.add_argument(
        "--rounds", type=int, default=3, help="processes per genre and tree, interleaved"
    )
    tree_argument(parser)
    a = parser.parse_args()
    if not a.dataset:
        parser.error("no corpus: give --dataset DIR or set DLXSAT_CORPUS")
    names = genres.named(parser, a.genres)
    trees = source_trees(a.tree)
    ref_label = trees[0][0]
    loads = [os.getloadavg()[0]]
    started = time.perf_counter()
    work = []
    for name in names:
        family = published.family_of(name, a.max_cells)[0]
        boards = published.sample(name, a.dataset, a.sample, a.seed, most=a.max_cells)
        work.append((name, family, boards))
    # best[genre][tree][key]: a board's least seconds over the rounds; runs[...]: its figures
    best: dict[str, dict[str, dict[str, float]]] = {name: {} for name, _, _ in work}
    runs: dict[str, dict[str, dict[str, dict]]] = {name: {} for name, _, _ in work}
    for rnd in range(a.rounds):
        for i, (name, family, boards) in enumerate(work):
            k = (rnd + i) % len(trees)
            for label, tree in trees[k:] + trees[:k]:
                for b in run_child(tree, family, boards, a):
                    seen = best[name].setdefault(label, {})
                    seen[b["key"]] = min(seen.get(b["key"], b["seconds"]), b["seconds"])
                    runs[name].setdefault(label, {})[b["key"]] = b
                loads.append(os.getloadavg()[0])
    differ = [
        f"{name} {key}: {ref_label} and {label} differ"
        for name, _, _ in work
        for label, got in runs[name].items()
        for key, want in runs[name][ref_label].items()
        if any(want[f] != got[key][f] for f in ("nodes", "updates", "count", "answers"))
    ]
    heads = []
    for label, _ in trees:
        heads += [f"{label} ms", f"{label} us a node"]
        if label != ref_label:
            heads.append(f"{label} / {ref_label}")
    print("\n| genre | boards | nodes | " + " | ".join(heads) + " |")
    print("|---" * (3 + len(heads)) + "|")
    for name, _, boards in work:
        nodes = sum(b["nodes"] for b in runs[name][ref_label].values())
        reference = sum(best[name][ref_label].values())
        cells = []
        for label, _ in trees:
            seconds = sum(best[name][label].values())
            cells += [f"{1000 * seconds:.1f}", f"{1e6 * seconds / max(nodes, 1):.3f}"]
            if label != ref_label:
                cells.append(f"{seconds / max(reference, 1e-9):.2f}")
        print(f"| {name} | {len(boards)} | {nodes} | " + " | ".join(cells) + " |")
    print(
        f"\n{len(trees)} trees x {a.rounds} rounds, {time.perf_counter() - started:.0f} s;"
        f" load average {min(loads):.1f}-{max(loads):.1f}"
    )
    if len(trees) > 1:
        print("the same trees on every board" if not differ else "\n".join(differ))
    if differ:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
