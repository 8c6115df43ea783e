"""fig_privacy_audit: black-box audited lower bounds on eps (:mod:`privtest.audit`) for the GTM (global direct, global
flipped, ex-post), Cohen et al., Liu-Talwar (approximate DP: eps is audited at its claimed delta), the classic
AboveThreshold, and the six SVT variants of Lyu, Su and Li (2017), four of which are not private.

Simulation (:func:`simulate`, one raw row per mechanism). Inputs: generalized testers run on Bernoulli streams p and
their neighbour p' = min(e^eps_1 p, 1 - e^-eps_1 (1 - p)) (the extreme pure-DP pair; Cohen and Liu-Talwar at
p = sqrt(pbar p*), where their halting is uncertain). Each GTM case uses a stream where the exact analysis
(fig_privacy_exact) finds continuation losses at the bound, and the exact worst loss of that very pair is reported next
to the audit (``eps_exact``: no audit of the pair can exceed it).

SVT-type mechanisms are audited the way published DP testers do it (:func:`privtest.audit.audit`): the witness search
tries StatDP's input patterns (:func:`privtest.svt_variants.witness_pairs`, ``queries`` answers of sensitivity 1) under
three codings of the output (first top and number of tops; bottoms and the smallest released value; Hamming distance to
half tops), picks the ``CANDIDATES`` most promising (pair, coding, event) on a pilot of n/2 runs per input, and tests
them on fresh samples of n runs per input (conditional binomial test, union bound over the carried witnesses). A
mechanism is flagged when its bound exceeds the claimed eps; for a broken variant that is not flagged, ``runs_to_flag``
is the audit's power: the runs per input at which the best witness's observed rates would flag it (both computed by the
analysis).

What is drawn does not depend on the confidence level (an analysis key): the pilot search, the carried witnesses and
their main-sample counts do not. So the simulation records every carried witness's counts (column ``carried``, in pilot
order), and the analysis judges them at ``confidence``; a changed confidence reruns the analysis, never the simulation.
The audits run at :data:`SIMULATION_CONFIDENCE`, whose verdict is not recorded.

Analysis (:func:`analyse`): what the claims decide on, for the audits of Lemma 17 / Theorem 21 (GTM), the published
privacy claims of the baselines and Lyu, Su and Li (2017)'s broken SVT variants. The verdict of each audit is judged at
``cfg["confidence"]``: :func:`judge` turns the raw column ``carried`` into alpha (the level), eps_lower, eps_hat, the
best witness's event, counts and (for the witness searches) ``inputs``, and ``cells`` (the counts of the carried
witnesses, best first), through :func:`privtest.audit.verdict`, the function :func:`privtest.audit.audit` itself uses.

* ``summary``: the judged columns (mechanism, claimed_eps, delta, actual_eps, eps_lower, eps_hat, n, event, inputs,
  eps_exact, k_a, k_b, n_a, n_b, alpha, searched, cells; eps in nats) with ``expected`` ("broken" where
  actual_eps > claimed_eps, else "private"), ``flagged`` (eps_lower > claimed_eps: the verdict at ``cfg["confidence"]``)
  and ``runs_to_flag`` (for a broken mechanism that is not flagged, NaN otherwise: the runs per input at which the
  chosen witness's observed rates would flag it at the audit's level alpha, :func:`privtest.audit.runs_to_flag`), in the
  figure data's column order; plus, for the broken variants (NaN otherwise), ``eps_lower_pass`` (the largest carried
  witness's lower bound on eps at the claims policy's one-sided PASS level,
  :data:`privtest_artifact.claims.PASS_CONFIDENCE`, union bound over the carried witnesses) and ``runs_to_flag_pass``
  (runs per input at which the chosen witness's observed rates would push that bound above the claimed eps,
  :func:`privtest.audit.runs_to_flag`).
* ``cells``: one row per (mechanism, ``against`` in {claimed, exact}, carried witness ``cell`` 1, 2, ...) of the
  binomial statement "Pr_a[E] <= e^eps Pr_b[E] (+ delta)" at eps = claimed_eps, resp. eps_exact (GTM cases only): ``k``
  successes of ``n`` trials whose success probability is at most ``bound`` (:func:`witness_cells`). Witnesses whose
  event was never seen (delta = 0, k_a + k_b = 0) have no row.

Claims (:func:`claims`): the auditor flags every SVT variant that is not private (or says how many runs it would need:
INCONCLUSIVE, never a FAIL about the paper), the audit finds no violation in the private mechanisms (a mechanism it
flags is FAIL only if its witnesses refute the claim at the output's family-wise level, else INCONCLUSIVE), and the
audit's witnesses do not refute the exact loss of the audited GTM input pair (FAIL only through the same family-wise
policy).
"""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd

