"""Analysis of fig_privacy_audit (:mod:`privtest.experiments.fig_privacy_audit`'s audit results, one row per
mechanism): what the claims (:mod:`privtest.checks.fig_privacy_audit`) decide on, for the audits of Lemma 17 /
Theorem 21 (GTM), the published privacy claims of the baselines and Lyu, Su and Li (2017)'s broken SVT variants.

The verdict of each audit is judged here at ``cfg["confidence"]`` (an analysis key: the simulation's samples and
counts do not depend on it): :func:`judge` turns the raw column ``carried`` (every carried witness's counts, in pilot
order) into alpha, eps_lower, eps_hat, the best witness's event, counts and (for the witness searches) ``inputs``,
and ``cells`` (the counts of the carried witnesses, best first), through :func:`privtest.audit.verdict`, the
function :func:`privtest.audit.audit` itself uses.

* ``summary``: the judged columns (mechanism, claimed_eps, delta, actual_eps, eps_lower, eps_hat, n, event, inputs,
  eps_exact, k_a, k_b, n_a, n_b, alpha, searched, cells; eps in nats) with ``expected`` ("broken" where actual_eps >
  claimed_eps, else "private"), ``flagged`` (eps_lower > claimed_eps: the verdict at ``cfg["confidence"]``) and
  ``runs_to_flag`` (for a broken mechanism that is not flagged, NaN otherwise: the runs per input at which the
  chosen witness's observed rates would flag it at the audit's level alpha, :func:`privtest.audit.runs_to_flag`), in
  the figure data's column order; plus, for the broken variants (NaN otherwise), ``eps_lower_pass`` (the largest
  carried witness's lower bound on eps at the claims policy's one-sided PASS level,
  :data:`privtest.claims.PASS_CONFIDENCE`, union bound over the carried witnesses) and ``runs_to_flag_pass`` (runs
  per input at which the chosen witness's observed rates would push that bound above the claimed eps,
  :func:`privtest.audit.runs_to_flag`).
* ``cells``: one row per (mechanism, ``against`` in {claimed, exact}, carried witness ``cell`` 1, 2, ...) of the
  binomial statement "Pr_a[E] <= e^eps Pr_b[E] (+ delta)" at eps = claimed_eps, resp. eps_exact (GTM cases only):
  ``k`` successes of ``n`` trials whose success probability is at most ``bound`` (:func:`witness_cells`). Witnesses
  whose event was never seen (delta = 0, k_a + k_b = 0) have no row.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd

from privtest import audit
from privtest.claims import PASS_CONFIDENCE
from privtest.stats import clopper_pearson

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
        raw: the simulation's rows (:func:`privtest.experiments.fig_privacy_audit.raw_row`), judged at
            ``cfg["confidence"]`` (:func:`judge`).
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
            with keys witness, coding, event, direction, k_a, k_b, n_a, n_b;
            :mod:`privtest.experiments.fig_privacy_audit`).
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
        v = audit.verdict([{**c, "rank": i} for i, c in enumerate(carried)], confidence, row["delta"])
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
        audit.runs_to_flag(r.k_a, r.k_b, r.n, r.claimed_eps, r.alpha, r.delta) if b and not f else np.nan
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
    v = audit.verdict([{**c, "rank": i} for i, c in enumerate(json.loads(row.cells))], PASS_CONFIDENCE, row.delta)
    return v.eps_lower, audit.runs_to_flag(row.k_a, row.k_b, row.n, row.claimed_eps, v.alpha, row.delta)
