"""Table 2's six rows (Section 1.3 = Table 3 of Section 8.1) mapped to what this project measures or evaluates.

Each row names the paper's batch algorithm, its setting, the batch algorithm run here (a stand-in unless stated),
the stream (``stream`` column of ``figures/table2.csv``) and its privacy budget (``eps`` or ``eps,delta``). Rows 1,
3, 4 run in :mod:`privtest.experiments.table2` with delta > 0 (config ``table2.approx``); rows 5, 6 are the
eps-DP facility-location runs of ``fig_co_submodular``; row 2 is evaluated, not run (:func:`rafiey_yoshida_error`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from privtest import _validate


@dataclass(frozen=True)
class Table2Row:
    """One row of Table 2.

    Attributes:
        row: 1..6 (the paper's order). work: the cited batch work. setting: its setting as the paper states it.
        constraint: "k-card." or "k-matroid". privacy: "eps" or "eps,delta".
        algorithm: the batch algorithm this project runs (with "stand-in" where it is not the cited one).
        stream: the ``stream`` value of its lines in figures/table2.csv ("" for an evaluated row).
        status: "measured" (BatchToCO runs) or "evaluated" (the batch bound evaluated at the stream's parameters).
    """

    row: int
    work: str
    setting: str
    constraint: str
    privacy: str
    algorithm: str
    stream: str
    status: str


ROWS = {
    1: Table2Row(
        1,
        "Mitrovic et al. (2017)",
        "monotone",
        "k-card.",
        "eps,delta",
        "private greedy + EM, per-round eps by advanced or basic composition (Mitrovic et al.'s accounting; "
        "facility-location stand-in objective)",
        "mpls_stops_approx",
        "measured",
    ),
    2: Table2Row(
        2,
        "Rafiey and Yoshida (2020)",
        "monotone",
        "k-card.",
        "eps,delta",
        "not run: additive error k^7 m ln m / eps^3 evaluated at eps_batch (Theorem 42)",
        "",
        "evaluated",
    ),
    3: Table2Row(
        3,
        "Chaturvedi et al. (2021)",
        "decomposable non-monotone",
        "k-card.",
        "eps,delta",
        "private random greedy with dummies on the cut objective (stand-in)",
        "collegemsg_cut",
        "measured",
    ),
    4: Table2Row(
        4,
        "Chaturvedi et al. (2021)",
        "decomposable non-monotone",
        "k-matroid",
        "eps,delta",
        "private random greedy with dummies, partition matroid, cut objective (stand-in)",
        "collegemsg_cut_matroid",
        "measured",
    ),
    5: Table2Row(
        5,
        "Ghazi et al. (2024)",
        "decomposable monotone",
        "k-card.",
        "eps",
        "private greedy + EM (Gupta et al. 2010), eps-DP: a stand-in, not Ghazi et al.'s algorithm",
        "mpls_stops",
        "measured",
    ),
    6: Table2Row(
        6,
        "Ghazi et al. (2024)",
        "decomposable monotone",
        "k-matroid",
        "eps",
        "private greedy + EM, partition matroid, eps-DP: a stand-in, not Ghazi et al.'s algorithm",
        "mpls_stops_matroid",
        "measured",
    ),
}


def row_of_stream(stream: str) -> int | None:
    """The Table 2 row whose lines have this ``stream`` (None for the other CO applications)."""
    for r in ROWS.values():
        if r.stream and r.stream == stream:
            return r.row
    return None


def rafiey_yoshida_error(k: int, m: int, eps: float) -> float:
    """Rafiey and Yoshida (2020)'s additive error k^7 m ln m / eps^3 (Table 2 row 2) with the O~'s constants and
    polylogarithmic factors set to 1, so a lower estimate of the bound: if even it exceeds OPT, the row's batch
    guarantee (1 - 1/e) OPT - E_A, hence Theorem 42's, is negative (VACUOUS).

    Args:
        k: cardinality >= 1. m: universe size >= 2. eps: the batch eps > 0 (BatchToCO's eps_batch(t)).

    Raises:
        ValueError: naming k, m or eps when out of range.
    """
    k = _validate.integer("k", k, 1)
    m = _validate.integer("m", m, 2)
    _validate.positive("eps", eps)
    return k**7 * m * math.log(m) / eps**3
