"""Summarise ``load_test.py --raw`` files: where the slow moves fall, and all runs pooled.

For each file one Markdown row: moves over 2 s, how many of them in the ramp (the first 30 s
after the first move, while later sessions are still opening), p95 after the ramp, and moves
at λ ≤ 0.02 (the slider's two smallest values) with how many of them were over 2 s.  Then
p50/p95 and the share over 2 s of all moves of all files together.

    .venv/bin/python bench/load_summary.py run1.json run2.json ...
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from load_test import percentile

SLOW, RAMP = 2.0, 30.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("raw", type=Path, nargs="+")
    args = ap.parse_args()
    print("| run | moves over 2 s | of them in the ramp | p95 after the ramp (s) "
          "| moves at λ ≤ 0.02 | of them over 2 s |")
    print("|---|---|---|---|---|---|")
    pooled = []
    for path in args.raw:
        moves = json.loads(path.read_text())["moves"]
        t0 = min(m["at"] for m in moves)
        slow = [m for m in moves if m["seconds"] > SLOW]
        after = [m["seconds"] for m in moves if m["at"] - t0 >= RAMP]
        small = [m for m in moves if m["lam_index"] <= 1]
        print(f"| {path.name} | {len(slow)} of {len(moves)} "
              f"| {sum(m['at'] - t0 < RAMP for m in slow)} | {percentile(after, 0.95):.2f} "
              f"| {len(small)} | {sum(m['seconds'] > SLOW for m in small)} |")
        pooled += [m["seconds"] for m in moves]
    print(f"\nAll {len(pooled):,} moves: p50 {percentile(pooled, 0.5):.2f} s, "
          f"p95 {percentile(pooled, 0.95):.2f} s, "
          f"{sum(t > SLOW for t in pooled) / len(pooled):.1%} over 2 s")


if __name__ == "__main__":
    main()
