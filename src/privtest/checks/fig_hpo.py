"""Claims of fig_hpo: Theorem 21's no-error event per method and p* schedule on real DP training runs (and pooled over
the GTM's schedules), and, exactly from the calibrations, the GTM's rejection threshold above every other method's."""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.claims import Binomial, Claim, exact, fmt, statistical
from privtest.experiments.fig_hpo import CONFIDENCE, p_table
from privtest.stats import clopper_pearson


def claims(raw: pd.DataFrame, cfg: dict) -> list[Claim]:
    """Theorem 21's no-error event per method/schedule (module docstring), and pooled over the GTM schedules."""
    p = p_table(raw)
    beta = cfg["beta"]
    out = []
    pooled = [0, 0, 0]
    for method, steps in raw[raw.kind == "step"].groupby("method", sort=False):
        searches = raw[(raw.kind == "search") & (raw.method == method)]
        R = len(searches)
        d_err, p_err = errors(p, steps, searches)
        if method.startswith("GTM"):
            pooled = [pooled[0] + d_err, pooled[1] + p_err, pooled[2] + R]
        bound = float(steps["error_bound"].iloc[0])
        source = "Thm 21" if method.startswith("GTM") else f"{method}'s guarantee (Table 1 / Section 9)"
        out.append(_error_claim(method, d_err, p_err, R, bound, source))
    if pooled[2]:
        out.append(_error_claim("GTM (both schedules, pooled)", *pooled, beta, "Thm 21"))
    steps = raw[raw.kind == "step"]
    gtm = steps[steps.method == "GTM (constant p*)"].sort_values("t")
    for method in steps.method.unique():
        if method.startswith("GTM"):
            continue
        other = steps[steps.method == method].sort_values("t")
        ratio = gtm.pbar.to_numpy() / other.pbar.to_numpy()
        out.append(
            exact(
                claim_id=f"hpo.pbar_gtm_vs[{method}]",
                source="Table 1",
                statement=f"at equal p*, eps and eps_t the GTM's rejection threshold pbar_t exceeds {method}'s at "
                "every step",
                measured=f"min ratio {fmt(ratio.min())} over t = 1..{len(ratio)}",
                bound="> 1",
                ok=bool(np.all(ratio > 1)),
                note=f"GTM pbar_t in [{fmt(gtm.pbar.min())}, {fmt(gtm.pbar.max())}], {method} pbar_t in "
                f"[{fmt(other.pbar.min())}, {fmt(other.pbar.max())}] (exact, from the calibrations)",
            )
        )
    return out


def _error_claim(method, d_err, p_err, R, beta, source) -> Claim:
    tag = method.replace(" ", "_")
    lo, _ = clopper_pearson(d_err, R, CONFIDENCE)
    _, hi = clopper_pearson(p_err, R, CONFIDENCE)
    return statistical(
        claim_id=f"hpo.no_error[{tag}]",
        source=source,
        statement="Pr[a search halts at some p_t <= pbar_t or passes some p_t >= p*_t] <= the method's failure bound "
        "(real DP training runs)",
        measured=f"{fmt(p_err / R)} (possible), {fmt(d_err / R)} (definite)",
        bound=f"<= {beta}",
        # the error count is bracketed: definite <= true <= possible (steps classified from intervals of p_t)
        evidence=Binomial(p_err, R, "at_most", beta, k_low=d_err),
        note=f"{d_err} definite / {p_err} possible errors in {R} searches (steps classified from 95% CIs of p_t); "
        f"95% CI [{fmt(lo)}, {fmt(hi)}]",
    )


def errors(p: pd.DataFrame, steps: pd.DataFrame, searches: pd.DataFrame) -> tuple[int, int]:
    """(definite, possible) numbers of searches with a Type I or II error of Theorem 21 (module docstring).

    A definite error halts at a step whose whole interval for p_t lies at or below pbar_t, or continues past a step
    whose interval lies at or above p*_t; a possible error does so for a step whose interval merely reaches pbar_t
    (resp. p*_t). Continuing past a step near pbar_t, or halting at a step near p*_t, is never an error.
    """
    s = steps.sort_values("t").reset_index(drop=True).merge(p[["t", "p_low", "p_high"]], on="t")
    t_idx = s.t.astype(int).to_numpy()
    sure_low, maybe_low = (
        dict(zip(t_idx, s.p_high <= s.pbar, strict=True)),
        dict(zip(t_idx, s.p_low <= s.pbar, strict=True)),
    )
    sure_high, maybe_high = (
        dict(zip(t_idx, s.p_low >= s.pstar, strict=True)),
        dict(zip(t_idx, s.p_high >= s.pstar, strict=True)),
    )
    T = len(s)
    definite = possible = 0
    for h in searches.halt_step.astype(int):
        passed = range(1, h) if h > 0 else range(1, T + 1)  # steps the search continued past
        definite += int((h > 0 and sure_low[h]) or any(sure_high[t] for t in passed))
        possible += int((h > 0 and maybe_low[h]) or any(maybe_high[t] for t in passed))
    return definite, possible
