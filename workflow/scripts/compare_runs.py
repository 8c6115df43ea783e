"""Compare the numbers of two reproductions (two checkouts after `snakemake`): raw results, plotted data, tables and
claims. Used to show that a refactor changes no number.

Usage: ``python workflow/scripts/compare_runs.py BEFORE_DIR AFTER_DIR [--rename OLD=NEW ...]``

Files are compared as tables (same columns, same values; float columns to the last printed digit). Claims are
compared by ``claim_id`` (row order and the order of columns do not matter); ``--rename`` maps old claim ids or
file names to new ones where a refactor renamed them. Exit status 1 if anything differs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

PATTERNS = ("results/raw/*.csv", "results/co/*.csv", "figures/data/*.csv", "figures/table*.csv")
TEXT = ("figures/table*.md", "figures/table*.tex")


def _files(root: Path, patterns) -> dict[str, Path]:
    return {str(p.relative_to(root)): p for pat in patterns for p in sorted(root.glob(pat))}


def _frame(path: Path) -> pd.DataFrame:
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def _diff_frames(a: pd.DataFrame, b: pd.DataFrame) -> str:
    if list(a.columns) != list(b.columns):
        extra, missing = set(b.columns) - set(a.columns), set(a.columns) - set(b.columns)
        if missing or extra:
            return f"columns differ: only before {sorted(missing)}, only after {sorted(extra)}"
        b = b[list(a.columns)]
    if len(a) != len(b):
        return f"{len(a)} rows before, {len(b)} after"
    neq = (a.to_numpy() != b.to_numpy()).any(axis=1)
    if neq.any():
        i = int(neq.argmax())
        cols = [c for c in a.columns if a[c].iloc[i] != b[c].iloc[i]]
        return f"{int(neq.sum())} rows differ; first at row {i}: " + ", ".join(
            f"{c}: {a[c].iloc[i]!r} -> {b[c].iloc[i]!r}" for c in cols[:4]
        )
    return ""


def compare(before: Path, after: Path, rename: dict[str, str]) -> list[str]:
    problems = []
    fa, fb = _files(before, PATTERNS), _files(after, PATTERNS)
    for name, path in fa.items():
        other = fb.get(rename.get(name, name))
        if other is None:
            problems.append(f"{name}: missing after")
            continue
        d = _diff_frames(_frame(path), _frame(other))
        if d:
            problems.append(f"{name}: {d}")
    ta, tb = _files(before, TEXT), _files(after, TEXT)
    for name, path in ta.items():
        other = tb.get(rename.get(name, name))
        if other is None:
            problems.append(f"{name}: missing after")
        elif path.read_text() != other.read_text():
            problems.append(f"{name}: text differs")
    ca, cb = _frame(before / "figures/claims.csv"), _frame(after / "figures/claims.csv")
    ca["claim_id"] = ca["claim_id"].map(lambda c: rename.get(c, c))
    ca, cb = ca.set_index("claim_id"), cb.set_index("claim_id")
    only_a, only_b = sorted(set(ca.index) - set(cb.index)), sorted(set(cb.index) - set(ca.index))
    if only_a:
        problems.append(f"claims only before ({len(only_a)}): {only_a[:5]}")
    if only_b:
        problems.append(f"claims only after ({len(only_b)}): {only_b[:5]}")
    common = sorted(set(ca.index) & set(cb.index))
    cols = [c for c in ca.columns if c in cb.columns]
    d = _diff_frames(ca.loc[common, cols].reset_index(), cb.loc[common, cols].reset_index())
    if d:
        problems.append(f"claims: {d}")
    print(f"compared {len(fa)} tables, {len(ta)} rendered tables, {len(common)} claims")
    return problems


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before", type=Path)
    ap.add_argument("after", type=Path)
    ap.add_argument("--rename", action="append", default=[], metavar="OLD=NEW")
    args = ap.parse_args(argv)
    rename = dict(r.split("=", 1) for r in args.rename)
    problems = compare(args.before, args.after, rename)
    for p in problems:
        print("DIFFERS", p)
    print("identical" if not problems else f"{len(problems)} differences")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
