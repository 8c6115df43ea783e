"""fig_calibration: what the proof's constants cost. Theorem 21's calibration ("paper": Chernoff thresholds of eq.
(3)-(4) and Lemma 11's c_t) vs the exact-tail calibration (:class:`privtest.calibration.ExactTailCalibration`: same
noise, budgets and pbar_t; c_t and rho_t from exact Poisson quantiles) and the certified calibration (budgets scaled up
while the exact whole-run error within ``certify_T`` steps stays <= beta, see ``whole_run_error``).

Simulation (:func:`simulate`, deterministic): one row per (calibration, eps_ratio, pstar, t, error type) with, per step
t, c_t, rho_t, the exact expected number of evaluations E[N_t] (closed form), pbar_t, and exact single-step error
probabilities (:mod:`privtest.exact`, eta_1 unconditioned): Type I at p_t = pbar_t, Type II at p_t = p* (unconditional)
and, per step, Pr[no halt at p* | eta_1 <= mu1] (Lemma 20; exact, :func:`privtest.exact.step_log_probs` with
``eta1_max = mu1``, as in fig_oc). The certified calibration's rows are at ``certify_eps_ratio``, ``certify_pstar`` and
the configured steps t <= ``certify_T`` plus ``certify_T`` itself; each calibration then adds a whole-run row at
T = ``certify_T`` (same eps_ratio and pstar). The certified calibration's per-step errors exceed the budgets of
Theorem 21 by design; its guarantee is the whole-run row. Every value is exact (quadrature, :mod:`privtest.exact`); no
interval.

Analysis (:func:`analyse`): Theorem 21's calibration against the exact-tail and certified ones (Lemma 20, Theorem 21).
The raw rows get the column ``budget`` after ``error_exact`` (:func:`with_budgets`): the bound the proof of Theorem 21
gives the row's error, Type I at p_t = pbar_t <= beta_t/2, Type II at p_t = p* <= beta/4 + beta_t/4 (unconditional)
and <= beta_t/4 given eta_1 <= mu1 (Lemma 20), the whole run <= beta.

* ``rows``: every raw row with its budget (the figure data).
* ``per_step``: the raw rows of the per-step calibrations ("paper", "exact tails"; the certified one and the whole-run
  rows left out) with their columns (calibration, t, eps_ratio, pstar, s, c, rho, samples_mean = E[N_t], pbar,
  error_type, error_exact, budget, budget_scale): the single-step errors the claims hold to their budgets.
* ``whole_run``: the raw whole-run rows (error_type "whole run, T=..."): each calibration's exact worst-case probability
  of any error within T steps, its budget beta, its budget scale and samples_mean = mean E[N_t] over t <= T.
* ``samples_ratio``: per (eps_ratio, pstar, t), E[N_t] of the paper's calibration (``paper``), of the exact-tail one
  (``exact_tails``) and ``ratio`` = exact_tails / paper.
* ``error_max``: per (calibration, error_type, t) of the per-step calibrations, the largest ``error_exact`` over the
  configured pstar and eps_ratio and the step's ``budget`` (the same for all of them): panel (b) of the figure.

Claims (:func:`claims`, exact): the paper's and the exact-tail calibrations keep every single-step error within the
proof's budgets (Type II at p* both unconditionally, at beta/4 + beta_t/4, and given eta_1 <= mu1, at Lemma 20's
beta_t/4), every calibration's whole-run error is <= beta, and exact tails never need more evaluations.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from privtest.calibration import ExactTailCalibration, certified_calibration, whole_run_error
from privtest.exact import step_log_halt, step_log_probs
from privtest.gtm import GlobalCalibration, continue_bound, halt_miss_bound
from privtest_artifact.claims import Claim, exact, fmt


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
    """One row per (calibration, eps_ratio, pstar, t, error type) (the certified calibration at ``certify_eps_ratio``,
    ``certify_pstar`` and t <= ``certify_T``), plus one whole-run row per calibration at ``certify_T`` (module
    docstring). Deterministic (``rng`` unused); no ``inputs``."""
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


#: Per-step error type -> its budget at (t, beta) (proof of Theorem 21: :func:`privtest.gtm.halt_miss_bound`,
#: :func:`privtest.gtm.continue_bound`).
BUDGETS = {
    "II at p*": lambda t, beta: halt_miss_bound(t, beta),
    "II at p* given eta_1 <= mu1": lambda t, beta: halt_miss_bound(t, beta, given_eta1=True),
    "I at pbar": lambda t, beta: continue_bound(t, beta),
}


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The tables ``rows``, ``per_step``, ``whole_run``, ``samples_ratio`` and ``error_max`` (module docstring);
    ``cfg``: the config section (``beta``)."""
    raw = with_budgets(raw, cfg["beta"])
    whole = raw.error_type.str.startswith("whole")
    per_step = raw[~whole & ~raw.calibration.str.startswith("certified")].reset_index(drop=True)
    both = per_step[per_step.error_type == "II at p*"].pivot_table(
        index=["eps_ratio", "pstar", "t"], columns="calibration", values="samples_mean"
    )
    ratio = pd.DataFrame({"paper": both["paper"], "exact_tails": both["exact tails"]}).reset_index()
    ratio["ratio"] = ratio["exact_tails"] / ratio["paper"]
    error_max = per_step.groupby(["calibration", "error_type", "t"], as_index=False).agg(
        error_exact=("error_exact", "max"), budget=("budget", "first")
    )
    return {
        "rows": raw,
        "per_step": per_step,
        "whole_run": raw[whole].reset_index(drop=True),
        "samples_ratio": ratio,
        "error_max": error_max,
    }


