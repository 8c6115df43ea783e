"""fig_rejection_threshold: rejection threshold pbar vs p* in (0, 1) at fixed T, beta, eps_1/eps (Table 1, Cor 30):
GTM's two branches (direct p*/(gamma Lambda_T), flipped 1 - gamma Lambda_T (1-p*)) and their max (Theorem 21), Cohen
et al. (Proposition 48, proof), Liu-Talwar (Theorem 46(2)), and the largest pbar the lower bound allows (Corollary 30,
three cases; and the weaker odds form eq. 17).

Simulation (:func:`simulate`): ``theory`` rows of every rejection-threshold curve on a logit grid of p*, and
``measured`` rows per tester at a few p* (``measured_pstar``): its pbar_measured (the largest p with
Pr[halt within T] <= beta at 95% confidence, :mod:`privtest.measure`), its halts at its theoretical pbar_T and its
Type I budget.

Analysis (:func:`analyse`):

* ``series``: the raw rows as drawn (``figures/data/fig_rejection_threshold.csv``);
* ``theory``: the theory rows (curve, method, pstar, pbar; pbar NaN where a branch is <= 0), in simulation order;
* ``measured``: per tester and measured p*, in simulation order: pbar (its measured rejection threshold, the largest p
  with Pr[halt within T] <= beta at 95% confidence), pbar_theory (its theoretical pbar_T), ``halts_at_theory`` of
  ``runs`` at p_t = pbar_theory with ``rate`` = halts/runs and its 95% Clopper-Pearson interval (``ci_low``,
  ``ci_high``), and the tester's Type I ``budget``;
* ``points``: the plotted measured points, per tester and measured p*: pbar and ``pbar_err`` = max(pbar_upper - pbar, 0)
  (0 where undefined), the one-sided error bar up to the threshold's upper confidence limit pbar_upper.

Claims (:func:`claims`): each tester, fed p_t = its own pbar_T at every step, halts within T with probability within its
Type I budget.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.special import expit

from privtest import bounds
from privtest.measure import logit_grid, measured_pbar
from privtest_artifact.claims import Binomial, Claim, fmt, statistical
from privtest_artifact.registry import make_tester
from privtest_artifact.stats import clopper_pearson


def theory(cfg: dict) -> pd.DataFrame:
    """Theory curves on a logit-spaced p* grid: columns curve, method, pstar, pbar (nan where a branch is <= 0)."""
    eps, beta, r, T, th, ga = cfg["eps"], cfg["beta"], cfg["eps_ratio"], cfg["T"], cfg["theta"], cfg["gamma"]
    eps1 = r * eps
    rows = []
    for ps in expit(np.linspace(-7, 7, cfg["points"])):
        ps = float(ps)
        vals = {
            ("GTM direct", "GTM"): bounds.gtm_rejection_threshold(T, ps, eps, eps1, beta, th, ga, "direct"),
            ("GTM flipped", "GTM"): bounds.gtm_rejection_threshold(T, ps, eps, eps1, beta, th, ga, "flipped"),
            ("GTM (max)", "GTM"): bounds.gtm_rejection_threshold(T, ps, eps, eps1, beta, th, ga),
            ("Cohen et al.", "Cohen"): bounds.cohen_rejection_threshold(T, ps, eps, eps1, beta),
            ("Liu-Talwar", "LiuTalwar"): bounds.liu_talwar_rejection_threshold(T, ps, eps, eps1, beta, cfg["eps0"]),
            ("lower bound (Cor 30)", "LowerBound"): bounds.lower_bound_rejection_threshold(T, ps, eps, eps1, beta),
            ("lower bound (odds, eq. 17)", "LowerBound"): bounds.lower_bound_rejection_threshold(
                T, ps, eps, eps1, beta, form="odds"
            ),
        }
        for (curve, method), v in vals.items():
            rows.append(dict(kind="theory", curve=curve, method=method, pstar=ps, pbar=v if v > 0 else np.nan))
    return pd.DataFrame(rows)


def simulate(cfg: dict, rng: np.random.Generator, inputs: dict[str, str]) -> pd.DataFrame:
    """Theory curves plus measured rows (kind="measured": pbar, pbar_upper, halts at the theory pbar, runs, and the
    tester's Type I budget ``type1_bound``: beta, plus delta/2 for Liu-Talwar; Cohen's Type I part of Proposition 48
    is also beta). No ``inputs``."""
    rows = []
    T = cfg["T"]
    for ps in cfg["measured_pstar"]:
        for method in cfg["methods"]:
            tester = make_tester(method, cfg, ps, cfg["eps_ratio"], T)
            cp = tester.critical_p(T, cfg["runs"], rng)
            pth = tester.pbar(T)
            finite = cp.p_crit[np.isfinite(cp.p_crit) & (cp.p_crit > 0)]
            low = min(pth, float(np.quantile(finite, 0.001)) if finite.size else pth)
            m = measured_pbar(cp, logit_grid(ps, min(max(low / 2, 1e-300), ps / 2), cfg["grid_step"]), cfg["beta"])
            rows.append(
                dict(
                    kind="measured",
                    curve=method,
                    method=method,
                    pstar=ps,
                    pbar=m.pbar,
                    pbar_upper=m.pbar_upper,
                    pbar_theory=pth,
                    halts_at_theory=int(cp.halts(pth)),
                    runs=cp.runs,
                    budget=tester.type1_bound,
                )
            )
    return pd.concat([theory(cfg), pd.DataFrame(rows)], ignore_index=True)


#: Two-sided level of the interval of the halting rate at pbar_T.
CONFIDENCE = 0.95
#: Columns of the table ``theory``.
THEORY_COLUMNS = ["curve", "method", "pstar", "pbar"]
#: Columns of the table ``measured``.
MEASURED_COLUMNS = ["method", "pstar", "pbar", "pbar_theory", "halts_at_theory", "runs", "rate", "ci_low", "ci_high",
                    "budget"]  # fmt: skip
#: Columns of the table ``points``.
POINT_COLUMNS = ["method", "pstar", "pbar", "pbar_err"]


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The tables of the module docstring; ``cfg`` (the config section) is not needed."""
    theory = raw[raw.kind == "theory"][THEORY_COLUMNS].reset_index(drop=True)
    return {"series": raw.copy(), "theory": theory, "measured": measured(raw), "points": points(raw)}


