"""Can-fail tests of fig_co_checkpoints' check: synthetic rows in its raw schema whose exact E[N_t] exceed
Theorem 42(3)'s explicit per-step bound (evaluated by privtest_artifact.outputs.fig_co_checkpoints) make the claim FAIL; rows
below it PASS."""

import numpy as np
import pandas as pd

from privtest_artifact.outputs import fig_co_checkpoints as check
from privtest_artifact.outputs.fig_co_checkpoints import with_bounds

from .co_synth import decided, section


def raw(expected_over_bound: float) -> pd.DataFrame:
    """Two streams x two eps, t = 1..6: E[N_t] = expected_over_bound x Theorem 42(3)'s bound (NaN at t = 1)."""
    t = np.arange(1, 7)
    parts = []
    for stream in ("a", "b"):
        for eps in (2.0, 50.0):
            parts.append(pd.DataFrame(dict(stream=stream, eps=eps, t=t, runs=4, ell_mean=t, ell_max=t, opt=10.0 * t)))
    frame = pd.concat(parts, ignore_index=True)
    bound = with_bounds(frame.assign(calls_mean=0.0, calls_expected=0.0), section("fig_co_checkpoints")).calls_bound
    expected = expected_over_bound * bound
    return frame.assign(calls_mean=expected, calls_expected=expected)


def test_fail_expected_calls_twice_the_bound():
    got = decided(check, raw(2.0), section("fig_co_checkpoints"))
    assert len(got) == 4 and {c.verdict for c in got.values()} == {"FAIL"}


def test_fail_one_step_over_the_bound():
    f = raw(0.9)
    over = (f.stream == "a") & (f.eps == 2.0) & (f.t == 5)
    f.loc[over, "calls_expected"] /= 0.9 * (1 - 1e-6)  # just above the bound
    got = decided(check, f, section("fig_co_checkpoints"))
    assert got["co.calls_vs_bound[a,eps=2.0]"].verdict == "FAIL"
    assert [c.verdict for k, c in got.items() if k != "co.calls_vs_bound[a,eps=2.0]"] == ["PASS"] * 3


def test_safe_expected_calls_at_the_bound_pass():
    got = decided(check, raw(1.0), section("fig_co_checkpoints"))
    assert {c.verdict for c in got.values()} == {"PASS"}
