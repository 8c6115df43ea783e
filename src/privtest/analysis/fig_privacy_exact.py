"""Analysis of fig_privacy_exact (:mod:`privtest.experiments.fig_privacy_exact`'s raw rows: the exact worst-case
privacy loss found per GTM variant, calibration, eps_t/eps and transcript kind, Lemma 17, Theorem 23, Corollary 25):
each row's excess over its claimed bound and whether the bound holds (``verdicts``).

Judging keys of the config section (``x-stage: analysis``, never passed to the simulation): ``quadrature_tol`` (a
private case holds if its loss is at most the claim plus this; the quadrature is accurate to ~1e-12,
tests/test_exact.py) and ``detect_margin`` (a broken case is flagged if its loss exceeds the claim by more).
"""

from __future__ import annotations

import pandas as pd

#: Slack below which a private case's bound counts as attained (up to quadrature error), for the claims' notes.
TIGHT = 1e-6


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The table ``verdicts`` (module docstring).

    Args:
        raw: the raw rows (columns expected, claimed_eps, max_loss, slack, ...).
        cfg: the config section (``quadrature_tol`` >= 0, ``detect_margin`` > 0).

    Returns:
        ``{"verdicts": raw's columns plus excess = max_loss - claimed_eps, within_bound (max_loss <= claimed_eps +
        quadrature_tol), flagged (max_loss > claimed_eps + detect_margin) and tight (slack < TIGHT)}``.

    Raises:
        ValueError: if ``quadrature_tol`` is negative or ``detect_margin`` is not positive.
    """
    tol, margin = float(cfg["quadrature_tol"]), float(cfg["detect_margin"])
    if not tol >= 0.0:
        raise ValueError(f"quadrature_tol must be >= 0, got {tol}.")
    if not margin > 0.0:
        raise ValueError(f"detect_margin must be > 0, got {margin}.")
    out = raw.copy()
    out["excess"] = out.max_loss - out.claimed_eps
    out["within_bound"] = out.max_loss <= out.claimed_eps + tol
    out["flagged"] = out.max_loss > out.claimed_eps + margin
    out["tight"] = out.slack < TIGHT
    return {"verdicts": out}
