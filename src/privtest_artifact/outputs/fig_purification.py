"""fig_purification: (eps_1, delta_1)-DP inputs through the binary symmetric channel (Lemma 24, Corollary 25).

(a) Smoothed success probability p~ = p + phi (1 - 2p) vs p, measured from purified evaluations, for several delta_1,
    with |p~ - p| <= phi <= delta_1/eps_1.
(b) GTM halting probability at Corollary 25's shifted thresholds p* + phi (must halt) and pbar - phi (must continue), by
    Monte Carlo and exactly (:func:`privtest.exact.step_log_probs`: ``miss_good_exact`` = Pr[no halt | eta_1 <= mu1] at
    p* + phi, ``halt_continue_exact`` = Pr[halt] at pbar - phi).
(c) Lemma 24(3) checked exactly: for neighbouring (p, p') on the boundary of (eps_1, delta_1)-DP, the purified pair
    satisfies p~/p~' <= e^{eps_1} and (1-p~)/(1-p~') <= e^{eps_1}.

Simulation (:func:`simulate`): ``smoothing`` rows of purified Bernoulli counts per (delta, p), and ``gtm`` rows, per
delta, of halting counts at Corollary 25's shifted thresholds, with the exact probabilities and the exact worst
log-ratio of purified boundary pairs (:func:`worst_pure_ratio`).

Analysis (:func:`analyse`):

* ``series``: the raw rows as drawn (``figures/data/fig_purification.csv``);
* ``smoothing``: per (delta, p), in simulation order: phi, ``shift_exact`` = p_tilde - p (the purified success
  probability's shift) and ``shift_measured`` = plus/n - p (its Monte Carlo estimate);
* ``steps``: one row per delta, in simulation order: t, ``eps1`` = eps_ratio eps, ``worst_log_ratio`` (nats,
  Lemma 24(2)-(3): at most eps1), at p_t = ``p_halt`` = p* + phi the exact ``miss_good_exact`` with its bound
  ``beta_II`` and its count ``misses_good`` of ``good_runs_at_halt``, at p_t = ``p_continue`` = pbar - phi the exact
  ``halt_continue_exact`` with its bound ``continue_bound`` = beta_t/2 (:func:`privtest.gtm.continue_bound`) and its
  count ``halts_at_continue`` of ``runs``;
* ``rates``: the figure's bars, one row per delta: t, pstar, pbar, phi and the Monte Carlo halting rates
  ``halt_rate_at_halt`` (at p* + phi) and ``halt_rate_at_continue`` (at pbar - phi).

Claims (:func:`claims`): Lemma 24 (pure DP of purified boundary pairs, exactly) and Corollary 25 (halting at p* + phi,
continuation at pbar - phi; exact per-step probabilities, Monte Carlo beside them). That the purified mechanism's Pr[+1]
is p + phi (1 - 2p) (Lemma 24(1)) is a property of our sampler, tested in tests/test_mechanisms.py; the figure plots it.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from privtest.exact import step_log_probs
from privtest.gtm import GlobalCalibration, continue_bound
from privtest.mechanisms import BernoulliMechanism, Purified, purification_phi
from privtest.runs import halting_counts
from privtest_artifact.claims import Claim, exact, fmt
from privtest_artifact.outputs._common import exact_step_claim


def worst_pure_ratio(eps1: float, delta1: float, grid: int = 2001) -> float:
    """Largest log-ratio of the purified output probabilities over neighbouring (p, p') of an (eps1, delta1)-DP
    {-1,+1} mechanism (exact, on a grid of p').

    For each p' the largest admissible p is min(1, e^eps1 p' + delta1, 1 - e^-eps1 (1 - p' - delta1)) (the +1 and -1
    constraints); both log(p~/p~') and log((1-p~')/(1-p~)) increase with p, so the boundary attains the maximum
    (the reverse ratios are covered by symmetry of the grid). Lemma 24(3) says the result is <= eps1.
    """
    phi = purification_phi(eps1, delta1)
    q = np.linspace(0.0, 1.0, grid)
    p = np.minimum.reduce([np.ones_like(q), math.exp(eps1) * q + delta1, 1 - math.exp(-eps1) * (1 - q - delta1)])
    a, b = p + phi * (1 - 2 * p), q + phi * (1 - 2 * q)
    with np.errstate(divide="ignore", invalid="ignore"):
        plus = np.where(b > 0, np.log(a / b), np.where(a > 0, np.inf, 0.0))
        minus = np.where(1 - a > 0, np.log((1 - b) / (1 - a)), np.where(1 - b > 0, np.inf, 0.0))
    return float(max(plus.max(), minus.max()))


def simulate(cfg: dict, rng: np.random.Generator, inputs: dict[str, str]) -> pd.DataFrame:
    """Rows "smoothing" (purified Bernoulli counts per (delta, p)) and "gtm" (halting counts at Corollary 25's shifted
    thresholds and the exact worst log-ratio of purified boundary pairs, per delta). No ``inputs``."""
    eps1 = cfg["eps_ratio"] * cfg["eps"]
    cal = GlobalCalibration(cfg["eps"], cfg["beta"], cfg["theta"], cfg["gamma"])
    st = cal.step(cfg["t"], eps1, cfg["pstar"])
    rows = []
    for delta in cfg["deltas"]:
        phi = purification_phi(eps1, delta)
        for p in np.linspace(0, 1, cfg["points"]):
            m = Purified(BernoulliMechanism(p, eps1, delta))
            k = int(m.count_plus(cfg["smoothing_samples"], rng))
            rows.append(
                dict(kind="smoothing", delta=delta, phi=phi, p=p, p_tilde=m.p, plus=k, n=cfg["smoothing_samples"])
            )
        p_hi, p_lo = st.pstar + phi, st.pbar - phi
        if p_lo <= 0 or p_hi >= 1:
            raise ValueError(
                f"deltas: delta={delta} gives phi={phi:.3g}, outside the range where both shifted "
                "thresholds are probabilities"
            )
        hc = halting_counts(st, [p_hi, p_lo], cfg["runs"], rng, delta=delta)
        miss_good = float(np.exp(step_log_probs(st, [p_hi], delta, eta1_max=st.mu1)[1][0]))
        halt_continue = float(np.exp(step_log_probs(st, [p_lo], delta)[0][0]))
        rows.append(
            dict(
                kind="gtm",
                delta=delta,
                phi=phi,
                t=cfg["t"],
                pstar=st.pstar,
                pbar=st.pbar,
                p_halt=p_hi,
                p_continue=p_lo,
                halts_at_halt=int(hc.halts[0]),
                good_runs_at_halt=int(hc.good_runs[0]),
                good_halts_at_halt=int(hc.good_halts[0]),
                halts_at_continue=int(hc.halts[1]),
                beta_II=st.beta_II,
                runs=cfg["runs"],
                worst_log_ratio=worst_pure_ratio(eps1, delta),
                eps1=eps1,
                miss_good_exact=miss_good,
                halt_continue_exact=halt_continue,
            )
        )
    return pd.DataFrame(rows)


#: Columns of the table ``smoothing``.
SMOOTHING_COLUMNS = ["delta", "phi", "p", "shift_exact", "shift_measured"]
#: Columns of the table ``steps``.
STEP_COLUMNS = ["delta", "t", "eps1", "worst_log_ratio", "p_halt", "miss_good_exact", "beta_II", "misses_good",
                "good_runs_at_halt", "p_continue", "halt_continue_exact", "continue_bound", "halts_at_continue",
                "runs"]  # fmt: skip
#: Columns of the table ``rates``.
RATE_COLUMNS = ["delta", "t", "pstar", "pbar", "phi", "halt_rate_at_halt", "halt_rate_at_continue"]


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The tables of the module docstring; ``cfg`` needs eps, eps_ratio and beta (in (0, 1))."""
    return {"series": raw.copy(), "smoothing": smoothing(raw), "steps": steps(raw, cfg), "rates": rates(raw)}


def smoothing(raw: pd.DataFrame) -> pd.DataFrame:
    """The table ``smoothing`` (module docstring) of the raw ``smoothing`` rows."""
    sm = raw[raw.kind == "smoothing"].copy()
    sm["shift_exact"] = sm["p_tilde"] - sm["p"]
    sm["shift_measured"] = sm["plus"] / sm["n"] - sm["p"]
    return sm[SMOOTHING_COLUMNS].reset_index(drop=True)


def steps(raw: pd.DataFrame, cfg: dict) -> pd.DataFrame:
    """The table ``steps`` (module docstring) of the raw ``gtm`` rows at the config's eps, eps_ratio and beta;
    ValueError if beta is not in (0, 1) (:func:`privtest.gtm.continue_bound`)."""
    g = raw[raw.kind == "gtm"].copy()
    g["t"] = g["t"].astype(int)
    g["eps1"] = cfg["eps_ratio"] * cfg["eps"]
    g["continue_bound"] = continue_bound(g["t"].to_numpy(), cfg["beta"])
    g["misses_good"] = (g["good_runs_at_halt"] - g["good_halts_at_halt"]).astype(int)
    return g[STEP_COLUMNS].reset_index(drop=True)


def rates(raw: pd.DataFrame) -> pd.DataFrame:
    """The table ``rates`` (module docstring) of the raw ``gtm`` rows."""
    g = raw[raw.kind == "gtm"].copy()
    g["t"] = g["t"].astype(int)
    g["halt_rate_at_halt"] = g["halts_at_halt"] / g["runs"]
    g["halt_rate_at_continue"] = g["halts_at_continue"] / g["runs"]
    return g[RATE_COLUMNS].reset_index(drop=True)


def claims(tables: dict[str, pd.DataFrame], cfg: dict) -> list[Claim]:
    """Per delta (the table ``steps`` of :func:`analyse`): Lemma 24(2)-(3) exactly (worst log-ratio of purified
    boundary pairs <= eps_1), and Corollary 25's halting at p* + phi (given eta_1 <= mu1, at beta_II) and continuation
    at pbar - phi (at beta_t/2), exactly."""
    steps = tables["steps"]
    out = []
    for r in steps.itertuples():
        tag = f"delta={r.delta}"
        out.append(
            exact(
                claim_id=f"purification.pure[{tag}]",
                source="Lemma 24(2)-(3)",
                statement="purified boundary pairs satisfy pure eps_1-DP",
                measured=f"max log-ratio {r.worst_log_ratio:.6f}",
                bound=f"<= eps_1 = {fmt(r.eps1)}",
                ok=r.worst_log_ratio <= r.eps1 + 1e-12,
                note="exact over a grid of 2001 boundary pairs",
            )
        )
        out.append(
            exact_step_claim(
                f"purification.halt[{tag}]",
                "Cor 25(1), Lemma 20",
                "Pr[one step misses a halt | eta_1 <= mu1] <= beta_II when p_t = p* + phi (purified inputs)",
                float(r.miss_good_exact),
                float(r.beta_II),
                int(r.misses_good),
                int(r.good_runs_at_halt),
                f"p_t = p* + phi = {fmt(r.p_halt)}",
            )
        )
        out.append(
            exact_step_claim(
                f"purification.continue[{tag}]",
                "Cor 25(2)",
                "one step halts w.p. <= beta_t/2 when p_t = pbar - phi (purified inputs)",
                float(r.halt_continue_exact),
                float(r.continue_bound),
                int(r.halts_at_continue),
                int(r.runs),
                f"p_t = pbar - phi = {fmt(r.p_continue)}",
            )
        )
    return out
