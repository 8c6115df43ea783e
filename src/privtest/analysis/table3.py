"""Analysis of table3 (:mod:`privtest.experiments.table3`'s rendered rows, Section 8.1): the eps_batch(t) scaling
behind Table 3 on the config's grids of t and kappa (``scaling``), which :mod:`privtest.checks.table3` judges.

Judging keys of the config section (``x-stage: analysis``, never passed to the simulation): ``t_grid`` and
``kappa_grid`` (the points at which the scaling is evaluated).
"""

from __future__ import annotations

import math

import pandas as pd

from privtest.co.params import BatchToCOParams
from privtest.co.trajectory import trajectory_eps_batch


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The table ``scaling`` (:func:`scaling_grid`); ``raw`` (the rendered rows) is not needed."""
    return {"scaling": scaling_grid(cfg)}


def scaling_grid(cfg: dict) -> pd.DataFrame:
    """q(t, kappa) = (1/eps_batch(t)) kappa eps / (ln^2(t/beta) ln^2(1 + ln t/kappa)) on cfg's t and kappa grids:
    bounded above and below iff 1/eps_batch = Theta(ln^2(t/beta)/(kappa eps)) up to the ln ln factor Theorem 42's
    weights omega_ell = C/(ell ln^2(ell+1)) add (ell ~ ln t/kappa).

    Returns:
        DataFrame with kappa, t, ell, eps_batch, q: one row per (kappa, t) of ``cfg["kappa_grid"]`` x
        ``cfg["t_grid"]``.

    Raises:
        ValueError: from :class:`privtest.co.params.BatchToCOParams` on constants out of range, or a t <= 0.
    """
    out = []
    for kappa in cfg["kappa_grid"]:
        params = BatchToCOParams.from_config(cfg, kappa=kappa)
        for t in cfg["t_grid"]:
            e_b, ell = trajectory_eps_batch(params, float(t))
            lnlt = math.log(t / params.beta)
            q = kappa * params.eps / (e_b * lnlt**2 * math.log1p(math.log(t) / kappa) ** 2)
            out.append(dict(kappa=kappa, t=t, ell=ell, eps_batch=e_b, q=q))
    return pd.DataFrame(out)
