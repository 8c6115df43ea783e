"""fig_lower_bounds: upper vs lower bounds (Table 1, Corollary 30, Theorem 31).

(a) log(p*/pbar_T) vs log(T/beta) for T on a log grid (at each beta of ``betas``): GTM (Theorem 21, its guaranteed
pbar_T), Liu-Talwar (Theorem 46(2)), Cohen et al. (Proposition 48, proof) and the lower bound log Lambda_0
(Corollary 30, case 1, p* <= 1/2). Exact evaluations.
(b) Evaluations per step vs beta at p* <= 1/2 and T = ``T_samples``: GTM measured (mean N_t over ``runs`` runs of T
steps while continuing, :mod:`privtest.measure`), Cohen's N_t and its measured mean, Liu-Talwar's N (eq. 25), and
Theorem 31's lower bound with beta_t^II = beta (Remark 32).
(c) claims only: classic AboveThreshold (Dwork-Roth), the standard test Theorem 29 starts from: its measured error
rate at accuracy alpha, and alpha_+ + alpha_- = 2 alpha against Theorem 29's bound.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from privtest import bounds
from privtest.baselines.above_threshold import AboveThreshold
from privtest.claims import Claim, clopper_pearson, fmt, verdict_at_least, verdict_at_most, verdict_exact
from privtest.measure import critical_p
from privtest.testers import make_tester


def simulate(cfg: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Rows with panel "a" (method, beta, T, x = ln(T/beta), y = ln(p*/pbar_T)) and panel "b" (method, beta,
    samples, samples_sd, runs; kind = theory/measured)."""
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
        rows.append(
            dict(
                panel="b",
                kind="theory",
                method="Cohen",
                beta=beta,
                T=T,
                samples=bounds.cohen_sample_complexity(ps, eps, eps1, beta),
            )
        )
        lt = make_tester("LiuTalwar", bcfg, ps, r, T)
        rows.append(dict(panel="b", kind="theory", method="LiuTalwar", beta=beta, T=T, samples=lt.N))
        for method in ("GTM", "Cohen"):
            cp = critical_p(make_tester(method, bcfg, ps, r, T), T, cfg["runs"], rng)
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
    at = AboveThreshold(eps)
    for beta in cfg["betas_a"]:
        alpha = at.alpha(T, beta)
        f = np.r_[np.full(T - 1, -alpha), alpha]
        halt = at.run(f, cfg["runs"], rng)
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
                alpha_sum_lower=bounds.thm29_alpha_sum(T, eps, beta),
            )
        )
    return pd.DataFrame(rows)


def claims(raw: pd.DataFrame, cfg: dict) -> list[Claim]:
    """(a) exact: every upper bound's ln(p*/pbar_T) >= ln Lambda_0; the lower bound's slope in ln T is eps_1/eps.
    (b) measured mean evaluations per step >= Theorem 31's bound (95% normal interval over runs)."""
    out = []
    a = raw[raw.panel == "a"]
    lb = a[a.method == "LowerBound"].set_index(["beta", "T"])["y"]
    for m, g in a[a.method != "LowerBound"].groupby("method", sort=False):
        margin = (g.set_index(["beta", "T"])["y"] - lb.loc[g.set_index(["beta", "T"]).index]).min()
        out.append(
            Claim(
                f"lower_bounds.above_lower_bound[{m}]",
                "Cor 30",
                f"{m}: ln(p*/pbar_T) >= ln Lambda_0 for every T and beta",
                "fig_lower_bounds",
                f"min margin {fmt(margin)}",
                ">= 0",
                verdict_exact(margin >= 0),
            )
        )
    for beta, g in a[a.method == "LowerBound"].groupby("beta"):
        slope = np.polyfit(np.log(g["T"]), g["y"], 1)[0]
        out.append(
            Claim(
                f"lower_bounds.lb_slope[beta={beta}]",
                "Cor 30",
                "ln Lambda_0 grows like (eps_1/eps) ln T (delta = 0)",
                "fig_lower_bounds",
                fmt(slope),
                f"= {fmt(cfg['eps_ratio'])}",
                verdict_exact(abs(slope - cfg["eps_ratio"]) < 1e-9),
            )
        )
    b = raw[(raw.panel == "b") & (raw.kind == "measured")]
    for r in b.itertuples():
        se = r.samples_sd / math.sqrt(r.runs)
        out.append(
            Claim(
                f"lower_bounds.samples_vs_thm31[{r.method},beta={r.beta}]",
                "Thm 31 (beta_II = beta, Remark 32)",
                f"{r.method}: mean evaluations per step >= e^-eps1/(4 p* (2 beta)^(eps1/eps))",
                "fig_lower_bounds",
                f"{fmt(r.samples)} +- {fmt(1.96 * se)}",
                f">= {fmt(r.lower_bound)}",
                verdict_at_least(r.samples - 1.96 * se, r.samples + 1.96 * se, r.lower_bound),
                f"p* = {cfg['pstar']}, T = {int(r.T)}, {int(r.runs)} runs",
            )
        )
    for r in raw[raw.panel == "c"].itertuples():
        lo, hi = clopper_pearson(r.errors, r.runs)
        out.append(
            Claim(
                f"lower_bounds.above_threshold_accuracy[beta={r.beta}]",
                "Dwork-Roth Thm 3.24",
                "AboveThreshold errs w.p. <= beta with alpha = 8 (ln T + ln(2/beta))/eps",
                "fig_lower_bounds",
                f"{fmt(r.errors / r.runs)} [{fmt(lo)}, {fmt(hi)}]",
                f"<= {r.beta}",
                verdict_at_most(lo, hi, r.beta),
                f"T = {int(r.T)}, {int(r.runs)} runs",
            )
        )
        out.append(
            Claim(
                f"lower_bounds.above_threshold_vs_thm29[beta={r.beta}]",
                "Thm 29",
                "AboveThreshold's alpha_+ + alpha_- = 2 alpha is >= Theorem 29's lower bound",
                "fig_lower_bounds",
                fmt(2 * r.alpha),
                f">= {fmt(r.alpha_sum_lower)}",
                verdict_exact(2 * r.alpha >= r.alpha_sum_lower),
                f"exact; ratio {fmt(2 * r.alpha / r.alpha_sum_lower)}",
            )
        )
    return out
