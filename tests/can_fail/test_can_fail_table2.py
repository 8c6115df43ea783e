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


def test_fail_from_co_raw_tables_below_the_guarantee(tmp_path, monkeypatch):
    """table2's rows built by its simulation from CO raw tables (densest subgraph and Max-Cut; no submodular or long
    stream rows) in which every run is below the guarantee at V_lo: every row FAILs; the same runs above it PASS."""
    cfg = section("table2")
    monkeypatch.setattr(table2, "simulate_approx", lambda *a: [])  # rows 1-4 need the data wheels: tested below

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


def approx_rows(ledger: float, budget: float, delta: float = 1e-6) -> pd.DataFrame:
    """Table 2 rows 1, 3 with a given realised delta ledger and worst case (no violating run)."""
    r = rows(0, 0)
    # opt_T: the largest OPT_t of each line (row 1's is what the analysis evaluates Table 2 row 2 against)
    return r.assign(table2_row=[1, 3], delta=delta, delta_ledger_max=ledger, delta_budget=budget, opt_T=1000.0)


def test_fail_delta_ledger_above_delta():
    got = decided(check, approx_rows(ledger=2e-6, budget=3e-6), section("table2"))
    led = {k: v for k, v in got.items() if k.startswith("co.table2.delta_ledger")}
    assert len(led) == 2 and set(v.verdict for v in led.values()) == {"FAIL"}
    got = decided(check, approx_rows(ledger=1e-8, budget=2e-6), section("table2"))  # worst case above delta
    assert {v.verdict for k, v in got.items() if k.startswith("co.table2.delta_ledger")} == {"FAIL"}


def test_safe_delta_ledger_within_delta():
    got = decided(check, approx_rows(ledger=1e-8, budget=5e-7), section("table2"))
    led = {k: v for k, v in got.items() if k.startswith("co.table2.delta_ledger")}
    assert len(led) == 2 and {v.verdict for v in led.values()} == {"PASS"}


def ry_row(ry_error: float, opt_T: float) -> pd.DataFrame:
    return pd.DataFrame(
        dict(
            application="Table 2 row 2",
            algorithm="not run",
            stream="s",
            eps=2.0,
            delta=1e-6,
            beta=0.05,
            kappa=0.5,
            table2_row=[2],
            eps_batch_max=1e-3,
            ry_error=ry_error,
            opt_T=opt_T,
            C_beta=1 / 3,
        )
    )


def test_fail_rafiey_yoshida_informative_row_not_hidden():
    got = decided(check, ry_row(ry_error=10.0, opt_T=1000.0), section("table2"))
    assert {c.verdict for c in got.values()} == {"FAIL"}


def test_safe_rafiey_yoshida_vacuous():
    got = decided(check, ry_row(ry_error=1e11, opt_T=3e4), section("table2"))
    assert {c.verdict for c in got.values()} == {"VACUOUS"}


def process_rows(violating: int, ratio: float, runs: int = 240) -> pd.DataFrame:
    """Rows 1, 3 with checkpoint and calls summaries (delta ledger within delta, no utility violation)."""
    r = approx_rows(ledger=1e-8, budget=5e-7)
    return r.assign(
        checkpoint_runs=runs,
        checkpoint_runs_violating=violating,
        ell_T_max=5,
        l39_margin_max=1.0 if violating else -1.0,
        calls_ratio_mean=ratio,
        calls_ratio_se=0.01,
        calls_runs=runs,
    )


def test_fail_checkpoints_and_calls():
    got = decided(check, process_rows(violating=240, ratio=2.0), section("table2"))
    for kind in ("co.table2.checkpoints", "co.table2.calls_per_step"):
        sel = {v.verdict for k, v in got.items() if k.startswith(kind)}
        assert sel == {"FAIL"}, kind


def test_safe_checkpoints_and_calls():
    got = decided(check, process_rows(violating=0, ratio=1.0), section("table2"))
    for kind in ("co.table2.checkpoints", "co.table2.calls_per_step"):
        sel = {v.verdict for k, v in got.items() if k.startswith(kind)}
        assert sel == {"PASS"}, kind
