"""fig_random_dropping: Corollaries 51 and 53 measured. Random dropping (a shared dropping probability, no per-step
noise) makes the false-halt probability grow like T * pbar, so a fixed pbar fails once T is large.

Simulation (:func:`simulate`), per horizon T:

* Cohen et al. (Algorithm 4): p_t = pbar at every step t <= T; measured Pr[halt within T] against Lemma 50's lower bound
  (1/2)(1 - exp(-T N_t 2^(-1/theta_C) pbar)) used in Corollary 51.
* Ghazi et al. (Algorithm 5, uniform selection): T - G bad mechanisms (p_t = pbar) then G good ones (p_t = p*); measured
  Pr[a bad (+1, t) is selected] against the lower bound in the proof of Corollary 53.
* GTM on the same streams: Pr[halt within T - G steps at p_t = pbar] (a halt before the first good step is the GTM's bad
  selection; with G = 0 it is the false halt on Cohen's stream).

All three use the same pbar and eps_1/eps; beta is the GTM's and Cohen's failure probability. Raw rows: one per
(method, T) with the events counted at the fixed pbar and, for the GTM, at p_t = pbar_{T-G}.

Analysis (:func:`analyse`): the measured error probability of each (method, T) with its 95% Clopper-Pearson interval
(Corollaries 51 and 53, Theorem 21).

* ``summary``: the raw columns (method, T, G, events, runs, bound, pbar_max, event, source, events_at_pbar_max) plus
  ``rate`` = events / runs (probability of a false halt, Cohen and GTM, or of a bad selection, Ghazi, at the fixed pbar
  of the config), ``ci_low``, ``ci_high`` its interval, and ``rate_at_pbar_max``, ``ci_low_at_pbar_max``,
  ``ci_high_at_pbar_max`` (GTM rows only, NaN otherwise): the same for ``events_at_pbar_max``, the GTM's false halts at
  p_t = pbar_{T-G} (inside Theorem 21). The claims and the figure read it.

Claims (:func:`claims`): Cohen et al.'s false halts and Ghazi et al.'s bad selections at a fixed pbar are at least their
lower bounds (Corollaries 51 and 53) and exceed beta at the largest T, while the GTM stays below beta at its own pbar_T
(inside Theorem 21; the figure's fixed pbar may exceed pbar_T, and the GTM's rate there is reported as an observation
beyond the theorem).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest import bounds
from privtest.testers import bernoulli_stream
from privtest_artifact.claims import Binomial, Claim, fmt, statistical
from privtest_artifact.registry import make_tester
from privtest_artifact.stats import clopper_pearson


def simulate(cfg: dict, rng: np.random.Generator, inputs: dict[str, str]) -> pd.DataFrame:
    """Rows (method, T, G, events, runs, bound, pbar_max, events_at_pbar_max, event, source): events = false halts
    (Cohen, GTM) or bad selections (Ghazi) at p_t = pbar; ``bound`` the lower bound of the method's corollary (NaN for
    the GTM, whose Theorem 21 bounds the event by beta from above), ``pbar_max`` the largest pbar the method's
    guarantee covers (the GTM's pbar_{T-G}), ``events_at_pbar_max`` (GTM only, NaN otherwise) the same runs' false
    halts at p_t = pbar_{T-G} (coupled: a run halts within T - G steps iff p >= its critical p), ``source`` the paper
    result. No ``inputs``. The rates and their intervals: :func:`analyse`."""
    beta, r, ps, pbar, G = cfg["beta"], cfg["eps_ratio"], cfg["pstar"], cfg["pbar"], cfg["G"]
    eps1 = r * cfg["eps"]
    rows = []
    for T in cfg["T"]:
        cohen = make_tester("Cohen", cfg, ps, r, T)
        runs = max(cfg["runs"], cfg.get("run_steps", 0) // T)  # small T: more runs within the same step budget
        n = int(np.count_nonzero(cohen.critical_p(T, runs, rng).p_crit <= pbar))
        rows.append(
            dict(
                method="Cohen",
                T=T,
                G=0,
                events=n,
                runs=runs,
                bound=bounds.cohen_false_halt_lower(pbar, cohen.theta, T * cohen.N),
                pbar_max=bounds.cohen_pbar_max(beta, cohen.theta, T * cohen.N),
                event="false-halt",
                source="Cor 51 (Lemma 50)",
            )
        )
        ghazi = make_tester("Ghazi", cfg, ps, r, T)
        p = np.r_[np.full(T - G, pbar), np.full(G, ps)]
        selected, _ = ghazi.run(bernoulli_stream(p, eps1), runs, rng)
        bad = int(np.count_nonzero((selected >= 1) & (selected <= T - G)))
        rows.append(
            dict(
                method="Ghazi",
                T=T,
                G=G,
                events=bad,
                runs=runs,
                bound=bounds.ghazi_bad_selection_lower(T, G, ps, pbar, ghazi.theta_G),
                pbar_max=bounds.ghazi_pbar_max(beta, T, G, ps, ghazi.theta_G),
                event="bad-selection",
                source="Cor 53 (proof)",
            )
        )
        gtm = make_tester("GTM", cfg, ps, r, T - G)
        p_crit = gtm.critical_p(T - G, cfg["runs_gtm"], rng).p_crit
        n = int(np.count_nonzero(p_crit <= pbar))
        # the same coupled runs at p_t = pbar_{T-G} (<= pbar_t for every t <= T - G): inside Theorem 21
        n_at_pbar_max = int(np.count_nonzero(p_crit <= gtm.pbar(T - G)))
        rows.append(
            dict(
                method="GTM",
                T=T,
                G=G,
                events=n,
                runs=cfg["runs_gtm"],
                bound=np.nan,  # no lower bound: the GTM's guarantee (Theorem 21) bounds the event by beta
                pbar_max=gtm.pbar(T - G),
                events_at_pbar_max=n_at_pbar_max,
                event="false-halt",
                source="Thm 21",
            )
        )
    return pd.DataFrame(rows)


#: Two-sided level of the intervals.
CONFIDENCE = 0.95


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The table ``summary`` (module docstring); ``cfg`` (the config section) is not needed."""
    return {"summary": summarize(raw)}


def summarize(raw: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """The raw counts (columns ``events``, ``runs``, ``events_at_pbar_max``, ...) with the rates and their
    Clopper-Pearson intervals at ``confidence`` in (0, 1) (ValueError otherwise,
    :func:`privtest_artifact.stats.clopper_pearson`); rows without ``events_at_pbar_max`` get NaN in its three
    columns."""
    df = raw.copy()
    runs = df["runs"].to_numpy()
    df["rate"] = df["events"] / df["runs"]
    df["ci_low"], df["ci_high"] = clopper_pearson(df["events"].to_numpy(), runs, confidence)
    k = df["events_at_pbar_max"].to_numpy(dtype=float)
    has = np.isfinite(k)
    lo, hi = (np.full(len(df), np.nan) for _ in range(2))
    if has.any():
        lo[has], hi[has] = clopper_pearson(k[has].astype(int), runs[has], confidence)
    df["rate_at_pbar_max"] = k / runs
    df["ci_low_at_pbar_max"], df["ci_high_at_pbar_max"] = lo, hi
    return df


def claims(tables: dict[str, pd.DataFrame], cfg: dict) -> list[Claim]:
    """Cohen's false-halt and Ghazi's bad-selection probabilities are >= their lower bounds (Cor 51, Cor 53) at
    every T; at the largest T they exceed beta while the GTM stays <= beta at p_t = pbar_T (Theorem 21). Reads the
    table ``summary`` of :func:`analyse`."""
    summary = tables["summary"]
    out = []
    lower = summary[np.isfinite(summary.bound)]  # random dropping: a lower bound on the error (Cor 51, Cor 53)
    for r in lower.itertuples():
        out.append(
            statistical(
                claim_id=f"random_dropping.{r.method}_lower[T={r.T}]",
                source=r.source,
                statement=f"{r.method}: {r.event} probability at pbar = {cfg['pbar']} >= its lower bound",
                measured=f"{fmt(r.rate)} [{fmt(r.ci_low)}, {fmt(r.ci_high)}]",
                bound=f">= {fmt(r.bound)}",
                evidence=Binomial(int(r.events), int(r.runs), "at_least", float(r.bound)),
                note=f"{r.runs} runs",
            )
        )
    Tmax = summary["T"].max()
    for r in summary[summary["T"] == Tmax].itertuples():
        if np.isfinite(r.bound):
            out.append(
                statistical(
                    claim_id=f"random_dropping.{r.method}_exceeds_beta[T={r.T}]",
                    source=r.source,
                    statement=f"{r.method}: at fixed pbar the error probability exceeds beta once T is large",
                    measured=f"{fmt(r.rate)} [{fmt(r.ci_low)}, {fmt(r.ci_high)}]",
                    bound=f"> {cfg['beta']}",
                    evidence=Binomial(int(r.events), int(r.runs), "at_least", float(cfg["beta"])),
                    note=f"largest pbar its corollary allows at this T: {fmt(r.pbar_max)}",
                )
            )
        else:  # Theorem 21 covers p_t <= pbar_t: the claim is evaluated at p_t = pbar_{T-G} (the same coupled runs)
            k = int(r.events_at_pbar_max)
            beyond = (
                f"the figure's fixed pbar = {cfg['pbar']} is > pbar_T, beyond Theorem 21: there the rate is an "
                f"observation, not a claim of the paper ({fmt(r.rate)} [{fmt(r.ci_low)}, {fmt(r.ci_high)}])"
                if cfg["pbar"] > r.pbar_max
                else f"at the figure's fixed pbar = {cfg['pbar']} (<= pbar_T) the rate is {fmt(r.rate)}"
            )
            out.append(
                statistical(
                    claim_id=f"random_dropping.{r.method}_below_beta[T={r.T}]",
                    source=r.source,
                    statement=f"{r.method}: {r.event} probability within T - G steps at p_t = pbar_T = "
                    f"{fmt(r.pbar_max)} (inside Theorem 21) stays <= beta",
                    measured=f"{fmt(r.rate_at_pbar_max)} [{fmt(r.ci_low_at_pbar_max)}, {fmt(r.ci_high_at_pbar_max)}]",
                    bound=f"<= {cfg['beta']}",
                    evidence=Binomial(k, int(r.runs), "at_most", float(cfg["beta"])),
                    note=f"{int(r.runs)} runs; {beyond}",
                )
            )
    return out
