"""fig_hpo: the GTM as a private tester for hyperparameter search on real data (Section 1.5).

The stream: T hyperparameters h_t (number of features x clipping quantile, a public grid sweep) of a
differentially private Gaussian naive Bayes model (:mod:`privtest.hpo`) on the breast-cancer data shipped with
scikit-learn. M_t trains one eps_t-DP model with h_t on the private training split and outputs +1 iff its accuracy on
the public validation split is >= ``target``; every evaluation is a real training run. For each h_t the true
p_t = Pr[M_t = +1] is estimated non-privately from ``p_evals`` trainings (Clopper-Pearson interval). Then
``searches`` independent private searches run the GTM (Theorem 21's calibration) over the stream with a constant
p* and with the adaptive schedule of Section 1.5 (p*_t decreasing linearly from restrictive to permissive), and
every other method of ``methods`` (e.g. Cohen et al.'s tester, constant p*) over the same stream.

Claims (:mod:`privtest.checks.fig_hpo`; Theorem 21 for the GTM, each tester's own guarantee for the others, e.g.
Proposition 48's 2 beta for Cohen et al.): with probability >= 1 - (failure bound) a search makes no error, where an
error is halting at a step with p_t <= pbar_t (Type I) or not having halted by the first step with p_t >= p*_t (Type
II). Each step is classified from the confidence interval of its p_t; steps whose interval straddles pbar_t or p*_t
are counted as errors in the "possible" count only. The GTM's two schedules are also pooled (each has failure
probability <= beta). And, exactly from the calibrations (Table 1): at the same constant p*, eps and eps_t, the
GTM's pbar_t exceeds each other method's at every step.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.hpo import DPNaiveBayesMechanism, Hyper, load_split
from privtest.registry import make_tester
from privtest.stats import clopper_pearson

#: Confidence of the intervals for p_t and for the error rates.
CONFIDENCE = 0.95


def stream_hypers(cfg: dict) -> list[Hyper]:
    """The T = len(quantiles) * len(features) hyperparameters in the search's (public, data-independent) order: a grid
    sweep from the default model (all ``features`` in the order given, widest bounds first) towards stronger
    dimension reduction and clipping: quantiles outer loop, features inner loop, each in the order of ``cfg``."""
    return [Hyper(int(k), float(q)) for q in cfg["quantiles"] for k in cfg["features"]]


def schedules(cfg: dict, T: int) -> dict[str, np.ndarray]:
    """p*_t of each GTM schedule, arrays (T,): "constant" (cfg pstar) and "adaptive" (linear from start to end)."""
    a = cfg["adaptive"]
    frac = np.arange(T) / max(T - 1, 1)
    return {"constant": np.full(T, float(cfg["pstar"])), "adaptive": a["start"] + (a["end"] - a["start"]) * frac}


def build_stream(cfg: dict) -> list[DPNaiveBayesMechanism]:
    """The mechanisms M_1..M_T of the search (eps_t-DP each)."""
    split = load_split(cfg["dataset"], cfg["val_fraction"], cfg["split_seed"])
    return [DPNaiveBayesMechanism(split, h, cfg["eps_t"], cfg["target"]) for h in stream_hypers(cfg)]


def _method_rows(method, pstar, pbar, error_bound, halt_step, samples):
    T = samples.shape[1]
    rows = [
        dict(
            kind="step",
            method=method,
            t=t,
            pstar=pstar[t - 1],
            pbar=pbar[t - 1],
            error_bound=error_bound,
            halts=int(np.count_nonzero(halt_step == t)),
            trainings=int(samples[:, t - 1].sum()),
        )
        for t in range(1, T + 1)
    ]
    rows += [
        dict(kind="search", method=method, search=i, halt_step=int(h), trainings=int(samples[i].sum()))
        for i, h in enumerate(halt_step)
    ]
    return rows


def simulate(cfg: dict, rng: np.random.Generator, inputs: dict[str, str]) -> pd.DataFrame:
    """p_t estimates and the outcomes of ``searches`` private searches per method/schedule (no ``inputs``).

    Returns:
        DataFrame with a ``kind`` column: "p" rows (t, features, quantile, successes, evals), "step" rows (method,
        t, pstar, pbar, halts at t, trainings at t summed over searches) and "search" rows (method, search,
        halt_step (0 = never halted), trainings).
    """
    mechs = build_stream(cfg)
    T, R = len(mechs), int(cfg["searches"])
    rows = []
    for t, m in enumerate(mechs, start=1):
        k = int(m.count_plus(int(cfg["p_evals"]), rng))
        rows.append(
            dict(kind="p", t=t, features=m.h.features, quantile=m.h.quantile, successes=k, evals=int(cfg["p_evals"]))
        )
    ratio = cfg["eps_t"] / cfg["eps"]
    # The GTM runs with each p* schedule (its tester takes a p*_t per step); the other methods at the constant p*.
    testers = {
        f"GTM ({name} p*)": make_tester("GTM", cfg, pstar, ratio, T) for name, pstar in schedules(cfg, T).items()
    }
    testers |= {m: make_tester(m, cfg, float(cfg["pstar"]), ratio, T) for m in cfg["methods"] if m != "GTM"}
    for method, tester in testers.items():
        halt_step, samples = tester.run(mechs, R, rng)
        pstar = np.array([tester.halt_p(t) for t in range(1, T + 1)])
        pbar = np.array([tester.pbar(t) for t in range(1, T + 1)])
        rows += _method_rows(method, pstar, pbar, tester.error_bound, np.asarray(halt_step), np.asarray(samples))
    return pd.DataFrame(rows)


def p_table(raw: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """The "p" rows with p_hat = successes/evals and its Clopper-Pearson interval (p_low, p_high)."""
    p = raw[raw.kind == "p"].copy()
    p["t"] = p["t"].astype(int)
    p["features"] = p["features"].astype(int)
    p["p_hat"] = p["successes"] / p["evals"]
    p["p_low"], p["p_high"] = clopper_pearson(p["successes"].to_numpy(), p["evals"].to_numpy(), confidence)
    p["label"] = [f"d={k}, q={q:g}" for k, q in zip(p["features"], p["quantile"], strict=True)]
    return p.sort_values("t").reset_index(drop=True)


def classify(p: pd.DataFrame, steps: pd.DataFrame) -> pd.DataFrame:
    """Per step of one method: "reject" (p_t <= pbar_t surely), "accept" (p_t >= p*_t surely), "free" (strictly
    between, surely) or "unresolved" (the interval of p_t straddles pbar_t or p*_t)."""
    s = steps[["method", "t", "pstar", "pbar", "halts", "trainings"]].sort_values("t").reset_index(drop=True)
    s = s.merge(p[["t", "p_low", "p_high", "p_hat"]], on="t")
    cat = np.full(len(s), "unresolved", dtype=object)
    cat[s.p_high <= s.pbar] = "reject"
    cat[s.p_low >= s.pstar] = "accept"
    cat[(s.p_low > s.pbar) & (s.p_high < s.pstar)] = "free"
    s["category"] = cat
    return s


def plot_table(raw: pd.DataFrame) -> pd.DataFrame:
    """The plotted data: one row per (method, t) with h_t, p_t and its interval, p*_t, pbar_t, the step's category,
    the number of searches halting at t (of ``searches``) and the trainings spent at t summed over searches."""
    p = p_table(raw)
    out = []
    for method, steps in raw[raw.kind == "step"].groupby("method", sort=False):
        s = classify(p, steps)
        s["searches"] = int(np.count_nonzero((raw.kind == "search") & (raw.method == method)))
        s = s.merge(p[["t", "features", "quantile", "label"]], on="t")
        out.append(s)
    cols = [
        "method",
        "t",
        "label",
        "features",
        "quantile",
        "p_hat",
        "p_low",
        "p_high",
        "pstar",
        "pbar",
        "category",
        "halts",
        "searches",
        "trainings",
    ]
    df = pd.concat(out, ignore_index=True)[cols]
    df["t"] = df["t"].astype(int)
    df["halts"] = df["halts"].astype(int)
    df["trainings"] = df["trainings"].astype(np.int64)
    return df


def summarize(raw: pd.DataFrame) -> pd.DataFrame:
    """One row per method: searches, halted fraction, mean p_hat of the selected h, trainings (mean, max)."""
    p = p_table(raw).set_index("t")
    out = []
    for method, g in raw[raw.kind == "search"].groupby("method", sort=False):
        h = g.halt_step.astype(int).to_numpy()
        sel = p.loc[h[h > 0], "p_hat"].to_numpy() if np.any(h > 0) else np.array([np.nan])
        out.append(
            dict(
                method=method,
                searches=len(g),
                halted=float(np.mean(h > 0)),
                mean_halt_step=float(np.mean(h[h > 0])) if np.any(h > 0) else np.nan,
                mean_p_selected=float(np.mean(sel)),
                min_p_selected=float(np.min(sel)),
                trainings_mean=float(g.trainings.mean()),
                trainings_max=int(g.trainings.max()),
            )
        )
    return pd.DataFrame(out)
