"""Analysis of fig_hpo (:mod:`privtest.experiments.fig_hpo`'s raw rows: "p" rows of the non-private estimates of
p_t, "method", "step" and "search" rows of the private searches): the tables its check and figure read.

* ``methods``: one row per (scenario, method), in simulation order (the "method" rows);
* ``p``: every "p" row with p_hat = successes/evals, its 95% Clopper-Pearson interval (p_low, p_high) and the
  setting's label, for every per-training eps and target (:func:`p_rows`; :func:`select_p` picks one);
* ``plot``: the testers' plotted data per (scenario, method, t) (:func:`plot_table`): panels (a) and (c);
* ``peers``: the selection peers' plotted data per (scenario, method, t): true p_t at their eps_Q and the searches
  choosing h_t (t = 0: no output): panel (a);
* ``halts``: where the searches of every method stop, per (scenario, method, t), t = 0 for none
  (:func:`halt_table`): panel (b);
* ``summary``: one row per (scenario, method) (:func:`summarize`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.hpo import PEER, PEER_RELEASED, select_p
from privtest.stats import clopper_pearson

#: Confidence of the intervals for p_t and for the error rates.
CONFIDENCE = 0.95
#: Columns of the table ``peers``.
PEER_COLUMNS = ["scenario", "method", "t", "label", "features", "quantile", "p_hat", "p_low", "p_high", "halts",
                "searches"]  # fmt: skip


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The tables of the module docstring; ``cfg`` (the config section) is not needed."""
    return {
        "methods": methods(raw),
        "p": p_rows(raw),
        "plot": plot_table(raw),
        "peers": peer_table(raw),
        "halts": halt_table(raw),
        "summary": summarize(raw),
    }


def peer_table(raw: pd.DataFrame) -> pd.DataFrame:
    """The selection peers' plotted data: per (scenario, peer, t) the setting, true p_t at the peer's eps_Q with its
    interval, and ``halts`` (searches choosing h_t, of ``searches``); t = 0 (label "none"): searches with no output."""
    rows = []
    for m in methods(raw).itertuples():
        if m.method not in (PEER, PEER_RELEASED):
            continue
        pq = p_table(raw, m.eps_train, m.target)
        h = raw[(raw.kind == "search") & (raw.scenario == m.scenario) & (raw.method == m.method)].halt_step.astype(int)
        halts = np.bincount(h, minlength=len(pq) + 1)
        pq = pd.concat([pq, pd.DataFrame({"t": [0], "label": ["none"]})], ignore_index=True)
        pq["halts"] = halts[pq.t.astype(int)]
        pq = pq.assign(scenario=m.scenario, method=m.method, searches=len(h))
        rows.append(pq[PEER_COLUMNS])
    return pd.concat(rows, ignore_index=True) if rows else pd.DataFrame(columns=PEER_COLUMNS)


#: Columns of the table ``halts``.
HALT_COLUMNS = ["scenario", "method", "t", "label", "halts", "searches", "fraction"]


def halt_table(raw: pd.DataFrame) -> pd.DataFrame:
    """Where the private searches stop, for every (scenario, method) in simulation order: one row per step t = 1..T
    (label: the setting h_t, ``d=<features>, q=<quantile>``) and one for t = 0 (label "none": no halt, or no
    release), with ``halts`` (searches stopping there, of ``searches``) and ``fraction`` = halts/searches.

    T is the number of settings of the method's own "p" rows (:func:`p_table`); a search's ``halt_step`` is in
    0..T.
    """
    rows = []
    searches = raw[raw.kind == "search"]
    for m in methods(raw).itertuples():
        pq = p_table(raw, m.eps_train, m.target)
        h = searches[(searches.scenario == m.scenario) & (searches.method == m.method)].halt_step.astype(int)
        counts = np.bincount(h.to_numpy(), minlength=len(pq) + 1)
        t = np.r_[pq.t.to_numpy(dtype=int), 0]
        rows.append(
            pd.DataFrame(
                {
                    "scenario": m.scenario,
                    "method": m.method,
                    "t": t,
                    "label": [*pq.label, "none"],
                    "halts": counts[t],
                    "searches": len(h),
                    "fraction": counts[t] / len(h) if len(h) else np.nan,
                }
            )
        )
    return pd.concat(rows, ignore_index=True)[HALT_COLUMNS] if rows else pd.DataFrame(columns=HALT_COLUMNS)


def p_table(
    raw: pd.DataFrame, eps_train: float | None = None, target: float | None = None, confidence: float = CONFIDENCE
) -> pd.DataFrame:
    """The "p" rows (of one per-training eps and target, default: the first scenario's) with p_hat = successes/evals
    and its Clopper-Pearson interval (p_low, p_high), one row per step t."""
    if eps_train is None or target is None:
        first = raw[raw.kind == "method"].iloc[0]
        eps_train = first.eps_train if eps_train is None else eps_train
        target = first.target if target is None else target
    return select_p(p_rows(raw, confidence), eps_train, target)


