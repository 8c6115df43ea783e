"""fig_random_dropping's check can fail: Cohen et al. never erring (below Corollary 51's lower bound, never above beta)
and the GTM erring in every run at its own pbar_T are FAIL."""

import math

import pandas as pd


def _raw(cohen_events, gtm_events, runs=2000) -> pd.DataFrame:
    """fig_random_dropping's raw rows at two T: Cohen (finite lower bound) and the GTM (bound NaN)."""
    rows = []
    for T in (100, 1000):
        cohen = dict(method="Cohen", T=T, source="Cor 51", event="false halt", bound=0.3, events=cohen_events)
        gtm = dict(method="GTM", T=T, source="Thm 21", event="false halt", bound=math.nan, events=gtm_events)
        for r in (cohen, gtm):
            r |= dict(runs=runs, rate=r["events"] / runs, ci_low=0.0, ci_high=1.0, pbar_max=1e-4)
            r["events_at_pbar_max"] = r["events"]
        rows += [cohen, gtm]
    return pd.DataFrame(rows)


def test_fail_lower_bounds_violated_and_gtm_errs_in_every_run(output_cfg, run_check, verdicts):
    frame = run_check("fig_random_dropping", _raw(cohen_events=0, gtm_events=2000), output_cfg("fig_random_dropping"))
    v = verdicts(frame, "random_dropping.")
    assert set(v.values()) == {"FAIL"} and len(v) == 4, v  # Cohen_lower at both T, exceeds_beta, GTM below_beta


def test_safe_lower_bounds_met_and_gtm_never_errs(output_cfg, run_check, verdicts):
    cfg = output_cfg("fig_random_dropping")
    frame = run_check("fig_random_dropping", _raw(cohen_events=1000, gtm_events=0), cfg)
    v = verdicts(frame, "random_dropping.")
    assert set(v.values()) == {"PASS"} and len(v) == 4, v
