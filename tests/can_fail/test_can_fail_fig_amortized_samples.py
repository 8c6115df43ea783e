"""fig_amortized_samples' check can fail: the amortized count above Lemma 22(2)'s 2M/T in every run is FAIL."""

import math

import pandas as pd


def _raw(above, runs) -> pd.DataFrame:
    """fig_amortized_samples' raw rows: one setting where the lemma applies, one where it does not (bound NaN)."""
    row = dict(eps_ratio=0.5, pstar=0.5, T=100, runs=runs, above=above, amortized_mean=30.0, bound=20.0)
    row |= dict(leading_term=10.0, per_step_bound=40.0)
    return pd.DataFrame([row, dict(row, T=16, bound=math.nan, above=0)])


def test_fail_every_run_above_the_amortized_bound(output_cfg, run_check, verdicts):
    frame = run_check("fig_amortized_samples", _raw(above=100, runs=100), output_cfg("fig_amortized_samples"))
    assert verdicts(frame, "amortized.") == {"amortized.GTM[r=0.5,p*=0.5,T=100]": "FAIL"}


def test_safe_no_run_above_the_amortized_bound(output_cfg, run_check, verdicts):
    cfg = output_cfg("fig_amortized_samples")
    assert cfg["beta"] / 2 >= 0.01  # 0/2000 then establishes Pr < beta/2 at 97.5%
    frame = run_check("fig_amortized_samples", _raw(above=0, runs=2000), cfg)
    assert verdicts(frame, "amortized.") == {"amortized.GTM[r=0.5,p*=0.5,T=100]": "PASS"}
