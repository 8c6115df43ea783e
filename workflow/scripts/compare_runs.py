"""Compare the numbers of two reproductions (two checkouts after `snakemake`, or a run against the results committed
in git): raw results, analysis results, plotted data, tables, claims and the generated docs. Used to show that a
refactor changes no number, and on another platform that a reproduction agrees with the committed one.

Usage: ``python workflow/scripts/compare_runs.py BEFORE AFTER [--rtol R] [--atol A] [--rename OLD=NEW ...]
[--verdicts]``

``BEFORE`` and ``AFTER`` are directories, or ``git:REV`` (e.g. ``git:HEAD``): the files committed at revision REV
of the repository in the current directory (``git ls-tree``/``git show`` into a temporary directory), so
``compare_runs.py git:HEAD . --rtol 1e-6`` compares this checkout's run with the committed default run (a file that
is not committed, such as the raw results, is then compared only if it is in both).

Files are compared as tables (same columns, same values). Without a tolerance, every value must be printed the
same (float columns to the last printed digit); with ``--rtol``/``--atol``, cells that parse as numbers on both
sides may differ by ``|a - b| <= atol + rtol * |b|`` (numpy.isclose) and every other cell must be equal. Rendered
text (the tables' .md/.tex, claims.md, docs/results/*.md) is compared the same way: the text between numbers must be
identical, the numbers within the tolerance. Claims are compared by ``claim_id`` (row order and the order of columns
do not matter); ``--rename`` maps old claim ids or file names to new ones where a refactor renamed them.

``--verdicts`` compares a run whose random draws changed (same sizes, new streams) with the one before: only the
claims, by id and verdict; every claim whose verdict moved is listed with its measured value before and after, and
the verdict counts of both runs are printed. Exit status 1 if anything differs (with ``--verdicts``: a verdict moved
or a claim id is on one side only), 2 on a bad argument (an unknown revision, a negative tolerance).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from fnmatch import fnmatch
from pathlib import Path

import numpy as np
import pandas as pd

PATTERNS = (
    "results/raw/*.csv",
    "results/co/*.csv",
    "results/analysis/*.csv",
    "results/analysis/*/*.csv",
    "figures/data/*.csv",
    "figures/table*.csv",
)
TEXT = ("figures/table*.md", "figures/table*.tex", "figures/claims.md", "docs/results/*.md")
CLAIMS = "figures/claims.csv"
#: Claim columns compared exactly even with a tolerance.
EXACT_CLAIM_COLUMNS = ("source", "statement", "experiment", "verdict")
#: A number as printed in a table or a document (sign, digits, decimals, exponent; also inf and nan).
NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+]?\binf\b|\bnan\b")


class Tolerance:
    """How close two printed numbers must be: ``|a - b| <= atol + rtol * |b|``; exact text if both are 0.

    Raises:
        ValueError: if ``rtol`` or ``atol`` is negative or not finite.
    """

    def __init__(self, rtol: float = 0.0, atol: float = 0.0):
        for name, value in (("rtol", rtol), ("atol", atol)):
            if not np.isfinite(value) or value < 0:
                raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")
        self.rtol, self.atol = float(rtol), float(atol)

    @property
    def exact(self) -> bool:
        return self.rtol == 0 and self.atol == 0

    def numbers_close(self, a: list[str], b: list[str]) -> bool:
        """Whether two equally long lists of printed numbers agree within the tolerance (nan equals nan)."""
        x, y = np.array(a, dtype=float), np.array(b, dtype=float)
        return bool(np.isclose(x, y, rtol=self.rtol, atol=self.atol, equal_nan=True).all())

    def cells_equal(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Elementwise: equal strings, or (with a tolerance) cells that agree as :func:`diff_text` compares them.
        ``a``, ``b``: arrays of str of one shape."""
        same = a == b
        if not self.exact:
            for idx in zip(*np.nonzero(~same), strict=True):
                same[idx] = diff_text(a[idx], b[idx], self) == ""
        return same


def _files(root: Path, patterns) -> dict[str, Path]:
    return {str(p.relative_to(root)): p for pat in patterns for p in sorted(root.glob(pat))}


