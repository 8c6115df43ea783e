"""Can-fail tests of table2's check (issue 19): Theorem 42(2) allows a run below its guarantee with probability
(C_beta + 3) beta; synthetic table2 rows (the raw schema of :func:`privtest.experiments.table2.simulate`) in which
every run falls below the guarantee at V_lo make the row FAIL, rows with no violating run establish it."""

import numpy as np
import pandas as pd

from privtest.checks import table2 as check
from privtest.experiments import table2

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


def test_fail_from_co_raw_tables_below_the_guarantee(tmp_path):
    """table2's rows built by its simulation from CO raw tables (densest subgraph and Max-Cut; no submodular or long
    stream rows) in which every run is below the guarantee at V_lo: every row FAILs; the same runs above it PASS."""
    cfg = section("table2")

    def table(**kw):
        inputs = {}
        for name in ("fig_co_densest", "fig_co_maxcut", "fig_co_submodular", "fig_co_crossover"):
            raw = bco_runs(**kw).assign(source="run")
            if name in ("fig_co_submodular", "fig_co_crossover"):
                raw["stream"] = "not a stream of this output"
            raw.to_csv(tmp_path / f"{name}.csv", index=False)
            inputs[f"raw_{name}"] = str(tmp_path / f"{name}.csv")
        return pd.read_csv(_csv(table2.simulate(cfg, np.random.default_rng(0), inputs), tmp_path))

    bad = table(below=True)
    assert len(bad) == 2 and (bad.runs_violating_va_lo == 24).all()
    assert {c.verdict for c in decided(check, bad, cfg).values()} == {"FAIL"}
    good = table()
    assert (good.runs_violating == 0).all()
    assert {c.verdict for c in decided(check, good, cfg).values()} == {"PASS"}


def _csv(frame: pd.DataFrame, tmp_path) -> str:
    """Written and read back like results/raw/table2.csv."""
    path = tmp_path / "table2.csv"
    frame.to_csv(path, index=False)
    return str(path)


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