from privtest.audit import AuditResult, audit, estimate_epsilon, runs_to_flag, verdict
from privtest.baselines.above_threshold import AboveThreshold
from privtest.exact import Stream, transcript_log_probs
from privtest.privacy import neighbour_interval
from privtest.svt_variants import CODINGS, PRIVATE, SVTVariant, actual_epsilon, witness_pairs
from privtest.testers import GTMTester, bernoulli_stream
from privtest_artifact.claims import (
    CANNOT_FAIL,
    PASS_CONFIDENCE,
    Binomial,
    Claim,
    exact,
    fmt,
    inconclusive,
    statistical,
)
from privtest_artifact.registry import make_tester
from privtest_artifact.stats import clopper_pearson

#: Witnesses carried from the pilot search to the main test of an SVT-type mechanism (union bound over them).
CANDIDATES = 4
#: The confidence :func:`privtest.audit.audit` is called with: it changes no sample and no recorded count (only the
#: verdict, which the analysis recomputes at the configured ``confidence``).
SIMULATION_CONFIDENCE = 0.95
#: The keys of each carried witness recorded in the raw column ``carried`` (JSON list, pilot order).
CARRIED_KEYS = ("witness", "coding", "event", "direction", "k_a", "k_b", "n_a", "n_b")


def _row(name, claimed, delta, actual, res: AuditResult, inputs: str = "", eps_exact=np.nan) -> dict:
    """The raw row of one audit (:func:`raw_row`), its carried witnesses ``res.cells`` put back in pilot order."""
    carried = sorted(res.cells, key=lambda c: c["rank"])
    return raw_row(name, claimed, delta, actual, carried, res.n, res.searched, inputs, eps_exact)


def raw_row(
    name: str,
    claimed: float,
    delta: float,
    actual: float,
    carried: list[dict],
    n: int,
    searched: int,
    inputs: str = "",
    eps_exact: float = np.nan,
) -> dict:
    """One raw row: what an audit drew, which does not depend on the confidence level.

    Args:
        name: the mechanism. claimed, actual: its claimed and actual eps (nats). delta: its claimed delta.
        carried: the carried witnesses in pilot order, dicts with at least the keys :data:`CARRIED_KEYS` (witness:
            the input pair's label, "" for a one-pair audit; k_a, k_b: event counts of n_a, n_b main-sample runs).
        n: the main sample size per input asked for. searched: the (pair, coding) combinations searched.
        inputs: the audited input pair of a one-pair audit ("" for a witness search). eps_exact: the exact worst
            loss of the pair (GTM cases; NaN otherwise).
    """
    return dict(
        mechanism=name,
        claimed_eps=claimed,
        delta=delta,
        actual_eps=actual,
        n=n,
        inputs=inputs,
        eps_exact=eps_exact,
        searched=searched,
        carried=json.dumps([{k: c[k] for k in CARRIED_KEYS} for c in carried]),
    )


