"""Claims of fig_co_submodular: the continual-observation claims of :mod:`privtest.checks._co` (ids
``co.submodular.*``), for the k-cardinality and the partition-matroid streams."""

from __future__ import annotations

import pandas as pd

from privtest.checks import _co
from privtest.claims import Claim


def claims(raw: pd.DataFrame, cfg: dict, analysis: dict[str, pd.DataFrame] | None = None) -> list[Claim]:
    """The continual-observation claims of :func:`privtest.checks._co.claims` with prefix ``co.submodular``, on the
    tables of :func:`privtest.analysis.fig_co_submodular.analyse` (None computes the ones they read,
    :func:`privtest.analysis._co.tables`, from ``raw`` and ``cfg``)."""
    return _co.claims(raw, cfg, "co.submodular", analysis)
