"""Analysis of fig_privacy_exact (:mod:`privtest.experiments.fig_privacy_exact`'s raw rows: the exact worst-case
privacy loss found per GTM variant, calibration, eps_t/eps and transcript kind, Lemma 17, Theorem 23, Corollary 25):
each row's excess over its claimed bound and whether the bound holds (``verdicts``).

Judging keys of the config section (``x-stage: analysis``, never passed to the simulation): ``quadrature_tol`` (a
private case holds if its loss is at most the claim plus this; the quadrature is accurate to ~1e-12,
tests/test_exact.py) and ``detect_margin`` (a broken case is flagged if its loss exceeds the claim by more).

The table holds what is a property of the case, not of the search's path: the maximising inputs, the number of
evaluations and the search stage that found them (raw columns ``worst_inputs``, ``evaluations``, ``method``) are left
in the raw table. Where a bound is attained the maximum is flat, and which maximiser Nelder-Mead reaches (and after
how many evaluations) depends on the last bits of numpy's exp/log, which differ between CPUs (SIMD code paths); the
loss differs only at quadrature error (~1e-13), so ``slack`` and ``excess`` are rounded to ``DIGITS`` decimals.
"""

from __future__ import annotations

import pandas as pd

#: Slack below which a private case's bound counts as attained (up to quadrature error), for the claims' notes.
TIGHT = 1e-6

#: Raw columns that describe the search's path, not the case (module docstring): not in ``verdicts``.
SEARCH_PATH = ("worst_inputs", "evaluations", "method")

#: Decimals kept of ``slack`` and ``excess`` (the quadrature is accurate to ~1e-12, tests/test_exact.py).
DIGITS = 9


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The table ``verdicts`` (module docstring).

    Args:
        raw: the raw rows (columns expected, claimed_eps, max_loss, slack, ...).
        cfg: the config section (``quadrature_tol`` >= 0, ``detect_margin`` > 0).

    Returns:
        ``{"verdicts": raw's columns but ``SEARCH_PATH``, plus excess = max_loss - claimed_eps, within_bound
        (max_loss <= claimed_eps + quadrature_tol), flagged (max_loss > claimed_eps + detect_margin) and tight
        (slack < TIGHT)}``; slack and excess rounded to ``DIGITS`` decimals (after the comparisons).

    Raises:
        ValueError: if ``quadrature_tol`` is negative or ``detect_margin`` is not positive.
    """
    tol, margin = float(cfg["quadrature_tol"]), float(cfg["detect_margin"])
    if not tol >= 0.0:
        raise ValueError(f"quadrature_tol must be >= 0, got {tol}.")
    if not margin > 0.0:
        raise ValueError(f"detect_margin must be > 0, got {margin}.")
    out = raw.drop(columns=[c for c in SEARCH_PATH if c in raw])
    out["excess"] = out.max_loss - out.claimed_eps
    out["within_bound"] = out.max_loss <= out.claimed_eps + tol
    out["flagged"] = out.max_loss > out.claimed_eps + margin
    out["tight"] = out.slack < TIGHT
    for col in ("slack", "excess"):
        out[col] = out[col].round(DIGITS) + 0.0  # + 0.0: -0.0 (a negative value below the last decimal) prints as 0
    return {"verdicts": out}
