"""fig_co_maxcut: BatchToCO (Algorithm 3) for Max-Cut (Section 8.4) vs baselines on the CollegeMsg subgraph of its
``users`` most active users, one CO step per inserted edge; batch algorithm: the exponential mechanism over all cuts
(:class:`privtest.co.maxcut.MaxCut`, pure eps-edge-DP, additive error O((n + ln(1/beta))/eps)); OPT_t exact by
enumeration.

Simulation (:func:`simulate`): the raw rows of every CO output (:func:`privtest_artifact.outputs._co.run_problem`) on
that stream.

Analysis (:func:`analyse`):

* ``summary``: what the figure draws, mean and 10-90% band of f(X_t, Y_t) per (stream, eps, method, t) with OPT_t
  (:func:`privtest_artifact.outputs._co.summarize`);
* ``privacy``: per eps, Lemma 38's worst-case ledger of BatchToCO beside the realised ex-post loss of the runs;
* ``checkpoints``: per (stream, eps), Lemma 40 via Lemma 39(2): the runs whose checkpoints violate
  h_ell < OPT_t + (2/eps(ell,t)) ln(1/pbar);
* ``calls``: per (stream, eps), the GTM calls of A per step against their exact expectation (Theorem 42(3));
* ``utility``: per (stream, eps), the runs below Theorem 42(2)'s explicit guarantee at the steps its proof covers, with
  V_A bracketed.

The last four are those every CO output's claims compare with the paper's bounds
(:func:`privtest_artifact.outputs._co.tables`).

Claims (:func:`claims`): the continual-observation claims of every CO output
(:func:`privtest_artifact.outputs._co.claims`, ids ``co.maxcut.*``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.co.maxcut import MaxCut, top_users_stream
from privtest_artifact import data
from privtest_artifact.claims import Claim
from privtest_artifact.outputs import _co


def simulate(cfg: dict, rng: np.random.Generator, inputs: dict[str, str]) -> pd.DataFrame:
    """Raw rows on the top-``users`` CollegeMsg stream; ``inputs``: ``wheel_collegemsg`` (data wheel)."""
    n, edges = top_users_stream(data.collegemsg(inputs["wheel_collegemsg"]), cfg["users"])
    prob = MaxCut(n, edges, f"CollegeMsg top {n}")
    return _co.run_problem(prob, f"collegemsg_top{n}", cfg, rng)


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The tables ``summary``, ``privacy``, ``checkpoints``, ``calls`` and ``utility`` (module docstring) of the raw
    rows; ``cfg``: the config section (BatchToCO's constants)."""
    return {"summary": _co.summarize(raw), **_co.tables(raw, cfg)}


def claims(tables: dict[str, pd.DataFrame], cfg: dict) -> list[Claim]:
    """The continual-observation claims of :func:`privtest_artifact.outputs._co.claims` with prefix ``co.maxcut``, on
    the tables of :func:`analyse`."""
    return _co.claims(tables, cfg, "co.maxcut")