def _frame(path: Path) -> pd.DataFrame:
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def _diff_frames(a: pd.DataFrame, b: pd.DataFrame, tol: Tolerance) -> str:
    if list(a.columns) != list(b.columns):
        extra, missing = set(b.columns) - set(a.columns), set(a.columns) - set(b.columns)
        if missing or extra:
            return f"columns differ: only before {sorted(missing)}, only after {sorted(extra)}"
        b = b[list(a.columns)]
    if len(a) != len(b):
        return f"{len(a)} rows before, {len(b)} after"
    av, bv = a.to_numpy(dtype=str), b.to_numpy(dtype=str)
    neq = ~tol.cells_equal(av, bv)
    rows = neq.any(axis=1)
    if rows.any():
        i = int(rows.argmax())
        cols = [c for j, c in enumerate(a.columns) if neq[i, j]]
        return f"{int(rows.sum())} rows differ; first at row {i}: " + ", ".join(
            f"{c}: {a[c].iloc[i]!r} -> {b[c].iloc[i]!r}" for c in cols[:4]
        )
    return ""


def diff_text(a: str, b: str, tol: Tolerance) -> str:
    """ "" if the texts agree: identical, or (with a tolerance) identical between their numbers and the numbers
    within it; otherwise where they first differ."""
    if a == b:
        return ""
    if not tol.exact:
        sa, sb = NUMBER.split(a), NUMBER.split(b)
        na, nb = NUMBER.findall(a), NUMBER.findall(b)
        if sa == sb and len(na) == len(nb):
            if tol.numbers_close(na, nb):
                return ""
            i = next(i for i, (x, y) in enumerate(zip(na, nb, strict=True)) if not tol.numbers_close([x], [y]))
            return f"text differs: number {i}: {na[i]!r} -> {nb[i]!r}"
    la, lb = a.splitlines(), b.splitlines()
    for i, (x, y) in enumerate(zip(la, lb, strict=False)):
        if x != y:
            return f"text differs: first at line {i + 1}: {x[:80]!r} -> {y[:80]!r}"
    return f"text differs: {len(la)} lines before, {len(lb)} after"


def compare(before: Path, after: Path, rename: dict[str, str], tol: Tolerance | None = None) -> list[str]:
    """The differences between two runs' files (empty if they agree), and a summary line printed."""
    tol = tol or Tolerance()
    problems = []
    fa, fb = _files(before, PATTERNS), _files(after, PATTERNS)
    for name, path in fa.items():
        other = fb.get(rename.get(name, name))
        if other is None:
            problems.append(f"{name}: missing after")
            continue
        d = _diff_frames(_frame(path), _frame(other), tol)
        if d:
            problems.append(f"{name}: {d}")
    ta, tb = _files(before, TEXT), _files(after, TEXT)
    for name, path in ta.items():
        other = tb.get(rename.get(name, name))
        if other is None:
            problems.append(f"{name}: missing after")
            continue
        d = diff_text(path.read_text(), other.read_text(), tol)
        if d:
            problems.append(f"{name}: {d}")
    ca, cb = _frame(before / CLAIMS), _frame(after / CLAIMS)
    ca["claim_id"] = ca["claim_id"].map(lambda c: rename.get(c, c))
    ca, cb = ca.set_index("claim_id"), cb.set_index("claim_id")
    only_a, only_b = sorted(set(ca.index) - set(cb.index)), sorted(set(cb.index) - set(ca.index))
    if only_a:
        problems.append(f"claims only before ({len(only_a)}): {only_a[:5]}")
    if only_b:
        problems.append(f"claims only after ({len(only_b)}): {only_b[:5]}")
    common = sorted(set(ca.index) & set(cb.index))
    cols = [c for c in ca.columns if c in cb.columns]
    a_claims, b_claims = ca.loc[common, cols].reset_index(), cb.loc[common, cols].reset_index()
    d = _diff_frames(a_claims, b_claims, tol)
    exact = ["claim_id", *(c for c in EXACT_CLAIM_COLUMNS if c in cols)]  # a verdict never within a tolerance
    d = d or _diff_frames(a_claims[exact], b_claims[exact], Tolerance())
    if d:
        problems.append(f"claims: {d}")
    print(f"compared {len(fa)} tables, {len(ta)} rendered texts, {len(common)} claims")
    return problems


