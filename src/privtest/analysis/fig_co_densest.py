"""Analysis of fig_co_densest (:mod:`privtest.experiments.fig_co_densest`'s raw rows): the table its figure draws,
mean and 10-90% band of f(X_t, Y_t) per (stream, eps, method, t) with OPT_t (``summary``,
:func:`privtest.analysis._co.summarize`), the tables its claims compare with the paper's bounds
(:func:`privtest.analysis._co.tables`): ``privacy`` per eps, ``checkpoints``, ``calls`` and ``utility`` per (stream,
eps), and ``cor35`` (:func:`cor35`): Algorithm 3's printed per-call eps against Corollary 35's hypothesis."""

from __future__ import annotations

import dataclasses
import math

import pandas as pd

from privtest.analysis import _co
from privtest.co.params import BatchToCOParams

#: Checkpoints i and steps t at which Algorithm 3's printed eps(i, t) is tried (GTM_i first runs at t >= i).
COR35_CHECKPOINTS = range(2, 12)
COR35_STEPS = (2, 3, 5, 10, 30, 100)


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The tables ``summary``, ``privacy``, ``checkpoints``, ``calls``, ``utility`` and ``cor35`` (module docstring)
    of the raw rows; ``cfg``: the config section (BatchToCO's constants)."""
    return {"summary": _co.summarize(raw), **_co.tables(raw, cfg), "cor35": cor35(cfg)}


def cor35(cfg: dict) -> pd.DataFrame:
    """Algorithm 3's printed eps(i, t) = eps(i) / (C_1 ln(4 / (omega_t beta))), with the global beta, against the
    hypothesis of Corollary 35 for GTM_i (whose beta is beta_i): Lambda_t <= Lambda = e^{1/C_1 + 2/C_H} at every step.

    Exact (no runs; eps does not enter ln Lambda_t, :meth:`BatchToCOParams.calibration`): one row per checkpoint i in
    :data:`COR35_CHECKPOINTS` and step t in :data:`COR35_STEPS` with t >= i, with ``log_Lambda_t`` (ln Lambda_t of
    GTM_i's calibration at the printed eps(i, t) and p*) and ``log_Lambda`` (ln Lambda, the hypothesis' bound), both
    in nats. Corollary 35 holds at (i, t) iff log_Lambda_t <= log_Lambda (ERRATA.md, "Algorithm 3: eps(i, t) uses the
    global beta where Corollary 35 needs beta_i").

    Args:
        cfg: the config section (BatchToCO's constants, :meth:`BatchToCOParams.from_config`).
    """
    printed = dataclasses.replace(BatchToCOParams.from_config(cfg, 1.0), log_beta="global")
    rows = [
        dict(
            i=i,
            t=t,
            log_Lambda_t=printed.calibration(i).step(t, printed.eps_it(i, t), printed.pstar).log_Lambda,
            log_Lambda=math.log(printed.Lambda),
        )
        for i in COR35_CHECKPOINTS
        for t in COR35_STEPS
        if t >= i
    ]
    return pd.DataFrame(rows, columns=["i", "t", "log_Lambda_t", "log_Lambda"])
