"""fig_co_maxcut: BatchToCO (Algorithm 3) for Max-Cut (Section 8.4) vs baselines on the CollegeMsg subgraph of its
``k`` most active users, one CO step per inserted edge; batch algorithm: the exponential mechanism over all cuts
(:class:`privtest.co.maxcut.MaxCut`, pure eps-edge-DP, additive error O((n + ln(1/beta))/eps)); OPT_t exact by
enumeration. Raw rows: :mod:`privtest_artifact.outputs._co`; claims: :mod:`privtest_artifact.outputs.fig_co_maxcut`.

Analysis (:func:`analyse`, of the raw rows): the table its figure
draws,
mean and 10-90% band of f(X_t, Y_t) per (stream, eps, method, t) with OPT_t (``summary``,
:func:`privtest_artifact.outputs._co.summarize`), and the tables its claims compare with the paper's bounds
(:func:`privtest_artifact.outputs._co.tables`): ``privacy`` per eps, ``checkpoints``, ``calls`` and ``utility`` per
(stream,
eps).

Claims (:func:`claims`): the continual-observation claims of :mod:`privtest_artifact.outputs._co` (ids
``co.maxcut.*``).
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
    the
    tables of :func:`privtest_artifact.outputs.fig_co_maxcut.analyse` (None computes the ones they read,
    :func:`privtest_artifact.outputs._co.tables`, from ``raw`` and ``cfg``)."""
    return _co.claims(tables, cfg, "co.maxcut")
