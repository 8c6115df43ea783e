"""fig_co_submodular: BatchToCO (Algorithm 3) for decomposable monotone submodular maximisation (Section 8.1, Table 2's
k-Card. and k-Matroid rows) vs baselines: facility location on the 2017 Minneapolis police stops, one CO step per
``step_days`` days. Batch algorithms: private greedy with the exponential mechanism (Gupta et al. 2010 / Mitrovic et al.
2017, pure eps-DP) under a k-cardinality constraint, and its partition-matroid variant (each round restricted to
candidates whose strip is not full; greedy is a 1/2-approximation under a matroid). OPT_t is replaced by a certified
upper bound (greedy prefixes + top-k gains, also valid for the matroid, whose feasible sets are a subset), labelled
"upper bound", so measured ratios are lower bounds of the true ones.

Simulation (:func:`simulate`): the raw rows of every CO output (:func:`privtest_artifact.outputs._co.run_problem`) for
the k-cardinality stream (``mpls_stops``) and, if ``matroid`` is configured, the partition-matroid stream
(``mpls_stops_matroid``).

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
(:func:`privtest_artifact.outputs._co.claims`, ids ``co.submodular.*``), for the k-cardinality and the partition-matroid
streams.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.co.submodular import FacilityLocation
from privtest_artifact import data
from privtest_artifact.claims import Claim
from privtest_artifact.outputs import _co


def simulate(cfg: dict, rng: np.random.Generator, inputs: dict[str, str]) -> pd.DataFrame:
    """Raw rows for the k-cardinality problem (stream ``mpls_stops``) and, if ``cfg["matroid"]`` is set, for the
    partition-matroid variant (``mpls_stops_matroid``: candidates in ``groups`` vertical strips, at most ``cap``
    chosen per strip); ``inputs``: ``wheel_mpls_stops`` (data wheel)."""
    stops = data.mpls_stops(inputs["wheel_mpls_stops"])
    variants = {"mpls_stops": {}}
    if cfg.get("matroid"):
        variants["mpls_stops_matroid"] = {"groups": cfg["matroid"]["groups"], "cap": cfg["matroid"]["cap"]}
    frames = []
    for name, constraint in variants.items():
        prob = FacilityLocation(
            stops,
            k=cfg["k"],
            grid=cfg["grid"],
            radius_km=cfg["radius_km"],
            T_max=cfg["T_max"].get("mpls_stops"),
            step_days=cfg["step_days"],
            **constraint,
        )
        frames.append(_co.run_problem(prob, name, cfg, rng))
    return pd.concat(frames, ignore_index=True)


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The tables ``summary``, ``privacy``, ``checkpoints``, ``calls`` and ``utility`` (module docstring) of the raw
    rows; ``cfg``: the config section (BatchToCO's constants)."""
    return {"summary": _co.summarize(raw), **_co.tables(raw, cfg)}


def claims(tables: dict[str, pd.DataFrame], cfg: dict) -> list[Claim]:
    """The continual-observation claims of :func:`privtest_artifact.outputs._co.claims` with prefix ``co.submodular``,
    on the tables of :func:`analyse`."""
    return _co.claims(tables, cfg, "co.submodular")
