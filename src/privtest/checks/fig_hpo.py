"""Claims of fig_hpo, per scenario (total eps, target, p*; :func:`privtest.experiments.fig_hpo.scenarios`):

* Theorem 21's no-error event per tester and p* schedule on real DP training runs (pooled over the schedules of the
  testers that run two), Proposition 48's for Cohen et al. (each tester's own guarantee, from its ``source``);
* exactly from the calibrations (Table 1): at equal p*, eps and eps_t the reference tester's pbar_t (the first of
  ``methods``, the GTM) exceeds every other tester's;
* the peer (private selection, Algorithm 2 = OpenDP's combinator as documented) fails (releases nothing) with
  probability at most beta, the reference tester's failure probability: Lemma 34(2) gives (1 - p1)(1 + eps0/2) xi/p1;
* OpenDP 0.16.0's combinator as released fails more often than Lemma 34(2) allows at the stop probability it was
  asked for (the finding of :func:`privtest.opendp.opendp_effective_stop_probability`);
* the README's comparison: at equal total eps, the peer's output is better than the reference tester's (expected true
  p of the output at the method's own per-training eps, counting no output as 0) with fewer trainings. This is a
  statement of our README about this data, not a claim of the paper.

Equal total privacy within a scenario holds by construction (eps_Q = (eps - eps0)/2) and is a unit test
(``tests/test_hpo.py``), not a claim.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.analysis import fig_hpo as analysis_module
from privtest.analysis.fig_hpo import CONFIDENCE, select_p
from privtest.claims import Binomial, Claim, Normal, exact, fmt, statistical
from privtest.stats import clopper_pearson


def claims(raw: pd.DataFrame, cfg: dict, analysis: dict[str, pd.DataFrame] | None = None) -> list[Claim]:
    """All claims of the module docstring, scenario by scenario: the searches' halting steps from ``raw`` (what was
    drawn), the methods and the p_t intervals from ``analysis`` (tables ``methods`` and ``p`` of
    :func:`privtest.analysis.fig_hpo.analyse`, which the workflow passes; None computes them)."""
    if analysis is None:  # the two tables the claims read
        analysis = {"methods": analysis_module.methods(raw), "p": analysis_module.p_rows(raw)}
    p_all = analysis["p"]
    out = []
    for scenario, ms in analysis["methods"].groupby("scenario", sort=False):
        ref = ms.iloc[0]  # the scenario's reference tester: the first row simulated
        out += _tester_claims(raw, p_all, scenario, ms, ref, cfg["beta"])
        for _, m in ms[ms.family == "selection"].iterrows():
            out.append(_selection_claim(raw, p_all, scenario, m, cfg["peer"]["eps0"], float(ref.error_bound)))
        for _, m in ms[(ms.family == "selection") & (ms.schedule == "documented")].iterrows():
            out.append(_comparison_claim(raw, p_all, scenario, m, ref))
    return out


def _tag(scenario: str, method: str) -> str:
    return f"{scenario} | {method}".replace(" ", "_")


def _searches(raw, scenario, method):
    return raw[(raw.kind == "search") & (raw.scenario == scenario) & (raw.method == method)]


def _tester_claims(raw, p_all, scenario, ms, ref, beta) -> list[Claim]:
    out = []
    pooled: dict[str, list[int]] = {}
    steps_all = raw[(raw.kind == "step") & (raw.scenario == scenario)]
    testers = ms[ms.family != "selection"]
    for _, m in testers.iterrows():
        steps = steps_all[steps_all.method == m.method]
        searches = _searches(raw, scenario, m.method)
        d_err, p_err = errors(select_p(p_all, m.eps_train, m.target), steps, searches)
        acc = pooled.setdefault(m.family, [0, 0, 0, 0])
        acc[:] = [acc[0] + d_err, acc[1] + p_err, acc[2] + len(searches), acc[3] + 1]
        out.append(_error_claim(_tag(scenario, m.method), d_err, p_err, len(searches), float(m.error_bound), m.source))
    for family, (d_err, p_err, R, runs) in pooled.items():
        if runs > 1:
            src = testers[testers.family == family].source.iloc[0]
            out.append(_error_claim(_tag(scenario, f"{family} (both schedules, pooled)"), d_err, p_err, R, beta, src))
    ref_steps = steps_all[steps_all.method == ref.method].sort_values("t")
    for _, m in testers[testers.family != ref.family].iterrows():
        other = steps_all[steps_all.method == m.method].sort_values("t")
        ratio = ref_steps.pbar.to_numpy() / other.pbar.to_numpy()
        out.append(
            exact(
                claim_id=f"hpo.pbar_gtm_vs[{_tag(scenario, m.method)}]",
                source="Table 1",
                statement=f"at equal p*, eps and eps_t the rejection threshold pbar_t of {ref.method} exceeds "
                f"{m.method}'s at every step",
                measured=f"min ratio {fmt(ratio.min())} over t = 1..{len(ratio)}",
                bound="> 1",
                ok=bool(np.all(ratio > 1)),
                note=f"{ref.method} pbar_t in [{fmt(ref_steps.pbar.min())}, {fmt(ref_steps.pbar.max())}], {m.method} "
                f"pbar_t in [{fmt(other.pbar.min())}, {fmt(other.pbar.max())}] (exact, from the calibrations)",
            )
        )
    return out


def selection_failure(p1, xi):
    """Algorithm 2's exact probability of releasing nothing (cap out of reach): each round releases w.p. p1, else
    stops w.p. xi, so Pr[fail] = (1 - p1) xi / (p1 + xi (1 - p1)) (proof of Lemma 34(2)-(3)); <= (1 - p1) xi / p1."""
    p1 = np.asarray(p1, dtype=float)
    return (1 - p1) * xi / (p1 + xi * (1 - p1))


def _p1(p_all, m) -> tuple[float, float]:
    """Bracket of p1 = Pr[one candidate's accuracy >= target] (h uniform): the mean of the per-h 95% CIs."""
    p = select_p(p_all, m.eps_train, m.target)
    return float(p.p_low.mean()), float(p.p_high.mean())


def _selection_claim(raw, p_all, scenario, m, eps0, beta) -> Claim:
    p1_lo, p1_hi = _p1(p_all, m)
    g = _searches(raw, scenario, m.method)
    k, n = int(np.count_nonzero(g.halt_step.astype(int) == 0)), len(g)
    xi = float(m.stop_probability)
    if m.schedule == "documented":
        lemma = (1 - p1_lo) * (1 + eps0 / 2) * xi / p1_lo
        return statistical(
            claim_id=f"hpo.selection_failure[{_tag(scenario, m.method)}]",
            source="Lemma 34(2)",
            statement="private selection (Algorithm 2 over random search) releases nothing with probability at most "
            "beta, the reference tester's failure probability",
            measured=f"{fmt(k / n)} ({k}/{n})",
            bound=f"<= {beta}",
            evidence=Binomial(k, n, "at_most", beta),
            note=f"stop probability xi = {fmt(xi)}, p1 in [{fmt(p1_lo)}, {fmt(p1_hi)}] (mean of the per-h 95% CIs at "
            f"eps_Q = {fmt(m.eps_train)}); Lemma 34(2)'s bound (1 - p1)(1 + eps0/2) xi / p1 <= {fmt(lemma)}, the "
            f"exact failure probability {fmt(float(selection_failure(p1_hi, xi)))}-"
            f"{fmt(float(selection_failure(p1_lo, xi)))}",
        )
    requested = float(raw[(raw.kind == "method") & (raw.schedule == "documented")].stop_probability.iloc[0])
    lemma = (1 - p1_lo) * (1 + eps0 / 2) * requested / p1_lo
    return statistical(
        claim_id=f"hpo.opendp_stop_probability[{_tag(scenario, m.method)}]",
        source="Lemma 34(2); privtest.opendp (OpenDP 0.16.0)",
        statement="OpenDP 0.16.0's make_select_private_candidate(stop_probability=xi) fails more often than Lemma "
        "34(2) allows at xi: it stops with probability 1 - exp(1/ln(1 - xi)) after a failed candidate",
        measured=f"{fmt(k / n)} ({k}/{n})",
        bound=f">= {fmt(lemma)} (Lemma 34(2) at xi = {fmt(requested)})",
        evidence=Binomial(k, n, "at_least", min(lemma, 1.0)),
        note=f"effective stop probability {fmt(xi)}; its exact failure probability "
        f"{fmt(float(selection_failure(p1_hi, xi)))}-{fmt(float(selection_failure(p1_lo, xi)))} (about 1 - p1)",
    )


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


def _comparison_claim(raw, p_all, scenario, peer, ref) -> Claim:
    ps, pt = _score(raw, p_all, scenario, peer)
    rs, rt = _score(raw, p_all, scenario, ref)
    dq, sq, nq = _diff(ps, rs)
    dt, st, nt = _diff(pt, rt)
    return statistical(
        claim_id=f"hpo.peer_vs_gtm[{scenario.replace(' ', '_')}]",
        source="README fig_hpo (comparison on this data; not a claim of the paper)",
        statement=f"at equal total eps, OpenDP's private selection outputs a better setting than {ref.method} "
        "(expected true p of the output at the method's own per-training eps, 0 for no output) with fewer trainings",
        measured=f"p: {fmt(ps.mean())} vs {fmt(rs.mean())}; trainings: {fmt(pt.mean())} vs {fmt(rt.mean())}",
        bound="difference in p > 0 and in trainings < 0",
        evidence=(
            # p of an output in [0, 1], so a difference in [-1, 1]; trainings are unbounded (OpenDP's are geometric)
            Normal(dq, sq, nq, "at_least", 0.0, cell="p of the output", span=(-1.0, 1.0)),
            Normal(dt, st, nt, "at_most", 0.0, cell="trainings", span=(-np.inf, np.inf)),
        ),
        note=f"{peer.method} trains at eps_Q = {fmt(peer.eps_train)}, {ref.method} at eps_t = {fmt(ref.eps_train)}; "
        "p of each output from the non-private estimate (its own error ignored, 20,000 trainings per h by default)",
    )


def _error_claim(tag, d_err, p_err, R, beta, source) -> Claim:
    lo, _ = clopper_pearson(d_err, R, CONFIDENCE)
    _, hi = clopper_pearson(p_err, R, CONFIDENCE)
    return statistical(
        claim_id=f"hpo.no_error[{tag}]",
        source=source,
        statement="Pr[a search halts at some p_t <= pbar_t or passes some p_t >= p*_t] <= the method's failure bound "
        "(real DP training runs)",
        measured=f"{fmt(p_err / R)} (possible), {fmt(d_err / R)} (definite)",
        bound=f"<= {beta}",
        # the error count is bracketed: definite <= true <= possible (steps classified from intervals of p_t)
        evidence=Binomial(p_err, R, "at_most", beta, k_low=d_err),
        note=f"{d_err} definite / {p_err} possible errors in {R} searches (steps classified from 95% CIs of p_t); "
        f"95% CI [{fmt(lo)}, {fmt(hi)}]",
    )


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
