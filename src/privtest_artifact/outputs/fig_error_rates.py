"""fig_error_rates: probability that a whole T-step run makes any Type I or Type II error (Definition 13), on
adversarial streams, for each tester and beta (Theorem 21 for the GTM: must be <= beta).

Streams (each tester on its own thresholds):

* ``pbar_then_pstar``: p_t = pbar_t for t < T, then p_T = p*: an error is halting before T (Type I) or not halting at T
  (Type II).
* ``never_pstar``: p_t = pbar_t for all t <= T: an error is any halt (Type I).

Simulation (:func:`simulate`): one row per (method, beta, stream): the failures among ``runs`` independent runs of
length T, with the tester's budget; for the GTM the same probability is also computed exactly (``rate_exact``:
``Tester.exact_error``, NaN for testers without an exact analysis).

Analysis (:func:`analyse`):

* ``summary``: each tester's whole-run error rate per (method, beta, stream) with its 95% Clopper-Pearson interval, next
  to its budget and the exact rate where known (the raw columns plus ``rate``, ``ci_low``, ``ci_high``).

Claims (:func:`claims`): each tester's whole-run error probability on adversarial streams is within its own budget
(Theorem 21 for the GTM: beta), decided on the counts themselves; for the GTM also on the exact value, checked against
beta even where the sample cannot resolve it, with the Monte Carlo rate beside it as a cross-check (the two must agree).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.testers import Tester, bernoulli_stream
from privtest_artifact.claims import Claim, exact, fmt
from privtest_artifact.outputs._common import mc_cross_check, rate_claim
from privtest_artifact.registry import make_tester
from privtest_artifact.stats import clopper_pearson

STREAMS = ("pbar_then_pstar", "never_pstar")


def stream_p(tester: Tester, T: int, stream: str) -> np.ndarray:
    """Success probabilities p_t (shape (T,)) of an adversarial stream for ``tester``: its pbar_t (clipped at 0), and
    on ``pbar_then_pstar`` p_T = its own halting threshold ``halt_p(T)`` (p* for GTM and Cohen, Theorem 46(4)'s Phi
    condition for Liu-Talwar, which does not guarantee halting at p*: Table 1, dagger)."""
    p = np.array([max(tester.pbar(t), 0.0) for t in range(1, T + 1)])
    if stream == "pbar_then_pstar":
        p[-1] = tester.halt_p(T)
    return p


def error_budget(tester: Tester, stream: str) -> float:
    """Whole-run error probability the tester's own theorem allows on ``stream``: ``error_bound`` on
    ``pbar_then_pstar`` (both error types can occur: beta for the GTM, 2 beta for Cohen et al., Theorem 46(2)+(4)
    for Liu-Talwar), ``type1_bound`` on ``never_pstar`` (only Type I errors)."""
    return tester.error_bound if stream == "pbar_then_pstar" else tester.type1_bound


def failures(halt_step: np.ndarray, T: int, stream: str) -> int:
    """Runs with any Type I/II error: early halt (both streams) or missed halt at T (``pbar_then_pstar``)."""
    if stream == "pbar_then_pstar":
        return int(np.count_nonzero(halt_step != T))
    return int(np.count_nonzero(halt_step != 0))


def simulate(cfg: dict, rng: np.random.Generator, inputs: dict[str, str]) -> pd.DataFrame:
    """One row per (method, beta, stream): failures among ``runs`` independent runs of length T (no ``inputs``)."""
    rows = []
    T, runs, eps1 = cfg["T"], cfg["runs"], cfg["eps_ratio"] * cfg["eps"]
    for method in cfg["methods"]:
        for beta in cfg["betas"]:
            tester = make_tester(method, {**cfg, "beta": beta}, cfg["pstar"], cfg["eps_ratio"], T)
            for stream in STREAMS:
                p = stream_p(tester, T, stream)
                halt_step, samples = tester.run(bernoulli_stream(p, eps1), runs, rng)
                rows.append(
                    dict(
                        method=method,
                        beta=beta,
                        T=T,
                        stream=stream,
                        pstar=cfg["pstar"],
                        eps_ratio=cfg["eps_ratio"],
                        failures=failures(halt_step, T, stream),
                        runs=runs,
                        samples_mean=float(samples.sum(axis=1).mean() / T),
                        source=tester.source,
                        budget=error_budget(tester, stream),
                        p_last=float(p[-1]),
                        rate_exact=tester.exact_error(p, halt_at_T=stream == "pbar_then_pstar"),
                    )
                )
    return pd.DataFrame(rows)


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The table ``summary`` (module docstring); ``cfg`` (the config section) is not needed."""
    return {"summary": summarize(raw)}


def summarize(raw: pd.DataFrame) -> pd.DataFrame:
    """The raw counts (columns ``failures``, ``runs``, ...) with rate = failures/runs and its 95% Clopper-Pearson
    interval (ci_low, ci_high)."""
    df = raw.copy()
    df["rate"] = df["failures"] / df["runs"]
    df["ci_low"], df["ci_high"] = clopper_pearson(df["failures"].to_numpy(), df["runs"].to_numpy())
    return df


def claims(tables: dict[str, pd.DataFrame], cfg: dict) -> list[Claim]:
    """Each tester's whole-run error probability <= its own budget on each adversarial stream (column ``budget``, from
    :func:`error_budget`); where the exact value is known (the GTM) also the exact value, with the Monte Carlo rate
    beside it as a cross-check (:func:`privtest_artifact.outputs._common.mc_cross_check`). Reads the table ``summary``
    of :func:`analyse`."""
    summary = tables["summary"]
    return _exact_claims(summary) + [
        rate_claim(
            f"error_rates.{r.method}[beta={r.beta},{r.stream},T={r.T}]",
            r.source,
            f"{r.method}: Pr[any Type I/II error in a {r.T}-step run] <= its budget",
            int(r.failures),
            int(r.runs),
            float(r.budget),
            f"p_T = {r.p_last:.4g} (its halting threshold)" if r.stream == "pbar_then_pstar" else "",
        )
        for r in summary.itertuples()
    ]


def _exact_claims(summary: pd.DataFrame) -> list[Claim]:
    """The exact whole-run error of every row with an exact value (``rate_exact`` finite) <= its budget, the Monte
    Carlo rate beside it as a cross-check."""
    out = []
    for r in summary.itertuples():
        if not np.isfinite(r.rate_exact):  # NaN: no exact analysis for this tester
            continue
        tag = f"{r.method}[beta={r.beta},{r.stream},T={r.T}]"
        out.append(
            exact(
                claim_id=f"error_rates.exact.{tag}",
                source=r.source,
                statement=f"{r.method}: exact Pr[any Type I/II error in a {r.T}-step run] <= its budget",
                measured=fmt(r.rate_exact, 6),
                bound=f"<= {fmt(r.budget)}",
                ok=r.rate_exact <= r.budget,
                note=f"quadrature (privtest.exact); {mc_cross_check(int(r.failures), int(r.runs), r.rate_exact)}",
            )
        )
    return out
