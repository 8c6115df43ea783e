"""Can-fail tests of table2's check: Theorem 42(2) allows a run below its guarantee with probability (C_beta + 3)
beta; synthetic table2 rows (the table ``rows`` of :func:`privtest_artifact.outputs.table2.analyse`, or the raw tables
the analysis reads: its own simulation's lines and run rows, and the CO outputs' raw tables it summarises) in which
every run falls below the guarantee at V_lo make the row FAIL, rows with no violating run establish it."""

import numpy as np
import pandas as pd

from privtest_artifact.outputs import table2
from privtest_artifact.outputs import table2 as check
from privtest_artifact.outputs.table2 import analyse

from .co_synth import bco_runs, decided, section

#: The outputs whose raw tables table2's analysis reads (catalogue reads).
READS = ("fig_co_densest", "fig_co_maxcut", "fig_co_submodular", "fig_co_crossover")


def co_raw(tmp_path=None, **kw) -> dict[str, pd.DataFrame]:
    """The CO raw tables table2's analysis reads: BatchToCO runs (:func:`bco_runs` with ``kw``) of densest subgraph
    and Max-Cut, and fig_co_submodular and fig_co_crossover tables with no stream of theirs (no submodular or long
    stream line); written and read back like results/raw/<id>.csv when ``tmp_path`` is given."""
    out = {}
    for name in READS:
        raw = bco_runs(**kw).assign(source="run")
        if name in ("fig_co_submodular", "fig_co_crossover"):
            raw["stream"] = "not a stream of this output"
        out[name] = _read_back(raw, tmp_path / f"{name}.csv") if tmp_path else raw
    return out


def _read_back(frame: pd.DataFrame, path) -> pd.DataFrame:
    frame.to_csv(path, index=False)
    return pd.read_csv(path)


def rows(runs_violating: int, runs_violating_va_lo: int, runs: int = 24, guarantee_va_hi_max: float = 10.0):
    """One line of the table ``rows`` per application with the given run-level counts (at V_hi and at V_lo)."""
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
    got = decided(check, None, section("table2"), {"rows": rows(24, 24)})
    assert {c.verdict for c in got.values()} == {"FAIL"}


def test_fail_from_co_raw_tables_below_the_guarantee(tmp_path):
    """table2's rows summarised by its analysis from the CO raw tables it reads (densest subgraph and Max-Cut; no
    submodular or long stream rows), beside no line of its own simulation (rows 1, 3, 4 need the data wheels), in
    which every run is below the guarantee at V_lo: every row FAILs; the same runs above it PASS."""
    cfg = section("table2")
    own = {"table2": pd.DataFrame(columns=["level"])}
    bad = own | co_raw(tmp_path, below=True)
    lines, runs = table2.summarised_lines(bad, cfg)
    assert len(lines) == 2 and sum(map(len, runs)) == 2 * 24  # one run row per BatchToCO run of each line
    rows = analyse(bad, cfg)["rows"]
    assert len(rows) == 2 and (rows.runs_violating_va_lo == 24).all()
    assert {c.verdict for c in decided(check, bad, cfg).values()} == {"FAIL"}
    good = own | co_raw(tmp_path)
    assert (analyse(good, cfg)["rows"].runs_violating == 0).all()
    assert {c.verdict for c in decided(check, good, cfg).values()} == {"PASS"}


def test_safe_no_violating_run_passes_and_a_bracket_does_not_refute():
    got = decided(check, None, section("table2"), {"rows": rows(0, 0)})
    assert {c.verdict for c in got.values()} == {"PASS"}
    # below at V_hi in every run but never at V_lo: V_A's bracket cannot refute (INCONCLUSIVE, not FAIL)
    got = decided(check, None, section("table2"), {"rows": rows(24, 0)})
    assert {c.verdict for c in got.values()} == {"INCONCLUSIVE"}
    # too few runs to establish the rate: INCONCLUSIVE with the runs that would resolve it
    got = decided(check, None, section("table2"), {"rows": rows(0, 0, runs=4)})
    assert {c.verdict for c in got.values()} == {"INCONCLUSIVE"}
    assert all("runs would resolve" in c.note for c in got.values())
    # a guarantee never positive: VACUOUS
    got = decided(check, None, section("table2"), {"rows": rows(0, 0, guarantee_va_hi_max=np.nan)})
    assert {c.verdict for c in got.values()} == {"VACUOUS"}


def approx_rows(ledger: float, budget: float, delta: float = 1e-6) -> pd.DataFrame:
    """Table 2 rows 1, 3 with a given realised delta ledger and worst case (no violating run)."""
    r = rows(0, 0)
    # opt_T: the largest OPT_t of each line (row 1's is what the analysis evaluates Table 2 row 2 against)
    return r.assign(
        table2_row=[1, 3], delta=delta, delta_ledger_max=ledger, delta_budget=budget, phi_max=1e-11, opt_T=1000.0
    )


