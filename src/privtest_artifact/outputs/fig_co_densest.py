"""fig_co_densest: BatchToCO (Algorithm 3) for densest subgraph on real edge streams vs baselines (Thm 42, Sec. 8.2).

Streams (``privtest_artifact.data``, neighbouring = differ in one inserted edge / contact): CollegeMsg (unweighted, each
pair at its first message, one step per day: a small optimum) and the SocioPatterns primary school (weighted multigraph,
one step per 10-minute window with contacts: a large optimum). Batch algorithm: the noisy-degree prefix algorithm of
:class:`privtest.co.graphs.DensestSubgraph` (pure eps-edge-DP, a stand-in for the algorithms Section 8.2 cites). OPT_t
is exact (Charikar's LP) every ``co_data.opt_stride`` steps, the next exact value (an upper bound) in between.

Simulation (:func:`simulate`): for each eps of the sweep, ``runs`` runs of BatchToCO with the corrected constants
(ERRATA.md) and the baselines of :func:`privtest.co.batch_to_co.baselines` on the same stream, plus ``checkpoint_runs``
runs without ThresholdSelect for Lemma 40. Raw rows: those of every CO output
(:func:`privtest_artifact.outputs._co.run_problem`).

Analysis (:func:`analyse`):

* ``summary``: what the figure draws, mean and 10-90% band of f(X_t, Y_t) per (stream, eps, method, t) with OPT_t
  (:func:`privtest_artifact.outputs._co.summarize`);
* ``privacy``: per eps, Lemma 38's worst-case ledger of BatchToCO beside the realised ex-post loss of the runs;
* ``checkpoints``: per (stream, eps), Lemma 40 via Lemma 39(2): the runs whose checkpoints violate
  h_ell < OPT_t + (2/eps(ell,t)) ln(1/pbar);
* ``calls``: per (stream, eps), the GTM calls of A per step against their exact expectation (Theorem 42(3));
* ``utility``: per (stream, eps), the runs below Theorem 42(2)'s explicit guarantee at the steps its proof covers, with
  V_A bracketed;
* ``cor35`` (:func:`cor35`): Algorithm 3's printed per-call eps against Corollary 35's hypothesis.

The tables ``privacy``, ``checkpoints``, ``calls`` and ``utility`` are those every CO output's claims compare with the
paper's bounds (:func:`privtest_artifact.outputs._co.tables`).

Claims (:func:`claims`): the continual-observation claims of every CO output
(:func:`privtest_artifact.outputs._co.claims`, ids ``co.*``: checkpoints, calls per step, privacy ledger, Theorem 42's
guarantee), plus the erratum check of Algorithm 3's printed eps(i, t) against Corollary 35 (``co.cor35_erratum``).
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pandas as pd

from privtest.co.graphs import DensestSubgraph
from privtest_artifact.claims import Claim, exact, fmt
from privtest_artifact.outputs import _co


def simulate(cfg: dict, rng: np.random.Generator, inputs: dict[str, str]) -> pd.DataFrame:
    """Raw rows of :func:`privtest_artifact.outputs._co.run_problem` per stream of ``cfg["streams"]``; ``inputs``:
    ``wheel_<stream>`` (data wheel) and ``opt_<stream>`` (exact OPT_t reference) for each stream."""
    frames = []
    for name in cfg["streams"]:
        stream, ref = _co.edge_stream_inputs(name, cfg, inputs)
        prob = DensestSubgraph(stream, ref["opt"].to_numpy(), ref["opt_kind"].to_numpy())
        frames.append(_co.run_problem(prob, name, cfg, rng))
    return pd.concat(frames, ignore_index=True)


#: Checkpoints i and steps t at which Algorithm 3's printed eps(i, t) is tried (GTM_i first runs at t >= i).
COR35_CHECKPOINTS = range(2, 12)
COR35_STEPS = (2, 3, 5, 10, 30, 100)


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The tables ``summary``, ``privacy``, ``checkpoints``, ``calls``, ``utility`` and ``cor35`` (module docstring)
    of the raw rows; ``cfg``: the config section (BatchToCO's constants)."""
    return {"summary": _co.summarize(raw), **_co.tables(raw, cfg), "cor35": cor35(cfg)}


def cor35(cfg: dict) -> pd.DataFrame:
    """Algorithm 3's printed eps(i, t) = eps(i) / (C_1 ln(4 / (omega_t beta))), with the global beta, against the
    hypothesis of Corollary 35 for GTM_i (whose beta is beta_i): Lambda_t <= Lambda = e^{1/C_1 + 2/C_H} at every step.

    Exact (no runs; eps does not enter ln Lambda_t, :meth:`BatchToCOParams.calibration`): one row per checkpoint i in
    :data:`COR35_CHECKPOINTS` and step t in :data:`COR35_STEPS` with t >= i, with ``log_Lambda_t`` (ln Lambda_t of
    GTM_i's calibration at the printed eps(i, t) and p*) and ``log_Lambda`` (ln Lambda, the hypothesis' bound), both
    in nats. Corollary 35 holds at (i, t) iff log_Lambda_t <= log_Lambda (ERRATA.md, "Algorithm 3: eps(i, t) uses the
    global beta where Corollary 35 needs beta_i").

    Args:
        cfg: the config section (BatchToCO's constants, :func:`privtest_artifact.outputs._co.co_params`).
    """
    printed = dataclasses.replace(_co.co_params(cfg, 1.0), log_beta="global")
    rows = [
        dict(
            i=i,
            t=t,
            log_Lambda_t=printed.calibration(i).step(t, printed.eps_it(i, t), printed.pstar).log_Lambda,
            log_Lambda=math.log(printed.Lambda),
        )
        for i in COR35_CHECKPOINTS
        for t in COR35_STEPS
        if t >= i
    ]
    return pd.DataFrame(rows, columns=["i", "t", "log_Lambda_t", "log_Lambda"])


#: ERRATA.md entry recording the inconsistency between Algorithm 3's eps(i, t) and Corollary 35.
ERRATUM_ALG3 = "Algorithm 3: eps(i, t) uses the global beta where Corollary 35 needs beta_i"


def claims(tables: dict[str, pd.DataFrame], cfg: dict) -> list[Claim]:
    """The continual-observation claims of :func:`privtest_artifact.outputs._co.claims` (prefix ``co``) and, exactly,
    Algorithm 3's printed eps(i, t) against Corollary 35's hypothesis (``co.cor35_erratum``, ERRATUM when violated at
    some tried (i, t)), on the tables of :func:`analyse`."""
    cor35 = tables["cor35"]
    worst = cor35.loc[cor35.log_Lambda_t.idxmax()]  # the first (i, t) of the table's order if several tie
    erratum = exact(
        claim_id="co.cor35_erratum",
        source="Alg 3 vs Cor 35",
        statement="Algorithm 3's printed eps(i,t) = eps(i)/(C_1 ln(4/(omega_t beta))) meets Corollary 35's hypothesis "
        "for GTM_i (beta_GTM = beta_i): Lambda_t <= Lambda = e^{1/C_1+2/C_H} at every step",
        measured=f"max ln Lambda_t = {fmt(worst.log_Lambda_t)} at i={int(worst.i)}, t={int(worst.t)}",
        bound=f"<= ln Lambda = {fmt(worst.log_Lambda)}",
        ok=bool((cor35.log_Lambda_t <= cor35.log_Lambda).all()),
        erratum=ERRATUM_ALG3,
        note="exact; the runs use ln(4/(omega_t beta_i)) (log_beta=instance), which satisfies Cor 35's hypothesis",
    )
    return [*_co.claims(tables, cfg, "co"), erratum]
