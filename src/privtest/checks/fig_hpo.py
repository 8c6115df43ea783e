"""Claims of fig_hpo, per scenario (total eps, target, p*; :func:`privtest.experiments.fig_hpo.scenarios`):

* Theorem 21's no-error event per tester and p* schedule on real DP training runs (pooled over the schedules of the
  testers that run two), Proposition 48's for Cohen et al. (each tester's own guarantee, from its ``source``);
* exactly from the calibrations (Table 1): at equal p*, eps and eps_t the reference tester's pbar_t (the first of
  ``methods``, the GTM) exceeds every other tester's;
* the peer (private selection, Algorithm 2 = OpenDP's combinator as documented) fails (releases nothing) with
  probability at most beta, the reference tester's failure probability: Lemma 34(2) gives (1 - p1)(1 + eps0/2) xi/p1;
* OpenDP 0.16.0's combinator as released fails more often than Lemma 34(2) allows at the stop probability it was
  asked for (the finding of :func:`privtest.opendp.opendp_effective_stop_probability`);
* the comparison of docs/findings.md: at equal total eps, the peer's output is better than the reference tester's
  (expected true p of the output at the method's own per-training eps, counting no output as 0) with fewer
  trainings. This is a statement of docs/findings.md about this data, not a claim of the paper.

Equal total privacy within a scenario holds by construction (eps_Q = (eps - eps0)/2) and is a unit test
(``tests/test_hpo.py``), not a claim.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.analysis import fig_hpo as analysis_module
from privtest.claims import Binomial, Claim, Normal, exact, fmt, statistical

#: The analysis tables the claims read (:func:`privtest.analysis.fig_hpo.analyse`).
TABLES = ("errors", "pbar", "selection", "comparison")


def claims(raw: pd.DataFrame, cfg: dict, analysis: dict[str, pd.DataFrame] | None = None) -> list[Claim]:
    """All claims of the module docstring, scenario by scenario, built from the rows of the analysis tables
    ``errors``, ``pbar``, ``selection`` and ``comparison`` (:func:`privtest.analysis.fig_hpo.analyse`, which the
    workflow passes; None computes them from ``raw`` and ``cfg``)."""
    if analysis is None:  # the four tables the claims read
        ms, p = analysis_module.methods(raw), analysis_module.p_rows(raw)
        analysis = {
            "errors": analysis_module.error_table(raw, cfg["beta"], ms, p),
            "pbar": analysis_module.pbar_table(raw, ms),
            "selection": analysis_module.selection_table(raw, cfg["peer"]["eps0"], ms, p),
            "comparison": analysis_module.comparison_table(raw, ms, p),
        }
    errors, pbar, selection, comparison = (analysis[t] for t in TABLES)
    out = []
    for scenario in analysis_module.methods(raw).scenario.unique():
        out += [_error_claim(r) for r in errors[errors.scenario == scenario].itertuples()]
        out += [_pbar_claim(r) for r in pbar[pbar.scenario == scenario].itertuples()]
        out += [_selection_claim(r) for r in selection[selection.scenario == scenario].itertuples()]
        out += [_comparison_claim(r) for r in comparison[comparison.scenario == scenario].itertuples()]
    return out


def _tag(scenario: str, method: str) -> str:
    return f"{scenario} | {method}".replace(" ", "_")


def _pbar_claim(r) -> Claim:
    return exact(
        claim_id=f"hpo.pbar_gtm_vs[{_tag(r.scenario, r.method)}]",
        source="Table 1",
        statement=f"at equal p*, eps and eps_t the rejection threshold pbar_t of {r.reference} exceeds "
        f"{r.method}'s at every step",
        measured=f"min ratio {fmt(r.min_ratio)} over t = 1..{r.steps}",
        bound="> 1",
        ok=bool(r.all_above),
        note=f"{r.reference} pbar_t in [{fmt(r.reference_pbar_min)}, {fmt(r.reference_pbar_max)}], {r.method} "
        f"pbar_t in [{fmt(r.pbar_min)}, {fmt(r.pbar_max)}] (exact, from the calibrations)",
    )


def _selection_claim(r) -> Claim:
    k, n, xi = int(r.failures), int(r.searches), float(r.stop_probability)
    exact_failure = f"{fmt(float(r.exact_failure_low))}-{fmt(float(r.exact_failure_high))}"
    if r.schedule == "documented":
        return statistical(
            claim_id=f"hpo.selection_failure[{_tag(r.scenario, r.method)}]",
            source="Lemma 34(2)",
            statement="private selection (Algorithm 2 over random search) releases nothing with probability at most "
            "beta, the reference tester's failure probability",
            measured=f"{fmt(k / n)} ({k}/{n})",
            bound=f"<= {float(r.reference_bound)}",
            evidence=Binomial(k, n, "at_most", float(r.reference_bound)),
            note=f"stop probability xi = {fmt(xi)}, p1 in [{fmt(r.p1_low)}, {fmt(r.p1_high)}] (mean of the per-h 95% "
            f"CIs at eps_Q = {fmt(r.eps_train)}); Lemma 34(2)'s bound (1 - p1)(1 + eps0/2) xi / p1 <= "
            f"{fmt(r.lemma_bound)}, the exact failure probability {exact_failure}",
        )
    return statistical(
        claim_id=f"hpo.opendp_stop_probability[{_tag(r.scenario, r.method)}]",
        source="Lemma 34(2); privtest.opendp (OpenDP 0.16.0)",
        statement="OpenDP 0.16.0's make_select_private_candidate(stop_probability=xi) fails more often than Lemma "
        "34(2) allows at xi: it stops with probability 1 - exp(1/ln(1 - xi)) after a failed candidate",
        measured=f"{fmt(k / n)} ({k}/{n})",
        bound=f">= {fmt(r.lemma_bound)} (Lemma 34(2) at xi = {fmt(r.requested)})",
        evidence=Binomial(k, n, "at_least", min(r.lemma_bound, 1.0)),
        note=f"effective stop probability {fmt(xi)}; its exact failure probability {exact_failure} (about 1 - p1)",
    )


def _comparison_claim(r) -> Claim:
    return statistical(
        claim_id=f"hpo.peer_vs_gtm[{r.scenario.replace(' ', '_')}]",
        source="docs/findings.md fig_hpo (comparison on this data; not a claim of the paper)",
        statement=f"at equal total eps, OpenDP's private selection outputs a better setting than {r.reference} "
        "(expected true p of the output at the method's own per-training eps, 0 for no output) with fewer trainings",
        measured=f"p: {fmt(r.p_peer)} vs {fmt(r.p_reference)}; trainings: {fmt(r.trainings_peer)} vs "
        f"{fmt(r.trainings_reference)}",
        bound="difference in p > 0 and in trainings < 0",
        evidence=(
            # p of an output in [0, 1], so a difference in [-1, 1]; trainings are unbounded (OpenDP's are geometric)
            Normal(r.p_diff, r.p_se, r.p_runs, "at_least", 0.0, cell="p of the output", span=(-1.0, 1.0)),
            Normal(
                r.trainings_diff,
                r.trainings_se,
                r.trainings_runs,
                "at_most",
                0.0,
                cell="trainings",
                span=(-np.inf, np.inf),
            ),
        ),  # fmt: skip
        note=f"{r.peer} trains at eps_Q = {fmt(r.peer_eps_train)}, {r.reference} at eps_t = "
        f"{fmt(r.reference_eps_train)}; p of each output from the non-private estimate (its own error ignored, "
        "20,000 trainings per h by default)",
    )


def _error_claim(r) -> Claim:
    d_err, p_err, R, beta = int(r.definite), int(r.possible), int(r.searches), float(r.bound)
    return statistical(
        claim_id=f"hpo.no_error[{_tag(r.scenario, r.method)}]",
        source=r.source,
        statement="Pr[a search halts at some p_t <= pbar_t or passes some p_t >= p*_t] <= the method's failure bound "
        "(real DP training runs)",
        measured=f"{fmt(p_err / R)} (possible), {fmt(d_err / R)} (definite)",
        bound=f"<= {beta}",
        # the error count is bracketed: definite <= true <= possible (steps classified from intervals of p_t)
        evidence=Binomial(p_err, R, "at_most", beta, k_low=d_err),
        note=f"{d_err} definite / {p_err} possible errors in {R} searches (steps classified from 95% CIs of p_t); "
        f"95% CI [{fmt(r.ci_low)}, {fmt(r.ci_high)}]",
    )
