"""fig_hpo: the GTM as a private tester for hyperparameter search on real data (Section 1.5).

The stream: T hyperparameters h_t (number of features x clipping quantile, a public grid sweep) of a
differentially private Gaussian naive Bayes model (:mod:`privtest.hpo`) on the breast-cancer data shipped with
scikit-learn. M_t trains one eps_t-DP model with h_t on the private training split and outputs +1 iff its accuracy on
the public validation split is >= ``target``; every evaluation is a real training run. For each h_t the true
p_t = Pr[M_t = +1] is estimated non-privately from ``p_evals`` trainings (Clopper-Pearson interval). Then
``searches`` independent private searches run the GTM (Theorem 21's calibration) over the stream with a constant
p* and with the adaptive schedule of Section 1.5 (p*_t decreasing linearly from restrictive to permissive), and
every other method of ``methods`` (e.g. Cohen et al.'s tester, constant p*) over the same stream.

Claims (Theorem 21 for the GTM, each tester's own guarantee for the others, e.g. Proposition 48's 2 beta for Cohen
et al.): with probability >= 1 - (failure bound) a search makes no error, where an error is halting at a step with
p_t <= pbar_t (Type I) or not having halted by the first step with p_t >= p*_t (Type II). Each step is classified from
the confidence interval of its p_t; steps whose interval straddles pbar_t or p*_t are counted as errors in the
"possible" count only. The GTM's two schedules are also pooled (each has failure probability <= beta). And, exactly
from the calibrations (Table 1): at the same constant p*, eps and eps_t, the GTM's pbar_t exceeds each other
method's at every step.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.claims import Claim, clopper_pearson, fmt, verdict_exact
from privtest.gtm import GlobalCalibration
from privtest.hpo import DPNaiveBayesMechanism, Hyper, load_split
from privtest.simulate import run_streams
from privtest.testers import make_tester

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


def simulate(cfg: dict, rng: np.random.Generator) -> pd.DataFrame:
    """p_t estimates and the outcomes of ``searches`` private searches per method/schedule.

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
    cal = GlobalCalibration(cfg["eps"], cfg["beta"], cfg["theta"], cfg["gamma"])
    for name, pstar in schedules(cfg, T).items():
        res = run_streams(cal, mechs, pstar, T, R, rng)
        pbar = np.array([st.pbar for st in res.params])
        rows += _method_rows(f"GTM ({name} p*)", pstar, pbar, cfg["beta"], res.halt_step, res.samples)
    ratio = cfg["eps_t"] / cfg["eps"]
    for method in cfg["methods"]:
        if method == "GTM":
            continue  # the GTM runs above with both schedules
        tester = make_tester(method, cfg, float(cfg["pstar"]), ratio, T)
        halt_step, samples = tester.run(mechs, R, rng)
        pstar = np.full(T, float(cfg["pstar"]))
        pbar = np.array([tester.pbar(t) for t in range(1, T + 1)])
        bound = float(getattr(tester, "error_bound", cfg["beta"]))
        rows += _method_rows(method, pstar, pbar, bound, np.asarray(halt_step), np.asarray(samples))
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


def summary(raw: pd.DataFrame) -> pd.DataFrame:
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
            Claim(
                f"hpo.pbar_gtm_vs[{method}]",
                "Table 1",
                f"at equal p*, eps and eps_t the GTM's rejection threshold pbar_t exceeds {method}'s at every step",
                "fig_hpo",
                f"min ratio {fmt(ratio.min())} over t = 1..{len(ratio)}",
                "> 1",
                verdict_exact(bool(np.all(ratio > 1))),
                f"GTM pbar_t in [{fmt(gtm.pbar.min())}, {fmt(gtm.pbar.max())}], {method} pbar_t in "
                f"[{fmt(other.pbar.min())}, {fmt(other.pbar.max())}] (exact, from the calibrations)",
            )
        )
    return out


def _error_claim(method, d_err, p_err, R, beta, source) -> Claim:
    lo, _ = clopper_pearson(d_err, R, CONFIDENCE)
    _, hi = clopper_pearson(p_err, R, CONFIDENCE)
    verdict = "PASS" if hi <= beta else ("FAIL" if lo > beta else "INCONCLUSIVE")
    note = (
        f"{d_err} definite / {p_err} possible errors in {R} searches (steps classified from 95% CIs of p_t); "
        f"95% CI [{fmt(lo)}, {fmt(hi)}]"
    )
    if verdict == "INCONCLUSIVE" and p_err == 0:
        note += f"; {R} searches cannot resolve beta = {beta}"
    tag = method.replace(" ", "_")
    return Claim(
        f"hpo.no_error[{tag}]",
        source,
        "Pr[a search halts at some p_t <= pbar_t or passes some p_t >= p*_t] <= the method's failure bound "
        "(real DP training runs)",
        "fig_hpo",
        f"{fmt(p_err / R)} (possible), {fmt(d_err / R)} (definite)",
        f"<= {beta}",
        verdict,
        note,
    )
