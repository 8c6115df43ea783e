"""fig_error_rates: probability that a whole T-step run makes any Type I or Type II error (Definition 13),
on adversarial streams, for each tester and beta (Theorem 21 for the GTM: must be <= beta).

Streams (each tester on its own thresholds):
  * ``pbar_then_pstar``: p_t = pbar_t for t < T, then p_T = p*: an error is halting before T (Type I) or not
    halting at T (Type II).
  * ``never_pstar``: p_t = pbar_t for all t <= T: an error is any halt (Type I).

For the GTM the same probabilities are also computed exactly (``rate_exact``, :mod:`privtest.exact`): the Monte Carlo
rate must agree with it, and the exact value is checked against beta even where the sample cannot resolve it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.claims import Claim, clopper_pearson, fmt, verdict_exact
from privtest.exact import Stream, transcript_log_probs
from privtest.experiments._checks import rate_claim
from privtest.testers import bernoulli_stream, make_tester

STREAMS = ("pbar_then_pstar", "never_pstar")


def stream_p(tester, pstar: float, T: int, stream: str) -> np.ndarray:
    """Success probabilities p_t (shape (T,)) of an adversarial stream for ``tester``."""
    p = np.array([max(tester.pbar(t), 0.0) for t in range(1, T + 1)])
    if stream == "pbar_then_pstar":
        # Each tester is judged by its own halting guarantee: p* for GTM and Cohen, Theorem 46(4)'s Phi condition for
        # Liu-Talwar (``halt_p``), which does not guarantee halting at p* (Table 1, dagger).
        p[-1] = tester.halt_p(T) if hasattr(tester, "halt_p") else pstar
    return p


def error_budget(tester, beta: float, stream: str) -> float:
    """Whole-run error probability the tester's own theorem allows on ``stream``: beta for the GTM (Theorem 21);
    baselines expose ``type1_bound``/``type2_bound`` (Cohen: beta each, Prop 48; Liu-Talwar: beta + delta/2 and
    beta + delta/(4T), Theorem 46(2),(4)); the ``pbar_then_pstar`` stream can incur both types."""
    if not hasattr(tester, "type1_bound"):
        return beta
    return tester.type1_bound + (tester.type2_bound if stream == "pbar_then_pstar" else 0.0)


def failures(halt_step: np.ndarray, T: int, stream: str) -> int:
    """Runs with any Type I/II error: early halt (both streams) or missed halt at T (``pbar_then_pstar``)."""
    if stream == "pbar_then_pstar":
        return int(np.count_nonzero(halt_step != T))
    return int(np.count_nonzero(halt_step != 0))


def exact_rate(tester, p: np.ndarray, stream: str) -> float:
    """Exact whole-run error probability of a GTM tester on the stream ``p`` (NaN for testers without an exact
    analysis): Pr[halt before T] + Pr[no halt by T] for ``pbar_then_pstar``, Pr[any halt within T] otherwise."""
    cal = getattr(tester, "cal", None)
    if cal is None or not hasattr(tester, "eps1"):
        return float("nan")
    R = transcript_log_probs(Stream.from_calibration(cal, p, tester.eps1, tester.pstar))
    if stream == "pbar_then_pstar":
        before = np.exp(R.log_halt_within[-2]) if len(p) > 1 else 0.0
        return float(before + np.exp(R.log_continue[-1]))
    return float(np.exp(R.log_halt_within[-1]))


def simulate(cfg: dict, rng: np.random.Generator) -> pd.DataFrame:
    """One row per (method, beta, stream): failures among ``runs`` independent runs of length T."""
    rows = []
    T, runs, eps1 = cfg["T"], cfg["runs"], cfg["eps_ratio"] * cfg["eps"]
    for method in cfg["methods"]:
        for beta in cfg["betas"]:
            tester = make_tester(method, {**cfg, "beta": beta}, cfg["pstar"], cfg["eps_ratio"], T)
            for stream in STREAMS:
                p = stream_p(tester, cfg["pstar"], T, stream)
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
                        budget=error_budget(tester, beta, stream),
                        p_last=float(p[-1]),
                        rate_exact=exact_rate(tester, p, stream),
                    )
                )
    return pd.DataFrame(rows)


def summarize(raw: pd.DataFrame) -> pd.DataFrame:
    """Add rate and its 95% Clopper-Pearson interval (ci_low, ci_high)."""
    df = raw.copy()
    df["rate"] = df["failures"] / df["runs"]
    df["ci_low"], df["ci_high"] = clopper_pearson(df["failures"].to_numpy(), df["runs"].to_numpy())
    return df


def claims(raw: pd.DataFrame, cfg: dict) -> list[Claim]:
    """Each tester's whole-run error probability <= its own budget on each adversarial stream (``budget``: beta for
    the GTM; see :func:`error_budget` for the baselines); for the GTM also on the exact value, and the Monte Carlo
    rate's 99.9% Clopper-Pearson interval must contain the exact value (consistency of simulation and quadrature)."""
    return _exact_claims(raw) + [
        rate_claim(
            f"error_rates.{r.method}[beta={r.beta},{r.stream},T={r.T}]",
            r.source,
            f"{r.method}: Pr[any Type I/II error in a {r.T}-step run] <= its budget",
            "fig_error_rates",
            int(r.failures),
            int(r.runs),
            float(getattr(r, "budget", r.beta)),
            f"p_T = {r.p_last:.4g} (its halting threshold)" if r.stream == "pbar_then_pstar" else "",
        )
        for r in raw.itertuples()
    ]


def _exact_claims(raw: pd.DataFrame) -> list[Claim]:
    out = []
    if "rate_exact" not in raw:
        return out
    for r in raw.itertuples():
        if not np.isfinite(r.rate_exact):
            continue
        lo, hi = clopper_pearson(int(r.failures), int(r.runs), 0.999)
        tag = f"{r.method}[beta={r.beta},{r.stream},T={r.T}]"
        out.append(
            Claim(
                f"error_rates.exact.{tag}",
                r.source,
                f"{r.method}: exact Pr[any Type I/II error in a {r.T}-step run] <= its budget",
                "fig_error_rates",
                fmt(r.rate_exact, 6),
                f"<= {fmt(r.budget)}",
                verdict_exact(r.rate_exact <= r.budget),
                "quadrature (privtest.exact)",
            )
        )
        out.append(
            Claim(
                f"error_rates.mc_matches_exact.{tag}",
                "privtest.exact vs Monte Carlo",
                "the Monte Carlo error rate's 99.9% interval contains the exact value",
                "fig_error_rates",
                f"{fmt(r.failures / r.runs)} [{fmt(lo)}, {fmt(hi)}]",
                f"contains {fmt(r.rate_exact)}",
                verdict_exact(lo <= r.rate_exact <= hi),
            )
        )
    return out
