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
* ``summary``: one row per (scenario, method) (:func:`summarize`);
* ``errors``, ``pbar``, ``selection``, ``comparison``: one row per claim cell of :mod:`privtest.checks.fig_hpo`
  with the numbers the claim shows and judges (:func:`error_table`, :func:`pbar_table`, :func:`selection_table`,
  :func:`comparison_table`).
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
    """The tables of the module docstring; ``cfg`` (the config section) gives ``beta`` (the pooled error rows'
    bound) and ``peer.eps0`` (Lemma 34(2)'s bound)."""
    ms, p = methods(raw), p_rows(raw)
    return {
        "methods": ms,
        "p": p,
        "plot": plot_table(raw),
        "peers": peer_table(raw),
        "halts": halt_table(raw),
        "summary": summarize(raw),
        "errors": error_table(raw, cfg["beta"], ms, p),
        "pbar": pbar_table(raw, ms),
        "selection": selection_table(raw, cfg["peer"]["eps0"], ms, p),
        "comparison": comparison_table(raw, ms, p),
    }


def _searches(raw, scenario, method):
    return raw[(raw.kind == "search") & (raw.scenario == scenario) & (raw.method == method)]


def _tester_rows(ms: pd.DataFrame) -> pd.DataFrame:
    return ms[ms.family != "selection"]


#: Columns of the table ``errors``.
ERROR_COLUMNS = ["scenario", "method", "definite", "possible", "searches", "bound", "source", "ci_low", "ci_high"]


def error_table(
    raw: pd.DataFrame, beta: float, ms: pd.DataFrame | None = None, p_all: pd.DataFrame | None = None
) -> pd.DataFrame:
    """Theorem 21's (Proposition 48's for Cohen et al.) no-error event, one row per tester of every scenario and, for
    a family run with more than one p* schedule, one pooled row (method ``<family> (both schedules, pooled)``, bound
    ``beta``): ``definite`` and ``possible`` error counts (:func:`errors`) of ``searches``, the method's failure
    bound and ``source``, and ``ci_low`` (of definite/searches) and ``ci_high`` (of possible/searches), the ends of
    the 95% Clopper-Pearson intervals. ``ms``/``p_all``: :func:`methods` and :func:`p_rows` (computed when None)."""
    ms = methods(raw) if ms is None else ms
    p_all = p_rows(raw) if p_all is None else p_all
    rows = []

    def row(scenario, method, d_err, p_err, R, bound, source):
        lo, _ = clopper_pearson(d_err, R, CONFIDENCE)
        _, hi = clopper_pearson(p_err, R, CONFIDENCE)
        rows.append(dict(scenario=scenario, method=method, definite=d_err, possible=p_err, searches=R, bound=bound,
                         source=source, ci_low=float(lo), ci_high=float(hi)))  # fmt: skip

    for scenario, sm in ms.groupby("scenario", sort=False):
        steps_all = raw[(raw.kind == "step") & (raw.scenario == scenario)]
        testers = _tester_rows(sm)
        pooled: dict[str, list[int]] = {}
        for _, m in testers.iterrows():
            searches = _searches(raw, scenario, m.method)
            d_err, p_err = errors(select_p(p_all, m.eps_train, m.target), steps_all[steps_all.method == m.method],
                                  searches)  # fmt: skip
            acc = pooled.setdefault(m.family, [0, 0, 0, 0])
            acc[:] = [acc[0] + d_err, acc[1] + p_err, acc[2] + len(searches), acc[3] + 1]
            row(scenario, m.method, d_err, p_err, len(searches), float(m.error_bound), m.source)
        for family, (d_err, p_err, R, runs) in pooled.items():
            if runs > 1:
                src = testers[testers.family == family].source.iloc[0]
                row(scenario, f"{family} (both schedules, pooled)", d_err, p_err, R, beta, src)
    return pd.DataFrame(rows, columns=ERROR_COLUMNS)


