"""fig_rejection_threshold's check can fail: a tester that halts in every run at its own pbar_T is FAIL."""

import pandas as pd


def _raw(halts, runs=500) -> pd.DataFrame:
    """fig_rejection_threshold's raw rows: a theory curve point (not checked) and one measured point per tester (its
    measured pbar with the upper end of its interval)."""
    m = dict(kind="measured", pstar=0.5, runs=runs, budget=0.05, pbar_theory=0.01, pbar=0.02, halts_at_theory=halts)
    m |= dict(pbar_upper=0.025)
    theory = dict(kind="theory", curve="GTM direct", method="GTM", pstar=0.5, pbar=0.01)
    return pd.DataFrame([theory, dict(m, method="GTM", curve="GTM"), dict(m, method="Cohen", curve="Cohen")])


def test_fail_every_run_halts_at_pbar(output_cfg, run_check, verdicts):
    frame = run_check("fig_rejection_threshold", _raw(halts=500), output_cfg("fig_rejection_threshold"))
    v = verdicts(frame, "rejection_threshold.")
    assert set(v.values()) == {"FAIL"} and len(v) == 2, v


def test_safe_no_run_halts_at_pbar(output_cfg, run_check, verdicts):
    frame = run_check("fig_rejection_threshold", _raw(halts=0), output_cfg("fig_rejection_threshold"))
    v = verdicts(frame, "rejection_threshold.")
    assert set(v.values()) == {"PASS"} and len(v) == 2, v  # 0.95^500: established
