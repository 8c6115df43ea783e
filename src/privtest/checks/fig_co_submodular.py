"""Claims of fig_co_submodular: the continual-observation claims of :mod:`privtest.checks._co` (ids
``co.submodular.*``), for the k-cardinality and the partition-matroid streams."""

from __future__ import annotations

import pandas as pd

from privtest.checks import _co
from privtest.claims import Claim


def claims(raw: pd.DataFrame, cfg: dict) -> list[Claim]:
    """The continual-observation claims of :func:`privtest.checks._co.claims` with prefix ``co.submodular``."""
    return _co.claims(raw, cfg, "co.submodular")
