"""fig_lower_bounds: upper vs lower bounds (Table 1, Corollary 30, Theorem 31).

(a) log(p*/pbar_T) vs log(T/beta) for T on a log grid (at each beta of ``betas_a``): GTM (Theorem 21, its guaranteed
    pbar_T), Liu-Talwar (Theorem 46(2)), Cohen et al. (Proposition 48, proof) and the lower bound log Lambda_0
    (Corollary 30, case 1, p* <= 1/2). Exact evaluations.
(b) Evaluations per step vs beta (``betas_b``) at p* <= 1/2 and T = ``T_samples``: GTM measured (mean N_t over ``runs``
    runs of T steps while continuing, :mod:`privtest.measure`), Cohen's N_t and its measured mean, Liu-Talwar's N
    (eq. 25), and Theorem 31's lower bound with beta_t^II = beta (Remark 32).
(c) claims only: classic AboveThreshold (Dwork-Roth), the standard test Theorem 29 starts from: its measured error rate
    at accuracy alpha, and alpha_+ + alpha_- = 2 alpha against Theorem 29's bound.

Simulation (:func:`simulate`): raw rows of panel "a", ln(p*/pbar_T) of every upper bound and ln Lambda_0 per (beta, T);
panel "b", evaluations per step per beta, theory and measured; panel "c", classic AboveThreshold's errors.

Analysis (:func:`analyse`):

* ``series``: the raw rows as drawn (``figures/data/fig_lower_bounds.csv``);
* ``margins``: per upper-bound method of panel (a), in simulation order: ``min_margin``, the least
  ln(p*/pbar_T) - ln Lambda_0 over T and beta (Corollary 30: >= 0);
* ``samples``: panel (b)'s rows (kind theory/measured, method, beta, T, samples: mean evaluations per step), with for
  the measured rows ``se`` = samples_sd/sqrt(runs) (0 for one run or identical counts), ``ci_half`` = 1.96 se (the
  plotted 95% half-width, normal approximation) and Theorem 31's ``lower_bound``;
* ``above_threshold``: panel (c), per beta: alpha, ``errors`` of ``runs`` with ``rate`` = errors/runs and its 95%
  Clopper-Pearson interval (``ci_low``, ``ci_high``), ``alpha_sum`` = alpha_+ + alpha_- = 2 alpha, Theorem 29's
  ``alpha_sum_lower`` and their ratio ``alpha_sum_ratio``.

Claims (:func:`claims`): upper bounds never beat Corollary 30's lower bound, measured evaluations per step against
Theorem 31, and AboveThreshold (where Theorem 29 starts) against Dwork-Roth and Theorem 29.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from privtest import bounds
from privtest.baselines.above_threshold import AboveThreshold
from privtest_artifact.claims import Binomial, Claim, Normal, exact, fmt, statistical
from privtest_artifact.registry import make_tester
from privtest_artifact.stats import clopper_pearson


def simulate(cfg: dict, rng: np.random.Generator, inputs: dict[str, str]) -> pd.DataFrame:
    """Rows with panel "a" (method, beta, T, x = ln(T/beta), y = ln(p*/pbar_T)), panel "b" (method, beta,
    samples, samples_sd, runs; kind = theory/measured) and panel "c" (AboveThreshold). No ``inputs``."""
    eps, r, ps = cfg["eps"], cfg["eps_ratio"], cfg["pstar"]
    eps1 = r * eps
    rows = []
    for beta in cfg["betas_a"]:
        for T in np.unique(np.rint(np.geomspace(cfg["T_min"], cfg["T_max"], cfg["points"])).astype(np.int64)):
            T = int(T)
            x = math.log(T / beta)
            vals = {
                "GTM": bounds.gtm_rejection_threshold(T, ps, eps, eps1, beta, cfg["theta"], cfg["gamma"]),
                "LiuTalwar": bounds.liu_talwar_rejection_threshold(T, ps, eps, eps1, beta, cfg["eps0"]),
                "Cohen": bounds.cohen_rejection_threshold(T, ps, eps, eps1, beta),
            }
            for m, v in vals.items():
                rows.append(dict(panel="a", kind="theory", method=m, beta=beta, T=T, x=x, y=math.log(ps / v)))
            rows.append(
                dict(
                    panel="a",
                    kind="theory",
                    method="LowerBound",
                    beta=beta,
                    T=T,
                    x=x,
                    y=bounds.lower_bound_log_noise_penalty(T, eps, eps1, beta),
                )
            )
    T = cfg["T_samples"]
    for beta in cfg["betas_b"]:
        bcfg = {**cfg, "beta": beta}
        lb = bounds.lower_bound_sample_complexity(ps, eps, eps1, beta)
        rows.append(dict(panel="b", kind="theory", method="LowerBound", beta=beta, T=T, samples=lb))
        for method in ("Cohen", "LiuTalwar"):  # deterministic evaluations per step (Algorithm 4, eq. 25)
            bound = make_tester(method, bcfg, ps, r, T).sample_bound(T)
            rows.append(dict(panel="b", kind="theory", method=method, beta=beta, T=T, samples=bound))
        for method in ("GTM", "Cohen"):
            cp = make_tester(method, bcfg, ps, r, T).critical_p(T, cfg["runs"], rng)
            rows.append(
                dict(
                    panel="b",
                    kind="measured",
                    method=method,
                    beta=beta,
                    T=T,
                    samples=float(cp.samples.mean()),
                    samples_sd=float(cp.samples.std(ddof=1)),
                    runs=cp.runs,
                    lower_bound=lb,
                )
            )
    # Panel c (claims only): classic AboveThreshold, where Theorem 29 starts. Stream f_t = tau - alpha (t < T),
    # f_T = tau + alpha with Dwork-Roth's alpha; an error is halting before T or not at T.
    for beta in cfg["betas_a"]:
        at = AboveThreshold(eps, beta, T)
        alpha = at.alpha
        f = np.r_[np.full(T - 1, at.pbar(T)), at.halt_p(T)]  # tau -+ alpha with tau = 0
        halt, _ = at.run(f, cfg["runs"], rng)
        rows.append(
            dict(
                panel="c",
                kind="measured",
                method="AboveThreshold",
                beta=beta,
                T=T,
                alpha=alpha,
                errors=int(np.count_nonzero(halt != T)),
                runs=cfg["runs"],
                alpha_sum_lower=bounds.alpha_sum_lower_bound(T, eps, beta),
            )
        )
    return pd.DataFrame(rows)


#: Two-sided level of the intervals (normal approximation in panel b, Clopper-Pearson in panel c).
CONFIDENCE = 0.95
#: The normal quantile of :data:`CONFIDENCE`, as the claims and the figure quote it.
Z = 1.96
#: Columns of the table ``samples``.
SAMPLE_COLUMNS = ["kind", "method", "beta", "T", "samples", "samples_sd", "runs", "se", "ci_half", "lower_bound"]
#: Columns of the table ``above_threshold``.
AT_COLUMNS = ["beta", "T", "alpha", "errors", "runs", "rate", "ci_low", "ci_high", "alpha_sum", "alpha_sum_lower",
              "alpha_sum_ratio"]  # fmt: skip


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The tables of the module docstring; ``cfg`` (the config section) is not needed."""
    return {
        "series": raw.copy(),
        "margins": margins(raw),
        "samples": samples(raw),
        "above_threshold": above_threshold(raw),
    }


