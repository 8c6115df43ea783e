"""fig_error_rates' check can fail: a tester erring in every run (Monte Carlo) or above its budget exactly is FAIL."""

import math

import pandas as pd


def _raw(failures, runs, rate_exact) -> pd.DataFrame:
    """fig_error_rates' raw rows (one per tester, stream and beta): the GTM with an exact rate, Cohen without."""
    common = dict(beta=0.1, T=50, failures=failures, runs=runs, budget=0.1, p_last=0.5)
    return pd.DataFrame(
        [
            dict(common, method="GTM", stream="pbar_then_pstar", source="Thm 21", rate_exact=rate_exact),
            dict(common, method="Cohen", stream="never_pstar", source="Prop 48", rate_exact=math.nan),
        ]
    )


def test_fail_every_run_errs_and_exact_rate_twice_the_budget(output_cfg, run_check, verdicts):
    frame = run_check("fig_error_rates", _raw(400, 400, 0.2), output_cfg("fig_error_rates"))
    v = verdicts(frame, "error_rates.")
    assert set(v.values()) == {"FAIL"} and len(v) == 3, v


def test_safe_no_error_and_exact_rate_at_the_budget(output_cfg, run_check, verdicts):
    frame = run_check("fig_error_rates", _raw(0, 400, 0.1), output_cfg("fig_error_rates"))
    v = verdicts(frame, "error_rates.")
    assert "FAIL" not in v.values() and len(v) == 3, v
    assert v["error_rates.exact.GTM[beta=0.1,pbar_then_pstar,T=50]"] == "PASS"
