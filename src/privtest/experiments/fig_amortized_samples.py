"""fig_amortized_samples: amortized evaluations N_{<=T}/T vs T, against the leading term of Lemma 22(2).

Setting of Lemma 22(2): eps_t = eps_1 and p*_t = p* constant, sigma = eps/(eps_1 (theta+2)) > 1, T >= 2 ln(16/beta).
With the algorithm's explicit quantities, A~_t = rho_t e^{eps_1 mu1} (direct) or rho_t (flipped) replaces
C_A ln(t/beta) max(Lambda_0/p*, 1/(1-p*))/(gamma-1)^2 (on eta_1 <= mu1, lambda_t <= A~_t w_t with w_t ~ Par(sigma)).
The proof's explicit bound is N_{<=T}/T <= 2M/T with M = sigma/(sigma-1) B + u, B = sum_{t<=T} A~_t,
u = 4 sqrt(Var(w~) A_max B / beta), A_max = max_{t<=T} A~_t, w~ = min(w, W), W = (16T/beta)^{1/sigma} and
Var(w~) <= E[w~^2] from Lemma 12(3b); it fails with probability < beta/2. That is the claim checked. The plot also
shows the leading term 2 sigma/(sigma-1) R (R = A_max) and the per-step bound of Lemma 22(1), which grows like
Lambda_t while the amortized cost grows only like ln T.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from privtest.claims import Claim
from privtest.experiments._checks import rate_claim
from privtest.gtm import GlobalCalibration
from privtest.mechanisms import BernoulliMechanism
from privtest.simulate import run_streams


def explicit_A(cal: GlobalCalibration, t: int, eps1: float, pstar: float) -> float:
    """A~_t of Theorem 21(3) with explicit constants: rho_t e^{eps_1 mu1} (direct) or rho_t (flipped)."""
    st = cal.step(t, eps1, pstar)
    return st.rho * (math.exp(eps1 * cal.mu1) if st.s == 1 else 1.0)


def explicit_bound(cal: GlobalCalibration, T: int, eps1: float, pstar: float) -> tuple[float, float]:
    """(leading term 2 sigma/(sigma-1) A_max, full bound 2M/T) of the proof of Lemma 22(2) with explicit A~_t."""
    sigma = cal.eps / (eps1 * (cal.theta + 2))
    A = np.array([explicit_A(cal, t, eps1, pstar) for t in range(1, T + 1)])
    A_max, B = float(A.max()), float(A.sum())
    W = (16 * T / cal.beta) ** (1 / sigma)
    second_moment = 2 * math.log(W) + 1 if sigma == 2 else (2 * W ** (2 - sigma) - sigma) / (2 - sigma)
    u = 4 * math.sqrt(second_moment * A_max * B / cal.beta)
    M = sigma / (sigma - 1) * B + u
    return 2 * sigma / (sigma - 1) * A_max, 2 * M / T


def simulate(cfg: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Per (eps_ratio, pstar, T): mean and (1-beta/2)-quantile of N_{<=T}/T over runs, runs above the explicit bound
    2M/T, the bound, its leading term and the per-step bound at T (Lemma 22(1), explicit)."""
    cal = GlobalCalibration(cfg["eps"], cfg["beta"], cfg["theta"], cfg["gamma"])
    rows = []
    for ratio in cfg["eps_ratio"]:
        eps1 = ratio * cfg["eps"]
        sigma = cfg["eps"] / (eps1 * (cfg["theta"] + 2))
        if sigma <= 1:
            raise ValueError(f"eps_ratio must be < 1/(2+theta) for Lemma 22(2). Found {ratio!r}.")
        for pstar in cfg["pstar"]:
            Tmax = max(cfg["T"])
            pbar = [max(cal.step(t, eps1, pstar).pbar, 0.0) for t in range(1, Tmax + 1)]
            res = run_streams(cal, [BernoulliMechanism(pb, eps1) for pb in pbar], pstar, Tmax, cfg["runs"], rng)
            cum = np.cumsum(res.samples, axis=1)
            for T in cfg["T"]:
                avg = cum[:, T - 1] / T
                lead, bound = explicit_bound(cal, T, eps1, pstar)
                st = cal.step(T, eps1, pstar)
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
                        per_step_bound=math.e * st.rho * (st.Lambda if st.s == 1 else 1.0),
                        halted_runs=int(np.count_nonzero(res.halt_step != 0)),
                    )
                )
    return pd.DataFrame(rows)


def claims(raw: pd.DataFrame, cfg: dict) -> list[Claim]:
    """Lemma 22(2) at every (eps_ratio, pstar, T) with T >= 2 ln(16/beta)."""
    out = []
    for r in raw.itertuples():
        if r.T < 2 * math.log(16 / cfg["beta"]):
            continue
        out.append(
            rate_claim(
                f"amortized.GTM[r={r.eps_ratio},p*={r.pstar},T={r.T}]",
                "Lemma 22(2)",
                "Pr[N_<=T / T > 2M/T] < beta/2 (explicit constants of the proof)",
                "fig_amortized_samples",
                int(r.above),
                int(r.runs),
                cfg["beta"] / 2,
                f"mean N_<=T/T = {r.amortized_mean:.4g}; bound 2M/T = {r.bound:.4g} (leading term "
                f"{r.leading_term:.4g}); per-step bound at T {r.per_step_bound:.4g}",
            )
        )
    return out
