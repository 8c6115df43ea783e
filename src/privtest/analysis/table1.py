"""Analysis of table1 (:mod:`privtest.experiments.table1`'s rows per (method, eps_ratio, T, p*): Table 1's entries
evaluated at each tester's parameters, its measured thresholds and counts, and what the tester guarantees). Each
tester is judged by its own theorem: GTM by Theorem 21, Cohen et al. by Proposition 48, Liu-Talwar by Theorem
46(2),(4); the lower bounds are Corollary 30 and Theorem 31.

* ``table``: the numeric instantiation of Table 1 (``figures/table1.csv``; the raw rows without the guarantees
  recorded for judging, :data:`RECORDED`).
* ``testers``: one row per measured tester row (method, T, eps_ratio, p*; ``cell`` its label, ``source``, ``runs``,
  ``type2_runs``, ``with_delta`` whether its privacy has delta > 0) with, probabilities in [0, 1]:

  - continuation at its pbar_T: ``cont_k`` halts of ``runs``, ``cont_rate`` = cont_k / runs with its 95%
    Clopper-Pearson interval ``cont_low``, ``cont_high``, and ``cont_bound`` (its Type I budget);
  - halting at its halting threshold ``halt_p`` (step T): ``halt_k`` halts of ``type2_runs`` (NaN if no p in [0, 1]
    guarantees halting), ``halt_rate``, ``halt_low``, ``halt_high``, ``halt_need`` = 1 - its Type II budget;
  - halting at p* (step T): ``pstar_k`` halts of ``type2_runs``, ``pstar_rate``, ``pstar_low``, ``pstar_high``,
    and ``no_guarantee_at_pstar`` (halt_p > p*: the tester guarantees no halting at p*, Table 1's dagger);
  - ``moreover_bound``: Theorem 46(3)'s printed "moreover" bound on p_1 at R = 1 (Liu-Talwar only, where it exceeds
    p*; NaN otherwise) and ``moreover_level`` = beta + delta/2;
  - ``samples_lb``: Theorem 31's lower bound on the mean evaluations per step (p* <= 1/2; NaN otherwise) next to
    ``samples_measured``, its standard error ``samples_se`` (0 for one run) and ``samples_exact`` (True when the
    count is computed, not measured: Liu-Talwar's N of eq. 25);
  - ``pbar_theory`` and ``cor30_pbar``: the largest pbar Corollary 30 allows for a tester with its accuracy
    (:data:`COR30_ACCURACY`) and delta that guarantees halting at halt_p (NaN if halt_p >= 1);
  - ``samples_rank`` (by samples_measured / samples_lb, smallest first) and ``cor30_rank`` (by pbar_theory /
    cor30_pbar, largest first): 1 for the worst cell of its (method, T), the one a claim quotes.
* ``ratios``: per (T, eps_ratio, p*) where GTM and Cohen et al. both ran: the bracket [``ratio_low``,
  ``ratio_high``] = [GTM pbar_measured / Cohen pbar_measured_upper, GTM pbar_measured_upper / Cohen pbar_measured]
  of the ratio of their measured rejection thresholds (each end at >= 95%), ``runs`` = the smaller run count, and
  ``factor`` (:func:`table1_factor`); ``ge1_rank`` (by ratio_low) and ``factor_rank`` (by ratio_low / factor): 1
  for the worst cell of its T.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from privtest import bounds
from privtest.stats import clopper_pearson, standard_error_from_sd

#: Failure probability of each tester's accuracy guarantee as Corollary 30 uses it, in multiples of beta: the GTM's
#: beta (Theorem 21), Cohen et al.'s 2 beta (Proposition 48 proves 1 - 2 beta), Liu-Talwar's beta (Theorem 46, its
#: delta entering Corollary 30 through delta').
COR30_ACCURACY = {"GTM": 1.0, "Cohen": 2.0, "LiuTalwar": 1.0}
#: Raw columns recorded from each tester for judging (its Type I / Type II budgets and its privacy's delta), not
#: part of Table 1's instantiation.
RECORDED = ["type1_bound", "type2_bound", "privacy_delta"]


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The tables ``table``, ``testers`` and ``ratios`` (module docstring); ``cfg``: the config section (``beta``,
    ``theta``, ``gamma``)."""
    testers = raw[raw.method != "LowerBound"].dropna(subset=["runs"])
    rows = pd.DataFrame([_tester_row(r, cfg["beta"]) for r in testers.itertuples()])
    # the worst cell of each claim, ranked here at full precision (these ratios of separately computed quantities
    # tie mathematically across cells, and the tables keep 10 significant digits)
    keys = [rows.method, rows["T"]]
    rows["samples_rank"] = _rank(rows.samples_measured / rows.samples_lb, keys, worst="smallest")
    rows["cor30_rank"] = _rank(rows.pbar_theory / rows.cor30_pbar, keys, worst="largest")
    return {"table": raw.drop(columns=RECORDED), "testers": rows, "ratios": ratios(testers, cfg)}