def margins(raw: pd.DataFrame) -> pd.DataFrame:
    """The table ``margins`` (module docstring) of the raw panel-"a" rows (method, beta, T, y)."""
    a = raw[raw.panel == "a"]
    lb = a[a.method == "LowerBound"].set_index(["beta", "T"])["y"]
    rows = []
    for m, g in a[a.method != "LowerBound"].groupby("method", sort=False):
        y = g.set_index(["beta", "T"])["y"]
        rows.append(dict(method=m, min_margin=float((y - lb.loc[y.index]).min())))
    return pd.DataFrame(rows, columns=["method", "min_margin"])


def samples(raw: pd.DataFrame) -> pd.DataFrame:
    """The table ``samples`` (module docstring) of the raw panel-"b" rows."""
    b = raw[raw.panel == "b"].copy()
    sd = b["samples_sd"].astype(float)
    se = sd / np.sqrt(b["runs"].astype(float))
    # one run (std NaN) or identical counts: se = 0, the bounded-range test on evaluations per step >= 0
    b["se"] = np.where(b["kind"] == "measured", np.where(np.isfinite(sd), se, 0.0), np.nan)
    b["ci_half"] = Z * b["se"]
    return b[SAMPLE_COLUMNS].reset_index(drop=True)


def above_threshold(raw: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """The table ``above_threshold`` (module docstring) of the raw panel-"c" rows; ValueError if ``confidence`` is
    not in (0, 1) (:func:`privtest_artifact.stats.clopper_pearson`)."""
    c = raw[raw.panel == "c"].copy()
    c["errors"] = c["errors"].astype(int)
    c["runs"] = c["runs"].astype(int)
    c["rate"] = c["errors"] / c["runs"]
    c["ci_low"], c["ci_high"] = clopper_pearson(c["errors"].to_numpy(), c["runs"].to_numpy(), confidence)
    c["alpha_sum"] = 2 * c["alpha"]
    c["alpha_sum_ratio"] = c["alpha_sum"] / c["alpha_sum_lower"]
    return c[AT_COLUMNS].reset_index(drop=True)


def claims(tables: dict[str, pd.DataFrame], cfg: dict) -> list[Claim]:
    """On the tables of :func:`analyse`: (a) exact: every upper bound's ln(p*/pbar_T) >= ln Lambda_0 (its slope
    (eps_1/eps) in ln T is a unit test of privtest.bounds, not a claim: it is the code's own closed form).
    (b) measured mean evaluations per step >= Theorem 31's bound (normal approximation over runs).
    (c) AboveThreshold's error rate <= beta and its alpha_+ + alpha_- >= Theorem 29's lower bound."""
    out = []
    for r in tables["margins"].itertuples():
        out.append(
            exact(
                claim_id=f"lower_bounds.above_lower_bound[{r.method}]",
                source="Cor 30",
                statement=f"{r.method}: ln(p*/pbar_T) >= ln Lambda_0 for every T and beta",
                measured=f"min margin {fmt(r.min_margin)}",
                bound=">= 0",
                ok=r.min_margin >= 0,
            )
        )
    b = tables["samples"]
    for r in b[b.kind == "measured"].itertuples():
        out.append(
            statistical(
                claim_id=f"lower_bounds.samples_vs_thm31[{r.method},beta={r.beta}]",
                source="Thm 31 (beta_II = beta, Remark 32)",
                statement=f"{r.method}: mean evaluations per step >= e^-eps1/(4 p* (2 beta)^(eps1/eps))",
                measured=f"{fmt(r.samples)} +- {fmt(r.ci_half)}",
                bound=f">= {fmt(r.lower_bound)}",
                evidence=Normal(
                    float(r.samples), float(r.se), int(r.runs), "at_least", float(r.lower_bound), span=(0.0, math.inf)
                ),
                note=f"p* = {cfg['pstar']}, T = {int(r.T)}, {int(r.runs)} runs",
            )
        )
    for r in tables["above_threshold"].itertuples():
        out.append(
            statistical(
                claim_id=f"lower_bounds.above_threshold_accuracy[beta={r.beta}]",
                source="Dwork-Roth Thm 3.24",
                statement="AboveThreshold errs w.p. <= beta with alpha = 8 (ln T + ln(2/beta))/eps",
                measured=f"{fmt(r.rate)} [{fmt(r.ci_low)}, {fmt(r.ci_high)}]",
                bound=f"<= {r.beta}",
                evidence=Binomial(int(r.errors), int(r.runs), "at_most", float(r.beta)),
                note=f"T = {int(r.T)}, {int(r.runs)} runs",
            )
        )
        out.append(
            exact(
                claim_id=f"lower_bounds.above_threshold_vs_thm29[beta={r.beta}]",
                source="Thm 29",
                statement="AboveThreshold's alpha_+ + alpha_- = 2 alpha is >= Theorem 29's lower bound",
                measured=fmt(r.alpha_sum),
                bound=f">= {fmt(r.alpha_sum_lower)}",
                ok=r.alpha_sum >= r.alpha_sum_lower,
                note=f"exact; ratio {fmt(r.alpha_sum_ratio)}",
            )
        )
    return out
