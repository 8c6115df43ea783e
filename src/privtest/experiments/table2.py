"""table2: the paper's Table 2 (Theorem 42 applied to batch DP submodular maximisation) rendered from
:mod:`privtest.co.tables`, and its numeric instantiation: for each implemented batch algorithm and stream the
measured f(X_t, Y_t)/OPT_t of BatchToCO (median, worst), the additive gap, and Theorem 42's explicit guarantee.

The rows come from the CO experiments' raw tables (``cfg["inputs"]``); no new simulation runs here.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.claims import Claim
from privtest.experiments import fig_co_densest


def simulate(cfg: dict, rng: np.random.Generator) -> pd.DataFrame:
    del rng  # summary of other experiments' raw results
    frames = []
    if "raw_fig_co_densest" in cfg["inputs"]:
        raw = pd.read_csv(cfg["inputs"]["raw_fig_co_densest"])
        frames.append(fig_co_densest.table_rows(raw, cfg["densest"], "noisy-degree prefix + EM (stand-in)"))
    if "raw_fig_co_submodular" in cfg["inputs"]:
        raw = pd.read_csv(cfg["inputs"]["raw_fig_co_submodular"])
        frames.append(
            fig_co_densest.table_rows(
                raw,
                cfg["submodular"],
                "private greedy + EM (Gupta et al. 2010 / Mitrovic et al. 2017), k-card.",
                "facility location",
                exact_only=False,
            )
        )
    if "raw_fig_co_maxcut" in cfg["inputs"]:
        raw = pd.read_csv(cfg["inputs"]["raw_fig_co_maxcut"])
        frames.append(fig_co_densest.table_rows(raw, cfg["maxcut"], "exponential mechanism over all cuts", "Max-Cut"))
    return pd.concat(frames, ignore_index=True)


def claims(raw: pd.DataFrame, cfg: dict) -> list[Claim]:
    """Table 2's claims are checked by the experiments it summarises; nothing new here."""
    return []