def p_rows(raw: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Every "p" row (all per-training eps and targets, in simulation order) with p_hat = successes/evals, its
    Clopper-Pearson interval (p_low, p_high) at ``confidence`` in (0, 1) and the setting's label."""
    p = raw[raw.kind == "p"].copy()
    p["t"] = p["t"].astype(int)
    p["features"] = p["features"].astype(int)
    p["p_hat"] = p["successes"] / p["evals"]
    p["p_low"], p["p_high"] = clopper_pearson(p["successes"].to_numpy(), p["evals"].to_numpy(), confidence)
    p["label"] = [f"d={k}, q={q:g}" for k, q in zip(p["features"], p["quantile"], strict=True)]
    return p.reset_index(drop=True)


def methods(raw: pd.DataFrame) -> pd.DataFrame:
    """The "method" rows: one per (scenario, method), in simulation order."""
    return raw[raw.kind == "method"].reset_index(drop=True)


def reference_row(raw: pd.DataFrame, scenario: str) -> pd.Series:
    """The "method" row of the scenario's reference tester (:func:`reference_method`: the first row simulated)."""
    m = methods(raw)
    return m[m.scenario == scenario].iloc[0]


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
    """The plotted data of the testers: one row per (scenario, method, t) with h_t, p_t (at the method's eps_t and
    target) and its interval, p*_t, pbar_t, the step's category, the number of searches halting at t (of
    ``searches``), the trainings spent at t summed over searches and their mean per search
    (``trainings_per_search`` = trainings/searches, panel (c))."""
    out = []
    steps_all = raw[raw.kind == "step"]
    for _, m in methods(raw).iterrows():
        steps = steps_all[(steps_all.scenario == m.scenario) & (steps_all.method == m.method)]
        if steps.empty:
            continue
        p = p_table(raw, m.eps_train, m.target)
        s = classify(p, steps)
        s["scenario"] = m.scenario
        sel = (raw.kind == "search") & (raw.scenario == m.scenario) & (raw.method == m.method)
        s["searches"] = int(np.count_nonzero(sel))
        s = s.merge(p[["t", "features", "quantile", "label"]], on="t")
        out.append(s)
    cols = [
        "scenario",
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
    df["trainings_per_search"] = df["trainings"] / df["searches"]
    df["t"] = df["t"].astype(int)
    df["halts"] = df["halts"].astype(int)
    df["trainings"] = df["trainings"].astype(np.int64)
    return df


def summarize(raw: pd.DataFrame) -> pd.DataFrame:
    """One row per (scenario, method): total privacy, per-training eps, searches, failure rate (no output) with its
    95% interval, true p (at the method's own per-training eps and the scenario's target) of the chosen setting (mean
    and min over the searches that output one; ``mean_p_output``: mean over all searches with no output scored 0, the
    definition of the ``hpo.peer_vs_gtm`` claim) and the expected validation accuracy of a model trained with it,
    trainings per search (mean, max), and the fraction of outputs whose p is surely <= pbar_t of the scenario's
    reference tester (its Type I region)."""
    out = []
    searches = raw[raw.kind == "search"]
    steps = raw[raw.kind == "step"]
    for _, m in methods(raw).iterrows():
        g = searches[(searches.scenario == m.scenario) & (searches.method == m.method)]
        h = g.halt_step.astype(int).to_numpy()
        p = p_table(raw, m.eps_train, m.target).set_index("t")
        ref = reference_row(raw, m.scenario)
        gtm = steps[(steps.scenario == m.scenario) & (steps.method == ref.method)].set_index("t")
        chosen = h[h > 0]
        fail = int(np.count_nonzero(h == 0))
        lo, hi = clopper_pearson(fail, len(h), CONFIDENCE)
        sel = p.loc[chosen, "p_hat"].to_numpy() if chosen.size else np.array([np.nan])
        acc = p.loc[chosen, "mean_acc"].to_numpy() if chosen.size else np.array([np.nan])
        weak = (p.loc[chosen, "p_high"].to_numpy() <= gtm.loc[chosen, "pbar"].to_numpy()) if chosen.size else []
        out.append(
            dict(
                scenario=m.scenario,
                method=m.method,
                total_eps=float(m.total_eps),
                eps_train=float(m.eps_train),
                searches=len(h),
                failure=fail / len(h),
                failure_low=lo,
                failure_high=hi,
                mean_p_chosen=float(np.mean(sel)),
                mean_p_output=float(np.sum(sel[np.isfinite(sel)]) / len(h)),
                min_p_chosen=float(np.min(sel)),
                mean_acc_chosen=float(np.mean(acc)),
                weak_chosen=float(np.mean(weak)) if chosen.size else np.nan,
                trainings_mean=float(g.trainings.mean()),
                trainings_max=int(g.trainings.max()),
            )
        )
    return pd.DataFrame(out)
