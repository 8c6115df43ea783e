"""fig_oc: operating characteristic of one GTM step (Theorem 21): halting probability vs p_t.

Simulation (:func:`simulate`): for each step index t, input-privacy ratio eps_t/eps and case (acceptance threshold p*
and variant), the step's parameters come from :class:`~privtest.GlobalCalibration` and its halting probability on a grid
of p_t is estimated by Monte Carlo, each replication drawing its own eta_1 (Algorithm 1's Init) and eta_2,t, and
computed exactly (``halt_prob_exact``, eta_1 and eta_2,t integrated out by :func:`privtest.exact.step_log_halt`;
``miss_good_exact``, the continuation probability given eta_1 <= mu1, by :func:`privtest.exact.step_log_probs`). Raw
rows: the counts, one row per (t, eps_t/eps, p*, variant, p).

Analysis (:func:`analyse`):

* ``summary``: the raw columns plus the halting probability ``halt_prob`` = halts/runs and its 95% Clopper-Pearson
  interval (``ci_low``, ``ci_high``), next to the exact value and pbar_t (the figure data);
* ``curves``: one row per curve (t, eps_ratio, pstar, variant), sorted by them (:func:`curves`): the per-step error
  probabilities of the proof of Theorem 21 at p_t = p* and p_t = pbar_t, each exact (:mod:`privtest.exact`) with its
  bound (:func:`privtest.gtm.halt_miss_bound`, :func:`privtest.gtm.continue_bound`) and its Monte Carlo count: what the
  claims compare.

Claims (:func:`claims`): per-step error bounds of one GTM step read off the proof of Theorem 21, each checked on the
exact probability with the Monte Carlo estimate beside it (Monte Carlo cannot resolve beta_t/4 ~ 1e-6 at t = 100):

* Type II at p = p*: Pr[no halt | eta_1 <= mu1] <= beta_t/4 (Lemma 20 with lambda_t >= rho_t, resp. <= rho_t when
  flipped, Lemma 19(3)).
* Type I at p = pbar_t: Pr[halt] <= Pr[eta_2,t > tau2 ln(4/beta_t)] + beta_t/4 = beta_t/2 (VACUOUS where pbar_t <= 0).
* Type II at p = p*: Pr[no halt] <= beta/4 + beta_t/4 (unconditional).

The per-step budget beta_t of the theorem holds only conditioned on the good-noise event G (Lemma 19), whose eta_1 part
(probability beta/4) is shared by all steps; the measured miss rate at p* shows the difference.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.exact import step_log_halt, step_log_probs
from privtest.gtm import GlobalCalibration, continue_bound, halt_miss_bound
from privtest.runs import halting_counts
from privtest_artifact.claims import Claim, fmt, vacuous
from privtest_artifact.outputs._common import exact_step_claim
from privtest_artifact.stats import clopper_pearson


def p_grid(pstar: float, pbar: float, s: int, points: int) -> np.ndarray:
    """Grid of p_t for one curve: log-spaced in p (direct) or in 1 - p (flipped), always containing p* and pbar."""
    if s == 1:
        lo = max(pbar, pstar * 1e-4) / 4
        grid = np.geomspace(lo, min(1.0, 4 * pstar), points)
    else:
        q_star = 1 - pstar
        q_hi = min(1.0, max(1 - pbar, 1.5 * q_star) * 2) if pbar > 0 else min(1.0, 8 * q_star)
        grid = 1 - np.geomspace(q_star / 8, q_hi, points)
    extra = [pstar] + ([pbar] if pbar > 0 else [])
    return np.unique(np.clip(np.concatenate([grid, extra]), 0.0, 1.0))


def simulate(cfg: dict, rng: np.random.Generator, inputs: dict[str, str]) -> pd.DataFrame:
    """Halting counts of one step on a grid of p_t for every (t, eps_ratio, case) of ``cfg`` (no ``inputs``).

    Returns:
        DataFrame with one row per grid point: t, eps_ratio, pstar, variant, s, c, rho, Lambda, p, halts, runs,
        samples_mean, pbar, beta_II, good_runs/good_halts (replications with eta_1 <= mu1 and their halts),
        halt_prob_exact and miss_good_exact (quadrature: Pr[halt]; Pr[no halt | eta_1 <= mu1]).
    """
    rows = []
    for case in cfg["cases"]:
        cal = GlobalCalibration(cfg["eps"], cfg["beta"], cfg["theta"], cfg["gamma"], case["variant"])
        for t in cfg["t"]:
            for ratio in cfg["eps_ratio"]:
                st = cal.step(t, ratio * cfg["eps"], case["pstar"])
                p = p_grid(st.pstar, st.pbar, st.s, cfg["points"])
                hc = halting_counts(st, p, cfg["runs"], rng)
                exact = np.exp(step_log_halt(st, p))
                miss_good = np.exp(step_log_probs(st, p, eta1_max=st.mu1)[1])
                for pi, h, n, gr, gh, ex, mg in zip(
                    p, hc.halts, hc.samples, hc.good_runs, hc.good_halts, exact, miss_good, strict=True
                ):
                    rows.append(
                        dict(
                            t=t,
                            eps_ratio=ratio,
                            pstar=st.pstar,
                            variant=case["variant"],
                            s=st.s,
                            c=st.c,
                            rho=st.rho,
                            Lambda=st.Lambda,
                            p=pi,
                            halts=h,
                            runs=cfg["runs"],
                            samples_mean=n / cfg["runs"],
                            pbar=st.pbar,
                            beta_II=st.beta_II,
                            good_runs=gr,
                            good_halts=gh,
                            halt_prob_exact=ex,
                            miss_good_exact=mg,
                        )
                    )
    return pd.DataFrame(rows)


#: Two-sided level of the plotted intervals.
CONFIDENCE = 0.95
#: Columns of the table ``curves``.
CURVE_COLUMNS = ["t", "eps_ratio", "pstar", "variant", "pbar", "miss_good_exact", "beta_II", "misses_good",
                 "good_runs", "miss_exact", "miss_bound", "misses", "runs", "halt_pbar_exact", "continue_bound",
                 "halts_pbar", "runs_pbar"]  # fmt: skip


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The tables ``summary`` and ``curves`` (module docstring); ``cfg``: the config section (``beta``)."""
    return {"summary": summarize(raw), "curves": curves(raw, cfg["beta"])}


