"""Can-fail tests of fig_co_maxcut's check: synthetic raw tables in the CO schema (co_synth.py) that
plainly contradict Lemma 40 and Theorem 42(2)-(3) make its claims FAIL; tables on the bounds' safe side make none
FAIL."""

from privtest_artifact.outputs import fig_co_maxcut as check

from .co_synth import check_co_fail, check_co_safe, check_privacy_fail


def test_fail_every_run_contradicts_lemma40_and_theorem42():
    check_co_fail(check, "fig_co_maxcut", "co.maxcut")


def test_safe_runs_within_the_bounds_make_no_fail():
    check_co_safe(check, "fig_co_maxcut", "co.maxcut")


def test_fail_privacy_ledger_above_eps(monkeypatch):
    check_privacy_fail(check, "fig_co_maxcut", monkeypatch)
