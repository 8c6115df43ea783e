"""fig_purification's check can fail: a purified pair above eps_1 and Corollary 25's exact errors above their
budgets are FAIL."""

import pandas as pd

from privtest.schedule import beta_t


def _raw(cfg, log_ratio, miss_good, halt_continue) -> pd.DataFrame:
    """fig_purification's raw rows: a smoothing row (kind "smoothing", not checked) and one GTM step per delta (kind
    "gtm") at p_halt = p* + phi and p_continue = pbar - phi."""
    smooth = dict(kind="smoothing", delta=1e-6, phi=0.05, p=0.05, p_tilde=0.095, plus=95, n=1000)
    g = dict(kind="gtm", t=1, delta=1e-6, worst_log_ratio=log_ratio, miss_good_exact=miss_good, runs=2000)
    g |= dict(beta_II=float(beta_t(1, cfg["beta"])) / 4, good_runs_at_halt=1800, good_halts_at_halt=1799)
    g |= dict(halt_continue_exact=halt_continue, halts_at_continue=2, p_halt=0.55, p_continue=0.05)
    g |= dict(pstar=0.5, pbar=0.1, phi=0.05, halts_at_halt=1999)
    return pd.DataFrame([smooth, g])


def test_fail_pure_dp_violated_and_exact_errors_twice_their_budgets(output_cfg, run_check, verdicts):
    cfg = output_cfg("fig_purification")
    eps1, bt = cfg["eps_ratio"] * cfg["eps"], float(beta_t(1, cfg["beta"]))
    v = verdicts(run_check("fig_purification", _raw(cfg, 2 * eps1, 2 * bt / 4, bt), cfg), "purification.")
    assert set(v.values()) == {"FAIL"} and len(v) == 3, v


def test_safe_pure_dp_and_exact_errors_at_their_budgets(output_cfg, run_check, verdicts):
    cfg = output_cfg("fig_purification")
    eps1, bt = cfg["eps_ratio"] * cfg["eps"], float(beta_t(1, cfg["beta"]))
    v = verdicts(run_check("fig_purification", _raw(cfg, eps1, bt / 4, bt / 2), cfg), "purification.")
    assert set(v.values()) == {"PASS"} and len(v) == 3, v
