"""The public puzzlekit corpus (``SmilingWayne/puzzlekit-dataset``), read for the benchmarks.

The corpus gathers published puzzles with their published answers, one JSON file per genre:
``assets/data/<Genre>/<Genre>_dataset.json`` = ``{"count", "count_sol", "name", "data": {key:
{"problem": text, "solution": text, "source": url, "info": ...}}}``; a problem or answer text is
a ``ROWS COLS`` line, then rows of space-separated tokens (the corpus's notation per genre,
docs/formats.md). It is not bundled (38 MB): clone it and name the folder with ``--dataset``
or ``DLXSAT_CORPUS`` (a work tree, or a bare clone, read with ``git show``)::

    git clone https://github.com/SmilingWayne/puzzlekit-dataset
    python benchmarks/check_corpus.py --dataset puzzlekit-dataset

The benchmarks were run on commit 53de2fc of the corpus.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
from pathlib import Path

#: The corpus commit the recorded figures are of.
COMMIT = "53de2fc"


def dataset_argument(parser: argparse.ArgumentParser) -> None:
    """``--dataset DIR``: the corpus (default: ``$DLXSAT_CORPUS``)."""
    parser.add_argument(
        "--dataset",
        default=os.environ.get("DLXSAT_CORPUS"),
        help="a clone of SmilingWayne/puzzlekit-dataset (work tree or bare); "
        "default: $DLXSAT_CORPUS",
    )


def load(genre: str, dataset: str | Path) -> dict[str, tuple[str, str | None]]:
    """Every puzzle of ``genre`` (the corpus's folder name, e.g. ``Masyu``): key → (problem
    text, published answer text or None), the answer cut to its grid (some entries carry
    junk after it: a repeated ``[solution]`` block, a list of moves)."""
    rel = f"assets/data/{genre}/{genre}_dataset.json"
    root = Path(dataset)
    if (root / rel).exists():
        raw = (root / rel).read_text()
    else:  # a bare clone
        git = ["git", "--git-dir", str(root), "show", f"HEAD:{rel}"]
        raw = subprocess.run(git, capture_output=True, text=True, check=True).stdout
    data = json.loads(raw)["data"]
    return {
        key: (entry["problem"], clean_answer(entry.get("solution"))) for key, entry in data.items()
    }


def clean_answer(text: str | None) -> str | None:
    """The answer's header and grid rows alone (None for an empty answer)."""
    if not text or not text.strip():
        return None
    lines = [line for line in text.strip().splitlines() if line.strip()]
    head = lines[0].split()
    if len(head) >= 2 and head[0].isdigit():
        rows = int(head[0])
        grid = lines[1 : rows + 1]
        width = len(grid[0].split()) if grid else 0
        # A header that counts the junk too (the crawler counted lines): the rows of the
        # grid's own width, up to the first line of another shape.
        kept = []
        for line in grid:
            if len(line.split()) != width:
                break
            kept.append(line)
        # More numbers on the header line (Star Battle's stars per row, K) are kept.
        size = " ".join([str(len(kept)), str(width), *head[2:]])
        return "\n".join([size, *kept]) + "\n"
    return "\n".join(lines) + "\n"


def main() -> None:
    """List the corpus's genres with their puzzles and published answers."""
    parser = argparse.ArgumentParser(
        description="The public puzzlekit corpus: its genres, puzzles and published answers."
    )
    dataset_argument(parser)
    parser.add_argument("genres", nargs="*", help="genre folders (default: every one)")
    a = parser.parse_args()
    if not a.dataset:
        parser.error("no corpus: give --dataset DIR or set DLXSAT_CORPUS")
    root = Path(a.dataset)
    if (root / "assets" / "data").is_dir():
        names = sorted(p.name for p in (root / "assets" / "data").iterdir())
    else:
        git = ["git", "--git-dir", str(root), "ls-tree", "--name-only", "HEAD:assets/data"]
        names = subprocess.run(git, capture_output=True, text=True, check=True).stdout.split()
    print("| genre | puzzles | with answer |\n|---|---|---|")
    for genre in a.genres or names:
        puzzles = load(genre, root)
        answered = sum(answer is not None for _, answer in puzzles.values())
        print(f"| {genre} | {len(puzzles)} | {answered} |")


if __name__ == "__main__":
    main()