#: Columns of the table ``pbar``.
PBAR_COLUMNS = ["scenario", "reference", "method", "steps", "min_ratio", "all_above", "reference_pbar_min",
                "reference_pbar_max", "pbar_min", "pbar_max"]  # fmt: skip


def pbar_table(raw: pd.DataFrame, ms: pd.DataFrame | None = None) -> pd.DataFrame:
    """Table 1 at equal p*, eps and eps_t: per scenario and tester of another family than the reference tester (the
    scenario's first "method" row), the smallest ratio pbar_t(reference) / pbar_t(method) over t = 1..``steps``,
    ``all_above`` (every ratio > 1) and both testers' pbar_t ranges (exact, from the calibrations)."""
    ms = methods(raw) if ms is None else ms
    rows = []
    for scenario, sm in ms.groupby("scenario", sort=False):
        ref = sm.iloc[0]
        steps_all = raw[(raw.kind == "step") & (raw.scenario == scenario)]
        ref_steps = steps_all[steps_all.method == ref.method].sort_values("t")
        testers = _tester_rows(sm)
        for _, m in testers[testers.family != ref.family].iterrows():
            other = steps_all[steps_all.method == m.method].sort_values("t")
            ratio = ref_steps.pbar.to_numpy() / other.pbar.to_numpy()
            rows.append(dict(scenario=scenario, reference=ref.method, method=m.method, steps=len(ratio),
                             min_ratio=float(ratio.min()), all_above=bool(np.all(ratio > 1)),
                             reference_pbar_min=float(ref_steps.pbar.min()),
                             reference_pbar_max=float(ref_steps.pbar.max()), pbar_min=float(other.pbar.min()),
                             pbar_max=float(other.pbar.max())))  # fmt: skip
    return pd.DataFrame(rows, columns=PBAR_COLUMNS)


def selection_failure(p1, xi):
    """Algorithm 2's exact probability of releasing nothing (cap out of reach): each round releases w.p. p1, else
    stops w.p. xi, so Pr[fail] = (1 - p1) xi / (p1 + xi (1 - p1)) (proof of Lemma 34(2)-(3)); <= (1 - p1) xi / p1."""
    p1 = np.asarray(p1, dtype=float)
    return (1 - p1) * xi / (p1 + xi * (1 - p1))


#: Columns of the table ``selection``.
SELECTION_COLUMNS = ["scenario", "method", "schedule", "failures", "searches", "stop_probability", "requested",
                     "p1_low", "p1_high", "lemma_bound", "exact_failure_low", "exact_failure_high",
                     "reference_bound", "eps_train"]  # fmt: skip


def selection_table(
    raw: pd.DataFrame, eps0: float, ms: pd.DataFrame | None = None, p_all: pd.DataFrame | None = None
) -> pd.DataFrame:
    """Private selection (Algorithm 2, Lemma 34(2)): per scenario and selection method, ``failures`` (searches
    releasing nothing) of ``searches``; its ``stop_probability`` xi and the ``requested`` one (the documented
    schedule's, what OpenDP was asked for); the bracket [p1_low, p1_high] of p1 = Pr[one candidate's accuracy >=
    target] (h uniform: the means of the per-h 95% CIs of p_t at the method's eps_Q); Lemma 34(2)'s bound
    (1 - p1)(1 + eps0/2) xi / p1 at p1 = p1_low, with xi = stop_probability for the documented schedule and
    ``requested`` otherwise; the exact failure probability (:func:`selection_failure`) at p1_high and p1_low
    (``exact_failure_low``/``_high``, at xi = stop_probability); ``reference_bound``: the scenario's reference
    tester's failure bound."""
    ms = methods(raw) if ms is None else ms
    p_all = p_rows(raw) if p_all is None else p_all
    documented = raw[(raw.kind == "method") & (raw.schedule == "documented")]
    requested = float(documented.stop_probability.iloc[0]) if len(documented) else np.nan
    rows = []
    for scenario, sm in ms.groupby("scenario", sort=False):
        ref = sm.iloc[0]
        for _, m in sm[sm.family == "selection"].iterrows():
            p = select_p(p_all, m.eps_train, m.target)
            p1_lo, p1_hi = float(p.p_low.mean()), float(p.p_high.mean())
            g = _searches(raw, scenario, m.method)
            xi = float(m.stop_probability)
            asked = xi if m.schedule == "documented" else requested
            rows.append(dict(scenario=scenario, method=m.method, schedule=m.schedule,
                             failures=int(np.count_nonzero(g.halt_step.astype(int) == 0)), searches=len(g),
                             stop_probability=xi, requested=asked, p1_low=p1_lo, p1_high=p1_hi,
                             lemma_bound=(1 - p1_lo) * (1 + eps0 / 2) * asked / p1_lo,
                             exact_failure_low=float(selection_failure(p1_hi, xi)),
                             exact_failure_high=float(selection_failure(p1_lo, xi)),
                             reference_bound=float(ref.error_bound), eps_train=float(m.eps_train)))  # fmt: skip
    return pd.DataFrame(rows, columns=SELECTION_COLUMNS)


