"""Can-fail tests of fig_co_checkpoints' check: synthetic BatchToCO runs in the CO raw schema (the raw tables its
analysis reads, catalogue ``reads``) whose exact E[N_t] exceed Theorem 42(3)'s explicit per-step bound (evaluated by
the analysis of privtest_artifact.outputs.fig_co_checkpoints) make the claim FAIL; runs below it PASS."""

import numpy as np
import pandas as pd

from privtest_artifact.outputs import _co
from privtest_artifact.outputs import fig_co_checkpoints as check
from privtest_artifact.outputs._co import METHOD

from .co_synth import decided, section

RUNS, T = 4, 6


def _runs(stream: str, eps: float, cfg: dict) -> pd.DataFrame:
    """BatchToCO rows of ``RUNS`` runs, t = 1..T, a checkpoint at every step (ell(t) = t), OPT_t = 10 t, eps_t as the
    section's BatchToCO constants give it (the analysis checks them against the runs), no GTM calls yet."""
    t = np.tile(np.arange(1, T + 1), RUNS)
    eps_t = np.full(t.size, np.nan)
    later = t >= 2
    eps_t[later] = _co.co_params(cfg, eps).eps_it(t[later], t[later])
    return pd.DataFrame(
        dict(method=METHOD, stream=stream, eps=eps, t=t, run=np.repeat(np.arange(RUNS), T), t_ell=t, ell=t)
        | dict(eps_t=eps_t, opt=10.0 * t, gtm_calls=0.0, expected_calls=np.where(later, 0.0, np.nan))
    )


def raw(expected_over_bound: float) -> dict[str, pd.DataFrame]:
    """Two raw tables (fig_co_densest: stream "a", fig_co_maxcut: stream "b"), two eps each: every run's E[N_t] and
    N_t = expected_over_bound x Theorem 42(3)'s bound at its step (NaN at t = 1)."""
    cfg = section("fig_co_checkpoints")
    out = {}
    for name, stream in (("fig_co_densest", "a"), ("fig_co_maxcut", "b")):
        f = pd.concat([_runs(stream, eps, cfg) for eps in (2.0, 50.0)], ignore_index=True)
        bounds = check.with_bounds(check.runs_summary({name: f}, cfg), cfg).set_index(["stream", "eps", "t"])
        bound = bounds.calls_bound.reindex(pd.MultiIndex.from_frame(f[["stream", "eps", "t"]])).to_numpy()
        out[name] = f.assign(gtm_calls=expected_over_bound * bound, expected_calls=expected_over_bound * bound)
    return out


def test_fail_expected_calls_twice_the_bound():
    got = decided(check, raw(2.0), section("fig_co_checkpoints"))
    assert len(got) == 4 and {c.verdict for c in got.values()} == {"FAIL"}


def test_fail_one_step_over_the_bound():
    f = raw(0.9)
    a = f["fig_co_densest"]
    over = (a.eps == 2.0) & (a.t == 5)
    a.loc[over, "expected_calls"] /= 0.9 * (1 - 1e-6)  # just above the bound, in every run
    got = decided(check, f, section("fig_co_checkpoints"))
    assert got["co.calls_vs_bound[a,eps=2.0]"].verdict == "FAIL"
    assert [c.verdict for k, c in got.items() if k != "co.calls_vs_bound[a,eps=2.0]"] == ["PASS"] * 3


def test_safe_expected_calls_at_the_bound_pass():
    got = decided(check, raw(1.0), section("fig_co_checkpoints"))
    assert len(got) == 4 and {c.verdict for c in got.values()} == {"PASS"}
