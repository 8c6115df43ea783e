"""Can-fail tests of table2's check (issue 19): Theorem 42(2) allows a run below its guarantee with probability
(C_beta + 3) beta; synthetic table2 rows (the raw schema of :func:`privtest.experiments.table2.simulate`) in which
every run falls below the guarantee at V_lo make the row FAIL, rows with no violating run establish it."""

import numpy as np
import pandas as pd

from privtest.checks import table2 as check
from privtest.experiments.table2 import run_counts

from .co_synth import bco_runs, decided, section


def rows(runs_violating: int, runs_violating_va_lo: int, runs: int = 24, guarantee_va_hi_max: float = 10.0):
    """One table2 row per application with the given run-level counts (at V_hi and at V_lo)."""
    return pd.DataFrame(
        dict(
            application=["densest subgraph", "Max-Cut"],
            algorithm="synthetic",
            stream="s",
            eps=2.0,
            beta=0.05,
            C_beta=1 / 3,
            kappa=0.5,
            runs=runs,
            T=8,
            guarantee_max=20.0,
            guarantee_va_hi_max=guarantee_va_hi_max,
            violations=7 * runs_violating,
            runs_violating=runs_violating,
            runs_violating_va_lo=runs_violating_va_lo,
        )
    )


def test_fail_guarantee_violated_in_every_run():
    got = decided(check, rows(24, 24), section("table2"))
    assert {c.verdict for c in got.values()} == {"FAIL"}


def test_fail_counts_from_runs_below_the_guarantee():
    """The counts the check reads come from the CO raw rows: every run below the guarantee at V_lo -> FAIL."""
    counts = run_counts(bco_runs(below=True))
    assert counts[["runs_violating", "runs_violating_va_lo"]].to_numpy().tolist() == [[24, 24]]
    safe = run_counts(bco_runs())
    assert safe[["runs_violating", "runs_violating_va_lo"]].to_numpy().tolist() == [[0, 0]]


def test_safe_no_violating_run_passes_and_a_bracket_does_not_refute():
    got = decided(check, rows(0, 0), section("table2"))
    assert {c.verdict for c in got.values()} == {"PASS"}
    # below at V_hi in every run but never at V_lo: V_A's bracket cannot refute (INCONCLUSIVE, not FAIL)
    got = decided(check, rows(24, 0), section("table2"))
    assert {c.verdict for c in got.values()} == {"INCONCLUSIVE"}
    # too few runs to establish the rate: INCONCLUSIVE with the runs that would resolve it
    got = decided(check, rows(0, 0, runs=4), section("table2"))
    assert {c.verdict for c in got.values()} == {"INCONCLUSIVE"}
    assert all("runs would resolve" in c.note for c in got.values())
    # a guarantee never positive: VACUOUS
    got = decided(check, rows(0, 0, guarantee_va_hi_max=np.nan), section("table2"))
    assert {c.verdict for c in got.values()} == {"VACUOUS"}