def with_budgets(raw: pd.DataFrame, beta: float) -> pd.DataFrame:
    """``raw`` with the column ``budget`` after ``error_exact`` (module docstring; beta in (0, 1)).

    Raises:
        ValueError: if a row's ``error_type`` is none of :data:`BUDGETS` nor "whole run, ...".
    """
    budget = []
    for r in raw.itertuples():
        if r.error_type.startswith("whole"):
            budget.append(beta)
        elif r.error_type in BUDGETS:
            budget.append(float(BUDGETS[r.error_type](int(r.t), beta)))
        else:
            raise ValueError(f"raw: error_type {r.error_type!r} has no budget (known: {sorted(BUDGETS)}, whole run).")
    out = raw.copy()
    out.insert(out.columns.get_loc("error_exact") + 1, "budget", budget)
    return out


def claims(tables: dict[str, pd.DataFrame], cfg: dict) -> list[Claim]:
    """Exact errors within budget for paper and exact-tail calibrations at every t; whole-run errors <= beta;
    the exact-tail calibration never needs more evaluations than the paper's. Reads the tables ``per_step``,
    ``whole_run`` and ``samples_ratio`` of :func:`analyse`."""
    out = []
    for row in tables["per_step"].itertuples():
        tag = f"{row.calibration},r={row.eps_ratio},p*={row.pstar},t={row.t},{row.error_type}"
        conditional = "given" in row.error_type
        out.append(
            exact(
                claim_id=f"calibration.error[{tag}]",
                source=("Lemma 20 (conditional per-step Type II)" if conditional else "Thm 21 (proof), Lemma 20")
                + (" with exact tails" if row.calibration == "exact tails" else ""),
                statement=f"exact single-step error ({row.error_type}) within the proof's budget"
                + (" beta_t/4" if conditional else ""),
                measured=fmt(row.error_exact, 6),
                bound=f"<= {fmt(row.budget)}",
                ok=row.error_exact <= row.budget,
                note="quadrature (privtest.exact)",
            )
        )
    for row in tables["whole_run"].itertuples():
        out.append(
            exact(
                claim_id=f"calibration.whole_run[{row.calibration}]",
                source="Thm 21 (global accuracy, worst stream over T steps)",
                statement=f"exact worst-case probability of any Type I/II error within {row.t} steps <= beta",
                measured=fmt(row.error_exact, 6),
                bound=f"<= {fmt(row.budget)}",
                ok=row.error_exact <= row.budget,
                note=f"budget scale {fmt(row.budget_scale)}; mean E[N_t] over t <= T: {fmt(row.samples_mean)}",
            )
        )
    ratio = tables["samples_ratio"]["ratio"]
    out.append(
        exact(
            claim_id="calibration.exact_tails_fewer_samples",
            source="Lemma 20 with exact Poisson quantiles",
            statement="the exact-tail calibration needs no more evaluations per step than the paper's, at the same "
            "pbar_t",
            measured=f"E[N_t] ratio {fmt(ratio.min())} .. {fmt(ratio.max())}",
            bound="<= 1",
            ok=bool((ratio <= 1).all()),
        )
    )
    return out
