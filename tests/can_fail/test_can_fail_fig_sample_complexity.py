"""fig_sample_complexity's check can fail: N_t above its Lemma 22(1) bound in every run is FAIL."""

import pandas as pd


def _raw(exceed_runs, runs=100, T=200) -> pd.DataFrame:
    """Two steps of one GTM setting in fig_sample_complexity's raw schema (the check reads the last step), plus a
    deterministic tester (budget 0: no claim)."""
    gtm = dict(method="GTM", eps_ratio=0.5, pstar=0.5, source="Thm 21", budget=0.01, runs=runs)
    rows = [
        dict(gtm, t=1, bound=40.0, samples_mean=10.0, exceed_runs=0),
        dict(gtm, t=T, bound=40.0, samples_mean=80.0 if exceed_runs else 10.0, exceed_runs=exceed_runs),
        dict(gtm, method="Cohen", t=T, bound=40.0, samples_mean=40.0, exceed_runs=0, budget=0.0),
    ]
    return pd.DataFrame(rows)


def test_fail_n_t_above_its_bound_in_every_run(output_cfg, run_check, verdicts):
    frame = run_check("fig_sample_complexity", _raw(exceed_runs=100), output_cfg("fig_sample_complexity"))
    assert verdicts(frame, "sample_complexity.") == {"sample_complexity.GTM[r=0.5,p*=0.5,T=200]": "FAIL"}


def test_safe_n_t_never_above_its_bound(output_cfg, run_check, verdicts):
    cfg = output_cfg("fig_sample_complexity")
    # 0.99^100 = 0.37: 0/100 cannot establish <= 0.01
    v = verdicts(run_check("fig_sample_complexity", _raw(exceed_runs=0), cfg), "sample_complexity.")
    assert v == {"sample_complexity.GTM[r=0.5,p*=0.5,T=200]": "INCONCLUSIVE"}
    v = verdicts(run_check("fig_sample_complexity", _raw(exceed_runs=0, runs=2000), cfg), "sample_complexity.")
    assert v == {"sample_complexity.GTM[r=0.5,p*=0.5,T=200]": "PASS"}
