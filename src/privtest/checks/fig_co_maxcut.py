"""Claims of fig_co_maxcut: the continual-observation claims of :mod:`privtest.checks._co` (ids ``co.maxcut.*``)."""

from __future__ import annotations

import pandas as pd

from privtest.checks import _co
from privtest.claims import Claim


def claims(raw: pd.DataFrame, cfg: dict) -> list[Claim]:
    """The continual-observation claims of :func:`privtest.checks._co.claims` with prefix ``co.maxcut``."""
    return _co.claims(raw, cfg, "co.maxcut")
