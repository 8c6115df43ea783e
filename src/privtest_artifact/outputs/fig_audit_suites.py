"""fig_audit_suites: the black-box auditor (:func:`privtest.audit.audit`) on the mechanisms of the community's
DP-testing benchmark suites (StatDP, DP-Sniper, DP-Auditorium, Delta-Siege; :mod:`privtest.benchmark_suites`), under
one family-wise error guarantee.

Simulation (:func:`simulate`, one raw row per mechanism). Each mechanism is audited at its claimed eps (at its
claimed delta where it claims (eps, delta)-DP: Delta-Siege's Gaussians, audited on the auditor's delta path with
Clopper-Pearson limits and main samples of exactly n runs per input) within a
budget of ``budget`` runs in all (pilot and main samples of both inputs): the pilot draws ``pilot`` runs per input of
every input pair, the witness search carries ``candidates`` witnesses (pair, coding, event) to fresh main samples of
Poisson(n) runs per input, with n the largest size that keeps the pilot plus the main samples of the distinct carried
pairs within the budget (:func:`main_size`). What is drawn does not depend on the confidence (an analysis key): the
row records every carried witness's counts (column ``carried``, as fig_privacy_audit's
:func:`~privtest_artifact.outputs.fig_privacy_audit.raw_row`), the draws actually made (``samples``), and the
mechanism's definition, claim and closed-form eps.

Analysis (:func:`analyse`). One family-wise guarantee over the whole table: with M audited mechanisms, each audit is
judged at confidence 1 - (1 - ``confidence``) / M (Bonferroni), with the union bound over its carried witnesses inside
(:func:`privtest.audit.verdict`); so with probability >= ``confidence`` no mechanism is flagged whose true eps is at
most its claim, and every ``eps_lower`` of the table is below its mechanism's true eps at once.

* ``summary``: per mechanism, suite, claimed_eps, delta (0: pure DP), true_eps (closed form, inf = unbounded, NaN =
  none known, as for the Gaussians' float64 implementations; true_kind says exact or upper bound), expected (private
  / non-private), eps_lower and eps_hat at the family-wise level, flagged (eps_lower > claimed_eps), samples (runs
  drawn), n (main size per input), runs_to_flag (for a non-private mechanism: the main runs per input at which the
  chosen witness's observed rates would flag it at the audit's level, :func:`runs_at_observed_rates`: below n when
  flagged, the runs it would need when not; inf if its point estimate does not exceed the claim), the suite's own
  published result beside ours (published_eps_lcb: DP-Sniper's lower bound where it publishes one; published: the
  text with its source, or "none published"), and the witness (event, inputs, counts), the coding and the
  definition's source.
* ``cells``: the binomial statements "Pr_a[E] <= e^eps Pr_b[E] (+ delta)" of every carried witness against the
  claimed eps and, where a finite true eps is known and differs from the claim, against it (fig_privacy_audit's
  :func:`~privtest_artifact.outputs.fig_privacy_audit.witness_cells`).

Claims (:func:`claims`), under the usual policy (docs/claims.md): every mechanism the suites (or the literature they
cite) mark non-private is flagged (``suites.flags_broken``: PASS, or INCONCLUSIVE with the runs that would flag it,
never FAIL: the auditor's power is tested); no private mechanism is refuted (``suites.not_refuted``: FAIL only if its
witnesses refute the claim under the output's Holm level); eps_lower never exceeds a known true eps
(``suites.below_true``, decided the same way).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from privtest.audit import audit, bound, runs_to_flag
from privtest.benchmark_suites import SOURCES, suite_mechanisms
from privtest_artifact.claims import CANNOT_FAIL, Binomial, Claim, exact, fmt, inconclusive, statistical
from privtest_artifact.outputs.fig_privacy_audit import audit_measured, judge, raw_row, witness_cells, witness_evidence

#: The confidence :func:`privtest.audit.audit` is called with: it changes no draw and no recorded count.
SIMULATION_CONFIDENCE = 0.95

#: DP-Sniper's published lower bounds (eps_lcb at confidence 0.9, dpsniper/search/ddconfig.py line 18; n_final =
#: 2e8 samples, line 14), per mechanism: (line, eps_lcb) in eval_sp2021/reference-results/dd_search_reg_data.log
#: (logistic regression) and dd_search_mlp_data.log (multi-layer perceptron), eth-sri/dp-sniper@ee087b2.
SNIPER_REG = {
    "LaplaceMechanism": (8, 0.09680373477842874),
    "TruncatedGeometricMechanism": (16, 0.11556448250263873),
    "NoisyHist1": (24, 0.09779357853762427),
    "NoisyHist2": (32, 4.60202151350145),
    "ReportNoisyMax1": (40, 0.09225381318933756),
    "ReportNoisyMax2": (48, 0.09750314019873763),
    "ReportNoisyMax3": (56, 0.24781576679261352),
    "ReportNoisyMax4": (64, 0.34634322696561437),
    "SparseVectorTechnique1": (72, 0.08579843744077742),
    "SparseVectorTechnique2": (80, 0.085933777378977),
    "SparseVectorTechnique3": (88, 0.17157204754154964),
    "SparseVectorTechnique4": (96, 0.1686833019846503),
    "SparseVectorTechnique5": (104, 1.7611853568928795),
    "SparseVectorTechnique6": (112, 0.2720409230566201),
    "Rappor": (120, 0.2929848129867416),
    "OneTimeRappor": (128, 0.5977779392161473),
    "LaplaceParallel": (136, 0.03495277953654963),
    "SVT34Parallel": (144, 0.2610381735699283),
    "PrefixSum": (152, 0.5040117462103613),
    "NumericalSVT": (160, 0.034323746664875365),
}
SNIPER_MLP = {
    "LaplaceMechanism": (8, 0.09763363715243845),
    "TruncatedGeometricMechanism": (16, 0.11554327252275165),
    "NoisyHist1": (24, 0.09769858890379979),
    "NoisyHist2": (32, 4.601469785311435),
    "ReportNoisyMax1": (40, 0.09250095026875194),
    "ReportNoisyMax2": (48, 0.09792031720947492),
    "ReportNoisyMax3": (56, 0.2488099442765046),
    "ReportNoisyMax4": (64, 0.35344366038471353),
    "SparseVectorTechnique1": (72, 0.0857818700940598),
    "SparseVectorTechnique2": (80, 0.08524718743004556),
    "SparseVectorTechnique3": (88, 0.1821683565930945),
    "SparseVectorTechnique4": (96, 0.16956867255560404),
    "SparseVectorTechnique5": (104, 1.760988163636311),
    "SparseVectorTechnique6": (112, 0.269826687868739),
    "Rappor": (120, 0.30080244946686197),
    "OneTimeRappor": (128, 0.5998986783208569),
    "LaplaceParallel": (136, 0.029869306141541152),
    "SVT34Parallel": (144, 0.26162082346312676),
    "PrefixSum": (152, 0.5774330979382549),
    "NumericalSVT": (160, 0.034501347436509455),
}
#: What the other suites publish, per suite (no per-mechanism number is published in their repositories).
PUBLISHED_TEXT = {
    "StatDP": "no number per mechanism: p-value curves over test eps (examples/*.svg); budget 100000 event-selection "
    "+ 500000 detection runs per test eps (statdp/core.py, line 31)",
    "DP-Auditorium": "none published (the repository has no result table)",
    "Delta-Siege": "none published in the repository (results in the CCS'23 paper, not read here)",
}


def published(suite: str, name: str) -> tuple[float, str]:
    """The suite's own published result for a mechanism: (DP-Sniper's eps_lcb with logistic regression, or NaN; the
    text with its source, or :data:`PUBLISHED_TEXT`)."""
    if suite == "DP-Sniper" and name in SNIPER_REG:
        (line, reg), (mline, mlp) = SNIPER_REG[name], SNIPER_MLP[name]
        text = (
            f"DP-Sniper eps_lcb {fmt(reg)} (logistic regression; dd_search_reg_data.log line {line}), {fmt(mlp)} "
            f"(MLP; dd_search_mlp_data.log line {mline}), 90% confidence, 2e8 final samples"
        )
        return reg, text
    return math.nan, PUBLISHED_TEXT.get(suite, "none published")


def main_size(budget: int, pilot: int, pairs: int, candidates: int) -> int:
    """The main sample size n per input that keeps the pilot (2 * pairs * pilot runs) and the main samples of at
    most min(candidates, pairs) carried pairs (2 n each, Poisson sizes of mean n) within 99% of ``budget`` (the 1%
    covers the Poisson fluctuation).

    Raises:
        ValueError: if the budget leaves fewer than 1000 main runs per input.
    """
    n = int((0.99 * budget - 2 * pairs * pilot) // (2 * min(candidates, pairs)))
    if n < 1000:
        raise ValueError(
            f"budget = {budget} leaves n = {n} main runs per input after a pilot of {pilot} runs on {pairs} pairs: "
            "raise budget or lower pilot."
        )
    return n


def runs_at_observed_rates(k_a: int, k_b: int, n: int, claimed: float, alpha: float, delta: float = 0.0) -> float:
    """The main runs per input at which the chosen witness's observed rates k_a / n, k_b / n would flag the claim
    (the bound of :func:`privtest.audit.bound` at level ``alpha`` on the rounded expected counts above ``claimed``),
    within 1%: below n for a flagged mechanism (the samples at which it would already have been flagged), above n for
    one that is not (:func:`privtest.audit.runs_to_flag`, the runs it would need); inf if the point estimate does not
    exceed the claim. ``delta``: the claimed delta (> 0: the audit's delta path, Clopper-Pearson limits).

    Raises:
        ValueError: as :func:`privtest.audit.runs_to_flag`.
    """
    up = runs_to_flag(k_a, k_b, n, claimed, alpha, delta)
    if not math.isfinite(up) or up > n:
        return up
    pa, pb = k_a / n, max(k_b, 0.5) / n

    def flags(m: float) -> bool:  # the expected counts at m runs per input, rounded
        size = max(1, round(m))
        return bound(min(round(pa * m), size), min(round(pb * m), size), size, alpha, delta) > claimed

    lo, hi = n / 2.0, float(n)
    while flags(lo) and lo > 1.0:
        lo, hi = lo / 2.0, lo
    while hi / lo > 1.01:
        mid = math.sqrt(lo * hi)
        lo, hi = (lo, mid) if flags(mid) else (mid, hi)
    return hi


def simulate(cfg: dict, rng: np.random.Generator, inputs: dict[str, str]) -> pd.DataFrame:
    """One raw row per mechanism of :func:`privtest.benchmark_suites.suite_mechanisms` (module docstring): the
    columns of fig_privacy_audit's raw rows (mechanism, claimed_eps, delta, actual_eps = the closed-form true eps,
    n, inputs, eps_exact, searched, carried) plus suite, true_kind, private, samples (runs drawn), pilot, source,
    pairs_source, coding_note and label_note. The confidence level is not read. No ``inputs`` (the argument)."""
    rows = []
    for m in suite_mechanisms():
        n = main_size(cfg["budget"], cfg["pilot"], len(m.pairs), cfg["candidates"])
        res = audit(
            m.sample,
            m.pairs,
            m.codings,
            n,
            rng,
            SIMULATION_CONFIDENCE,
            pilot=cfg["pilot"],
            candidates=cfg["candidates"],
            claimed_eps=m.claimed_eps,
            delta=m.delta,
        )
        carried = sorted(res.cells, key=lambda c: c["rank"])
        main = {c["witness"]: c["n_a"] + c["n_b"] for c in carried}  # one main sample per distinct carried pair
        row = raw_row(m.name, m.claimed_eps, m.delta, m.true_eps, carried, n, res.searched)
        row.update(
            suite=m.suite,
            true_kind=m.true_kind,
            private=m.private,
            samples=2 * len(m.pairs) * cfg["pilot"] + sum(main.values()),
            pilot=cfg["pilot"],
            source=m.source,
            pairs_source=m.pairs_source,
            coding_note=m.coding_note,
            label_note=m.label_note,
        )
        rows.append(row)
    return pd.DataFrame(rows)


#: The columns of ``summary`` (the figure's data, ``figures/data/fig_audit_suites.csv``), in order.
COLUMNS = [
    *("suite", "mechanism", "claimed_eps", "delta", "true_eps", "true_kind", "expected", "eps_lower", "eps_hat"),
    "flagged",
    *("samples", "n", "runs_to_flag", "published_eps_lcb", "published", "event", "inputs", "k_a", "k_b", "n_a"),
    *("n_b", "alpha", "searched", "coding_note", "source", "pairs_source", "label_note", "cells"),
]


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The tables ``summary`` and ``cells`` (module docstring).

    Args:
        raw: the simulation's rows (:func:`simulate`).
        cfg: the config section (``confidence`` in (0, 1): the family-wise level over all mechanisms).

    Raises:
        KeyError: if ``cfg`` has no ``confidence``. ValueError: as fig_privacy_audit's ``judge``.
    """
    level = 1.0 - (1.0 - cfg["confidence"]) / len(raw)  # Bonferroni over the mechanisms: one guarantee for all
    df = judge(raw, level).rename(columns={"actual_eps": "true_eps"})
    df["expected"] = np.where(df["private"].astype(bool), "private", "non-private")
    df["flagged"] = df.eps_lower > df.claimed_eps
    df["runs_to_flag"] = [
        runs_at_observed_rates(r.k_a, r.k_b, r.n, r.claimed_eps, r.alpha, r.delta)
        if r.expected == "non-private"
        else np.nan
        for r in df.itertuples()
    ]
    pub = [published(r.suite, r.mechanism) for r in df.itertuples()]
    df["published_eps_lcb"] = [p[0] for p in pub]
    df["published"] = [p[1] for p in pub]
    df["label_note"] = df["label_note"].fillna("")
    summary = df[COLUMNS].reset_index(drop=True)
    cells = []
    for row in df.itertuples():
        against = [("claimed", row.claimed_eps)]
        if np.isfinite(row.true_eps) and row.true_eps != row.claimed_eps:
            against.append(("true", row.true_eps))
        for name, eps in against:
            cells += [dict(mechanism=row.mechanism, against=name, **c) for c in witness_cells(row, eps)]
    columns = ["mechanism", "against", "cell", "k", "n", "bound"]
    return {"summary": summary, "cells": pd.DataFrame(cells, columns=columns)}