def summarize(raw: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """The raw counts (columns ``halts``, ``runs``, ...) with halt_prob = halts/runs and its Clopper-Pearson interval
    (ci_low, ci_high) at ``confidence`` in (0, 1) (ValueError otherwise,
    :func:`privtest_artifact.stats.clopper_pearson`)."""
    df = raw.copy()
    df["halt_prob"] = df["halts"] / df["runs"]
    df["ci_low"], df["ci_high"] = clopper_pearson(df["halts"].to_numpy(), df["runs"].to_numpy(), confidence)
    return df


def curves(raw: pd.DataFrame, beta: float) -> pd.DataFrame:
    """One row per curve (t, eps_ratio, pstar, variant) of ``raw``, sorted by them, with pbar (pbar_t) and:

    * at the grid point p = p*: ``miss_good_exact`` = Pr[no halt | eta_1 <= mu1] with its bound ``beta_II``
      (beta_t/4, from the simulation's calibration) and its count ``misses_good`` of ``good_runs``; ``miss_exact`` =
      1 - Pr[halt] with its bound ``miss_bound`` = beta/4 + beta_t/4 (:func:`privtest.gtm.halt_miss_bound`) and its
      count ``misses`` of ``runs``;
    * at the grid point p = pbar_t where pbar_t > 0 (NaN otherwise: no p_t in [0, 1] lies below pbar_t):
      ``halt_pbar_exact`` = Pr[halt] with its bound ``continue_bound`` = beta_t/2
      (:func:`privtest.gtm.continue_bound`) and its count ``halts_pbar`` of ``runs_pbar``.

    Raises:
        ValueError: if beta is not in (0, 1) (:func:`privtest.gtm.step_budget`).
    """
    rows = []
    for (t, ratio, pstar, variant), g in raw.groupby(["t", "eps_ratio", "pstar", "variant"], sort=True):
        at_star = g[np.isclose(g["p"], pstar)].iloc[0]
        pbar = float(g["pbar"].iloc[0])
        row = dict(
            t=t,
            eps_ratio=ratio,
            pstar=pstar,
            variant=variant,
            pbar=pbar,
            miss_good_exact=float(at_star.miss_good_exact),
            beta_II=float(at_star.beta_II),
            misses_good=int(at_star.good_runs - at_star.good_halts),
            good_runs=int(at_star.good_runs),
            miss_exact=1.0 - float(at_star.halt_prob_exact),
            miss_bound=float(halt_miss_bound(int(t), beta)),
            misses=int(at_star.runs - at_star.halts),
            runs=int(at_star.runs),
            halt_pbar_exact=np.nan,
            continue_bound=float(continue_bound(int(t), beta)),
            halts_pbar=np.nan,
            runs_pbar=np.nan,
        )
        if pbar > 0:
            at_bar = g[np.isclose(g["p"], pbar)].iloc[0]
            row.update(
                halt_pbar_exact=float(at_bar.halt_prob_exact), halts_pbar=int(at_bar.halts), runs_pbar=int(at_bar.runs)
            )
        rows.append(row)
    return pd.DataFrame(rows, columns=CURVE_COLUMNS)


def claims(tables: dict[str, pd.DataFrame], cfg: dict) -> list[Claim]:
    """Per-step Type I / Type II checks at p = pbar_t and p = p* for every curve (see module docstring): one row of
    the table ``curves`` of :func:`analyse` per curve."""
    curves = tables["curves"]
    out = []
    for r in curves.itertuples():
        tag = f"t={r.t},r={r.eps_ratio},p*={r.pstar},{r.variant}"
        out.append(
            exact_step_claim(
                f"oc.halt_at_pstar[{tag}]",
                "Thm 21 (proof: Lemma 19(3), Lemma 20)",
                "Pr[one step misses a halt | eta_1 <= mu1] <= beta_II = beta_t/4 when p_t = p* (Lemma 20)",
                float(r.miss_good_exact),
                float(r.beta_II),
                int(r.misses_good),
                int(r.good_runs),
                "the per-step budget holds given eta_1 <= mu1, an event shared by all steps",
            )
        )
        out.append(
            exact_step_claim(
                f"oc.halt_at_pstar_exact[{tag}]",
                "Thm 21 (proof: Lemma 19(1),(3), Lemma 20)",
                "one step misses a halt w.p. <= beta/4 + beta_t/4 when p_t = p* (eta_1 unconditioned)",
                float(r.miss_exact),
                float(r.miss_bound),
                int(r.misses),
                int(r.runs),
            )
        )
        text = dict(
            claim_id=f"oc.continue_at_pbar[{tag}]",
            source="Thm 21 (proof: Lemma 19(2), Lemma 20)",
            statement="one step halts w.p. <= beta_t/2 when p_t <= pbar_t",
        )
        if r.pbar > 0:
            out.append(
                exact_step_claim(
                    text["claim_id"],
                    text["source"],
                    text["statement"],
                    float(r.halt_pbar_exact),
                    float(r.continue_bound),
                    int(r.halts_pbar),
                    int(r.runs_pbar),
                    "bound beta_t/2 = Pr[eta_2,t > tau2 ln(4/beta_t)] + beta_t/4",
                )
            )
        else:  # no p_t in [0, 1] lies below pbar_t: the theorem guarantees no continuation at this step
            out.append(
                vacuous(
                    **text,
                    measured="no p_t <= pbar_t in [0, 1]",
                    bound=f"pbar_t = {fmt(float(r.pbar))}",
                    value=float(r.pbar),
                    note="pbar_t = 1 - gamma Lambda_t (1 - p*) <= 0: Theorem 21 gives no rejection guarantee here "
                    "(fig_oc marks it)",
                )
            )
    return out