def _score(raw, p_all, scenario, m) -> tuple[np.ndarray, np.ndarray]:
    """Per search: the true p of its output at the method's own per-training eps and target (0 when it output
    nothing), and the trainings it spent."""
    g = _searches(raw, scenario, m.method)
    h = g.halt_step.astype(int).to_numpy()
    p = select_p(p_all, m.eps_train, m.target).set_index("t").p_hat
    score = np.where(h > 0, p.reindex(np.maximum(h, 1)).to_numpy(), 0.0)
    return score, g.trainings.to_numpy(dtype=float)


def _diff(a: np.ndarray, b: np.ndarray) -> tuple[float, float, float]:
    """(mean difference, its standard error, runs): se = 0 when every search gave the same value or there is a
    single search (its variance unknown); the Normal cell then needs the quantity's span (bounded-range test)."""
    var = sum(x.var(ddof=1) / x.size if x.size > 1 else 0.0 for x in (a, b))
    return float(a.mean() - b.mean()), float(np.sqrt(var)), float(min(a.size, b.size))


#: Columns of the table ``comparison``.
COMPARISON_COLUMNS = ["scenario", "peer", "reference", "peer_eps_train", "reference_eps_train", "p_peer",
                      "p_reference", "p_diff", "p_se", "p_runs", "trainings_peer", "trainings_reference",
                      "trainings_diff", "trainings_se", "trainings_runs"]  # fmt: skip


def comparison_table(raw: pd.DataFrame, ms: pd.DataFrame | None = None, p_all: pd.DataFrame | None = None):
    """The README's comparison, per scenario and documented-schedule selection peer against the reference tester:
    mean over searches of the true p of the output (at the method's own per-training eps, 0 for no output) and of
    the trainings spent, for both, and the differences (peer - reference) with their standard errors and runs
    (the smaller number of searches; se = 0 for a single search or constant values)."""
    ms = methods(raw) if ms is None else ms
    p_all = p_rows(raw) if p_all is None else p_all
    rows = []
    for scenario, sm in ms.groupby("scenario", sort=False):
        ref = sm.iloc[0]
        for _, peer in sm[(sm.family == "selection") & (sm.schedule == "documented")].iterrows():
            ps, pt = _score(raw, p_all, scenario, peer)
            rs, rt = _score(raw, p_all, scenario, ref)
            dq, sq, nq = _diff(ps, rs)
            dt, st, nt = _diff(pt, rt)
            rows.append(dict(scenario=scenario, peer=peer.method, reference=ref.method,
                             peer_eps_train=float(peer.eps_train), reference_eps_train=float(ref.eps_train),
                             p_peer=float(ps.mean()), p_reference=float(rs.mean()), p_diff=dq, p_se=sq, p_runs=nq,
                             trainings_peer=float(pt.mean()), trainings_reference=float(rt.mean()),
                             trainings_diff=dt, trainings_se=st, trainings_runs=nt))  # fmt: skip
    return pd.DataFrame(rows, columns=COMPARISON_COLUMNS)


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
