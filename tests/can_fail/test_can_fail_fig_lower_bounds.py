"""fig_lower_bounds' check can fail: an upper bound below Corollary 30's, evaluations per step half Theorem 31's bound,
AboveThreshold erring in every run and below Theorem 29 are FAIL. Identical evaluation counts (se = 0) are decided
by the bounded-range test, not as exact."""

import pandas as pd


def _raw(margin, samples, samples_sd, errors, alpha, runs=100) -> pd.DataFrame:
    rows = []
    for T in (10, 1000):  # panel a: ln(p*/pbar_T) per method, the lower bound ln Lambda_0
        rows.append(dict(panel="a", method="LowerBound", beta=0.1, T=T, y=2.0))
        rows.append(dict(panel="a", method="GTM", beta=0.1, T=T, y=2.0 + margin))
    rows.append(dict(panel="b", kind="theory", method="LowerBound", beta=0.1, T=100, samples=10.0))
    rows.append(
        dict(panel="b", kind="measured", method="GTM", beta=0.1, T=100, samples=samples, samples_sd=samples_sd)
        | dict(runs=runs, lower_bound=10.0)
    )
    rows.append(dict(panel="c", beta=0.1, T=100, errors=errors, runs=runs, alpha=alpha, alpha_sum_lower=1.0))
    return pd.DataFrame(rows)


def test_fail_every_claim_contradicted(output_cfg, run_check, verdicts):
    raw = _raw(margin=-1.0, samples=5.0, samples_sd=1.0, errors=100, alpha=0.25)
    v = verdicts(run_check("fig_lower_bounds", raw, output_cfg("fig_lower_bounds")), "lower_bounds.")
    assert set(v.values()) == {"FAIL"} and len(v) == 4, v


def test_identical_evaluation_counts_below_the_bound_are_inconclusive(output_cfg, run_check, verdicts):
    # every run makes 5 evaluations per step, half the bound: se = 0 cannot refute (no a-priori upper end of the
    # count), and must not PASS either
    raw = _raw(margin=0.0, samples=5.0, samples_sd=0.0, errors=0, alpha=1.0)
    v = verdicts(run_check("fig_lower_bounds", raw, output_cfg("fig_lower_bounds")), "lower_bounds.samples")
    assert v == {"lower_bounds.samples_vs_thm31[GTM,beta=0.1]": "INCONCLUSIVE"}


def test_safe_every_bound_met(output_cfg, run_check, verdicts):
    raw = _raw(margin=0.0, samples=20.0, samples_sd=1.0, errors=0, alpha=0.5)
    v = verdicts(run_check("fig_lower_bounds", raw, output_cfg("fig_lower_bounds")), "lower_bounds.")
    assert set(v.values()) == {"PASS"} and len(v) == 4, v
    # identical counts twice the bound in 100 runs: (10/20)^100, established by the bounded-range test
    raw = _raw(margin=0.0, samples=20.0, samples_sd=0.0, errors=0, alpha=0.5)
    v = verdicts(run_check("fig_lower_bounds", raw, output_cfg("fig_lower_bounds")), "lower_bounds.samples")
    assert v == {"lower_bounds.samples_vs_thm31[GTM,beta=0.1]": "PASS"}
    # a single run: INCONCLUSIVE whatever its count (std NaN -> se = 0, (10/20)^1 > 2.5%)
    raw = _raw(margin=0.0, samples=20.0, samples_sd=float("nan"), errors=0, alpha=0.5, runs=1)
    v = verdicts(run_check("fig_lower_bounds", raw, output_cfg("fig_lower_bounds")), "lower_bounds.samples")
    assert v == {"lower_bounds.samples_vs_thm31[GTM,beta=0.1]": "INCONCLUSIVE"}
