"""fig_expost's check can fail: Theorem 23's exact per-step errors above their budgets are FAIL."""

import pandas as pd

from privtest.schedule import beta_t


def _raw(cfg, miss_good, halt_pbar) -> pd.DataFrame:
    """fig_expost's raw rows: a curve row (kind "curve", not checked) and one Monte Carlo step (kind "mc"), with the
    columns the analysis's tables carry beside the checked ones (pbar_expost, halts_pstar, halt_loss)."""
    mc = dict(kind="mc", t=1, eps_ratio=0.5, runs=2000, halts_pbar=3, good_runs_pstar=1800, good_halts_pstar=1799)
    mc |= dict(pbar_expost=0.1, halts_pstar=1999, halt_loss=1.0)
    mc |= dict(miss_good_exact=miss_good, beta_II=float(beta_t(1, cfg["beta"])) / 6, halt_pbar_exact=halt_pbar)
    return pd.DataFrame([dict(mc, kind="curve"), mc])


def test_fail_exact_errors_twice_their_budgets(output_cfg, run_check, verdicts):
    cfg = output_cfg("fig_expost")
    bt = float(beta_t(1, cfg["beta"]))
    v = verdicts(run_check("fig_expost", _raw(cfg, 2 * bt / 6, 2 * (bt / 4 + bt / 6)), cfg), "expost.")
    assert v == {"expost.halt_at_pstar[t=1,r=0.5]": "FAIL", "expost.continue_at_pbar[t=1,r=0.5]": "FAIL"}


def test_safe_exact_errors_within_their_budgets(output_cfg, run_check, verdicts):
    cfg = output_cfg("fig_expost")
    bt = float(beta_t(1, cfg["beta"]))
    v = verdicts(run_check("fig_expost", _raw(cfg, 0.99 * bt / 6, 0.99 * (bt / 4 + bt / 6)), cfg), "expost.")
    assert set(v.values()) == {"PASS"} and len(v) == 2, v