#: Why ``suites.flags_broken`` claims are PASS or INCONCLUSIVE only (the policy's stated exception, docs/claims.md).
BROKEN_CANNOT_FAIL = (
    f"{CANNOT_FAIL} the suite (or the literature it cites) shows the mechanism is not private at its claim, so a "
    "missed flag says the auditor's power at this sample size is too low (INCONCLUSIVE with the runs that would flag "
    "it), not that the suite is wrong"
)


def _key(row) -> str:
    return f"{row.suite}/{row.mechanism}"


def claims(tables: dict[str, pd.DataFrame], cfg: dict) -> list[Claim]:
    """Non-private mechanisms flagged (else INCONCLUSIVE with the runs), private ones not refuted, eps_lower not
    above a known true eps (module docstring). Reads the tables ``summary`` and ``cells`` of :func:`analyse`."""
    cells = tables["cells"]
    summary = tables["summary"]
    level = f"{100 * cfg['confidence']:g}% family-wise over {len(summary)} mechanisms"

    def evidence(mechanism: str, against: str) -> list[Binomial]:
        return witness_evidence(cells, mechanism, against)

    out = []
    for row in summary.itertuples():
        key = _key(row)
        source = f"{row.suite} ({SOURCES[row.suite]}): {row.source}"
        measured = audit_measured(row, f"; {row.samples} runs drawn")
        test = (
            f"Clopper-Pearson limits on n = {row.n} main runs per input (the delta path, delta = {row.delta:g})"
            if row.delta > 0
            else f"conditional binomial test on Poisson(n = {row.n}) main runs per input"
        )
        note = (
            f"lower bound at {level} (each audit at alpha {fmt(row.alpha * 1.0)} per carried witness): {test} after "
            f"a pilot search over {row.searched} (pair, coding); witness {row.inputs}; coding: {row.coding_note}; "
            f"pairs: {row.pairs_source}; published: {row.published}"
        )
        if row.expected == "non-private":
            if math.isinf(row.true_eps):
                eps = "unbounded"
            else:
                eps = ("<= " if row.true_kind == "upper bound" else "") + fmt(row.true_eps)
            statement = (
                f"the auditor flags the non-private {row.mechanism} of {row.suite} (eps {eps}) at its claimed eps "
                f"{fmt(row.claimed_eps)}" + (f" at delta = {row.delta:g}" if row.delta > 0 else "")
            )
            if row.flagged:
                out.append(
                    exact(
                        claim_id=f"suites.flags_broken[{key}]",
                        source=source,
                        statement=statement,
                        measured=measured,
                        bound=f"> {fmt(row.claimed_eps)}",
                        ok=True,
                        note=f"{note}. {BROKEN_CANNOT_FAIL}",
                    )
                )
            else:
                out.append(
                    inconclusive(
                        claim_id=f"suites.flags_broken[{key}]",
                        source=source,
                        statement=statement,
                        measured=measured,
                        bound=f"> {fmt(row.claimed_eps)}",
                        runs=row.runs_to_flag,
                        now=row.n,
                        note=f"not flagged: the audit's power is too low at this budget. {note}. {BROKEN_CANNOT_FAIL}",
                    )
                )
        else:
            at = f" at delta = {row.delta:g}" if row.delta > 0 else ""
            statement = f"the audit does not refute the claim eps = {fmt(row.claimed_eps)}{at} of {row.mechanism}"
            if not row.flagged:
                out.append(
                    exact(
                        claim_id=f"suites.not_refuted[{key}]",
                        source=source,
                        statement=statement,
                        measured=measured,
                        bound=f"eps_lower <= {fmt(row.claimed_eps)}",
                        ok=True,
                        note=note,
                    )
                )
            else:
                out.append(
                    statistical(
                        claim_id=f"suites.not_refuted[{key}]",
                        source=source,
                        statement=statement
                        + ": for every carried witness, Pr_a[E] <= e^eps Pr_b[E]"
                        + (" + delta" if row.delta > 0 else ""),
                        measured=measured,
                        bound=f"eps_lower <= {fmt(row.claimed_eps)}",
                        evidence=evidence(row.mechanism, "claimed"),
                        note=f"flagged at the audit's own level; {note}",
                    )
                )
        if np.isfinite(row.true_eps) and row.true_eps != row.claimed_eps:
            statement = (
                f"eps_lower does not exceed the closed-form eps {fmt(row.true_eps)} ({row.true_kind}) of "
                f"{row.mechanism}"
            )
            if row.eps_lower <= row.true_eps:
                out.append(
                    exact(
                        claim_id=f"suites.below_true[{key}]",
                        source=source,
                        statement=statement,
                        measured=measured,
                        bound=f"<= {fmt(row.true_eps)}",
                        ok=True,
                        note=note,
                    )
                )
            else:
                out.append(
                    statistical(
                        claim_id=f"suites.below_true[{key}]",
                        source=source,
                        statement=statement + ": for every carried witness, Pr_a[E] <= e^eps_true Pr_b[E]",
                        measured=measured,
                        bound=f"<= {fmt(row.true_eps)}",
                        evidence=evidence(row.mechanism, "true"),
                        note=note,
                    )
                )
    return out