def _rank(score: pd.Series, keys: list, worst: str) -> pd.Series:
    """Per group of ``keys``: 1 for the worst cell (the first of equal ones), 2 for the next, ...; NaN where
    ``score`` is NaN. ``worst``: "largest" or "smallest" score."""
    return score.groupby(keys, sort=False).rank(ascending=worst == "smallest", method="first")


def _interval(prefix: str, k, n) -> dict:
    lo, hi = clopper_pearson(int(k), int(n))
    return {f"{prefix}_k": int(k), f"{prefix}_rate": k / n, f"{prefix}_low": lo, f"{prefix}_high": hi}


def _tester_row(r, beta: float) -> dict:
    nan4 = lambda prefix: dict.fromkeys([f"{prefix}_{s}" for s in ("k", "rate", "low", "high")], np.nan)  # noqa: E731
    out = dict(
        method=r.method,
        T=int(r.T),
        eps_ratio=r.eps_ratio,
        pstar=r.pstar,
        cell=f"r={r.eps_ratio},p*={r.pstar}",
        source=r.source,
        with_delta=bool(r.privacy_delta > 0),
        runs=int(r.runs),
        type2_runs=int(r.type2_runs),
        **_interval("cont", r.halts_at_pbar_theory, r.runs),
        cont_bound=r.type1_bound,
        halt_p=r.halt_p,
        **(_interval("halt", r.halts_at_halt_p, r.type2_runs) if r.halts_at_halt_p >= 0 else nan4("halt")),
        halt_need=1 - r.type2_bound,
        **_interval("pstar", r.halts_at_pstar, r.type2_runs),
        no_guarantee_at_pstar=bool(r.halt_p > r.pstar),
        moreover_bound=np.nan,
        moreover_level=beta + r.delta / 2,
        samples_lb=np.nan,
        samples_measured=r.samples_measured,
        samples_se=standard_error_from_sd(r.samples_sd, int(r.runs)) if math.isfinite(r.samples_sd) else 0.0,
        samples_exact=str(r.samples_measured_kind).startswith("computed"),
        pbar_theory=r.pbar_theory,
        cor30_pbar=np.nan,
    )
    if math.isfinite(r.eps0):  # Theorem 46(3)'s bound is a formula in Liu-Talwar's auxiliary eps_0
        moreover = bounds.liu_talwar_moreover_bound(1, r.pstar, r.eps, r.eps1, beta, r.eps0)
        if moreover > r.pstar:
            out["moreover_bound"] = moreover
    if r.pstar <= 0.5:
        out["samples_lb"] = bounds.lower_bound_sample_complexity(r.pstar, r.eps, r.eps1, beta)
    if r.halt_p < 1:  # Cor 30 at the threshold where the tester guarantees halting (its halt_p, not its p*)
        acc = COR30_ACCURACY[r.method] * beta
        out["cor30_pbar"] = bounds.lower_bound_rejection_threshold(r.T, r.halt_p, r.eps, r.eps1, acc, r.privacy_delta)
    return out


def table1_factor(ratio: float, T: int, pstar: float, cfg: dict) -> float:
    """GTM's over Cohen's rejection threshold as Table 1 prints them (lower-order terms suppressed:
    :func:`privtest.bounds.gtm_rejection_threshold_table` over :func:`privtest.bounds.cohen_rejection_threshold_table`
    at eps = 1, eps_1 = ``ratio``, t = ``T``); ``cfg``: beta, theta, gamma."""
    beta = cfg["beta"]
    pbar_g = bounds.gtm_rejection_threshold_table(T, pstar, 1.0, ratio, beta, cfg["theta"], cfg["gamma"])
    return pbar_g / bounds.cohen_rejection_threshold_table(T, pstar, 1.0, ratio, beta)


def ratios(testers: pd.DataFrame, cfg: dict) -> pd.DataFrame:
    """The table ``ratios`` (module docstring) from the measured tester rows."""
    rows = []
    for T, g in testers.groupby("T", sort=False):
        for (ratio, pstar), c in g.groupby(["eps_ratio", "pstar"], sort=False):
            if not {"GTM", "Cohen"} <= set(c.method):
                continue
            gm, co = c[c.method == "GTM"].iloc[0], c[c.method == "Cohen"].iloc[0]
            rows.append(
                dict(
                    T=T,
                    eps_ratio=ratio,
                    pstar=pstar,
                    cell=f"r={ratio},p*={pstar}",
                    ratio_low=gm.pbar_measured / co.pbar_measured_upper,
                    ratio_high=gm.pbar_measured_upper / co.pbar_measured,
                    factor=table1_factor(ratio, T, pstar, cfg),
                    runs=int(min(gm.runs, co.runs)),
                )
            )
    columns = ["T", "eps_ratio", "pstar", "cell", "ratio_low", "ratio_high", "factor", "runs"]
    out = pd.DataFrame(rows, columns=columns)
    out["ge1_rank"] = _rank(out.ratio_low, [out["T"]], worst="smallest")
    out["factor_rank"] = _rank(out.ratio_low / out.factor, [out["T"]], worst="smallest")
    return out
