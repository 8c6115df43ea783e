"""fig_hpo's check can fail: a tester that halts in every search at a step with p_t surely below pbar_t, a reference
tester whose pbar_t does not exceed another's, and private selection releasing nothing in every search are FAIL."""

import pandas as pd

EPS_TRAIN, TARGET, SCENARIO = 0.5, 0.8, "eps=1 target=0.8 p*=0.5"


def _raw(*, contradict: bool, searches=20, peer_searches=200) -> pd.DataFrame:
    """fig_hpo's raw rows for one scenario over T = 2 steps: "p" rows (p_1 = 0.01, p_2 = 0.9 from 2000 trainings
    each), the GTM and Cohen et al. ("method", "step" and "search" rows) and the documented private selection; the
    columns the analysis's tables carry beside the checked ones (mean_acc, total_eps, pstar) are filled in."""
    rows = [
        dict(kind="p", eps_train=EPS_TRAIN, target=TARGET, t=t, features=30, quantile=0.0, successes=s, evals=2000)
        | dict(mean_acc=acc)
        for t, s, acc in ((1, 20, 0.6), (2, 1800, 0.85))
    ]
    common = dict(scenario=SCENARIO, eps_train=EPS_TRAIN, target=TARGET)
    gtm_pbar, cohen_pbar = (0.1, 0.2) if contradict else (0.1, 0.05)
    for method, family, pbar in (("GTM", "GTM", gtm_pbar), ("Cohen", "Cohen", cohen_pbar)):
        rows.append(
            dict(common, kind="method", method=method, family=family, schedule="constant", error_bound=0.05)
            | dict(source="Thm 21" if family == "GTM" else "Prop 48", stop_probability=float("nan"))
            | dict(total_eps=1.0, pstar=0.5)
        )
        for t in (1, 2):
            rows.append(dict(common, kind="step", method=method, t=t, pstar=0.5, pbar=pbar, halts=0, trainings=100))
        halt = 1 if contradict else 2  # step 1: p_1 = 0.01 surely <= pbar_1, a Type I error; step 2: p_2 >= p*
        rows += [
            dict(common, kind="search", method=method, search=i, halt_step=halt, trainings=100) for i in range(searches)
        ]
    peer = "OpenDP selection"
    rows.append(
        dict(common, kind="method", method=peer, family="selection", schedule="documented", error_bound=0.05)
        | dict(source="Lemma 34", stop_probability=1e-4, total_eps=1.0, pstar=0.5)
    )
    rows += [
        dict(common, kind="search", method=peer, search=i, halt_step=0 if contradict else 2, trainings=10 + i % 3)
        for i in range(peer_searches)
    ]
    return pd.DataFrame(rows)


def test_fail_every_search_errs_and_selection_never_releases(output_cfg, run_check, verdicts):
    frame = run_check("fig_hpo", _raw(contradict=True), output_cfg("fig_hpo"))
    v = verdicts(frame, "hpo.")
    tag = SCENARIO.replace(" ", "_")
    for claim in (f"hpo.no_error[{tag}_|_GTM]", f"hpo.no_error[{tag}_|_Cohen]", f"hpo.pbar_gtm_vs[{tag}_|_Cohen]"):
        assert v[claim] == "FAIL", (claim, v)
    assert v[f"hpo.selection_failure[{tag}_|_OpenDP_selection]"] == "FAIL", v


def test_safe_no_search_errs_and_selection_always_releases(output_cfg, run_check, verdicts):
    frame = run_check("fig_hpo", _raw(contradict=False), output_cfg("fig_hpo"))
    v = verdicts(frame, "hpo.")
    assert "FAIL" not in v.values(), v
    tag = SCENARIO.replace(" ", "_")
    assert v[f"hpo.pbar_gtm_vs[{tag}_|_Cohen]"] == "PASS"
    assert v[f"hpo.selection_failure[{tag}_|_OpenDP_selection]"] == "PASS"  # 0/200 <= 0.05


def test_safe_single_search_comparison_is_inconclusive(output_cfg, run_check, verdicts):
    # one search per method: the README comparison's standard errors are 0 (variance unknown), so no PASS
    frame = run_check("fig_hpo", _raw(contradict=False, searches=1, peer_searches=1), output_cfg("fig_hpo"))
    v = verdicts(frame, "hpo.peer_vs_gtm")
    assert set(v.values()) == {"INCONCLUSIVE"}, v
