"""fig_amortized_samples: amortized evaluations N_{<=T}/T vs T, against the explicit bound of Lemma 22(2).

Setting of Lemma 22(2): eps_t = eps_1 and p*_t = p* constant, sigma = eps/(eps_1 (theta+2)) > 1, T >= 2 ln(16/beta).
With the algorithm's explicit quantities, A~_t = rho_t e^{eps_1 mu1} (direct) or rho_t (flipped) replaces
C_A ln(t/beta) max(Lambda_0/p*, 1/(1-p*))/(gamma-1)^2 (on eta_1 <= mu1, lambda_t <= A~_t w_t with w_t ~ Par(sigma)). The
proof's explicit bound is N_{<=T}/T <= 2M/T with M = sigma/(sigma-1) B + u, B = sum_{t<=T} A~_t,
u = 4 sqrt(Var(w~) A_max B / beta), A_max = max_{t<=T} A~_t, w~ = min(w, W), W = (16T/beta)^{1/sigma} and
Var(w~) <= E[w~^2] from Lemma 12(3b); it fails with probability < beta/2. The bound is
:meth:`privtest.gtm.GlobalCalibration.amortized_bound`, the tester's ``amortized_sample_bound``; it is NaN where the
lemma's hypotheses fail (T < 2 ln(16/beta), for instance). The plot also shows the leading term
2 sigma/(sigma-1) R (R = A_max) and the per-step bound of Lemma 22(1) at T (the tester's ``sample_bound``), which grows
like Lambda_t while the amortized cost grows only like ln T.

Simulation (:func:`simulate`): per eps_ratio (ValueError unless sigma > 1, i.e. eps_ratio < 1/(2+theta)) and p*,
``runs`` GTM runs on the stream p_t = max(pbar_t, 0) up to the largest T. Raw rows per (eps_ratio, p*, horizon T):
sigma, the mean and (1-beta/2)-quantile of N_{<=T}/T over runs, ``above`` (runs above the explicit bound 2M/T) of
``runs``, the bound, its leading term, the per-step bound at T and ``halted_runs``.

Analysis (:func:`analyse`):

* ``series``: the raw rows as drawn (``figures/data/fig_amortized_samples.csv``; evaluations per step);
* ``summary``: the rows where Lemma 22(2)'s hypotheses hold (finite ``bound``), in simulation order: eps_ratio, pstar,
  T, ``above`` of ``runs``, the allowed rate ``budget`` = beta/2, amortized_mean, bound, leading_term and
  per_step_bound.

Claims (:func:`claims`): Lemma 22(2)'s explicit amortized bound 2M/T fails in at most a beta/2 fraction of runs, at
every setting where the lemma applies (every row of ``summary``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.testers import bernoulli_stream
from privtest_artifact.claims import Claim
from privtest_artifact.outputs._common import rate_claim
from privtest_artifact.registry import make_tester


def simulate(cfg: dict, rng: np.random.Generator, inputs: dict[str, str]) -> pd.DataFrame:
    """Per (eps_ratio, pstar, T): mean and (1-beta/2)-quantile of N_{<=T}/T over runs, runs above the explicit bound
    2M/T, the bound, its leading term and the per-step bound at T (Lemma 22(1), explicit). No ``inputs``."""
    rows = []
    Tmax = max(cfg["T"])
    for ratio in cfg["eps_ratio"]:
        eps1 = ratio * cfg["eps"]
        sigma = cfg["eps"] / (eps1 * (cfg["theta"] + 2))
        if sigma <= 1:
            raise ValueError(f"eps_ratio must be < 1/(2+theta) for Lemma 22(2). Found {ratio!r}.")
        for pstar in cfg["pstar"]:
            tester = make_tester("GTM", cfg, pstar, ratio, Tmax)
            pbar = [max(tester.pbar(t), 0.0) for t in range(1, Tmax + 1)]
            halt_step, samples = tester.run(bernoulli_stream(pbar, eps1), cfg["runs"], rng)
            cum = np.cumsum(samples, axis=1)
            for T in cfg["T"]:
                avg = cum[:, T - 1] / T
                lead, bound = tester.cal.amortized_bound(T, eps1, pstar)
                rows.append(
                    dict(
                        eps_ratio=ratio,
                        pstar=pstar,
                        T=T,
                        sigma=sigma,
                        amortized_mean=float(avg.mean()),
                        amortized_quantile=float(np.quantile(avg, 1 - cfg["beta"] / 2)),
                        above=int(np.count_nonzero(avg > bound)),
                        runs=cfg["runs"],
                        leading_term=lead,
                        bound=bound,
                        per_step_bound=tester.sample_bound(T),
                        halted_runs=int(np.count_nonzero(halt_step != 0)),
                    )
                )
    return pd.DataFrame(rows)


#: Columns of the table ``summary``.
SUMMARY_COLUMNS = ["eps_ratio", "pstar", "T", "above", "runs", "budget", "amortized_mean", "bound", "leading_term",
                   "per_step_bound"]  # fmt: skip


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The tables of the module docstring; ``cfg`` needs ``beta`` (in (0, 1))."""
    return {"series": raw.copy(), "summary": summarize(raw, cfg["beta"])}


def summarize(raw: pd.DataFrame, beta: float) -> pd.DataFrame:
    """The table ``summary`` (module docstring); ValueError if ``beta`` is not in (0, 1)."""
    if not 0 < beta < 1:
        raise ValueError(f"beta must be in (0, 1). Found {beta!r}.")
    rows = raw[np.isfinite(raw["bound"].astype(float))].assign(budget=beta / 2)
    return rows[SUMMARY_COLUMNS].reset_index(drop=True)


def claims(tables: dict[str, pd.DataFrame], cfg: dict) -> list[Claim]:
    """Lemma 22(2) at every row of the table ``summary`` of :func:`analyse`."""
    summary = tables["summary"]
    out = []
    for r in summary.itertuples():
        out.append(
            rate_claim(
                f"amortized.GTM[r={r.eps_ratio},p*={r.pstar},T={r.T}]",
                "Lemma 22(2)",
                "Pr[N_<=T / T > 2M/T] < beta/2 (explicit constants of the proof)",
                int(r.above),
                int(r.runs),
                float(r.budget),
                f"mean N_<=T/T = {r.amortized_mean:.4g}; bound 2M/T = {r.bound:.4g} (leading term "
                f"{r.leading_term:.4g}); per-step bound at T {r.per_step_bound:.4g}",
            )
        )
    return out
