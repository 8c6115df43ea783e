"""Can-fail tests of fig_co_checkpoints' check (issue 19): synthetic rows in its raw schema whose exact E[N_t] exceed
Theorem 42(3)'s explicit per-step bound make the claim FAIL; rows below it PASS."""

import numpy as np
import pandas as pd

from privtest.checks import fig_co_checkpoints as check

from .co_synth import decided, section


def raw(expected_over_bound: float) -> pd.DataFrame:
    """Two streams x two eps, t = 1..6: calls_bound 1000 (NaN at t = 1), E[N_t] = expected_over_bound x bound."""
    t = np.arange(1, 7)
    parts = []
    for stream in ("a", "b"):
        for eps in (2.0, 50.0):
            bound = np.where(t >= 2, 1000.0, np.nan)
            expected = expected_over_bound * bound
            cols = dict(calls_mean=expected, calls_expected=expected, calls_bound=bound)
            parts.append(
                pd.DataFrame(dict(stream=stream, eps=eps, t=t, runs=4, ell_mean=t, ell_max=t, ell_bound=31, **cols))
            )
    return pd.concat(parts, ignore_index=True)


def test_fail_expected_calls_twice_the_bound():
    got = decided(check, raw(2.0), section("fig_co_checkpoints"))
    assert len(got) == 4 and {c.verdict for c in got.values()} == {"FAIL"}


def test_fail_one_step_over_the_bound():
    f = raw(0.9)
    f.loc[(f.stream == "a") & (f.eps == 2.0) & (f.t == 5), "calls_expected"] = 1001.0
    got = decided(check, f, section("fig_co_checkpoints"))
    assert got["co.calls_vs_bound[a,eps=2.0]"].verdict == "FAIL"
    assert [c.verdict for k, c in got.items() if k != "co.calls_vs_bound[a,eps=2.0]"] == ["PASS"] * 3


def test_safe_expected_calls_at_the_bound_pass():
    got = decided(check, raw(1.0), section("fig_co_checkpoints"))
    assert {c.verdict for c in got.values()} == {"PASS"}