def svt_audit(sample, cfg: dict, rng: np.random.Generator) -> AuditResult:
    """The witness search of an SVT-type mechanism: ``sample(queries, k, rng) -> (answers, values)``; ``cfg`` needs n
    and queries."""
    n = cfg["n"]
    return audit(
        sample,
        witness_pairs(cfg["queries"]),
        CODINGS,
        n,
        rng,
        SIMULATION_CONFIDENCE,
        pilot=max(100, n // 2),
        candidates=CANDIDATES,
    )


def _gtm_case(label: str, cfg: dict) -> tuple[GTMTester, np.ndarray]:
    """The tester of a GTM audit case and its input stream p (shape (T,)): continuation losses at 1/tau1 with
    probability >= 0.05."""
    T, ratio = cfg["T"], cfg["eps_ratio"]
    if label == "GTM ex-post":
        return make_tester("GTM ex-post", {**cfg, "variant": "direct"}, 0.2, ratio, T), np.full(T, 0.15)
    flipped = label == "GTM (flipped)"
    # an audit needs no accuracy: the flipped case has pbar_t <= 0 (no continuation guarantee), deliberately
    gcfg = {**cfg, "variant": "flipped" if flipped else "direct", "allow_vacuous": flipped}
    tester = make_tester("GTM", gcfg, 0.9 if flipped else 0.2, ratio, T)
    return tester, np.full(T, 0.6 if flipped else 0.15)


def _exact_pair_loss(tester: GTMTester, p, p_prime) -> float:
    """max over transcripts and both orders of |ln Pr[a | p] - ln Pr[a | p']| (exact)."""
    A = transcript_log_probs(Stream.from_calibration(tester.cal, p, tester.eps1, tester.pstar))
    B = transcript_log_probs(Stream.from_calibration(tester.cal, p_prime, tester.eps1, tester.pstar))
    d = np.abs(np.concatenate([A.log_continue - B.log_continue, A.log_halt - B.log_halt]))
    return float(np.nanmax(d))


def _runner(tester, p, eps1: float):
    """Sampler of halting steps of ``tester`` on the Bernoulli stream p: (n, rng) -> int64 (n,)."""
    return lambda k, r: tester.run(bernoulli_stream(p, eps1), k, r)[0]


def simulate(cfg: dict, rng: np.random.Generator, inputs: dict[str, str]) -> pd.DataFrame:
    """One row per mechanism: mechanism, claimed_eps, delta, actual_eps, n, inputs (the audited input pair of a
    one-pair audit, :func:`privtest.audit.estimate_epsilon`; empty for the witness searches, whose inputs are the
    best witness's), eps_exact, searched (the number of (pair, coding) combinations searched) and carried (JSON: per
    carried witness in pilot order, its witness, coding, event, direction and counts k_a, k_b of n_a, n_b; the
    analysis judges them at ``confidence``). The confidence level is not read. No ``inputs`` (the argument)."""
    rows = []
    n, T = cfg["n"], cfg["T"]
    eps1 = cfg["eps_ratio"] * cfg["eps"]
    for label in ("GTM", "GTM (flipped)", "GTM ex-post"):
        tester, p = _gtm_case(label, cfg)
        claimed = tester.privacy.eps  # Theorem 21: eps; Theorem 23: the halting loss at T
        _, hi, _, _ = neighbour_interval(p, eps1)
        res = estimate_epsilon(_runner(tester, p, eps1), _runner(tester, hi, eps1), n, rng, SIMULATION_CONFIDENCE)
        inputs_text = f"p={p[0]:g}, p'={hi[0]:.6g} (x{T})"
        rows.append(_row(label, claimed, 0.0, claimed, res, inputs_text, _exact_pair_loss(tester, p, hi)))
    for method in ("Cohen", "LiuTalwar"):
        pstar = cfg["pstar_baselines"]
        tester = make_tester(method, cfg, pstar, cfg["eps_ratio"], T)
        p = np.full(T, np.sqrt(max(tester.pbar(1), 1e-6) * pstar))  # between pbar and p*: halting is uncertain
        _, hi, _, _ = neighbour_interval(p, eps1)
        delta = tester.privacy.delta  # Liu-Talwar's eps is audited at its claimed delta
        res = estimate_epsilon(
            _runner(tester, p, eps1), _runner(tester, hi, eps1), n, rng, SIMULATION_CONFIDENCE, delta=delta
        )
        rows.append(_row(method, cfg["eps"], delta, cfg["eps"], res, f"p={p[0]:.4g}, p'={hi[0]:.4g} (x{T})"))
    m, c = cfg["queries"], cfg["cutoff"]
    at = AboveThreshold(cfg["eps"], cfg["beta"], m)

    def above_threshold(q, k, r):
        return _halt_to_answers(at.run(q, k, r)[0], len(q)), np.full((k, len(q)), np.nan)

    res = svt_audit(above_threshold, cfg, rng)
    rows.append(_row("AboveThreshold", cfg["eps"], 0.0, cfg["eps"], res))
    for variant in sorted(PRIVATE):
        mech = SVTVariant(variant, cfg["eps"], c=c)
        res = svt_audit(mech.run, cfg, rng)
        actual = actual_epsilon(variant, cfg["eps"], c, m)
        rows.append(_row(f"SVT {variant}", cfg["eps"], 0.0, actual, res))
    return pd.DataFrame(rows)


def _halt_to_answers(halt_step, m):
    """Top/bottom answers of a c = 1 threshold test from its halting step (aborted after the top)."""
    idx = np.arange(1, m + 1)[:, None]
    h = np.asarray(halt_step)[None, :]
    one, zero, minus = np.int8(1), np.int8(0), np.int8(-1)
    return np.where((h == 0) | (idx < h), zero, np.where(idx == h, one, minus)).T  # built step-major, (n, m)


#: The columns of ``summary`` before the pass-level ones (the figure data, ``figures/data/fig_privacy_audit.csv``).
COLUMNS = [
    *("mechanism", "claimed_eps", "delta", "actual_eps", "expected", "eps_lower", "eps_hat", "n", "flagged", "event"),
    *("inputs", "eps_exact", "k_a", "k_b", "n_a", "n_b", "alpha", "searched", "runs_to_flag", "cells"),
]
#: Level of the upper limit on Pr_b[E] that turns an approximate-DP audit (delta > 0) into a one-sample test.
DELTA_ALPHA = 1e-4


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The tables ``summary`` and ``cells`` (module docstring).

    Args:
        raw: the simulation's rows (:func:`raw_row`), judged at ``cfg["confidence"]`` (:func:`judge`).
        cfg: the config section (``confidence`` in (0, 1)).

    Raises:
        KeyError: if ``cfg`` has no ``confidence``. ValueError: as :func:`judge`.
    """
    judged = judge(raw, cfg["confidence"])
    summary = audit_verdicts(judged)
    lower = np.full(len(judged), np.nan)
    runs = np.full(len(judged), np.nan)
    for i, row in enumerate(summary.itertuples()):
        if row.expected == "broken":
            lower[i], runs[i] = flag_at_pass_level(row)
    summary["eps_lower_pass"], summary["runs_to_flag_pass"] = lower, runs
    cells = []
    for row in judged.itertuples():
        against = [("claimed", row.claimed_eps)] + ([("exact", row.eps_exact)] if np.isfinite(row.eps_exact) else [])
        for name, eps in against:
            cells += [dict(mechanism=row.mechanism, against=name, **c) for c in witness_cells(row, eps)]
    columns = ["mechanism", "against", "cell", "k", "n", "bound"]
    return {"summary": summary, "cells": pd.DataFrame(cells, columns=columns)}


def judge(raw: pd.DataFrame, confidence: float) -> pd.DataFrame:
    """The simulation's rows with the verdict of each audit at level ``confidence`` (:func:`privtest.audit.verdict`
    on the carried witnesses: union bound over them, ties between bounds go to the first in pilot order).

    Args:
        raw: rows with at least delta, inputs and ``carried`` (JSON list, one dict per carried witness in pilot order
            with keys witness, coding, event, direction, k_a, k_b, n_a, n_b; :func:`raw_row`).
        confidence: level of the audited lower bounds, in (0, 1).

    Returns:
        ``raw`` without ``carried``, plus alpha (each witness's level), eps_lower and eps_hat (nats), event
        ("<event> (<direction>)"), k_a, k_b, n_a, n_b of the best witness, ``inputs`` "<witness>; <coding>" where the
        best witness has a label (a witness search; a one-pair audit keeps its raw ``inputs``) and ``cells`` (JSON:
        k_a, k_b, n_a, n_b of every carried witness, best first), what :func:`privtest.audit.audit` returns at that
        confidence.

    Raises:
        ValueError: on confidence outside (0, 1) or a row with no carried witness.
    """
    rows = []
    for row in raw.to_dict("records"):
        carried = json.loads(row.pop("carried"))
        v = verdict([{**c, "rank": i} for i, c in enumerate(carried)], confidence, row["delta"])
        best = v.best
        row.update(
            eps_lower=v.eps_lower,
            eps_hat=v.eps_hat,
            event=f"{best['event']} ({best['direction']})",
            inputs=f"{best['witness']}; {best['coding']}" if best["witness"] else row["inputs"],
            **{k: best[k] for k in ("k_a", "k_b", "n_a", "n_b")},
            alpha=v.alpha,
            cells=json.dumps([{k: c[k] for k in ("k_a", "k_b", "n_a", "n_b")} for c in v.cells]),
        )
        rows.append(row)
    return pd.DataFrame(rows)


def audit_verdicts(raw: pd.DataFrame) -> pd.DataFrame:
    """The raw rows with ``expected``, ``flagged`` and ``runs_to_flag`` (module docstring) in the figure data's column
    order (:data:`COLUMNS`)."""
    df = raw.copy()
    broken = df.actual_eps > df.claimed_eps
    df["expected"] = np.where(broken, "broken", "private")
    df["flagged"] = df.eps_lower > df.claimed_eps
    df["runs_to_flag"] = [
        runs_to_flag(r.k_a, r.k_b, r.n, r.claimed_eps, r.alpha, r.delta) if b and not f else np.nan
        for r, b, f in zip(df.itertuples(), broken, df.flagged, strict=True)
    ]
    return df[COLUMNS]


def witness_cells(row, eps: float) -> list[dict]:
    """The statement "Pr_a[E] <= e^eps Pr_b[E] (+ delta)" for every witness carried to the main test (the JSON list
    ``row.cells``) as dicts (cell, k, n, bound).

    delta = 0: given the event's total count K = k_a + k_b, k_a ~ Binomial(K, s) with s <= e^eps / (1 + e^eps)
    (Poisson sample sizes, :mod:`privtest.audit`). delta > 0: k_a ~ Binomial(n_a, Pr_a[E]) with Pr_a[E] <= e^eps
    Pr_b[E] + delta, Pr_b[E] taken at its Clopper-Pearson upper limit at level :data:`DELTA_ALPHA`.
    """
    out = []
    for i, c in enumerate(json.loads(row.cells)):
        if row.delta == 0:
            k, n = c["k_a"], c["k_a"] + c["k_b"]
            if n == 0:
                continue
            bound = math.exp(eps) / (1.0 + math.exp(eps))
        else:
            k, n = c["k_a"], c["n_a"]
            upper_b = clopper_pearson(c["k_b"], c["n_b"], 1.0 - 2.0 * DELTA_ALPHA)[1]  # one-sided at DELTA_ALPHA
            bound = min(1.0, math.exp(eps) * upper_b + row.delta)
        out.append(dict(cell=i + 1, k=int(k), n=int(n), bound=float(bound)))
    return out


def flag_at_pass_level(row) -> tuple[float, float]:
    """A broken variant's audited lower bound at the claims policy's PASS level instead of the audit's own
    ``confidence``: the largest carried witness's bound at level (1 - PASS_CONFIDENCE) / (number of carried
    witnesses) (the audit's union bound), and the runs per input at which the chosen witness's observed rates would
    push that bound above the claimed eps (:func:`privtest.audit.runs_to_flag`)."""
    v = verdict([{**c, "rank": i} for i, c in enumerate(json.loads(row.cells))], PASS_CONFIDENCE, row.delta)
    return v.eps_lower, runs_to_flag(row.k_a, row.k_b, row.n, row.claimed_eps, v.alpha, row.delta)


#: Why ``audit.flags_broken`` claims are PASS or INCONCLUSIVE only (the policy's stated exception, docs/claims.md).
BROKEN_CANNOT_FAIL = (
    f"{CANNOT_FAIL} the variant is known not to be private (Lyu, Su, Li), so a missed flag says the auditor's power "
    "at this sample size is too low, not that the paper or the published analysis is wrong (INCONCLUSIVE with the "
    "runs that would flag it)"
)


#: Where each private mechanism's claimed eps comes from (the source of its ``audit.not_flagged`` claim).
PRIVACY_SOURCES = {
    "GTM": "Lemma 17, Thm 21",
    "GTM (flipped)": "Lemma 17, Thm 21",
    "GTM ex-post": "Thm 23",
    "Cohen": "Thm 47, Prop 48(1)",
    "LiuTalwar": "Thm 46(1)",
    "AboveThreshold": "Dwork-Roth Thm 3.24",
    "SVT alg1": "Lyu, Su, Li (PVLDB 2017), Fig. 1",
    "SVT alg2": "Lyu, Su, Li (PVLDB 2017), Fig. 1",
}


def witness_evidence(cells: pd.DataFrame, mechanism: str, against: str) -> list[Binomial]:
    """The carried witnesses of ``mechanism`` tested against the eps named ``against`` (rows of an analysis table
    ``cells``: mechanism, against, k, n, bound, cell) as the claims policy's evidence: k of n events, each at most its
    bound (the largest rate the tested eps allows)."""
    rows = cells[(cells.mechanism == mechanism) & (cells.against == against)]
    return [
        Binomial(k=int(c.k), n=int(c.n), direction="at_most", bound=float(c.bound), cell=f"witness {c.cell}")
        for c in rows.itertuples()
    ]


def audit_measured(row, extra: str = "") -> str:
    """A claim's measured column for an audited mechanism (a row of an analysis table ``summary``): eps_lower, eps_hat
    and the best witness's counts, then ``extra`` inside the parentheses."""
    return (
        f"eps_lower {fmt(row.eps_lower)} (eps_hat {fmt(row.eps_hat)}, event {row.event}: {row.k_a}/{row.n_a} vs "
        f"{row.k_b}/{row.n_b}{extra})"
    )


def claims(tables: dict[str, pd.DataFrame], cfg: dict) -> list[Claim]:
    """Broken SVT variants are flagged at the claims policy's PASS level (else INCONCLUSIVE with the runs that would
    flag them); the private mechanisms' witnesses do not refute their claim, and the GTM cases' witnesses do not
    refute the exact loss of the audited pair (both decided with the other cells of this output). Reads the tables
    ``summary`` and ``cells`` of :func:`analyse`."""
    cells = tables["cells"]

    def evidence(mechanism: str, against: str) -> list[Binomial]:
        return witness_evidence(cells, mechanism, against)

    out = []
    conf = f"{100 * cfg['confidence']:g}"  # 95 at 0.95, 99.9 at 0.999
    pass_conf = f"{PASS_CONFIDENCE:.1%}"
    for row in tables["summary"].itertuples():
        measured = audit_measured(row)
        test = (
            f"{conf}% lower bound: conditional binomial test on Poisson(n = {row.n}) samples"
            if row.delta == 0
            else f"{conf}% lower bound: Clopper-Pearson limits on n = {row.n} samples per input"
        )
        witness = f"witness {row.inputs}"
        if row.expected == "broken":
            claim_id = f"audit.flags_broken[{row.mechanism}]"
            source = "Lyu, Su, Li (PVLDB 2017), Fig. 1"
            statement = (
                f"the auditor flags the non-private {row.mechanism}: actual eps {fmt(row.actual_eps)} on "
                f"{cfg['queries']} queries with cutoff {cfg['cutoff']} > claimed {fmt(row.claimed_eps)}"
            )
            lower, runs = row.eps_lower_pass, row.runs_to_flag_pass
            measured = f"eps_lower at {pass_conf} {fmt(lower)}; {measured}"
            note = (
                f"flagged when the lower bound at the claims policy's one-sided {pass_conf} (union bound over the "
                f"carried witnesses) exceeds the claimed eps; {test}, over {row.searched} witnesses searched on a "
                f"pilot; {witness}. {BROKEN_CANNOT_FAIL}"
            )
            if lower > row.claimed_eps:
                out.append(
                    exact(
                        claim_id=claim_id,
                        source=source,
                        statement=statement,
                        measured=measured,
                        bound=f"> {fmt(row.claimed_eps)}",
                        ok=True,
                        note=note,
                    )
                )
            else:  # the auditor's power, not the paper, is in question
                out.append(
                    inconclusive(
                        claim_id=claim_id,
                        source=source,
                        statement=statement,
                        measured=measured,
                        bound=f"> {fmt(row.claimed_eps)}",
                        runs=runs,
                        now=row.n,
                        note=f"not flagged: the audit's power is too low at this sample size. {note}",
                    )
                )
        else:
            claim_id = f"audit.not_flagged[{row.mechanism}]"
            source = PRIVACY_SOURCES.get(row.mechanism, "published privacy claim")
            statement = f"the audit finds no violation of the claimed eps ({fmt(row.claimed_eps)})" + (
                f" at delta = {row.delta:g}" if row.delta > 0 else ""
            )
            if not row.flagged:
                out.append(
                    exact(
                        claim_id=claim_id,
                        source=source,
                        statement=statement,
                        measured=measured,
                        bound=f"eps_lower <= {fmt(row.claimed_eps)}",
                        ok=True,
                        note=f"{test}; {witness}",
                    )
                )
            else:  # an accusation: decided with this output's other cells at its family-wise level (Holm)
                out.append(
                    statistical(
                        claim_id=claim_id,
                        source=source,
                        statement=statement + ": for every witness carried to the main test, Pr_a[E] <= e^eps "
                        "Pr_b[E]" + (" + delta" if row.delta > 0 else ""),
                        measured=measured,
                        bound=f"eps_lower <= {fmt(row.claimed_eps)}",
                        evidence=evidence(row.mechanism, "claimed"),
                        note=f"flagged at the audit's own {conf}% level; {test}; {witness}",
                    )
                )
        if np.isfinite(row.eps_exact):  # a statistical claim: FAIL only through Holm with this output's other cells
            out.append(
                statistical(
                    claim_id=f"audit.below_exact[{row.mechanism}]",
                    source="consistency of privtest.audit with privtest.exact",
                    statement="the audit's witnesses do not exceed the exact worst transcript loss eps_exact of the "
                    "audited input pair: for every witness carried to the main test, Pr_a[E] <= e^eps_exact Pr_b[E]",
                    measured=f"eps_lower {fmt(row.eps_lower)} (eps_hat {fmt(row.eps_hat)})",
                    bound=f"<= {fmt(row.eps_exact)}",
                    evidence=evidence(row.mechanism, "exact"),
                    note=f"the audit's binomial cells tested at eps_exact; {test}; {witness}",
                )
            )
    return out
