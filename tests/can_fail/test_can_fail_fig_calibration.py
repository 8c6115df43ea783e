"""fig_calibration's check can fail: exact single-step and whole-run errors twice their budgets, and exact tails that
need more evaluations than the paper's calibration, are FAIL."""

import pandas as pd

from privtest_artifact.outputs.fig_calibration import with_budgets


def _raw(factor, exact_tails_samples, beta=0.05) -> pd.DataFrame:
    """fig_calibration's raw rows: per-step errors (error = factor * budget, the budget of the proof that the analysis
    of privtest_artifact.outputs.fig_calibration gives each row) of the paper's and the exact-tail calibrations, a
    certified row (not checked per step) and one whole-run row per calibration."""
    step = dict(eps_ratio=0.1, pstar=0.5, t=1, error_exact=0.0, budget_scale=1.0)
    rows = []
    for calibration, samples in (("paper", 100.0), ("exact tails", exact_tails_samples), ("certified", 90.0)):
        for error_type in ("II at p*", "II at p* given eta_1 <= mu1", "I at pbar"):
            rows.append(dict(step, calibration=calibration, error_type=error_type, samples_mean=samples))
        rows.append(dict(step, calibration=calibration, error_type="whole run", t=100, samples_mean=samples))
    raw = pd.DataFrame(rows)
    return raw.assign(error_exact=factor * with_budgets(raw, beta).budget)


def test_fail_errors_twice_their_budgets_and_more_samples(output_cfg, run_check, verdicts):
    cfg = output_cfg("fig_calibration")
    frame = run_check("fig_calibration", _raw(2.0, exact_tails_samples=200.0, beta=cfg["beta"]), cfg)
    v = verdicts(frame, "calibration.")
    assert set(v.values()) == {"FAIL"} and len(v) == 6 + 3 + 1, v  # 2 x 3 per step, 3 whole runs, samples


def test_safe_errors_at_their_budgets_and_fewer_samples(output_cfg, run_check, verdicts):
    cfg = output_cfg("fig_calibration")
    frame = run_check("fig_calibration", _raw(1.0, exact_tails_samples=80.0, beta=cfg["beta"]), cfg)
    v = verdicts(frame, "calibration.")
    assert set(v.values()) == {"PASS"} and len(v) == 10, v
