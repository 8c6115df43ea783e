"""fig_calibration: what the proof's constants cost. Theorem 21's calibration ("paper": Chernoff thresholds of eq.
(3)-(4) and Lemma 11's c_t) vs the exact-tail calibration (:class:`privtest.calibration.ExactTailCalibration`: same
noise, budgets and pbar_t; c_t and rho_t from exact Poisson quantiles) and the certified calibration (budgets scaled
up while the exact whole-run error within ``certify_T`` steps stays <= beta, see ``whole_run_error``).

Per step t: c_t, rho_t, the exact expected number of evaluations E[N_t] (closed form), pbar_t, and exact single-step
error probabilities (:mod:`privtest.exact`, eta_1 unconditioned): Type I at p_t = pbar_t, Type II at p_t = p*
(unconditional) and, per step, Pr[no halt at p* | eta_1 <= mu1] (Lemma 20; exact,
:func:`privtest.exact.step_log_probs` with ``eta1_max = mu1``, as in fig_oc); the budgets the proof of Theorem 21
gives them are the analysis' (:mod:`privtest.analysis.fig_calibration`). The certified calibration's
per-step errors exceed those budgets by design; its guarantee is the whole-run row. Claims:
:mod:`privtest.checks.fig_calibration`.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from privtest.calibration import ExactTailCalibration, certified_calibration, whole_run_error
from privtest.exact import step_log_halt, step_log_probs
from privtest.gtm import GlobalCalibration


def _rows(name, cal, ts, ratio, pstar, cfg):
    rows = []
    for t in ts:
        st = cal.step(int(t), ratio * cfg["eps"], pstar)
        base = dict(
            calibration=name,
            t=int(t),
            eps_ratio=ratio,
            pstar=pstar,
            s=st.s,
            c=st.c,
            rho=st.rho,
            samples_mean=st.expected_samples,
            pbar=st.pbar,
        )
        lh_star = float(step_log_halt(st, [pstar])[0])
        rows.append(dict(base, error_type="II at p*", error_exact=-math.expm1(lh_star)))
        miss_good = math.exp(float(step_log_probs(st, [pstar], eta1_max=st.mu1)[1][0]))  # Lemma 20, given G's eta_1
        rows.append(dict(base, error_type="II at p* given eta_1 <= mu1", error_exact=miss_good))
        if st.pbar > 0:
            rows.append(
                dict(base, error_type="I at pbar", error_exact=math.exp(float(step_log_halt(st, [st.pbar])[0])))
            )
    return rows


def simulate(cfg: dict, rng: np.random.Generator, inputs: dict[str, str]) -> pd.DataFrame:
    """One row per (calibration, eps_ratio, pstar, t, error type), plus the certified calibration's whole-run rows.
    Deterministic (``rng`` unused); no ``inputs``."""
    rows = []
    args = (cfg["eps"], cfg["beta"], cfg["theta"], cfg["gamma"])
    for ratio in cfg["eps_ratio"]:
        for pstar in cfg["pstar"]:
            rows += _rows("paper", GlobalCalibration(*args), cfg["t"], ratio, pstar, cfg)
            rows += _rows("exact tails", ExactTailCalibration(*args), cfg["t"], ratio, pstar, cfg)
    T, ratio, pstar = cfg["certify_T"], cfg["certify_eps_ratio"], cfg["certify_pstar"]
    cal, err = certified_calibration(*args, T, ratio * cfg["eps"], pstar, tol=cfg["certify_tol"])
    ts = [t for t in cfg["t"] if t <= T] + [T]
    rows += _rows(f"certified (T={T})", cal, sorted(set(ts)), ratio, pstar, cfg)
    exact_tails = ExactTailCalibration(*args)
    for name, c, budget_scale in (
        ("paper", GlobalCalibration(*args), 1.0),  # Theorem 21's budgets beta_t/4: scale 1
        ("exact tails", exact_tails, exact_tails.budget_scale),
        (f"certified (T={T})", cal, cal.budget_scale),
    ):
        st = c.step(T, ratio * cfg["eps"], pstar)
        e = err if c is cal else whole_run_error(c, T, ratio * cfg["eps"], pstar)[0]
        mean = np.mean([c.step(t, ratio * cfg["eps"], pstar).expected_samples for t in range(1, T + 1)])
        rows.append(
            dict(
                calibration=name,
                t=T,
                eps_ratio=ratio,
                pstar=pstar,
                s=st.s,
                c=st.c,
                rho=st.rho,
                samples_mean=mean,
                pbar=st.pbar,
                error_type=f"whole run, T={T}",
                error_exact=e,
                budget_scale=budget_scale,
            )
        )
    return pd.DataFrame(rows)