def test_fail_delta_ledger_above_delta():
    got = decided(check, None, section("table2"), {"rows": approx_rows(ledger=2e-6, budget=3e-6)})
    led = {k: v for k, v in got.items() if k.startswith("co.table2.delta_ledger")}
    assert len(led) == 2 and set(v.verdict for v in led.values()) == {"FAIL"}
    got = decided(
        check, None, section("table2"), {"rows": approx_rows(ledger=1e-8, budget=2e-6)}
    )  # worst case above delta
    assert {v.verdict for k, v in got.items() if k.startswith("co.table2.delta_ledger")} == {"FAIL"}


def test_safe_delta_ledger_within_delta():
    got = decided(check, None, section("table2"), {"rows": approx_rows(ledger=1e-8, budget=5e-7)})
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
    got = decided(check, None, section("table2"), {"rows": ry_row(ry_error=10.0, opt_T=1000.0)})
    assert {c.verdict for c in got.values()} == {"FAIL"}


def test_safe_rafiey_yoshida_vacuous():
    got = decided(check, None, section("table2"), {"rows": ry_row(ry_error=1e11, opt_T=3e4)})
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
    got = decided(check, None, section("table2"), {"rows": process_rows(violating=240, ratio=2.0)})
    for kind in ("co.table2.checkpoints", "co.table2.calls_per_step"):
        sel = {v.verdict for k, v in got.items() if k.startswith(kind)}
        assert sel == {"FAIL"}, kind


def test_safe_checkpoints_and_calls():
    got = decided(check, None, section("table2"), {"rows": process_rows(violating=0, ratio=1.0)})
    for kind in ("co.table2.checkpoints", "co.table2.calls_per_step"):
        sel = {v.verdict for k, v in got.items() if k.startswith(kind)}
        assert sel == {"PASS"}, kind


def raw_with_runs(l39_margin: float, delta_loss: float, runs: int = 240, calls_ratio=1.0) -> dict[str, pd.DataFrame]:
    """The raw tables table2's analysis reads: its own (:func:`privtest_artifact.outputs.table2.simulate`'s schema)
    with one line of Table 2 row 3 and its ``runs`` run rows, every run with the given Lemma 39(2) margin, delta ledger
    and calls ratio sum N / sum E[N] (a float or one per run; f above the guarantee), and the CO outputs' tables
    (:func:`co_raw`, no violation)."""
    row3 = dict(application="Table 2 row 3", stream=table2.ROWS[3].stream)  # the analysis numbers lines by stream
    line = process_rows(violating=0, ratio=1.0, runs=runs).iloc[[1]].assign(**row3)
    line = line.drop(columns=["runs_violating", "runs_violating_va_lo", "delta_ledger_max"])
    line = line.drop(columns=["checkpoint_runs", "checkpoint_runs_violating", "ell_T_max", "l39_margin_max"])
    line = line.drop(columns=["calls_ratio_mean", "calls_ratio_se", "calls_runs"])
    run = pd.DataFrame(
        dict(row3, eps=2.0, run=np.arange(runs), ell=5.0)
        | dict(utility_margin_va_hi=-1.0, utility_margin_va_lo=-2.0, l39_margin=l39_margin, delta_loss=delta_loss)
        | dict(calls_ratio=calls_ratio)
    )
    own = pd.concat([line.assign(level="line", runs=runs), run.assign(level="run")], ignore_index=True)
    return {"table2": own} | co_raw()


def test_fail_from_run_rows_violating_lemma40_and_the_ledger():
    got = decided(check, raw_with_runs(l39_margin=0.5, delta_loss=2e-6), section("table2"))
    assert {v.verdict for k, v in got.items() if k.startswith("co.table2.checkpoints")} == {"FAIL"}
    assert {v.verdict for k, v in got.items() if k.startswith("co.table2.delta_ledger")} == {"FAIL"}


def test_fail_from_run_rows_calling_the_gtm_twice_as_often_as_expected():
    ratios = 2.0 + 0.05 * np.random.default_rng(0).standard_normal(240)
    got = decided(check, raw_with_runs(l39_margin=-0.5, delta_loss=1e-8, calls_ratio=ratios), section("table2"))
    assert {v.verdict for k, v in got.items() if k.startswith("co.table2.calls_per_step")} == {"FAIL"}


def test_safe_from_run_rows_within_lemma40_and_the_ledger():
    ratios = 1.0 + 0.05 * np.random.default_rng(0).standard_normal(240)
    got = decided(check, raw_with_runs(l39_margin=-0.5, delta_loss=1e-8, calls_ratio=ratios), section("table2"))
    assert "FAIL" not in {c.verdict for c in got.values()}
    assert {v.verdict for k, v in got.items() if k.startswith("co.table2.checkpoints")} == {"PASS"}
    assert {v.verdict for k, v in got.items() if k.startswith("co.table2.calls_per_step")} == {"PASS"}
