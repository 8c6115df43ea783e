"""Claim records: one row of ``figures/claims.csv`` per checked statement of the paper.

Verdicts come from confidence intervals (:mod:`privtest.stats`) or exact computation, never from point estimates:
PASS when the whole interval satisfies the bound, FAIL when the whole interval violates it, INCONCLUSIVE when it
straddles. A :class:`Claim` does not know which output it belongs to: :func:`to_frame` stamps the experiment id.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import pandas as pd

COLUMNS = ["claim_id", "source", "statement", "experiment", "measured", "bound", "verdict", "note"]
VERDICTS = ("PASS", "FAIL", "INCONCLUSIVE")


@dataclass(frozen=True, kw_only=True)
class Claim:
    """One checked claim, built with keyword arguments only.

    Attributes:
        claim_id: stable identifier (``<topic>.<check>[<cell>]``).
        source: the paper's theorem/lemma the claim comes from.
        statement: what is checked, in words.
        measured, bound: human-readable numbers (strings).
        verdict: one of :data:`VERDICTS`.
        note: optional context (tolerances, fall-backs).

    Raises:
        ValueError: if ``verdict`` is not one of :data:`VERDICTS`.
    """

    claim_id: str
    source: str
    statement: str
    measured: str
    bound: str
    verdict: str
    note: str = ""

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}. Found {self.verdict!r}.")


def verdict_at_most(low: float, high: float, bound: float) -> str:
    """Verdict for 'quantity <= bound' given a confidence interval [low, high] for the quantity."""
    if high <= bound:
        return "PASS"
    if low > bound:
        return "FAIL"
    return "INCONCLUSIVE"


def verdict_at_least(low: float, high: float, bound: float) -> str:
    """Verdict for 'quantity >= bound' given a confidence interval [low, high] for the quantity."""
    if low >= bound:
        return "PASS"
    if high < bound:
        return "FAIL"
    return "INCONCLUSIVE"


def verdict_exact(ok: bool) -> str:
    """Verdict for a deterministic check (no sampling error)."""
    return "PASS" if ok else "FAIL"


def to_frame(claims: list[Claim], experiment: str) -> pd.DataFrame:
    """Claims of output ``experiment`` (its catalogue id, e.g. "fig_oc") as a DataFrame with exactly :data:`COLUMNS`.

    Raises:
        ValueError: if ``experiment`` is empty.
    """
    if not isinstance(experiment, str) or not experiment:
        raise ValueError(f"experiment must be a non-empty output id. Found {experiment!r}.")
    rows = [{**dataclasses.asdict(c), "experiment": experiment} for c in claims]
    return pd.DataFrame(rows, columns=COLUMNS)


def fmt(x: float, digits: int = 4) -> str:
    """Compact number formatting for claim rows."""
    return f"{x:.{digits}g}"
