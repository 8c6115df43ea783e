"""Can-fail tests of fig_co_crossover's check: synthetic raw tables in its schema (co_synth.py) where
BatchToCO's measured lead has the opposite sign of the predicted one, or the long runs contradict Lemma 40 and
Theorem 42(2)-(3), make the claims FAIL; a lead as predicted makes none FAIL, and identical runs (standard error 0)
are not a PASS unless the range bound resolves them."""

from privtest_artifact.outputs import fig_co_crossover as check
from privtest_artifact.outputs._co import METHOD

from .co_synth import check_privacy_fail, crossover_raw, decided, section, verdicts

CFG = section("fig_co_crossover")


def test_fail_lead_opposite_to_the_prediction():
    got = decided(check, crossover_raw(lead=-0.3, predicted=0.3), CFG)
    assert set(verdicts(got, ".lead[").values()) == {"FAIL"}
    got = decided(check, crossover_raw(lead=0.3, predicted=-0.3), CFG)
    assert set(verdicts(got, ".lead[").values()) == {"FAIL"}


def test_fail_predicted_tie_but_measured_far_apart():
    got = decided(check, crossover_raw(lead=0.4, predicted=0.0), CFG)
    assert set(verdicts(got, ".lead[").values()) == {"FAIL"}


def test_fail_long_runs_contradict_lemma40_and_theorem42():
    raw = crossover_raw(lead=0.0, predicted=0.0, runs=24)
    b = (raw.source == "run") & (raw.method == METHOD) & (raw.t >= 2)
    raw.loc[b, "l39_margin"] = 1.0
    raw.loc[b, "gtm_calls"] *= 2
    raw.loc[b, "value"] = 1.0  # below the guarantee at V_lo (5) in every run
    raw.loc[raw.method.str.contains("checkpoints only"), "l39_margin"] = 1.0
    got = decided(check, raw, CFG)
    for part in ("checkpoints", "calls_per_step", "utility"):
        assert set(verdicts(got, f".{part}[").values()) == {"FAIL"}, part
    raw.loc[b, "expected_calls"] = 2000.0  # E[N_t] above the explicit bound 1100
    assert set(verdicts(decided(check, raw, CFG), ".calls_vs_bound[").values()) == {"FAIL"}


def test_safe_lead_as_predicted_makes_no_fail():
    got = decided(check, crossover_raw(lead=0.3, predicted=0.3), CFG)
    assert "FAIL" not in {c.verdict for c in got.values()}
    assert set(verdicts(got, ".lead[").values()) == {"PASS"}
    got = decided(check, crossover_raw(lead=0.0, predicted=0.0, runs=24), CFG)
    assert set(verdicts(got, ".lead[").values()) == {"PASS"}  # a tie within the equivalence margin, se > 0


def test_safe_identical_runs_are_not_a_pass_on_zero_standard_error():
    """Every run identical (se = 0): a tie of 4 runs is INCONCLUSIVE (the range bound (1 - 0.1/1)^4 = 0.66 of
    f/OPT_t differences in [-1, 1] resolves nothing), with the runs that would resolve it; 24 runs ahead by 0.3 as
    predicted PASS ((1 - 0.3/1.3)^24 < 2.5%)."""
    got = decided(check, crossover_raw(lead=0.0, predicted=0.0, noise=0.0), CFG)
    leads = {k: c for k, c in got.items() if ".lead[" in k}
    assert {c.verdict for c in leads.values()} == {"INCONCLUSIVE"}
    assert all("runs would resolve" in c.note for c in leads.values())
    got = decided(check, crossover_raw(lead=0.3, predicted=0.3, noise=0.0, runs=24), CFG)
    assert set(verdicts(got, ".lead[").values()) == {"PASS"}
    got = decided(check, crossover_raw(lead=0.3, predicted=0.3, noise=0.0, runs=2), CFG)
    assert set(verdicts(got, ".lead[").values()) == {"INCONCLUSIVE"}


def test_fail_privacy_ledger_above_eps(monkeypatch):
    check_privacy_fail(check, "fig_co_crossover", monkeypatch)
