"""fig_noise_penalty's check can fail: a tester's noise penalty a factor 10 below Corollary 30's Lambda_0 is FAIL."""

import math

import pandas as pd

from privtest import bounds


def _raw(cfg, offset) -> pd.DataFrame:
    """fig_noise_penalty's raw rows for one Corollary-30 curve (log10_gap = log10 Lambda_0 + offset at each t) and a
    curve Corollary 30 does not constrain (cor30 False: not checked); the plotted penalty log10_Lambda is the gap (no
    extra factor)."""
    eps, beta, r = cfg["eps"], cfg["beta"], cfg["eps_ratio"]
    rows = []
    for t in (1, 2, 100, 10000):
        lb = bounds.lower_bound_log_noise_penalty(t, eps, r * eps, beta, 0.0) / math.log(10.0)
        rows.append(dict(curve="GTM", method="GTM", theta=1.0, cor30=True, t=t, delta=0.0, log10_gap=lb + offset))
        rows.append(dict(curve="ex-post", method="GTM", theta=1.0, cor30=False, t=t, delta=0.0, log10_gap=lb - 5.0))
    return pd.DataFrame(rows).assign(log10_Lambda=lambda d: d.log10_gap)


def test_fail_penalty_below_the_lower_bound(output_cfg, run_check, verdicts):
    cfg = output_cfg("fig_noise_penalty")
    frame = run_check("fig_noise_penalty", _raw(cfg, offset=-1.0), cfg)
    assert verdicts(frame, "noise_penalty.above_lower_bound") == {"noise_penalty.above_lower_bound[GTM]": "FAIL"}


def test_safe_penalty_at_the_lower_bound(output_cfg, run_check, verdicts):
    cfg = output_cfg("fig_noise_penalty")
    frame = run_check("fig_noise_penalty", _raw(cfg, offset=0.0), cfg)
    assert verdicts(frame, "noise_penalty.above_lower_bound") == {"noise_penalty.above_lower_bound[GTM]": "PASS"}