def verdicts(before: Path, after: Path, rename: dict[str, str]) -> list[str]:
    """The claims whose verdict moved between two runs (or that are on one side only), each with its measured value
    before and after; prints both runs' verdict counts."""
    ca, cb = _frame(before / CLAIMS), _frame(after / CLAIMS)
    ca["claim_id"] = ca["claim_id"].map(lambda c: rename.get(c, c))
    ca, cb = ca.set_index("claim_id"), cb.set_index("claim_id")
    problems = [f"claim only before: {c}" for c in sorted(set(ca.index) - set(cb.index))]
    problems += [f"claim only after: {c}" for c in sorted(set(cb.index) - set(ca.index))]
    common = sorted(set(ca.index) & set(cb.index))
    for c in common:
        va, vb = ca.at[c, "verdict"], cb.at[c, "verdict"]
        if va != vb:
            problems.append(f"{c}: {va} -> {vb} (measured {ca.at[c, 'measured']} -> {cb.at[c, 'measured']})")
    for name, frame in (("before", ca), ("after", cb)):
        counts = frame["verdict"].value_counts().sort_index()
        print(f"{name}: " + ", ".join(f"{v} {n}" for v, n in counts.items()))
    print(f"compared the verdicts of {len(common)} claims")
    return problems


def materialize(spec: str, tmp: Path, repo: Path = Path(".")) -> Path:
    """The directory to compare for ``spec``: ``spec`` itself, or for ``git:REV`` a copy under ``tmp`` of the
    files committed at REV (of the repository at ``repo``) that this script compares.

    Raises:
        ValueError: if REV is not a revision of the repository.
    """
    if not spec.startswith("git:"):
        return Path(spec)
    rev = spec[len("git:") :] or "HEAD"
    ls = subprocess.run(
        ["git", "ls-tree", "-r", "-z", "--name-only", rev], cwd=repo, capture_output=True, text=True, check=False
    )
    if ls.returncode != 0:
        raise ValueError(f"before/after: {spec!r} is not a git revision of {repo.resolve()}: {ls.stderr.strip()}")
    dest = tmp / re.sub(r"[^\w.-]", "_", rev)
    for name in filter(None, ls.stdout.split("\0")):
        if any(fnmatch(name, pat) for pat in (*PATTERNS, *TEXT, CLAIMS)):
            blob = subprocess.run(["git", "show", f"{rev}:{name}"], cwd=repo, capture_output=True, check=True)
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            (dest / name).write_bytes(blob.stdout)
    if not (dest / CLAIMS).is_file():
        raise ValueError(f"before/after: {spec!r} has no committed {CLAIMS} (no committed results to compare)")
    return dest


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before", help="a run's directory, or git:REV (the results committed at REV)")
    ap.add_argument("after", help="a run's directory, or git:REV")
    ap.add_argument("--rtol", type=float, default=0.0, help="relative tolerance of numbers (default 0: exact)")
    ap.add_argument("--atol", type=float, default=0.0, help="absolute tolerance of numbers (default 0: exact)")
    ap.add_argument("--rename", action="append", default=[], metavar="OLD=NEW")
    ap.add_argument("--verdicts", action="store_true", help="a re-drawn run: compare the claims' verdicts only")
    args = ap.parse_args(argv)
    rename = dict(r.split("=", 1) for r in args.rename)
    with tempfile.TemporaryDirectory(prefix="privtest-compare-") as tmp:
        try:
            tol = Tolerance(args.rtol, args.atol)
            before, after = (materialize(s, Path(tmp)) for s in (args.before, args.after))
        except ValueError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        problems = verdicts(before, after, rename) if args.verdicts else compare(before, after, rename, tol)
    for p in problems:
        print("DIFFERS", p)
    print("identical" if not problems else f"{len(problems)} differences")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
