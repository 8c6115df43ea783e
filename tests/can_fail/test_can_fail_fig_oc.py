"""fig_oc's check can fail: an exact per-step error probability above its Theorem 21 budget is FAIL."""

import pandas as pd
import pytest

from privtest.schedule import beta_t


def _raw(cfg, miss_good, halt_at_pstar, halt_at_pbar) -> pd.DataFrame:
    """One curve (t = 1) in fig_oc's raw schema: rows at p = p* and p = pbar with the given exact probabilities."""
    bt = float(beta_t(1, cfg["beta"]))
    common = dict(t=1, eps_ratio=0.5, pstar=0.5, variant="direct", pbar=0.1, runs=1000, good_runs=900)
    rows = [
        dict(common, p=0.5, miss_good_exact=miss_good, beta_II=bt / 4, halt_prob_exact=halt_at_pstar, halts=990,
             good_halts=895),
        dict(common, p=0.1, miss_good_exact=0.0, beta_II=bt / 4, halt_prob_exact=halt_at_pbar, halts=5,
             good_halts=5),
    ]  # fmt: skip
    return pd.DataFrame(rows)


@pytest.fixture(scope="module")
def cfg(output_cfg):
    return output_cfg("fig_oc")


def test_fail_per_step_errors_twice_their_budgets(cfg, run_check, verdicts):
    bt = float(beta_t(1, cfg["beta"]))
    raw = _raw(cfg, miss_good=2 * bt / 4, halt_at_pstar=1 - 2 * (cfg["beta"] / 4 + bt / 4), halt_at_pbar=bt)
    v = verdicts(run_check("fig_oc", raw, cfg), "oc.")
    assert set(v.values()) == {"FAIL"}, v
    assert len(v) == 3


def test_safe_per_step_errors_at_their_budgets(cfg, run_check, verdicts):
    bt = float(beta_t(1, cfg["beta"]))
    raw = _raw(cfg, miss_good=bt / 4, halt_at_pstar=1 - (cfg["beta"] / 4 + bt / 4), halt_at_pbar=bt / 2)
    v = verdicts(run_check("fig_oc", raw, cfg), "oc.")
    assert "FAIL" not in v.values() and len(v) == 3, v