def measured(raw: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """The table ``measured`` (module docstring) of the raw ``measured`` rows; ValueError if ``confidence`` is not in
    (0, 1) (:func:`privtest_artifact.stats.clopper_pearson`)."""
    me = raw[raw.kind == "measured"].copy()
    me["halts_at_theory"] = me["halts_at_theory"].astype(int)
    me["runs"] = me["runs"].astype(int)
    me["rate"] = me["halts_at_theory"] / me["runs"]
    me["ci_low"], me["ci_high"] = clopper_pearson(me["halts_at_theory"].to_numpy(), me["runs"].to_numpy(), confidence)
    return me[MEASURED_COLUMNS].reset_index(drop=True)


def points(raw: pd.DataFrame) -> pd.DataFrame:
    """The table ``points`` (module docstring) of the raw ``measured`` rows."""
    me = raw[raw.kind == "measured"].copy()
    me["pbar_err"] = (me["pbar_upper"] - me["pbar"]).clip(lower=0).fillna(0)
    return me[POINT_COLUMNS].reset_index(drop=True)


def claims(tables: dict[str, pd.DataFrame], cfg: dict) -> list[Claim]:
    """Per tester and measured p*: Pr[halt within T] at its own theoretical pbar_T is within its Type I budget (the
    table ``measured`` of :func:`analyse`)."""
    measured = tables["measured"]
    out = []
    for r in measured.itertuples():
        out.append(
            statistical(
                claim_id=f"rejection_threshold.continue_at_pbar[{r.method},p*={r.pstar:g}]",
                source=f"Table 1 ({r.method})",
                statement=f"{r.method}: Pr[halt within T={cfg['T']}] <= its budget at p_t = its pbar_T",
                measured=f"{fmt(r.rate)} [{fmt(r.ci_low)}, {fmt(r.ci_high)}]",
                bound=f"<= {fmt(r.budget)}",
                evidence=Binomial(int(r.halts_at_theory), int(r.runs), "at_most", float(r.budget)),
                note=f"pbar_T = {fmt(r.pbar_theory)}; measured pbar = {fmt(r.pbar)}",
            )
        )
    return out
