"""table2: the paper's Table 2 (Theorem 42 applied to batch DP submodular maximisation) rendered from
:mod:`privtest.co.tables`, and its numeric instantiation: for each implemented batch algorithm and stream the
measured f(X_t, Y_t)/OPT_t of BatchToCO (median, worst), the additive gap, and Theorem 42's explicit guarantee.

The rows come from the CO experiments' raw tables (``inputs``); no new simulation runs here. Rendering:
:func:`privtest.co.tables.to_markdown` / :func:`privtest.co.tables.to_latex`; claims: :mod:`privtest.checks.table2`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.experiments import _co


def simulate(cfg: dict, rng: np.random.Generator, inputs: dict[str, str]) -> pd.DataFrame:
    """The rows of ``figures/table2.csv`` (:func:`privtest.experiments._co.table_rows`) from the raw tables of
    ``inputs``: ``raw_fig_co_densest``, ``raw_fig_co_submodular``, ``raw_fig_co_maxcut`` and ``raw_fig_co_crossover``
    (the long streams, at their log-spaced recorded steps; same BatchToCO constants as densest subgraph).
    ``rng`` is unused."""
    del rng  # summary of other experiments' raw results
    frames = []
    raw = pd.read_csv(inputs["raw_fig_co_densest"])
    frames.append(_co.table_rows(raw, cfg["densest"], "noisy-degree prefix + EM (stand-in)"))
    raw = pd.read_csv(inputs["raw_fig_co_submodular"])
    for stream, algorithm in (
        ("mpls_stops", "private greedy + EM (Gupta et al. 2010 / Mitrovic et al. 2017), k-card."),
        ("mpls_stops_matroid", "private greedy + EM, partition matroid (1/2-approx.)"),
    ):
        if (raw.stream == stream).any():  # the matroid variant is optional (config fig_co_submodular.matroid)
            part = raw[raw.stream == stream]
            frames.append(_co.table_rows(part, cfg["submodular"], algorithm, "facility location", exact_only=False))
    raw = pd.read_csv(inputs["raw_fig_co_maxcut"])
    frames.append(_co.table_rows(raw, cfg["maxcut"], "exponential mechanism over all cuts", "Max-Cut"))
    raw = pd.read_csv(inputs["raw_fig_co_crossover"])
    for stream, algorithm in (
        ("primary_school_contacts", "noisy-degree prefix + EM (stand-in), one contact per step"),
        ("collegemsg_messages", "noisy-degree prefix + EM (stand-in), one message per step"),
        ("burst", "EM over node pairs (stand-in), synthetic burst stream"),
    ):
        if (raw.stream == stream).any():  # the streams are a config choice (fig_co_crossover.streams)
            frames.append(_co.table_rows(raw[raw.stream == stream], cfg["densest"], algorithm))
    return pd.concat(frames, ignore_index=True)
